package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// DefaultResamples is the bootstrap's default number of resamples.
const DefaultResamples = 2000

// DefaultLevel is the default confidence level of an interval.
const DefaultLevel = 0.95

// Interval is an estimate with a confidence interval [Lo, Hi]. An interval
// of a statistic that could not be computed (no data) is all NaN.
type Interval struct {
	Est, Lo, Hi float64
}

// NaN is the interval of nothing.
func NaN() Interval { return Interval{math.NaN(), math.NaN(), math.NaN()} }

// Contains reports whether x lies in [Lo, Hi].
func (i Interval) Contains(x float64) bool { return x >= i.Lo && x <= i.Hi }

// Overlaps reports whether two intervals share a point.
func (i Interval) Overlaps(j Interval) bool { return i.Lo <= j.Hi && j.Lo <= i.Hi }

// String writes "est [lo, hi]" with three significant digits.
func (i Interval) String() string {
	return fmt.Sprintf("%.3g [%.3g, %.3g]", i.Est, i.Lo, i.Hi)
}

// Median returns the median of x (the mean of the two middle values when
// len(x) is even), ignoring NaN; NaN when nothing is left.
func Median(x []float64) float64 {
	s := finite(x)
	if len(s) == 0 {
		return math.NaN()
	}
	slices.Sort(s)
	return sortedMedian(s)
}

func sortedMedian(s []float64) float64 {
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func finite(x []float64) []float64 {
	s := make([]float64, 0, len(x))
	for _, v := range x {
		if !math.IsNaN(v) {
			s = append(s, v)
		}
	}
	return s
}

// Percentiles returns the (1−level)/2 and (1+level)/2 empirical quantiles of
// x, ignoring NaN: the percentile interval of a bootstrap distribution.
func Percentiles(x []float64, level float64) (lo, hi float64) {
	s := finite(x)
	if len(s) == 0 {
		return math.NaN(), math.NaN()
	}
	slices.Sort(s)
	a := (1 - level) / 2
	return stat.Quantile(a, stat.Empirical, s, nil), stat.Quantile(1-a, stat.Empirical, s, nil)
}

// Resampler draws bootstrap resamples from a seeded generator.
type Resampler struct {
	rng *rand.Rand
	buf []float64
	idx []int
}

// NewResampler returns a resampler seeded with seed.
func NewResampler(seed uint64) *Resampler {
	return &Resampler{rng: rand.New(rand.NewPCG(seed, 0x5eed))}
}

// Median returns the median of one resample of x (len(x) draws with
// replacement); NaN for an empty x.
func (r *Resampler) Median(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	r.buf = r.buf[:0]
	for range x {
		r.buf = append(r.buf, x[r.rng.IntN(len(x))])
	}
	return Median(r.buf)
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
// Indices(len(x))); NaN for no indices.
func (r *Resampler) MedianAt(x []float64, idx []int) float64 {
	if len(idx) == 0 {
		return math.NaN()
	}
	r.buf = r.buf[:0]
	for _, i := range idx {
		r.buf = append(r.buf, x[i])
	}
	return Median(r.buf)
}

// MedianCI returns the median of x with a percentile-bootstrap interval at
// the given level (0 < level < 1) from b resamples (DefaultResamples when b
// ≤ 0). With fewer than two values the interval is the point itself.
func MedianCI(x []float64, level float64, b int, seed uint64) Interval {
	x = finite(x)
	if len(x) == 0 {
		return NaN()
	}
	est := Median(x)
	if len(x) < 2 {
		return Interval{est, est, est}
	}
	if b <= 0 {
		b = DefaultResamples
	}
	r := NewResampler(seed)
	meds := make([]float64, b)
	for i := range meds {
		meds[i] = r.Median(x)
	}
	lo, hi := Percentiles(meds, level)
	return Interval{est, lo, hi}
}
