package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// The reference implementations below are umlab's statistics as they were
// before selection and counted resamples replaced copy, filter and sort:
// every statistic must give exactly the same numbers.

func refMedian(x []float64) float64 {
	var s []float64
	for _, v := range x {
		if !math.IsNaN(v) {
			s = append(s, v)
		}
	}
	if len(s) == 0 {
		return math.NaN()
	}
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func refPercentiles(x []float64, level float64) (lo, hi float64) {
	var s []float64
	for _, v := range x {
		if !math.IsNaN(v) {
			s = append(s, v)
		}
	}
	if len(s) == 0 {
		return math.NaN(), math.NaN()
	}
	slices.Sort(s)
	a := (1 - level) / 2
	return stat.Quantile(a, stat.Empirical, s, nil), stat.Quantile(1-a, stat.Empirical, s, nil)
}

func refMedianCI(x []float64, level float64, b int, seed uint64) Interval {
	var f []float64
	for _, v := range x {
		if !math.IsNaN(v) {
			f = append(f, v)
		}
	}
	if len(f) == 0 {
		return NaN()
	}
	est := refMedian(f)
	if len(f) < 2 {
		return Interval{est, est, est}
	}
	if b <= 0 {
		b = DefaultResamples
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	meds := make([]float64, b)
	buf := make([]float64, len(f))
	for i := range meds {
		for j := range buf {
			buf[j] = f[rng.IntN(len(f))]
		}
		meds[i] = refMedian(buf)
	}
	lo, hi := refPercentiles(meds, level)
	return Interval{est, lo, hi}
}

// randomSample draws n values with ties, NaN and infinities mixed in as
// real results have them (repeated timer ticks, failed trials).
func randomSample(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		switch u := rng.Float64(); {
		case u < 0.05:
			x[i] = math.NaN()
		case u < 0.07:
			x[i] = math.Inf(1 - 2*rng.IntN(2))
		case u < 0.4:
			x[i] = float64(rng.IntN(5)) // ties
		default:
			x[i] = 100 + 10*rng.NormFloat64()
		}
	}
	return x
}

func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

func TestSameNumbersAsBefore(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for k := range 1500 {
		n := rng.IntN(70)
		if k%10 == 0 {
			n = rng.IntN(1200) // resample-count sized, for Percentiles
		}
		x := randomSample(rng, n)
		orig := slices.Clone(x)
		if m, want := Median(x), refMedian(x); !same(m, want) {
			t.Fatalf("Median(%v) = %v, want %v", x, m, want)
		}
		level := []float64{0.95, 0.8, 0.5, 0.99}[k%4]
		lo, hi := Percentiles(x, level)
		wlo, whi := refPercentiles(x, level)
		if !same(lo, wlo) || !same(hi, whi) {
			t.Fatalf("Percentiles(%v, %v) = %v, %v, want %v, %v", x, level, lo, hi, wlo, whi)
		}
		if n < 200 || k%100 == 0 { // some over 255 values: counts wider than a byte
			seed, b := uint64(k%5), 50+rng.IntN(300)
			got, want := MedianCI(x, level, b, seed), refMedianCI(x, level, b, seed)
			if !same(got.Est, want.Est) || !same(got.Lo, want.Lo) || !same(got.Hi, want.Hi) {
				t.Fatalf("MedianCI(%v, %v, %d, %d) = %v, want %v", x, level, b, seed, got, want)
			}
		}
		if !slices.EqualFunc(x, orig, same) {
			t.Fatal("the input was reordered")
		}
	}
}

// The resampler's paired draws are rand.Rand's IntN stream.
func TestResamplerStream(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 0x5eed))
	r := NewResampler(3)
	for _, n := range []int{1, 2, 3, 7, 8, 60, 1 << 20, 1<<40 + 3} {
		for range 100 {
			if got, want := r.Indices(1), rng.IntN(1); got[0] != want {
				t.Fatalf("n=1: %d, want %d", got[0], want)
			}
			if got, want := r.rng.IntN(n), rng.IntN(n); got != want {
				t.Fatalf("n=%d: %d, want %d", n, got, want)
			}
		}
	}
}

// A resampler's Median, Indices and MedianAt give what they gave when
// they copied and sorted each resample, call after call on one stream,
// series taken in turn (more of them than it keeps ranked), NaN among the
// values, and a buffer refilled with other values between calls.
func TestResamplerSameNumbersAsBefore(t *testing.T) {
	data := rand.New(rand.NewPCG(11, 12))
	old := rand.New(rand.NewPCG(5, 0x5eed))
	r := NewResampler(5)
	var xs [][]float64
	for range maxRanked + 3 {
		xs = append(xs, randomSample(data, 1+data.IntN(40)))
	}
	buf := randomSample(data, 30)
	for k := range 3000 {
		x := xs[k%len(xs)]
		if k%7 == 0 {
			x = buf
			copy(buf, randomSample(data, len(buf)))
		}
		if k%2 == 0 {
			want := make([]float64, len(x))
			for i := range want {
				want[i] = x[old.IntN(len(x))]
			}
			if got, w := r.Median(x), refMedian(want); !same(got, w) {
				t.Fatalf("call %d: Median = %v, want %v", k, got, w)
			}
			continue
		}
		idx := r.Indices(len(x))
		var want []float64
		for _, i := range idx {
			if j := old.IntN(len(x)); j != i {
				t.Fatalf("call %d: index %d, want %d", k, i, j)
			}
			want = append(want, x[i])
		}
		if got, w := r.MedianAt(x, idx), refMedian(want); !same(got, w) {
			t.Fatalf("call %d: MedianAt = %v, want %v", k, got, w)
		}
	}
}

// Each way MedianCI reads resamples (lanes up to 127 values, bytes up to
// 255, words beyond) gives the numbers of the copy-and-sort bootstrap,
// odd and even counts, at the edges of each.
func TestMedianCIWays(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{2, 3, 4, 9, 25, 60, 126, 127, 128, 129, 254, 255, 256, 257} {
		for seed := range uint64(3) {
			x := make([]float64, n) // no NaN: exactly n values
			for i := range x {
				x[i] = float64(rng.IntN(n)) + 0.5*float64(rng.IntN(2)) // ties
			}
			got, want := MedianCI(x, 0.95, 203, seed), refMedianCI(x, 0.95, 203, seed)
			if !same(got.Est, want.Est) || !same(got.Lo, want.Lo) || !same(got.Hi, want.Hi) {
				t.Fatalf("n=%d seed %d: %v, want %v", n, seed, got, want)
			}
		}
	}
}
