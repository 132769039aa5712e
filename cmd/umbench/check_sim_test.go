package main

import (
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/umlab/umlab/check"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit/simgpu"
)

// TestCheckCatchesSimulatedSlowdowns runs the node check on the
// simulated GPU with its run-to-run noise on (seeds the calibration in
// check/prior_sim.json did not use): healthy repeats pass, a 5 % slowdown of
// device memory or of the host link fails the GPU every time, and a
// slowdown of fault servicing alone is the host's, never the GPU's.
func TestCheckCatchesSimulatedSlowdowns(t *testing.T) {
	tmp := t.TempDir()
	measure := func(name string, seed int, slow string) string {
		t.Helper()
		t.Setenv(simgpu.EnvNoise, strconv.Itoa(seed))
		t.Setenv(simgpu.EnvSlow, slow)
		dir := filepath.Join(tmp, name)
		args := []string{"run", "--simulate", "--quick", "--groups", "hbm,host,transfer,managed", "--out", dir}
		code, out, errs := umbench(t, args...)
		wantCode(t, args, 0, code, out, errs)
		return dir
	}
	base := measure("base", 11, "")
	type verdicts struct {
		GPU, Host string
		resources map[string]string
	}
	headline := regexp.MustCompile(`(?m)^GPU (\S+), host (\S+)$`)
	line := regexp.MustCompile(`(?m)^(?:gpu|host) (\S+)\s+\d+\s+\S+\s+\S+\s+(\S+)`)
	check := func(dir string, code int) verdicts {
		t.Helper()
		args := []string{"check", "--baseline", base, dir}
		got, out, errs := umbench(t, args...)
		wantCode(t, args, code, got, out, errs)
		h := headline.FindStringSubmatch(out)
		if h == nil {
			t.Fatalf("no headline in:\n%s", out)
		}
		v := verdicts{GPU: strings.ToLower(h[1]), Host: strings.ToLower(h[2]), resources: map[string]string{}}
		for _, m := range line.FindAllStringSubmatch(out, -1) {
			v.resources[m[1]] = strings.ToLower(m[2])
		}
		return v
	}
	resource := func(v verdicts, r string) string {
		if x, ok := v.resources[r]; ok {
			return x
		}
		return "absent"
	}
	for _, seed := range []int{12, 13, 14} {
		s := strconv.Itoa(seed)
		if v := check(measure("healthy"+s, seed, ""), 0); v.GPU != "pass" {
			t.Errorf("seed %d, healthy: GPU %s, want pass", seed, v.GPU)
		}
		for _, c := range []struct{ knob, resource string }{{"hbm:0.05", "gpu_memory"}, {"link:0.05", "host_link"}} {
			v := check(measure(c.knob+s, seed, c.knob), 1)
			if v.GPU != "fail" || resource(v, c.resource) != "fail" {
				t.Errorf("seed %d, %s: GPU %s, %s %s; want both fail", seed, c.knob, v.GPU, c.resource, resource(v, c.resource))
			}
		}
		v := check(measure("faults"+s, seed, "faults:0.5"), 0)
		if v.GPU != "pass" || v.Host == "pass" || resource(v, "fault_servicing") == "pass" {
			t.Errorf("seed %d, faults 50 %% slower: GPU %s, host %s, fault_servicing %s; want the GPU to pass and the host not",
				seed, v.GPU, v.Host, resource(v, "fault_servicing"))
		}
	}
}

// TestSimulatedCalibrationReproduced remakes part of check/prior_sim.json
// (check/internal/calibrate/sim.sh): six noisy simulated runs of the fast
// groups give, for every configuration they share with it, its spread
// within 10 % (their noise streams differ from the whole suite's after the
// first group, so the digits do not all agree).
func TestSimulatedCalibrationReproduced(t *testing.T) {
	tmp := t.TempDir()
	var node [][]results.Row
	for seed := 1; seed <= 6; seed++ {
		t.Setenv(simgpu.EnvNoise, strconv.Itoa(seed))
		dir := filepath.Join(tmp, "run"+strconv.Itoa(seed))
		args := []string{"run", "--simulate", "--quick", "--groups", "hbm,host,transfer,managed", "--out", dir}
		code, out, errs := umbench(t, args...)
		wantCode(t, args, 0, code, out, errs)
		rows, _, err := results.LoadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		node = append(node, rows)
	}
	got := check.Calibrate("Fake GPU", "test", node, nil)
	want := check.PriorFor("Fake GPU")
	if !strings.Contains(want.Source, "sim.sh") || len(got.Configs) < 30 {
		t.Fatalf("prior %q, %d configurations remade", want.Source, len(got.Configs))
	}
	for k, s := range got.Configs {
		w, ok := want.Configs[k]
		if !ok || math.Abs(w.Within/s.Within-1) > 0.1 {
			t.Errorf("%s: spread %.3g remade, %.3g in prior_sim.json (present %v)", k, s.Within, w.Within, ok)
		}
	}
}

// TestCheckDirectoryOfRuns takes a baseline of several runs (six quick runs
// of one H200): the check measures the spread between them and says so.
func TestCheckDirectoryOfRuns(t *testing.T) {
	base := filepath.Join("..", "..", "datasets", "h200-2026-12-03-repeat")
	args := []string{"check", "--baseline", base, "h200-2026-12-03-quick"}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "check against a directory of runs", strings.Join(strings.Fields(out), " "),
		"GPU PASS", "measured from the runs", "on different GPUs")
	// The run may be a directory of runs too (umbench run --repeat N).
	run := filepath.Join("..", "..", "datasets", "h200-2026-12-03-thirdnode")
	args = []string{"check", "--baseline", base, run}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "a directory of runs against a directory of runs", strings.Join(strings.Fields(out), " "), "GPU PASS", "on different GPUs")
}
