package model_test

import (
	"math"
	"strings"
	"testing"

	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// partedSweep is a handoff sweep whose alternating rows carry their parts:
// the CPU update takes cpu(R) ms, the prefetches 80 ms (managed_prefetch
// only), the R passes R·G and 0.05 ms stays for the rest. Each trial adds
// ±0.5 % to the CPU update.
func partedSweep(policy string, cpu func(r int64) float64, g float64) []results.Row {
	var rows []results.Row
	for i := 0; i < 10; i++ {
		jitter := 1 + 0.005*float64(i%3-1)
		rows = append(rows, handoffRow(policy, "gpu_only", gib, 1, g))
		rows = append(rows, handoffRow(policy, "cpu_only", gib, 0, 160*jitter))
		for _, r := range []int64{1, 2, 4, 8, 16, 32} {
			row := handoffRow(policy, "alternating", gib, r, 0)
			row.CPUMs, row.KernelMs, row.SyncMs, row.PrefetchMs = cpu(r)*jitter, float64(r)*g, 0.05, math.NaN()
			if policy == model.ManagedPrefetch {
				row.PrefetchMs = 80
			}
			row.TotalMs = row.CPUMs + row.KernelMs + row.SyncMs
			if policy == model.ManagedPrefetch {
				row.TotalMs += row.PrefetchMs
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// TestMissesExplained: a policy whose CPU update inside the loop moves with
// R by more than 2 % of its time gets a note that puts the misses in the
// CPU update, quotes its range next to the CPU-only update and the counter
// passes; a policy that follows the model gets none; rows without parts say
// so.
func TestMissesExplained(t *testing.T) {
	wobble := func(r int64) float64 { return 230 + 18*float64(min(r-1, 1)) } // 230 ms at R = 1, 248 ms beyond
	rows := append(partedSweep(model.ManagedPrefetch, wobble, 0.53),
		partedSweep(model.ExplicitCopy, func(int64) float64 { return 160 }, 0.53)...)
	counted := func(r int64) model.Counted {
		c := model.Counted{Config: handoffRow(model.ManagedPrefetch, "alternating", gib, r, 0), HtoDBytes: float64(gib), DtoHBytes: float64(gib),
			CPUPageFaults: 0, GPUFaultGroups: 0, Source: "h200counters-x"}
		return c
	}
	rep, err := model.Fit(rows, model.Options{Resamples: 200, Counted: []model.Counted{counted(1), counted(32)}})
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(rep.Notes, "\n")
	for _, want := range []string{
		"managed_prefetch 1 GiB: median APE 5.", ", above 2 % (95 % CI",
		"the CPU update (cpu_ms) 100 %, the prefetches (prefetch_ms) 0 %",
		"At 1 GiB the median of the CPU update (cpu_ms) runs from 230 ms (R = 1) to 248 ms (R = 2); the same update alone (cpu_only) takes 160 ms",
		"Counter passes (h200counters-x), one iteration at 1 GiB: R = 1: 1 GiB host to device, 1 GiB device to host, 0 CPU page faults, 0 GPU fault groups",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	if strings.Contains(notes, "within the noise") {
		t.Errorf("a 7.8 %% jump of the CPU update under ±0.5 %% jitter called noise:\n%s", notes)
	}
	if strings.Contains(notes, "explicit_copy 1 GiB: median APE") {
		t.Errorf("explicit_copy follows the model exactly but got a note:\n%s", notes)
	}
	// The same sweep without parts (a device without events).
	for i := range rows {
		rows[i].CPUMs, rows[i].KernelMs, rows[i].SyncMs, rows[i].PrefetchMs = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	}
	rep, err = model.Fit(rows, model.Options{Resamples: -1})
	if err != nil {
		t.Fatal(err)
	}
	if notes := strings.Join(rep.Notes, "\n"); !strings.Contains(notes, "managed_prefetch 1 GiB: median APE") || !strings.Contains(notes, "carry no trial parts") {
		t.Errorf("without parts:\n%s", notes)
	}
}
