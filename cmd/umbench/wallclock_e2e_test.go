package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// --time-limit follows the wall clock, not the simulated GPU's: kernels
// that take 5 ms of real time each (UMLAB_SIM_KERNEL_DELAY, which the
// simulated clock does not count; about 1 s a configuration) stop a quick
// hbm run under a 500 ms limit after a configuration, although the
// simulated clock has passed only milliseconds; resumed under the same
// limit, the run ends whole.
func TestE2ETimeLimitWallClock(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	env := []string{"UMLAB_SIM_KERNEL_DELAY=5ms"}
	more := []string{"--time-limit", "500ms"}
	for segment := 0; ; segment++ {
		if segment == 8 {
			t.Fatal("8 segments under a 500 ms limit did not finish 4 configurations")
		}
		p := start(t, env, runArgs(dir, more...)...)
		code := p.wait(t)
		if code == 0 {
			if segment == 0 {
				t.Fatalf("a run of 4 configurations of about 1 s of wall time each finished under a 500 ms limit: "+
					"the limit follows the simulated clock\n%s", p.errText())
			}
			break
		}
		if code != 3 || !strings.Contains(p.errText(), "time limit") {
			t.Fatalf("segment %d: exit %d, want 3\n%s", segment, code, p.errText())
		}
		more = []string{"--time-limit", "500ms", "--resume"}
	}
	if n := checkWhole(t, dir); n != 12 {
		t.Errorf("after the segments: %d rows, want 12", n)
	}
}
