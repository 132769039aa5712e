package stats

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// Resampler draws bootstrap resamples from a seeded generator. Its draws
// are those of rand.New(rand.NewPCG(seed, 0x5eed)).IntN, taken from the
// PCG directly: the same seed gives the same resamples as it always has.
// A Resampler keeps its buffers between calls; it is not safe for
// concurrent use.
type Resampler struct {
	pcg    pcg
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
		if len(c.x) == len(x) && sameBits(c.x, x) {
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

func sameBits(a, b []float64) bool {
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

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
	v := medianOfCounts(c.sorted, r.cnt, m)
	clear(r.cnt)
	return v
}

// medianOfCounts is the median of m values drawn from sorted, cnt[v]
// times the value of rank v.
func medianOfCounts(sorted []float64, cnt []int32, m int) float64 {
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
	return &Resampler{pcg: pcg{hi: seed, lo: 0x5eed}}
}

// pcg is math/rand/v2's PCG (128-bit LCG, DXSM output), written out so
// that the draw loop inlines it; TestResamplerStream pins it to the
// library's stream.
type pcg struct{ hi, lo uint64 }

func (p *pcg) next() uint64 {
	const (
		mulHi    = 2549297995355413924
		mulLo    = 4865540595714422341
		incHi    = 6364136223846793005
		incLo    = 1442695040888963407
		cheapMul = 0xda942042e4dd58b5
	)
	hi, lo := bits.Mul64(p.lo, mulLo)
	hi += p.hi*mulLo + p.lo*mulHi
	lo, c := bits.Add64(lo, incLo, 0)
	hi, _ = bits.Add64(hi, incHi, c)
	p.lo, p.hi = lo, hi
	hi ^= hi >> 32
	hi *= cheapMul
	hi ^= hi >> 48
	return hi * (lo | 1)
}

// intN is rand.Rand.IntN on a 64-bit platform (Lemire's multiply with
// rejection, a mask for powers of two), so that the stream is unchanged.
func (r *Resampler) intN(n uint64) int {
	if n&(n-1) == 0 {
		return int(r.pcg.next() & (n - 1))
	}
	hi, lo := bits.Mul64(r.pcg.next(), n)
	if lo < n {
		return int(r.pcg.reject(hi, lo, n)) // rarely: may need new draws
	}
	return int(hi)
}

func (p *pcg) reject(hi, lo, n uint64) uint64 {
	thresh := -n % n
	for lo < thresh {
		hi, lo = bits.Mul64(p.next(), n)
	}
	return hi
}

// Median returns the median of one resample of x (len(x) draws with
// replacement), NaN values ignored; NaN for an empty x.
func (r *Resampler) Median(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	n := uint64(len(x))
	return r.medianOfRanks(r.rankedOf(x), len(x), func() int { return r.intN(n) })
}

// Indices returns one resample of the indices 0…n−1 (n draws with
// replacement), for resampling paired data alike: values measured
// together keep the same index in every series. The slice is reused by
// the next call.
func (r *Resampler) Indices(n int) []int {
	r.idx = r.idx[:0]
	for range n {
		r.idx = append(r.idx, r.intN(uint64(n)))
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

// drawnCache keeps the tables of lanes by seed, length and resample
// count: a summary bootstraps hundreds of configurations of the same
// number of trials with the same seed, so they share one table. It holds
// at most drawnCacheBytes; larger or later tables are drawn afresh each
// time.
var drawnCache struct {
	sync.Mutex
	tables map[[3]uint64]any
	bytes  int
}

const drawnCacheBytes = 32 << 20

// cached returns the table kept under key, else makes it (with its size
// in bytes) and keeps it while the cache has room.
func cached[T any](key [3]uint64, make func() (T, int)) T {
	drawnCache.Lock()
	t, ok := drawnCache.tables[key]
	drawnCache.Unlock()
	if ok {
		return t.(T)
	}
	tab, size := make()
	drawnCache.Lock()
	defer drawnCache.Unlock()
	if drawnCache.bytes+size <= drawnCacheBytes {
		if drawnCache.tables == nil {
			drawnCache.tables = map[[3]uint64]any{}
		}
		drawnCache.tables[key] = tab
		drawnCache.bytes += size
	}
	return tab
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
