package model_test

import (
	"fmt"
	"log"
	"os"

	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// The crossover between host-mapped access and explicit copy at 1 GiB on
// GB200, from the parameters of the paper's Table III (Section VIII-C).
func ExampleCrossoverOf() {
	explicit := model.Param{Policy: model.ExplicitCopy, SizeBytes: 1 << 30, F: 60.07, G: 0.415}
	host := model.Param{Policy: model.HostMapped, SizeBytes: 1 << 30, F: 55.09, G: 5.119}
	c := model.CrossoverOf(explicit, host)
	fmt.Printf("%v: R* = %.2f\n", c.Kind, c.R)
	fmt.Println(c)
	fmt.Println("faster at R = 1:", c.Faster(1))
	fmt.Println("faster at R = 2:", c.Faster(2))
	// Output:
	// crosses: R* = 1.06
	// host_mapped faster below R* = 1.06, explicit_copy above
	// faster at R = 1: host_mapped
	// faster at R = 2: explicit_copy
}

// Advice for a 1 GiB working set used by four GPU passes per CPU update, from
// Table III's parameters.
func ExampleAdvise() {
	m, err := model.NewModel([]model.Param{
		{Policy: model.ExplicitCopy, SizeBytes: 1 << 30, F: 60.07, G: 0.415},
		{Policy: model.HostMapped, SizeBytes: 1 << 30, F: 55.09, G: 5.119},
		{Policy: model.Managed, SizeBytes: 1 << 30, F: 271.69, G: 0.415},
		{Policy: model.ManagedPrefetch, SizeBytes: 1 << 30, F: 79.37, G: 0.489},
	})
	if err != nil {
		log.Fatal(err)
	}
	a, err := model.Advise(m, model.Workload{SizeBytes: 1 << 30, Reuse: 4})
	if err != nil {
		log.Fatal(err)
	}
	if err := a.WriteText(os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// Workload: 1 GiB, R = 4 GPU passes per CPU update, streaming access
	//
	// rank  policy            F (ms)   G (ms/pass)  predicted (ms)  parameters
	// 1     explicit_copy     60.070   0.415        61.730          calibrated
	// 2     host_mapped       55.090   5.119        75.566          calibrated
	// 3     managed_prefetch  79.370   0.489        81.326          calibrated
	// 4     managed           271.690  0.415        273.350         calibrated
	//
	// Break-even vs runner-up host_mapped: host_mapped faster below R* = 1.06, explicit_copy above
	// Why: explicit_copy is fastest because its lower per-pass cost (0.415 vs 5.119 ms) repays its 4.98 ms larger fixed cost after R* = 1.06 passes, and this workload makes 4.
	// Parameters: calibrated at 1 GiB
}

// A report from published parameters: the calibration table and the
// crossovers at every size.
func ExampleFromParams() {
	rep, err := model.FromParams([]model.Param{
		{Policy: model.ExplicitCopy, SizeBytes: 1 << 30, F: 60.07, G: 0.415},
		{Policy: model.HostMapped, SizeBytes: 1 << 30, F: 55.09, G: 5.119},
		{Policy: model.Managed, SizeBytes: 1 << 30, F: 271.69, G: 0.415},
		{Policy: model.ManagedPrefetch, SizeBytes: 1 << 30, F: 79.37, G: 0.489},
	}, model.Options{})
	if err != nil {
		log.Fatal(err)
	}
	if err := rep.WriteTable(os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// Reuse-amortized model T = F + R·G (paper Section VIII-B)
	//
	// policy            size   F (ms)   G (ms/pass)  median APE (%)  95 % CI  max APE (%)  points
	// explicit_copy     1 GiB  60.070   0.415        -               -        -            0
	// host_mapped       1 GiB  55.090   5.119        -               -        -            0
	// managed           1 GiB  271.690  0.415        -               -        -            0
	// managed_prefetch  1 GiB  79.370   0.489        -               -        -            0
	//
	// No validation measurements (published parameters).
	//
	// Crossovers, R* = (F_a − F_b)/(G_b − G_a) (Section VIII-C)
	// size   a              b                 result
	// 1 GiB  explicit_copy  host_mapped       host_mapped faster below R* = 1.06, explicit_copy above
	// 1 GiB  explicit_copy  managed           explicit_copy faster at every R (parallel lines)
	// 1 GiB  explicit_copy  managed_prefetch  explicit_copy faster at every R (lines meet at R* = -261 ≤ 0)
	// 1 GiB  host_mapped    managed           host_mapped faster below R* = 46.0, managed above
	// 1 GiB  host_mapped    managed_prefetch  host_mapped faster below R* = 5.24, managed_prefetch above
	// 1 GiB  managed        managed_prefetch  managed_prefetch faster below R* = 2599, managed above
}

// Fit calibrates on the R = 1 and GPU-only handoff rows and validates on the
// others. The rows here are the GB200 1 GiB figures of Sections VII-B and
// VIII-C for explicit copy and host-mapped memory, one trial each.
func ExampleFit() {
	var rows []results.Row
	add := func(policy, phase string, r int64, ms float64) {
		row := results.NewRow()
		row.Group, row.Benchmark, row.Policy, row.Phase = "handoff", "handoff", policy, phase
		row.SizeBytes, row.ReusePasses, row.TotalMs = 1<<30, r, ms
		rows = append(rows, row)
	}
	add(model.ExplicitCopy, "gpu_only", 1, 0.415)
	add(model.ExplicitCopy, "alternating", 1, 60.5)
	add(model.ExplicitCopy, "alternating", 2, 60.9)
	add(model.ExplicitCopy, "alternating", 32, 73.3)
	add(model.HostMapped, "gpu_only", 1, 5.119)
	add(model.HostMapped, "alternating", 1, 60.2)
	add(model.HostMapped, "alternating", 2, 65.3)
	add(model.HostMapped, "alternating", 32, 218.7)

	rep, err := model.Fit(rows, model.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range rep.Points {
		fmt.Printf("%-13s R=%-2d measured %6.1f ms, predicted %7.3f ms, APE %.3f %%\n", p.Policy, p.R, p.MeasuredMs, p.PredictedMs, p.APE)
	}
	fmt.Printf("fastest policy predicted at %d of %d points\n", rep.Matches, rep.Compared)
	fmt.Println(rep.Crossovers[0])
	// Output:
	// explicit_copy R=2  measured   60.9 ms, predicted  60.915 ms, APE 0.025 %
	// host_mapped   R=2  measured   65.3 ms, predicted  65.319 ms, APE 0.029 %
	// explicit_copy R=32 measured   73.3 ms, predicted  73.365 ms, APE 0.089 %
	// host_mapped   R=32 measured  218.7 ms, predicted 218.889 ms, APE 0.086 %
	// fastest policy predicted at 2 of 2 points
	// host_mapped faster below R* = 1.06, explicit_copy above
}
