package umkit_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
	"github.com/umlab/umlab/umkit/simgpu"
)

// TestDefinitionsDescribeWhatRuns runs every definition on the fake and
// holds its Configs to what happened: the progress labels, in order, and
// the useful bytes of the rows, which must be the configurations' numeric
// bytes per iteration.
func TestDefinitionsDescribeWhatRuns(t *testing.T) {
	for _, d := range umkit.Definitions() {
		t.Run(d.Name(), func(t *testing.T) {
			var benches []string
			for _, b := range d.Entries() {
				benches = append(benches, b.Name)
			}
			dev := simgpu.New()
			info := dev.Info()
			info.PageableMemoryAccess = true // nothing waived: every configuration measured
			dev.SetInfo(info)
			o := umkit.Options{Device: dev, Out: t.TempDir(), Benchmarks: benches, Quick: true,
				Trials: umkit.N(1), Warmups: umkit.N(0), Sizes: []int64{1 << 20}}
			plan, err := umkit.NewPlan(o, info)
			if err != nil {
				t.Fatal(err)
			}
			if len(plan.Groups) != 1 || plan.Groups[0].Name() != d.Name() || len(plan.Waived) != 0 {
				t.Fatalf("plan for %v: %d definitions, %d waived", benches, len(plan.Groups), len(plan.Waived))
			}
			configs := plan.Configs()
			var labels []string
			o.Progress = func(p umkit.Progress) {
				labels = append(labels, p.Config)
				if p.Total != len(configs) {
					t.Errorf("progress total %d, plan has %d configurations", p.Total, len(configs))
				}
			}
			if _, err := umkit.Run(ctx, o); err != nil {
				t.Fatal(err)
			}
			want := make([]string, len(configs))
			bytes := map[string][]int64{} // group/benchmark → bytes per iteration of its configurations
			for i, c := range configs {
				want[i] = c.Label
				if c.Definition != d.Name() || !slices.Contains(benches, c.Entry) || c.Group != d.Entries()[0].Group {
					t.Errorf("configuration %+v does not belong to %s", c, d.Name())
				}
				bytes[c.Group+"/"+c.Benchmark] = append(bytes[c.Group+"/"+c.Benchmark], c.BytesPerIteration)
			}
			if !slices.Equal(labels, want) {
				t.Errorf("ran %q\nConfigs says %q", labels, want)
			}
			rows, _, err := results.LoadDir(o.Out)
			if err != nil {
				t.Fatal(err)
			}
			wantRows := 0
			for _, c := range configs {
				wantRows += c.Rows
			}
			if len(rows) != wantRows {
				t.Errorf("%d rows, the configurations say %d", len(rows), wantRows)
			}
			for _, r := range rows {
				b := bytes[r.Group+"/"+r.Benchmark]
				if b == nil {
					t.Fatalf("row of %s/%s, which no configuration names", r.Group, r.Benchmark)
				}
				if r.Warmups != 0 {
					t.Errorf("row with %d warm-ups under --warmups 0", r.Warmups)
				}
				if d.Name() == "oversub" { // depends on the device's free memory
					if !slices.Equal(b, make([]int64, len(b))) {
						t.Errorf("oversub configurations claim bytes per iteration %v", b)
					}
					continue
				}
				if !slices.Contains(b, r.UsefulBytes) {
					t.Errorf("%s/%s row has useful_bytes %d; its configurations say %v", r.Group, r.Benchmark, r.UsefulBytes, b)
				}
			}
		})
	}
}

func TestRegistryFromDefinitions(t *testing.T) {
	var n int
	for _, d := range umkit.Definitions() {
		for _, b := range d.Entries() {
			if umkit.Registry[n].Name != b.Name {
				t.Errorf("registry entry %d is %s, definitions say %s", n, umkit.Registry[n].Name, b.Name)
			}
			n++
		}
		if len(umkit.Plan{Groups: []umkit.Definition{d}}.Configs()) == 0 {
			t.Errorf("%s: no configurations by default", d.Name())
		}
	}
	if n != len(umkit.Registry) {
		t.Errorf("registry has %d entries, definitions %d", len(umkit.Registry), n)
	}
	if !slices.Equal(umkit.Groups[:7], []string{"hbm", "host", "transfer", "managed", "pattern", "oversub", "handoff"}) {
		t.Errorf("groups %v", umkit.Groups)
	}
}

// TestIterationCounts: unset takes the default, an explicit 0 is honoured,
// and --quick fills only what is unset.
func TestIterationCounts(t *testing.T) {
	info := simgpu.New().Info()
	for _, tc := range []struct {
		name            string
		o               umkit.Options
		warmups, trials int
	}{
		{"unset", umkit.Options{}, umkit.DefaultWarmups, umkit.DefaultTrials},
		{"zero warm-ups", umkit.Options{Warmups: umkit.N(0)}, 0, umkit.DefaultTrials},
		{"quick", umkit.Options{Quick: true}, umkit.QuickWarmups, umkit.QuickTrials},
		{"quick, zero warm-ups", umkit.Options{Quick: true, Warmups: umkit.N(0), Trials: umkit.N(7)}, 0, 7},
	} {
		tc.o.Groups = []string{"managed", "handoff"}
		plan, err := umkit.NewPlan(tc.o, info)
		if err != nil {
			t.Fatal(err)
		}
		m, _ := umkit.DefinitionOf[umkit.ManagedConfig](plan)
		h, _ := umkit.DefinitionOf[umkit.HandoffConfig](plan)
		if m.Warmups.Int() != tc.warmups || m.Trials.Int() != tc.trials || h.Warmups.Int() != tc.warmups {
			t.Errorf("%s: managed %v/%v, handoff warm-ups %v", tc.name, m.Warmups, m.Trials, h.Warmups)
		}
		if !tc.o.Trials.IsSet() && !tc.o.Quick && h.Trials.Int() != umkit.HandoffTrials {
			t.Errorf("%s: handoff trials %v", tc.name, h.Trials)
		}
	}
	for _, o := range []umkit.Options{{Trials: umkit.N(0)}, {Warmups: umkit.N(-1)}, {Trials: umkit.N(-2)}} {
		if _, err := umkit.NewPlan(o, info); err == nil || !strings.Contains(err.Error(), "allowed") {
			t.Errorf("%+v: %v", o, err)
		}
	}
	// The zero value of Count is unset, and stays apart from 0 in JSON.
	var c umkit.Count
	if c.IsSet() || c.Or(5).Int() != 5 || umkit.N(0).Or(5).Int() != 0 {
		t.Error("Count: unset and zero confused")
	}
	b, _ := json.Marshal(umkit.Common{Warmups: umkit.N(0)})
	var back umkit.Common
	if err := json.Unmarshal(b, &back); err != nil || !back.Warmups.IsSet() || back.Warmups.Int() != 0 || back.Trials.IsSet() {
		t.Errorf("JSON %s read back as %+v (%v)", b, back, err)
	}
}

// TestZeroWarmupsRunsNone: an explicit 0 runs no warm-up at all, not even
// the HBM group's minimum warm-up time; unset runs the default.
func TestZeroWarmupsRunsNone(t *testing.T) {
	timed := func(dev *simgpu.Device) int { return callCount(dev, "Hold") }
	for _, tc := range []struct {
		w    umkit.Count
		want int
	}{{umkit.N(0), 3}, {umkit.N(2), 5}} {
		dev := simgpu.New()
		if _, err := umkit.Measure(ctx, dev, umkit.HBMConfig{Common: umkit.Common{Warmups: tc.w, Trials: umkit.N(3)},
			Sizes: []int64{1 << 20}, Benchmarks: []string{"triad"}}); err != nil {
			t.Fatal(err)
		}
		dev2 := simgpu.New()
		if _, err := umkit.Measure(ctx, dev2, umkit.ManagedConfig{Common: umkit.Common{Warmups: tc.w, Trials: umkit.N(3)},
			Sizes: []int64{1 << 20}, Modes: []string{"explicit"}}); err != nil {
			t.Fatal(err)
		}
		if tc.w.Int() == 0 && (timed(dev) != tc.want || timed(dev2) != tc.want) {
			t.Errorf("warm-ups %v: %d and %d timed kernels, want %d", tc.w, timed(dev), timed(dev2), tc.want)
		}
		if tc.w.Int() > 0 && (timed(dev) < tc.want || timed(dev2) != tc.want) {
			t.Errorf("warm-ups %v: %d and %d timed kernels, want %d", tc.w, timed(dev), timed(dev2), tc.want)
		}
	}
	// A pointer to a definition runs as the definition does.
	if _, err := umkit.Measure(ctx, simgpu.New(), &umkit.HBMConfig{Common: umkit.Common{Trials: umkit.N(1)}, Sizes: []int64{1 << 20}}); err != nil {
		t.Fatalf("Measure(&HBMConfig{}): %v", err)
	}
	// Unset: the paper's 5.
	dev := simgpu.New()
	if _, err := umkit.Measure(ctx, dev, umkit.ManagedConfig{Common: umkit.Common{Trials: umkit.N(1)}, Sizes: []int64{1 << 20}, Modes: []string{"explicit"}}); err != nil {
		t.Fatal(err)
	}
	if timed(dev) != umkit.DefaultWarmups+1 {
		t.Errorf("unset warm-ups: %d timed kernels, want %d", timed(dev), umkit.DefaultWarmups+1)
	}
}

// TestBounds: every configuration of every definition declares the
// resource it is bound by, and the table results reads older files with
// (results.LegacyBound) says the same on every row the definitions
// produce, on both sides of the launch-bound size (1 and 64 MiB).
func TestBounds(t *testing.T) {
	for _, d := range umkit.Definitions() {
		for _, c := range (umkit.Plan{Groups: []umkit.Definition{d}}).Configs() {
			if !slices.Contains(results.Bounds, c.Bound) {
				t.Errorf("%s: %s declares bound %q, want one of %v", d.Name(), c.Label, c.Bound, results.Bounds)
			}
		}
	}
	dev := simgpu.New()
	info := dev.Info()
	info.PageableMemoryAccess = true
	dev.SetInfo(info)
	o := umkit.Options{Device: dev, Out: t.TempDir(), Quick: true, Trials: umkit.N(1), Warmups: umkit.N(0),
		Sizes: []int64{1 << 20, 64 << 20}}
	if _, err := umkit.Run(ctx, o); err != nil {
		t.Fatal(err)
	}
	rows, _, err := results.LoadDir(o.Out)
	if err != nil {
		t.Fatal(err)
	}
	// And beyond the GPU's capacity, where oversub evicts.
	over := umkit.Options{Device: simgpu.New(), Out: t.TempDir(), Groups: []string{"oversub"}, Trials: umkit.N(1), Warmups: umkit.N(0),
		OversubPercents: []float64{50, 120}, AllowOversubscription: true, Warn: func(string) {}}
	if _, err := umkit.Run(ctx, over); err != nil {
		t.Fatal(err)
	}
	more, _, err := results.LoadDir(over.Out)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(more, func(r results.Row) bool { return r.OversubPct > 100 && r.Bound == results.BoundFaults }) {
		t.Error("no oversub row beyond 100 % bound by fault servicing")
	}
	rows = append(rows, more...)
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.Bound] = true
		old := r
		old.Bound = ""
		if got := results.LegacyBound(old); got != r.Bound || r.Bound == "" {
			t.Errorf("%s %s %s %s %s %s %g%% useful %d: bound %q, legacy table %q",
				r.Group, r.Benchmark, r.Mode, r.Policy, r.Phase, r.Direction, r.OversubPct, r.UsefulBytes, r.Bound, got)
		}
	}
	for _, b := range results.Bounds {
		if !seen[b] {
			t.Errorf("no row bound by %s", b)
		}
	}
}
