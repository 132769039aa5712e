package model

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/umlab/umlab/results"
)

// TestWithoutCPU builds a sweep whose GPU side follows F + R·G exactly but
// whose CPU update drifts by up to ±20 % between repetitions; within a
// repetition the CPU-only baseline and the alternating runs share the
// drift. The totals miss the model; the rows less their repetition's
// baseline fit it. CPU-side fault time (in the alternating cpu_ms, not in
// the baseline) stays in the result.
func TestWithoutCPU(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var rows []results.Row
	add := func(policy, phase string, r, rep int64, total, cpu float64) {
		for trial := 0; trial < 5; trial++ {
			row := results.NewRow()
			row.Group, row.Policy, row.Phase, row.SizeBytes, row.ReusePasses = "handoff", policy, phase, 1<<30, r
			row.Trial, row.Repetition, row.TotalMs, row.CPUMs = int64(trial), rep, total, cpu
			rows = append(rows, row)
		}
	}
	const faults = 30 // CPU-side fault time of the managed update, ms
	for _, p := range []struct {
		policy     string
		handoff, g float64
		cpuFaults  float64
	}{{ExplicitCopy, 40, 0.5, 0}, {HostMapped, 2, 26, 0}, {Managed, 10, 0.5, faults}} {
		add(p.policy, "gpu_only", 1, 0, p.g, math.NaN())
		for rep := int64(0); rep < 3; rep++ {
			cpu := 180 * (0.8 + 0.4*rng.Float64()) // this repetition's CPU speed
			add(p.policy, "cpu_only", 0, rep, cpu, cpu)
			for _, r := range []int64{1, 2, 4, 8, 16, 32} {
				add(p.policy, "alternating", r, rep, cpu+p.cpuFaults+p.handoff+float64(r)*p.g, cpu+p.cpuFaults)
			}
		}
	}
	gpu, err := Fit(WithoutCPU(rows), Options{Resamples: -1})
	if err != nil {
		t.Fatal(err)
	}
	if gpu.MedianAPE > 1e-9 {
		t.Errorf("GPU side should fit exactly, median APE %.3g %%", gpu.MedianAPE)
	}
	for _, c := range gpu.Calibration {
		// F keeps the handoff and, for managed memory, the CPU-side faults.
		want := map[string]float64{ExplicitCopy: 40, HostMapped: 2, Managed: 10 + faults}[c.Policy]
		if math.Abs(c.F-want) > 1e-9 {
			t.Errorf("%s: F without CPU = %v, want %v", c.Policy, c.F, want)
		}
	}
	// Never more than the trial's own update: a baseline of 50 against a
	// cpu_ms of 20 takes 20 out.
	base, alt := rows[0], rows[0]
	base.Phase, base.TotalMs, base.Repetition = "cpu_only", 50, 7
	alt.Phase, alt.TotalMs, alt.CPUMs, alt.Repetition, alt.ReusePasses = "alternating", 30, 20, 7, 1
	if got := WithoutCPU([]results.Row{base, alt}); len(got) != 2 || got[1].TotalMs != 10 {
		t.Errorf("baseline above cpu_ms: %+v", got)
	}
	// An alternating row without a baseline in its repetition is dropped;
	// other rows are untouched.
	r := rows[0]
	r.Phase, r.Repetition = "alternating", 9
	if got := WithoutCPU([]results.Row{r, rows[0]}); len(got) != 1 || got[0].TotalMs != rows[0].TotalMs {
		t.Errorf("WithoutCPU kept %d rows: %+v", len(got), got)
	}
}
