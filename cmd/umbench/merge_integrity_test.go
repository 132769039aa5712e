package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/results"
)

// TestMergeIntegrity runs merge as a careless user and a busy cluster
// would, on two runs of the simulated GPU as two GPUs of one node
// (n/gpu0, n/gpu1), made once and copied for each case.
func TestMergeIntegrity(t *testing.T) {
	made := t.TempDir()
	for _, g := range []string{"gpu0", "gpu1"} {
		args := []string{"run", "--simulate", "--quick", "--groups", "hbm", "--out", filepath.Join(made, "n", g)}
		code, out, errs := umbench(t, args...)
		wantCode(t, args, 0, code, out, errs)
	}
	copyFleet := func(t *testing.T) string {
		root := t.TempDir()
		if err := os.CopyFS(root, os.DirFS(made)); err != nil {
			t.Fatal(err)
		}
		return root
	}
	t.Run("mixed and running parts", func(t *testing.T) { mergeRefusesMixedAndRunningParts(t, copyFleet) })
	t.Run("skipped parts named", func(t *testing.T) { mergeNamesSkippedParts(t, copyFleet) })
	t.Run("out locked and fresh", func(t *testing.T) { mergeOutIsLockedAndFresh(t, copyFleet) })
}

// nothingAt fails unless path does not exist: a refused merge writes
// nothing.
func nothingAt(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Stat(path); err == nil {
		ents, _ := os.ReadDir(path)
		t.Errorf("a refused merge left %s (%d entries)", path, len(ents))
	}
}

// merge refuses simulated parts with measured ones, and a part whose run
// still holds its lock, before it writes anything.
func mergeRefusesMixedAndRunningParts(t *testing.T, simulatedFleet func(*testing.T) string) {
	root := simulatedFleet(t)
	gpu1 := filepath.Join(root, "n", "gpu1")
	rows := readRows(t, gpu1)
	for i := range rows {
		rows[i].Simulated = false // as if measured
	}
	var buf bytes.Buffer
	results.WriteCSV(&buf, rows)
	os.WriteFile(filepath.Join(gpu1, results.CSVName), buf.Bytes(), 0o644)
	out := filepath.Join(t.TempDir(), "merged")
	args := []string{"merge", "--out", out, root}
	code, stdout, errs := umbench(t, args...)
	if code == 0 || !strings.Contains(errs, "simulated and measured rows are mixed") || !strings.Contains(errs, "measured: vm/gpu1") {
		t.Errorf("merging simulated with measured: exit %d\n%s%s", code, stdout, errs)
	}
	nothingAt(t, out)

	root = simulatedFleet(t)
	lock, err := results.LockDir(filepath.Join(root, "n", "gpu0"), "umbench run (still writing)")
	if err != nil {
		t.Fatal(err)
	}
	args = []string{"merge", "--out", out, root}
	code, stdout, errs = umbench(t, args...)
	if code == 0 || !strings.Contains(errs, "still writing") || !strings.Contains(errs, filepath.Join(root, "n", "gpu0")) {
		t.Errorf("merging a part whose run holds its lock: exit %d\n%s%s", code, stdout, errs)
	}
	nothingAt(t, out)
	lock.Unlock()
	code, stdout, errs = umbench(t, args...)
	wantCode(t, args, 0, code, stdout, errs)
}

// merge names every directory it passes over and why, symbolic links to
// results directories included.
func mergeNamesSkippedParts(t *testing.T, simulatedFleet func(*testing.T) string) {
	root := simulatedFleet(t)
	other := simulatedFleet(t)
	link := filepath.Join(root, "linked")
	if err := os.Symlink(filepath.Join(other, "n"), link); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(root, "nometa"), 0o755)
	os.WriteFile(filepath.Join(root, "nometa", results.CSVName), []byte("group,benchmark,mode,size_bytes\n"), 0o644)
	out := filepath.Join(t.TempDir(), "merged")
	args := []string{"merge", "--out", out, root}
	code, stdout, errs := umbench(t, args...)
	wantCode(t, args, 0, code, stdout, errs)
	contains(t, "merge's warnings", errs, "skipping "+link+": a symbolic link", "skipping "+filepath.Join(root, "nometa")+": it has results.csv but no meta.json")
	contains(t, "merge's report", stdout, "merged 2 part(s)")
}

// Two merges into one --out never both succeed: merge locks --out while it
// writes and writes only into a new or empty directory, so nothing stale
// (a counters.csv of another run) is kept.
func mergeOutIsLockedAndFresh(t *testing.T, simulatedFleet func(*testing.T) string) {
	root := simulatedFleet(t)
	out := filepath.Join(t.TempDir(), "merged")
	lock, err := results.LockDir(out, "umbench merge (another)")
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"merge", "--out", out, root}
	code, stdout, errs := umbench(t, args...)
	if code == 0 || !strings.Contains(errs, "in use") {
		t.Errorf("a merge into an --out another merge holds: exit %d\n%s%s", code, stdout, errs)
	}
	lock.Unlock()
	code, stdout, errs = umbench(t, args...)
	wantCode(t, args, 0, code, stdout, errs)
	code, stdout, errs = umbench(t, args...)
	if code == 0 || !strings.Contains(errs, "choose another --out") {
		t.Errorf("a second merge into a merged directory: exit %d\n%s%s", code, stdout, errs)
	}
	stale := filepath.Join(t.TempDir(), "stale")
	os.MkdirAll(stale, 0o755)
	os.WriteFile(filepath.Join(stale, results.CountersName), []byte("group,benchmark,mode,size_bytes,pass\n"), 0o644)
	args = []string{"merge", "--out", stale, root}
	code, stdout, errs = umbench(t, args...)
	if code == 0 || !strings.Contains(errs, results.CountersName) {
		t.Errorf("a merge into a directory with a counters.csv: exit %d\n%s%s", code, stdout, errs)
	}
	// The merged directory is a fleet every reader takes whole.
	parts, _, err := fleet.Load([]string{out}, nil)
	if err != nil || len(parts) != 2 {
		t.Fatalf("loading the merge: %v, %d parts", err, len(parts))
	}
	if rows := readRows(t, out); len(rows) != parts[0].NRows()+parts[1].NRows() {
		t.Errorf("results.LoadDir of the merge: %d rows", len(rows))
	}
	for _, a := range [][]string{{"summary", "--data", out}, {"compare", out}, {"model", "--data", out}} {
		if code, stdout, errs := umbench(t, a...); code != 0 && !strings.Contains(errs, "handoff") {
			t.Errorf("%v: exit %d\n%s%s", a, code, stdout, errs)
		}
	}
}
