package check

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/umlab/umlab/results"
)

// repeats loads the six back-to-back quick runs of one H200.
func repeats(t *testing.T) []Side {
	t.Helper()
	dirs, _ := filepath.Glob("../datasets/h200-2026-12-03-repeat/run*")
	if len(dirs) != 6 {
		t.Fatalf("want 6 runs in datasets/h200-2026-12-03-repeat, found %d", len(dirs))
	}
	var out []Side
	for _, d := range dirs {
		rows, meta, err := results.LoadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Side{Name: filepath.Base(d), Rows: rows, Meta: meta})
	}
	return out
}

// TestRepeatsPairwise checks every ordered pair of six quick runs made
// back to back on one H200: a healthy node against itself, so the GPU
// verdict must pass in every pair.
func TestRepeatsPairwise(t *testing.T) {
	runs := repeats(t)
	for i, b := range runs {
		for k, r := range runs {
			if i == k {
				continue
			}
			rep, err := Compare(r, b, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if os.Getenv("UMLAB_CHECK_VERBOSE") != "" {
				fmt.Printf("%s vs %s: GPU %s host %s  fail %d inc %d pass %d\n", r.Name, b.Name, rep.GPU, rep.Host, rep.Counts.Fail, rep.Counts.Inconclusive, rep.Counts.Pass)
				for _, res := range rep.Resources {
					fmt.Printf("   %-16s %+6.2f [%+6.2f %+6.2f] %s\n", res.Resource, res.ChangePct(), 100*(res.Lo-1), 100*(res.Hi-1), res.Verdict)
				}
				for _, res := range rep.Results {
					if res.Verdict == Fail {
						fmt.Printf("   FAIL %s %s %+.1f [%+.1f %+.1f] %s\n", res.Group, res.Configuration, res.ChangePct(), 100*(res.Lo-1), 100*(res.Hi-1), res.Resource)
					}
				}
			}
			if rep.GPU != Pass {
				t.Errorf("%s against %s: GPU %s, want pass", r.Name, b.Name, rep.GPU)
			}
		}
	}
}

func pool(name string, ss ...Side) Side {
	out := Side{Name: name, Meta: ss[0].Meta}
	for _, s := range ss {
		out.Rows = append(out.Rows, s.Rows...)
	}
	return out
}

// TestRepeatsAgainstFive checks each run against a baseline of the five
// others (a directory of runs): the spread is measured, the GPU passes.
func TestRepeatsAgainstFive(t *testing.T) {
	runs := repeats(t)
	for i, r := range runs {
		var others []Side
		for k, s := range runs {
			if k != i {
				others = append(others, s)
			}
		}
		rep, err := Compare(r, pool("five others", others...), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if os.Getenv("UMLAB_CHECK_VERBOSE") != "" {
			rep.WriteTable(os.Stdout, false, false)
		}
		if rep.GPU != Pass {
			t.Errorf("%s against the five others: GPU %s, want pass", r.Name, rep.GPU)
		}
	}
}

// TestAnotherHost checks a quick run against a quick run of another
// H200 host (h200-2026-12-03-quick): the GPU passes, host differences are
// named as host differences.
func TestAnotherHost(t *testing.T) {
	rows, meta, err := results.LoadDir("../datasets/h200-2026-12-03-quick")
	if err != nil {
		t.Fatal(err)
	}
	base := Side{Name: "h200-2026-12-03-quick", Rows: rows, Meta: meta}
	for _, r := range repeats(t) {
		rep, err := Compare(r, base, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if os.Getenv("UMLAB_CHECK_VERBOSE") != "" && r.Name == "run1" {
			rep.WriteTable(os.Stdout, false, false)
		}
		if rep.GPU != Pass || rep.SameGPU {
			t.Errorf("%s against another host: GPU %s (same GPU %v), want pass on another GPU", r.Name, rep.GPU, rep.SameGPU)
		}
	}
}

// slowed returns s with the bandwidth of every row bound by resource
// multiplied by f (the time divided by it).
func slowed(s Side, resource string, f float64) Side {
	out := s
	out.Rows = make([]results.Row, len(s.Rows))
	for i, r := range s.Rows {
		if r.Bound == resource {
			r.GBps *= f
			r.TotalMs /= f
			r.KernelMs /= f
		}
		out.Rows[i] = r
	}
	return out
}

// TestPlantedGPUSlowdownCaught plants a 5 % slowdown of GPU memory, and
// of the host link, into one run of every ordered pair of the H200's
// repeats: the GPU verdict fails every time, on that resource.
func TestPlantedGPUSlowdownCaught(t *testing.T) {
	runs := repeats(t)
	for _, res := range []string{results.BoundGPUMemory, results.BoundHostLink} {
		for i, b := range runs {
			for k, r := range runs {
				if i == k {
					continue
				}
				rep, err := Compare(slowed(r, res, 0.95), b, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if rep.GPU != Fail {
					t.Errorf("%s slowed 5 %% against %s: GPU %s, want fail", res, b.Name, rep.GPU)
				}
				for _, rr := range rep.Resources {
					if rr.Resource == res && rr.Verdict != Fail {
						t.Errorf("%s slowed 5 %%, %s against %s: the resource %s, want fail (%+.2f %%, tol %.2f %%)", res, r.Name, b.Name, rr.Verdict, rr.ChangePct(), rr.TolerancePct)
					}
				}
			}
		}
	}
}

// TestPlantedHostSlowdownIsHost slows every host resource by 30 %: the
// GPU still passes and the slowdown is the host's, with both hosts named.
func TestPlantedHostSlowdownIsHost(t *testing.T) {
	runs := repeats(t)
	base := pool("five", runs[1:]...)
	run := runs[0]
	for _, res := range []string{results.BoundHostPageable, results.BoundFaults, results.BoundHostCPU, results.BoundMixed} {
		run = slowed(run, res, 0.7)
	}
	rep, err := Compare(run, base, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.GPU != Pass {
		t.Errorf("host slowed 30 %%: GPU %s, want pass", rep.GPU)
	}
	if rep.Host == Pass || rep.Host == Skip {
		t.Errorf("host slowed 30 %%: host %s, want fail or inconclusive", rep.Host)
	}
	if !slices.ContainsFunc(rep.Notes, func(n string) bool { return strings.HasPrefix(n, "host: ") && strings.Contains(n, "(run)") }) {
		t.Errorf("host slowed 30 %%: no note naming the two hosts: %q", rep.Notes)
	}
	if rep.OK(false) != true || rep.OK(true) != false {
		t.Errorf("host slowed: OK(false) %v, OK(true) %v: want the GPU verdict alone to pass", rep.OK(false), rep.OK(true))
	}
}

// TestCalibrationReproduced recomputes the node part of the committed
// H200 calibration (prior_h200.json) from the six repeats in the
// repository: every configuration's spread within one node and every
// resource's process spread agree to the three digits written.
func TestCalibrationReproduced(t *testing.T) {
	var node [][]results.Row
	for _, s := range repeats(t) {
		node = append(node, s.Rows)
	}
	got := Calibrate("NVIDIA H200", "test", node, nil)
	h200 := PriorFor("NVIDIA H200")
	if len(got.Configs) != len(h200.Configs) || len(got.Configs) < 100 {
		t.Fatalf("calibration of %d configurations, prior_h200.json has %d", len(got.Configs), len(h200.Configs))
	}
	g3 := func(v float64) string { return fmt.Sprintf("%.3g", v) }
	for k, s := range h200.Configs {
		if g3(got.Configs[k].Within) != g3(s.Within) {
			t.Errorf("%s: within %s, prior_h200.json %s", k, g3(got.Configs[k].Within), g3(s.Within))
		}
	}
	for r, s := range h200.PerResource {
		if g := got.PerResource[r]; g3(g.Default.Within) != g3(s.Default.Within) || g3(g.Process.Within) != g3(s.Process.Within) {
			t.Errorf("%s: %+v, prior_h200.json %+v", r, g, s)
		}
	}
}

// TestThirdNode checks the three quick runs of a third H200 node, in no
// calibration: every ordered pair of them, and each against the six
// repeats and against the canonical quick run (two other nodes): the GPU
// passes every time.
func TestThirdNode(t *testing.T) {
	dirs, _ := filepath.Glob("../datasets/h200-2026-12-03-thirdnode/run*")
	if len(dirs) != 3 {
		t.Fatalf("want 3 runs in datasets/h200-2026-12-03-thirdnode, found %d", len(dirs))
	}
	var third []Side
	for _, d := range dirs {
		rows, meta, err := results.LoadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		third = append(third, Side{Name: "thirdnode/" + filepath.Base(d), Rows: rows, Meta: meta})
	}
	rows, meta, err := results.LoadDir("../datasets/h200-2026-12-03-quick")
	if err != nil {
		t.Fatal(err)
	}
	bases := []Side{pool("the six repeats", repeats(t)...), {Name: "h200-2026-12-03-quick", Rows: rows, Meta: meta}}
	for i, r := range third {
		for k, b := range third {
			if i != k {
				bases = append(bases, b)
			}
		}
		for _, b := range bases {
			if b.Name == r.Name {
				continue
			}
			rep, err := Compare(r, b, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.GPU != Pass {
				t.Errorf("%s against %s: GPU %s, want pass", r.Name, b.Name, rep.GPU)
			}
		}
		bases = bases[:2]
	}
}

// TestPriorFiles: every embedded calibration decoded with spreads above 0
// for every resource, and the H200's comes first, so that it stands in
// for a model never calibrated (a file named before prior_h200.json fails).
func TestPriorFiles(t *testing.T) {
	const fallbackGPU = "NVIDIA H200"
	ps := priors()
	if len(ps) < 2 || ps[0].GPU != fallbackGPU {
		t.Fatalf("%d calibrations, the first %q: want the H200's first", len(ps), ps[0].GPU)
	}
	for _, p := range ps {
		if len(p.PerResource) == 0 || len(p.Configs) == 0 {
			t.Errorf("%s: %d resources and %d configurations decoded", p.GPU, len(p.PerResource), len(p.Configs))
		}
		for r, s := range p.PerResource {
			if !(s.Default.Within > 0) {
				t.Errorf("%s %s: default spread %v, want > 0", p.GPU, r, s.Default.Within)
			}
		}
	}
	if got := PriorFor("NVIDIA B200"); !strings.Contains(got.Source, fallbackGPU) || got.Configs != nil {
		t.Errorf("an uncalibrated model's prior: %q with %d configurations, want the H200's spreads alone", got.Source, len(got.Configs))
	}
}
