package model

import (
	"math"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/stats"
)

// baselineKey is one repetition's CPU-only baseline: the cpu_only rows of a
// policy, size and CPU thread count in one repetition.
type baselineKey struct {
	policy        string
	size, rep, th int64
}

func baselineOf(r results.Row) baselineKey {
	return baselineKey{r.Policy, r.SizeBytes, r.Repetition, max(r.CPUThreads, 1)}
}

// WithoutCPU is a diagnostic, not a different model. It returns handoff
// rows whose alternating total_ms has the CPU update's compute time taken
// out: the median CPU-only time (the cpu_only phase: the update alone, data
// already on the CPU) of the same policy, size and repetition. What stays
// is the handoff (for managed memory including the CPU-side page faults
// and migrations that the alternating update pays and the CPU-only baseline
// does not) and the GPU passes. When the totals miss the reuse model but
// these rows fit it, the misses come from the CPU update's own speed
// drifting between configurations (tens of percent on a shared or
// virtualised host), not from the handoff or the per-pass cost. Interleaved
// runs (umbench run --order interleaved) measure each repetition's baseline
// among the alternating runs it is subtracted from.
//
// No more is taken out than the trial's own measured update (cpu_ms): where
// the update inside the loop is faster than alone (at tens of MiB a copy
// back to pinned memory can leave the data in the CPU's last-level cache),
// only cpu_ms goes. Alternating rows without a CPU-only baseline in their
// repetition are dropped; other groups and phases pass through unchanged.
func WithoutCPU(rows []results.Row) []results.Row {
	vals := map[baselineKey][]float64{}
	for _, r := range rows {
		if r.Group == groupHandoff && r.Phase == phaseCPU && !r.Waived && !math.IsNaN(r.TotalMs) {
			vals[baselineOf(r)] = append(vals[baselineOf(r)], r.TotalMs)
		}
	}
	base := map[baselineKey]float64{}
	for k, v := range vals {
		base[k] = stats.Median(v)
	}
	out := make([]results.Row, 0, len(rows))
	for _, r := range rows {
		if r.Group == groupHandoff && r.Phase == phaseAlt {
			b, ok := base[baselineOf(r)]
			if !ok || math.IsNaN(r.TotalMs) {
				continue
			}
			if !math.IsNaN(r.CPUMs) {
				b = min(b, r.CPUMs)
			}
			r.TotalMs -= b
		}
		out = append(out, r)
	}
	return out
}
