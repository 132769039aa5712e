package datasets

import (
	"path/filepath"
	"testing"
)

// A directory of runs opens as one source whose rows keep their run IDs.
func TestOpenRuns(t *testing.T) {
	dir := filepath.Join("h200-2026-12-03-repeat")
	s, err := OpenRuns(dir)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int{}
	for _, r := range s.Rows {
		ids[r.RunID]++
	}
	if len(ids) != 6 || s.Meta.Platform != "H200" {
		t.Fatalf("%d run IDs %v, platform %q; want the six runs of one H200", len(ids), ids, s.Meta.Platform)
	}
	one, err := OpenRuns(filepath.Join(dir, "run1"))
	if err != nil || len(one.Rows)*6 != len(s.Rows) {
		t.Fatalf("one run: %d rows of %d, %v", len(one.Rows), len(s.Rows), err)
	}
	if _, err := OpenRuns(t.TempDir()); err == nil {
		t.Fatal("an empty directory opened")
	}
}
