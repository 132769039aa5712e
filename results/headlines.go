package results

import (
	"math"
	"slices"
	"sort"
)

// Headlines picks a few summaries per group for a short digest of a run:
// in each group, at the largest size it measured, the configurations with
// the highest and the lowest median bandwidth (the shortest and longest
// median total time in a group without bandwidths, such as published
// handoff times), then those next to them, perGroup at most. Waived
// configurations are left out. Groups keep the order of sum; within a
// group the picks keep sum's order.
func Headlines(sum []SummaryRow, perGroup int) []SummaryRow {
	var groups []string
	largest, bandwidth := map[string]int64{}, map[string]bool{}
	for _, s := range sum {
		if !slices.Contains(groups, s.Config.Group) {
			groups = append(groups, s.Config.Group)
		}
		bandwidth[s.Config.Group] = bandwidth[s.Config.Group] || !math.IsNaN(s.GBps.Median)
	}
	usable := func(s SummaryRow) bool {
		return !slices.Contains(s.Flags, FlagWaived) && !math.IsNaN(rate(s)) &&
			(!bandwidth[s.Config.Group] || !math.IsNaN(s.GBps.Median))
	}
	for _, s := range sum {
		if usable(s) {
			largest[s.Config.Group] = max(largest[s.Config.Group], s.Config.SizeBytes)
		}
	}
	var out []SummaryRow
	for _, g := range groups {
		var at []int // indexes into sum, at the group's largest size
		for i, s := range sum {
			if s.Config.Group == g && usable(s) && s.Config.SizeBytes == largest[g] {
				at = append(at, i)
			}
		}
		byRate := append([]int(nil), at...)
		sort.SliceStable(byRate, func(a, b int) bool { return rate(sum[byRate[a]]) > rate(sum[byRate[b]]) })
		pick := map[int]bool{}
		for lo, hi := 0, len(byRate)-1; len(pick) < perGroup && lo <= hi; lo, hi = lo+1, hi-1 {
			pick[byRate[lo]] = true
			if len(pick) < perGroup {
				pick[byRate[hi]] = true
			}
		}
		for _, i := range at {
			if pick[i] {
				out = append(out, sum[i])
			}
		}
	}
	return out
}

// rate orders a group's configurations: the median bandwidth, or where
// there is none the inverse of the median total time.
func rate(s SummaryRow) float64 {
	if !math.IsNaN(s.GBps.Median) {
		return s.GBps.Median
	}
	return 1 / s.TotalMs.Median
}
