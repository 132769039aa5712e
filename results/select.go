package results

import (
	"cmp"
	"slices"
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
	out := slices.Clone(sum)
	slices.SortStableFunc(out, func(x, y SummaryRow) int {
		a, b := x.Config, y.Config
		if a.Group != b.Group || a.Group != GroupHandoff {
			return cmp.Compare(first[a.Group], first[b.Group])
		}
		phases := cmp.Compare(a.Phase, b.Phase) // the paper's phases in Phases' order, others by name
		if pa, pb := slices.Index(Phases, a.Phase), slices.Index(Phases, b.Phase); pa >= 0 && pb >= 0 {
			phases = cmp.Compare(pa, pb)
		}
		return cmp.Or(cmp.Compare(a.Policy, b.Policy), phases, cmp.Compare(a.SizeBytes, b.SizeBytes),
			cmp.Compare(a.ReusePasses, b.ReusePasses))
	})
	return out
}
