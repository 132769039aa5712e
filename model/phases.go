package model

import (
	"slices"

	"github.com/umlab/umlab/results"
)

// HandoffPhases keeps the handoff rows the model reads: the measured
// phases (cpu_only, gpu_only, alternating), not the derived baseline and
// extra-cost rows a published dataset adds.
func HandoffPhases(rows []results.Row) []results.Row {
	var out []results.Row
	for _, r := range rows {
		if r.Group == results.GroupHandoff && slices.Contains(results.Phases, r.Phase) {
			out = append(out, r)
		}
	}
	return out
}

// Collected returns what the collected passes among cs counted (passes
// that could not collect, counters_collected false, are left out).
func Collected(cs []results.CounterRow) []Counted {
	out := make([]Counted, 0, len(cs))
	for _, c := range cs {
		if c.Collected {
			out = append(out, CountedOf(c))
		}
	}
	return out
}
