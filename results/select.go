package results

import (
	"slices"
	"sort"
	"strings"
)

// OfGroup keeps the rows of one benchmark group.
func OfGroup(rows []Row, group string) []Row {
	var out []Row
	for _, r := range rows {
		if r.Group == group {
			out = append(out, r)
		}
	}
	return out
}

// GroupTimesOf keeps the group times of one benchmark group and of its
// sets of extra benchmarks (group.set, such as pattern.sparse).
func GroupTimesOf(ts []GroupTime, group string) []GroupTime {
	var out []GroupTime
	for _, g := range ts {
		if g.Group == group || strings.HasPrefix(g.Group, group+".") {
			out = append(out, g)
		}
	}
	return out
}

// ReadingOrder sorts summaries for reading: groups in the order they first
// appear, and within the handoff group (whose interleaved runs measure in a
// shuffled order) by policy, phase (cpu_only, gpu_only, alternating), size
// and R. Other groups keep the run's order.
func ReadingOrder(sum []SummaryRow) []SummaryRow {
	first := map[string]int{}
	for i, s := range sum {
		if _, ok := first[s.Config.Group]; !ok {
			first[s.Config.Group] = i
		}
	}
	phase := map[string]int{PhaseCPUOnly: 0, PhaseGPUOnly: 1, PhaseAlternating: 2}
	out := slices.Clone(sum)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Config, out[j].Config
		if a.Group != b.Group {
			return first[a.Group] < first[b.Group]
		}
		if a.Group != GroupHandoff {
			return false
		}
		pa, oka := phase[a.Phase]
		pb, okb := phase[b.Phase]
		switch {
		case a.Policy != b.Policy:
			return a.Policy < b.Policy
		case oka && okb && pa != pb:
			return pa < pb
		case a.Phase != b.Phase:
			return a.Phase < b.Phase
		case a.SizeBytes != b.SizeBytes:
			return a.SizeBytes < b.SizeBytes
		}
		return a.ReusePasses < b.ReusePasses
	})
	return out
}
