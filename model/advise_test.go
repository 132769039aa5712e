package model_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/umlab/umlab/model"
)

func TestAdviseTableIII(t *testing.T) {
	m, err := model.NewModel(tableIII)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		reuse    float64
		first    string
		runnerUp string
		why      string
	}{
		// Section VIII-C: host-mapped wins at R = 1, explicit placement after.
		{1, model.HostMapped, model.ExplicitCopy, "host_mapped is fastest because its lower fixed cost (55.09 vs 60.07 ms) outweighs its higher per-pass cost (5.119 vs 0.415 ms) up to R* = 1.06 passes, and this workload makes only 1."},
		{4, model.ExplicitCopy, model.HostMapped, "repays its 4.98 ms larger fixed cost after R* = 1.06 passes"},
		// Far beyond the host-mapped crossovers, managed prefetch is the runner-up:
		// explicit copy is cheaper in both F and G.
		{32, model.ExplicitCopy, model.ManagedPrefetch, "both its fixed cost (60.07 vs 79.37 ms) and its per-pass cost (0.415 vs 0.489 ms) are lower"},
	} {
		a, err := model.Advise(m, model.Workload{SizeBytes: gib, Reuse: c.reuse})
		if err != nil {
			t.Fatal(err)
		}
		if a.Ranking[0].Policy != c.first || a.Ranking[1].Policy != c.runnerUp {
			t.Errorf("R = %g: ranked %s, %s; want %s, %s", c.reuse, a.Ranking[0].Policy, a.Ranking[1].Policy, c.first, c.runnerUp)
		}
		if !strings.Contains(a.Why, c.why) {
			t.Errorf("R = %g: why %q, want it to contain %q", c.reuse, a.Why, c.why)
		}
		if len(a.Warnings) != 0 {
			t.Errorf("R = %g: warnings %q", c.reuse, a.Warnings)
		}
		for i := 1; i < len(a.Ranking); i++ {
			if a.Ranking[i].PredictedMs < a.Ranking[i-1].PredictedMs {
				t.Errorf("R = %g: ranking not sorted: %+v", c.reuse, a.Ranking)
			}
		}
	}
}

func TestAdviseSizes(t *testing.T) {
	m, err := model.NewModel([]model.Param{
		{Policy: model.ExplicitCopy, SizeBytes: 256 * mib, F: 15, G: 0.1},
		{Policy: model.ExplicitCopy, SizeBytes: gib, F: 60, G: 0.4},
		{Policy: model.HostMapped, SizeBytes: 256 * mib, F: 14, G: 1.3},
		{Policy: model.HostMapped, SizeBytes: gib, F: 55, G: 5.1},
	})
	if err != nil {
		t.Fatal(err)
	}
	a, err := model.Advise(m, model.Workload{SizeBytes: 512 * mib, Reuse: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Warnings) != 0 || len(a.Notes) != 1 || !strings.Contains(a.Notes[0], "interpolated linearly in size between 256 MiB and 1 GiB") {
		t.Errorf("512 MiB: notes %q, warnings %q", a.Notes, a.Warnings)
	}
	if e := a.Ranking[0]; e.How != model.Interpolated || e.F != 30 {
		t.Errorf("512 MiB: first %+v, want explicit_copy interpolated with F = 30", e)
	}
	a, err = model.Advise(m, model.Workload{SizeBytes: 4 * gib, Reuse: 64, Pattern: "random"})
	if err != nil {
		t.Fatal(err)
	}
	w := strings.Join(a.Warnings, "\n")
	for _, want := range []string{"above the largest calibrated size (1 GiB)", "beyond R = 32", "random access is not modelled"} {
		if !strings.Contains(w, want) {
			t.Errorf("4 GiB, R = 64, random: warnings %q lack %q", a.Warnings, want)
		}
	}
	var buf bytes.Buffer
	if err := a.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "Warning: explicit_copy: 4 GiB is above") || !strings.Contains(buf.String(), "random access") {
		t.Errorf("text:\n%s", buf.String())
	}
}

func TestAdviseOnePolicy(t *testing.T) {
	m, err := model.NewModel(tableIII[:1])
	if err != nil {
		t.Fatal(err)
	}
	a, err := model.Advise(m, model.Workload{SizeBytes: gib, Reuse: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Ranking) != 1 || !strings.Contains(a.Why, "only calibrated policy") {
		t.Errorf("%+v", a)
	}
	var buf bytes.Buffer
	if err := a.WriteText(&buf); err != nil || strings.Contains(buf.String(), "Break-even") {
		t.Errorf("text (%v):\n%s", err, buf.String())
	}
}
