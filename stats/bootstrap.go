package stats

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
)

// Resampler draws bootstrap resamples from a seeded generator, with
// rand.New(rand.NewPCG(seed, 0x5eed)).IntN: the same seed gives the same
// resamples as it always has. A Resampler keeps its buffers between
// calls; it is not safe for concurrent use.
type Resampler struct {
	rng    *rand.Rand
	idx    []int
	cnt    []int32
	ranked []*ranked // the series resampled last, most recent first
}

// ranked is a series as Median and MedianAt resample it: a copy of its
// values (to tell when a slice was refilled), its values that are not
// NaN in order, and the rank of each value among them (−1 for NaN).
type ranked struct {
	x, sorted []float64
	rank      []int32
}

// maxRanked is how many series a Resampler keeps ranked: a sweep's
// bootstrap resamples a handful of series in turn.
const maxRanked = 8

// rankedOf returns x ranked, from the last series resampled where x is
// one of them with the same values.
func (r *Resampler) rankedOf(x []float64) *ranked {
	for i, c := range r.ranked {
		if slices.EqualFunc(c.x, x, sameBits) {
			copy(r.ranked[1:i+1], r.ranked[:i])
			r.ranked[0] = c
			return c
		}
	}
	c := &ranked{x: slices.Clone(x), rank: make([]int32, len(x))}
	fin := appendFinite(make([]float64, 0, len(x)), x)
	var order []int32
	c.sorted, order = sortedOrder(fin)
	at := make([]int, 0, len(x)) // index in x of each finite value
	for i, v := range x {
		c.rank[i] = -1
		if !math.IsNaN(v) {
			at = append(at, i)
		}
	}
	for rk, j := range order {
		c.rank[at[j]] = int32(rk)
	}
	if len(r.ranked) < maxRanked {
		r.ranked = append(r.ranked, nil)
	}
	copy(r.ranked[1:], r.ranked)
	r.ranked[0] = c
	return c
}

func sameBits(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// medianOfRanks is the median of the values of c at the indices draw
// yields n times, NaN left out: each draw counts towards its value's rank,
// and the median is read from the counts.
func (r *Resampler) medianOfRanks(c *ranked, n int, draw func() int) float64 {
	r.cnt = slices.Grow(r.cnt[:0], len(c.sorted))[:len(c.sorted)]
	m := 0
	for range n {
		if rk := c.rank[draw()]; rk >= 0 {
			r.cnt[rk]++
			m++
		}
	}
	if m == 0 {
		return math.NaN()
	}
	defer clear(r.cnt)
	sorted, cnt := c.sorted, r.cnt
	mid := int32(m / 2) // the 0-based position of the (upper) middle value
	var seen int32
	v := 0
	for ; seen+cnt[v] <= mid; v++ {
		seen += cnt[v]
	}
	switch {
	case m%2 == 1:
		return sorted[v]
	case seen < mid: // position mid−1 holds rank v too
		return (sorted[v] + sorted[v]) / 2
	}
	lower := v - 1 // position mid−1 holds the largest rank below v drawn
	for cnt[lower] == 0 {
		lower--
	}
	return (sorted[lower] + sorted[v]) / 2
}

// NewResampler returns a resampler seeded with seed.
func NewResampler(seed uint64) *Resampler {
	return &Resampler{rng: rand.New(rand.NewPCG(seed, 0x5eed))}
}

// Median returns the median of one resample of x (len(x) draws with
// replacement), NaN values ignored; NaN for an empty x.
func (r *Resampler) Median(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	return r.medianOfRanks(r.rankedOf(x), len(x), func() int { return r.rng.IntN(len(x)) })
}

// Indices returns one resample of the indices 0…n−1 (n draws with
// replacement), for resampling paired data alike: values measured
// together keep the same index in every series. The slice is reused by
// the next call.
func (r *Resampler) Indices(n int) []int {
	r.idx = r.idx[:0]
	for range n {
		r.idx = append(r.idx, r.rng.IntN(n))
	}
	return r.idx
}

// MedianAt returns the median of x at the indices idx (a resample from
// Indices(len(x))), NaN values ignored; NaN for no indices.
func (r *Resampler) MedianAt(x []float64, idx []int) float64 {
	if len(idx) == 0 {
		return math.NaN()
	}
	j := 0
	return r.medianOfRanks(r.rankedOf(x), len(idx), func() int { j++; return idx[j-1] })
}

// MedianCI returns the median of x with a percentile-bootstrap interval at
// the given level (0 < level < 1) from b resamples (DefaultResamples when b
// ≤ 0), NaN values left out first. With fewer than two values the interval
// is the point itself.
func MedianCI(x []float64, level float64, b int, seed uint64) Interval {
	x = appendFinite(make([]float64, 0, len(x)), x)
	if len(x) == 0 {
		return NaN()
	}
	if b <= 0 {
		b = DefaultResamples
	}
	sorted, order := sortedOrder(x)
	n := len(x)
	est := sorted[n/2]
	if n%2 == 0 {
		est = (sorted[n/2-1] + sorted[n/2]) / 2
	}
	if n < 2 {
		return Interval{est, est, est}
	}
	if n <= maxLaneValues { // every resample at once (lanes.go)
		lo, hi := laneBootstrap(sorted, order, lanes(seed, n, b), b, level)
		return Interval{est, lo, hi}
	}
	r := NewResampler(seed) // resample by resample, as Median draws them
	meds := make([]float64, b)
	for k := range meds {
		meds[k] = r.Median(x)
	}
	lo, hi := percentilesInPlace(meds, level)
	return Interval{est, lo, hi}
}

// medianInterval is the percentile interval of the b resample medians
// whose middle ranks are upper (position n/2 of a sorted resample) and,
// for an even n, lower (n/2−1). With an odd n each median is one of the
// values: the medians are counted by rank, and the percentiles read from
// those counts.
func medianInterval(sorted []float64, upper, lower []int32, level float64) (lo, hi float64) {
	b := len(upper)
	if lower == nil {
		hist := make([]int, len(sorted))
		for _, v := range upper {
			hist[v]++
		}
		a := (1 - level) / 2
		return sorted[rankAt(hist, empiricalRank(a, b))], sorted[rankAt(hist, empiricalRank(1-a, b))]
	}
	meds := make([]float64, b)
	for k := range meds {
		meds[k] = (sorted[lower[k]] + sorted[upper[k]]) / 2
	}
	return percentilesInPlace(meds, level)
}

// rankAt is the rank of the k-th smallest (0-based) of values counted
// by rank in hist.
func rankAt(hist []int, k int) int {
	seen := 0
	for v, c := range hist {
		if seen += c; seen > k {
			return v
		}
	}
	return len(hist) - 1
}

// sortedOrder returns x sorted and order, the index in x of each sorted
// value (ties in index order).
func sortedOrder(x []float64) ([]float64, []int32) {
	order := make([]int32, len(x))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(x[a], x[b]) })
	sorted := make([]float64, len(x))
	for p, i := range order {
		sorted[p] = x[i]
	}
	return sorted, order
}
