package stats

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
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
// len(x) is even), ignoring NaN; NaN when nothing is left. It is umlab's
// one median: x is left as it is (a copy is partially ordered by
// selection, not sorted).
func Median(x []float64) float64 {
	return medianInPlace(appendFinite(make([]float64, 0, len(x)), x))
}

// medianInPlace is the median of NaN-free s, which it reorders.
func medianInPlace(s []float64) float64 {
	n := len(s)
	switch n {
	case 0:
		return math.NaN()
	case 1:
		return s[0]
	case 2:
		return (s[0] + s[1]) / 2
	}
	k := n / 2
	selectKth(s, k)
	if n%2 == 1 {
		return s[k]
	}
	lower := s[0]
	for _, v := range s[1:k] {
		lower = max(lower, v)
	}
	return (lower + s[k]) / 2
}

// appendFinite appends the values of x that are not NaN to dst.
func appendFinite(dst, x []float64) []float64 {
	for _, v := range x {
		if !math.IsNaN(v) {
			dst = append(dst, v)
		}
	}
	return dst
}

// Percentiles returns the (1−level)/2 and (1+level)/2 empirical quantiles of
// x, ignoring NaN: the percentile interval of a bootstrap distribution.
// The empirical quantile p of n values is the k-th smallest, k the least
// integer with k ≥ p·n (gonum's stat.Empirical).
func Percentiles(x []float64, level float64) (lo, hi float64) {
	return percentilesInPlace(appendFinite(make([]float64, 0, len(x)), x), level)
}

// percentilesInPlace is Percentiles of NaN-free s, which it reorders.
func percentilesInPlace(s []float64, level float64) (lo, hi float64) {
	if len(s) == 0 {
		return math.NaN(), math.NaN()
	}
	a := (1 - level) / 2
	klo, khi := empiricalRank(a, len(s)), empiricalRank(1-a, len(s))
	selectKth(s, khi)
	hi = s[khi]
	selectKth(s[:khi+1], klo)
	return s[klo], hi
}

// empiricalRank is the 0-based rank of the empirical p-quantile of n
// sorted values: the first i with i+1 ≥ p·n, counted as gonum counts.
func empiricalRank(p float64, n int) int {
	// i+1 ≥ p·n for an integer i+1 exactly when i+1 ≥ ⌈p·n⌉.
	return min(max(int(math.Ceil(p*float64(n)))-1, 0), n-1)
}

// selectKth reorders s so that s[k] is the value a sort would put there,
// with nothing larger before it and nothing smaller after it
// (introselect: Hoare partitions around a median of three, a full sort
// where partitioning stops shrinking the range).
func selectKth(s []float64, k int) {
	lo, hi := 0, len(s)-1
	for budget := 2 * bits.Len(uint(len(s))); hi > lo; budget-- {
		if hi-lo < 12 || budget == 0 {
			slices.Sort(s[lo : hi+1])
			return
		}
		m := lo + (hi-lo)/2
		if s[m] < s[lo] {
			s[m], s[lo] = s[lo], s[m]
		}
		if s[hi] < s[lo] {
			s[hi], s[lo] = s[lo], s[hi]
		}
		if s[hi] < s[m] {
			s[hi], s[m] = s[m], s[hi]
		}
		pivot := s[m]
		i, j := lo, hi
		for i <= j {
			for s[i] < pivot {
				i++
			}
			for s[j] > pivot {
				j--
			}
			if i <= j {
				s[i], s[j] = s[j], s[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return // s[j+1 : i] all equal the pivot
		}
	}
}
