package datasets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umlab/umlab/results"
)

func TestOpenAndParts(t *testing.T) {
	src, err := Open("paper-gb200")
	if err != nil || src.Name != "paper-gb200" || len(src.Rows) == 0 || src.Simulated() {
		t.Fatalf("Open(paper-gb200) = %s, %d rows, simulated %t, %v", src.Name, len(src.Rows), src.Simulated(), err)
	}
	if cs, err := src.Counters(); err != nil || len(cs) != 0 {
		t.Errorf("paper-gb200 counters: %d, %v", len(cs), err)
	}
	// A header-only directory is refused, saying why.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, results.CSVName), []byte("group,benchmark,mode,size_bytes,trial,run_id,kernel_ms,total_ms,gbps\n"), 0o644)
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "holds no rows") {
		t.Errorf("Open(header only) = %v", err)
	}
	if _, err := Open("no-such-dataset"); err == nil {
		t.Error("Open(no-such-dataset) succeeded")
	}
	// Parts: a dataset's name gives its per-GPU parts.
	parts, _, err := Parts([]string{"h200x2-2026-11-29-isolated"}, nil)
	if err != nil || len(parts) != 2 {
		t.Fatalf("Parts(two-GPU dataset) = %d parts, %v", len(parts), err)
	}
	if _, _, err := Parts([]string{filepath.Join(t.TempDir(), "none")}, nil); err == nil {
		t.Error("Parts(missing directory) succeeded")
	}
	if name := ForModel(); name == "" {
		t.Error("ForModel names no dataset")
	}
}
