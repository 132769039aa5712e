package datasets

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/umlab/umlab/results"
)

// ByAge puts full runs before --quick ones and, among each, the later start
// first; every name it lists matches the query.
func TestByAge(t *testing.T) {
	all := ByAge(Query{})
	quickSeen := false
	var last int64
	for i, name := range all {
		_, m, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if m.Kind == Published {
			t.Errorf("%s: published dataset listed", name)
		}
		quick := strings.Contains(m.Command, "--quick")
		if quickSeen && !quick {
			t.Errorf("%s: a full run after a --quick one: %v", name, all)
		}
		if i > 0 && quick == quickSeen && m.Start.Unix() > last {
			t.Errorf("%s: starts after the dataset before it: %v", name, all)
		}
		quickSeen, last = quick, m.Start.Unix()
	}
	for _, name := range ByAge(Query{Group: "handoff", Phase: "gpu_only"}) {
		rows, _, _ := Load(name)
		if !slices.ContainsFunc(rows, func(r results.Row) bool { return r.Group == "handoff" && r.Phase == "gpu_only" }) {
			t.Errorf("%s has no handoff gpu_only rows", name)
		}
	}
	for _, name := range ByAge(Query{Counters: true}) {
		if _, err := CountersCSV(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if n, ok := NewestOf(Query{Prefix: "no-such-"}); ok || n != "" {
		t.Errorf("NewestOf(no match) = %q, %v", n, ok)
	}
}

// Resolve takes a directory when the reference has a path separator or is
// no embedded name, fills platform and run_id from the metadata, and names
// what it could not resolve.
func TestResolve(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run1")
	r := results.NewRow()
	r.Group, r.Benchmark, r.Mode, r.SizeBytes, r.Verified = "hbm", "triad", "explicit", 1<<20, true
	unverified := r
	unverified.Verified, unverified.Trial = false, 1
	if err := results.WriteDir(dir, []results.Row{r, unverified}, results.Metadata{Platform: "TESTGPU", Kind: Measured}); err != nil {
		t.Fatal(err)
	}
	rows, m, name, err := Resolve(dir)
	if err != nil || name != dir || len(rows) != 1 {
		t.Fatalf("Resolve(dir) = %d rows, %q, %v", len(rows), name, err)
	}
	// The unverified trial is left out of the rows for statistics, counted, and can be put back.
	if m.Unverified.Trials != 1 || len(m.Unverified.Restore(rows)) != 2 {
		t.Errorf("Resolve(dir): %d unverified trials counted, want 1", m.Unverified.Trials)
	}
	if rows[0].Platform != "TESTGPU" || rows[0].RunID != "run1" {
		t.Errorf("Resolve(dir): platform %q run %q, want TESTGPU run1", rows[0].Platform, rows[0].RunID)
	}
	for _, bad := range []string{"paper-h100", "newest:nosuchgroup", filepath.Join(dir, "missing")} {
		if _, _, _, err := Resolve(bad); !errors.Is(err, ErrUnknown) {
			t.Errorf("Resolve(%q): %v, want ErrUnknown", bad, err)
		}
	}
}

// Counters reads the counter passes of an embedded dataset or a results
// directory; sources without them give none, malformed ones an error.
func TestCounters(t *testing.T) {
	rows, err := Counters("h200counters-2026-12-03-quick")
	if err != nil || len(rows) == 0 || rows[0].Pass != results.PassCounters {
		t.Fatalf("embedded: %v, %d rows", err, len(rows))
	}
	for _, ref := range []string{"paper-gb200", t.TempDir(), "no-such-thing"} {
		if rows, err := Counters(ref); err != nil || rows != nil {
			t.Errorf("%s: %v, %d rows; want none and no error", ref, err, len(rows))
		}
	}
	dir := t.TempDir()
	a, err := results.OpenCounterAppender(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Append(rows[:2]...); err != nil {
		t.Fatal(err)
	}
	a.Close()
	if got, err := Counters(dir); err != nil || len(got) != 2 || got[1].Config.SizeBytes != rows[1].Config.SizeBytes {
		t.Errorf("directory: %v, %d rows", err, len(got))
	}
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, results.CountersName), []byte("group,zorp\nx,y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Counters(bad); !errors.Is(err, results.ErrMalformed) {
		t.Errorf("malformed: %v", err)
	}
}
