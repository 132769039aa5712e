package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/umlab/umlab/results"
)

// TestE2ERepeat runs the real binary with --repeat: each pass is a process
// of its own (its own run ID) in a directory of its own, --resume starts
// the passes not yet made and leaves the made ones whole, and the
// directory of runs is a baseline the check measures the spread of.
func TestE2ERepeat(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rep")
	args := []string{"run", "--quick", "--groups", "hbm", "--repeat", "2", "--out", dir}
	if code := start(t, nil, args...).wait(t); code != 0 {
		t.Fatalf("umbench %v: exit %d", args, code)
	}
	ids := func() []string {
		var out []string
		for i := 1; i <= 3; i++ {
			rows, _, err := results.LoadDir(filepath.Join(dir, "run"+string(rune('0'+i))))
			if err != nil {
				continue
			}
			if !slices.Contains(out, rows[0].RunID) {
				out = append(out, rows[0].RunID)
			}
		}
		return out
	}
	first := ids()
	if len(first) != 2 {
		t.Fatalf("run IDs %v after two passes, want two", first)
	}
	if _, err := os.Stat(filepath.Join(dir, "run3")); err == nil {
		t.Fatal("a third pass was made")
	}
	args = []string{"run", "--quick", "--groups", "hbm", "--repeat", "3", "--out", dir, "--resume"}
	if p := start(t, nil, args...); p.wait(t) != 0 {
		t.Fatalf("umbench %v: exit %d\n%s", args, p.cmd.ProcessState.ExitCode(), p.errText())
	}
	if got := ids(); len(got) != 3 || !slices.Equal(got[:2], first) {
		t.Fatalf("run IDs %v after the resumed third pass, want %v and one more", got, first)
	}
	args = []string{"check", "--baseline", dir, filepath.Join(dir, "run3")}
	if p := start(t, nil, args...); p.wait(t) != 0 {
		t.Fatalf("umbench %v: exit %d\n%s", args, p.cmd.ProcessState.ExitCode(), p.errText())
	}
	args = []string{"run", "--quick", "--repeat", "0", "--out", filepath.Join(t.TempDir(), "x")}
	if code := start(t, nil, args...).wait(t); code != 2 {
		t.Fatalf("umbench %v: exit %d, want 2", args, code)
	}
}
