package model

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/umlab/umlab/results"
)

// TestWithoutCPU builds a sweep whose GPU side follows F + R·G exactly but
// whose CPU update drifts by up to ±20 % between configurations: the totals
// miss the model, the rows without CPU time fit it.
func TestWithoutCPU(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var rows []results.Row
	add := func(policy, phase string, r int64, total, cpu float64) {
		for trial := 0; trial < 5; trial++ {
			row := results.NewRow()
			row.Group, row.Policy, row.Phase, row.SizeBytes, row.ReusePasses = "handoff", policy, phase, 1<<30, r
			row.Trial, row.TotalMs, row.CPUMs = int64(trial), total, cpu
			rows = append(rows, row)
		}
	}
	for _, p := range []struct {
		policy     string
		handoff, g float64
	}{{ExplicitCopy, 40, 0.5}, {HostMapped, 2, 26}} {
		add(p.policy, "gpu_only", 1, p.g, math.NaN())
		for _, r := range []int64{1, 2, 4, 8, 16, 32} {
			cpu := 180 * (0.8 + 0.4*rng.Float64())
			add(p.policy, "alternating", r, cpu+p.handoff+float64(r)*p.g, cpu)
		}
	}
	total, err := Fit(rows, Options{})
	if err != nil {
		t.Fatal(err)
	}
	gpu, err := Fit(WithoutCPU(rows), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !(total.MedianAPE > 1) {
		t.Errorf("totals with a drifting CPU update fit too well: %.3f %%", total.MedianAPE)
	}
	if gpu.MedianAPE > 1e-9 {
		t.Errorf("GPU side should fit exactly, median APE %.3g %%", gpu.MedianAPE)
	}
	for _, c := range gpu.Calibration {
		want := map[string]float64{ExplicitCopy: 40, HostMapped: 2}[c.Policy]
		if math.Abs(c.F-want) > 1e-9 {
			t.Errorf("%s: F without CPU = %v, want the handoff cost %v", c.Policy, c.F, want)
		}
	}
	// Rows without cpu_ms are dropped; other rows are untouched.
	r := rows[0]
	r.Phase, r.CPUMs = "alternating", math.NaN()
	if got := WithoutCPU([]results.Row{r, rows[0]}); len(got) != 1 || got[0].TotalMs != rows[0].TotalMs {
		t.Errorf("WithoutCPU kept %d rows: %+v", len(got), got)
	}
}
