package model

import (
	"math"

	"github.com/umlab/umlab/results"
)

// WithoutCPU returns handoff rows whose alternating total_ms has the
// trial's own measured CPU-update time (cpu_ms) taken out, leaving the
// handoff and the GPU passes. Fitting those rows is a diagnostic, not a
// different model: when the totals miss the reuse model but these fit it,
// the misses come from the CPU update's own variation (on a shared or
// virtualised host it can drift by tens of percent between configurations),
// not from the handoff or the per-pass cost. Rows without cpu_ms are
// dropped; other groups and phases pass through unchanged.
func WithoutCPU(rows []results.Row) []results.Row {
	out := make([]results.Row, 0, len(rows))
	for _, r := range rows {
		if r.Group == groupHandoff && r.Phase == phaseAlt {
			if math.IsNaN(r.CPUMs) || math.IsNaN(r.TotalMs) {
				continue
			}
			r.TotalMs -= r.CPUMs
		}
		out = append(out, r)
	}
	return out
}
