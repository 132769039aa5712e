package model

import (
	"math"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/stats"
)

// baselineKey is one repetition's CPU-only baseline of a policy, size and
// CPU thread count.
type baselineKey struct {
	policy        string
	size, rep, th int64
}

func baselineOf(r results.Row) baselineKey {
	return baselineKey{r.Policy, r.SizeBytes, r.Repetition, max(r.CPUThreads, 1)}
}

// WithoutCPU is a diagnostic, not a different model: the handoff rows with
// each alternating total_ms less the median cpu_only time of the same
// policy, size and repetition. When the totals miss the reuse model but
// these rows fit it, the misses come from the CPU update's speed drifting
// between configurations, not from the handoff or the per-pass cost.
//
// No more is taken out than the trial's own cpu_ms (a copy back to pinned
// memory can leave the data in the CPU's cache). Alternating rows without
// a baseline are dropped; other rows pass through unchanged.
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
