package results

import "cmp"

// Grouped is one group of GroupStats: its key, the statistics of its
// values and the values themselves, in item order, NaN included (for a
// bootstrap: the model resamples them for its parameters' intervals).
type Grouped[K comparable] struct {
	Key K
	Stats
	Values []float64
}

// GroupStats groups items by key, in the order in which each key first
// appears, and describes each group's values with [Describe] (NaN values are
// ignored; Stats.N counts the others). It is umlab's one group-by-and-median
// helper: summaries, the model's calibration, tables and fleet statistics
// use it.
func GroupStats[T any, K comparable](items []T, key func(*T) K, value func(*T) float64) []Grouped[K] {
	var at FirstSeen[K]
	var keys []K
	var vals [][]float64
	for i := range items {
		k := key(&items[i])
		j, isNew := at.Of(k)
		if isNew {
			keys = append(keys, k)
			vals = append(vals, nil)
		}
		vals[j] = append(vals[j], value(&items[i]))
	}
	out := make([]Grouped[K], len(keys))
	for i, k := range keys {
		out[i] = Grouped[K]{Key: k, Stats: Describe(vals[i]), Values: vals[i]}
	}
	return out
}

// Medians is GroupStats reduced to each key's median.
func Medians[T any, K comparable](items []T, key func(*T) K, value func(*T) float64) map[K]float64 {
	m := map[K]float64{}
	for _, g := range GroupStats(items, key, value) {
		m[g.Key] = g.Median
	}
	return m
}

// MostCommon is the key counted most often in counts (the smallest of
// those tied), the zero value for no counts: the usual trial or warm-up
// count of a run, say.
func MostCommon[K cmp.Ordered](counts map[K]int) K {
	var best K
	n := -1
	for k, c := range counts {
		if c > n || (c == n && k < best) {
			best, n = k, c
		}
	}
	return best
}

// FirstSeen numbers values in order of first appearance (from 0), the
// last one checked before the map: a file's rows mostly share their run ID, and
// rows of one configuration mostly come one after another, so most rows
// cost a comparison instead of a hash.
type FirstSeen[K comparable] struct {
	at   map[K]int32
	last K
	li   int32
}

// Of returns the number of k, and whether it is new.
func (x *FirstSeen[K]) Of(k K) (int32, bool) {
	if x.at != nil && k == x.last {
		return x.li, false
	}
	if x.at == nil {
		x.at = map[K]int32{}
	}
	i, ok := x.at[k]
	if !ok {
		i = int32(len(x.at))
		x.at[k] = i
	}
	x.last, x.li = k, i
	return i, !ok
}
