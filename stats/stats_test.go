package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		x    []float64
		want float64
	}{
		{[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}, {[]float64{math.NaN(), 5}, 5},
	} {
		if got := Median(c.x); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	if !math.IsNaN(Median(nil)) {
		t.Error("Median(nil) is not NaN")
	}
}

// TestMedianCICoverage draws many samples from known distributions and
// checks that the 95 % interval contains the true median about 95 % of the
// time (the percentile bootstrap of a median is somewhat conservative or
// liberal by a few points at n = 60; anything from 88 % to 99 % passes,
// while a broken interval, e.g. one of the mean's standard error or a
// too-narrow one, lands far outside).
func TestMedianCICoverage(t *testing.T) {
	dists := map[string]struct {
		draw   func(r *rand.Rand) float64
		median float64
	}{
		"normal(10, 2)":   {func(r *rand.Rand) float64 { return 10 + 2*r.NormFloat64() }, 10},
		"exponential(1)":  {func(r *rand.Rand) float64 { return r.ExpFloat64() }, math.Ln2},
		"uniform(0, 100)": {func(r *rand.Rand) float64 { return 100 * r.Float64() }, 50},
	}
	for name, d := range dists {
		rng := rand.New(rand.NewPCG(1, 2))
		const reps, n = 300, 60
		hit := 0
		for k := 0; k < reps; k++ {
			x := make([]float64, n)
			for i := range x {
				x[i] = d.draw(rng)
			}
			ci := MedianCI(x, 0.95, 500, uint64(k))
			if !(ci.Lo <= ci.Est && ci.Est <= ci.Hi) {
				t.Fatalf("%s: estimate outside its interval: %v", name, ci)
			}
			if ci.Contains(d.median) {
				hit++
			}
		}
		cov := float64(hit) / reps
		if cov < 0.88 || cov > 0.99 {
			t.Errorf("%s: 95 %% interval covered the median in %.1f %% of %d samples", name, 100*cov, reps)
		}
	}
}

// TestMedianCIWidth: the interval narrows like 1/√n.
func TestMedianCIWidth(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	width := func(n int) float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		ci := MedianCI(x, 0.95, 1000, 1)
		return ci.Hi - ci.Lo
	}
	w100, w1600 := width(100), width(1600)
	if r := w100 / w1600; r < 2.5 || r > 6.5 {
		t.Errorf("width ratio n=100 / n=1600 = %.2f, want about 4", r)
	}
}

func TestMedianCIEdges(t *testing.T) {
	if ci := MedianCI(nil, 0.95, 10, 1); !math.IsNaN(ci.Est) {
		t.Errorf("empty: %v", ci)
	}
	if ci := MedianCI([]float64{7}, 0.95, 10, 1); ci != (Interval{7, 7, 7}) {
		t.Errorf("one value: %v", ci)
	}
	a := MedianCI([]float64{1, 2, 3, 4, 5, 9}, 0.95, 200, 42)
	b := MedianCI([]float64{1, 2, 3, 4, 5, 9}, 0.95, 200, 42)
	if a != b {
		t.Errorf("same seed, different intervals: %v, %v", a, b)
	}
	if !(Interval{1, 0, 2}).Overlaps(Interval{2, 2, 3}) || (Interval{1, 0, 1}).Overlaps(Interval{3, 2, 4}) {
		t.Error("Overlaps")
	}
}

// TestPairedResampling: two series measured in pairs, sharing a large
// common term, keep their pairs under Indices and MedianAt, so the
// interval of the difference of their medians is as narrow as the
// difference's own noise; resampled independently it carries the common
// term's spread too.
func TestPairedResampling(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, B = 60, 1000
	a, b := make([]float64, n), make([]float64, n)
	for i := range a {
		common := 20 * rng.NormFloat64()
		a[i] = 100 + common + 0.1*rng.NormFloat64()
		b[i] = 103 + common + 0.1*rng.NormFloat64()
	}
	paired, indep := make([]float64, B), make([]float64, B)
	r := NewResampler(1)
	for k := range paired {
		idx := r.Indices(n)
		paired[k] = r.MedianAt(b, idx) - r.MedianAt(a, idx)
		indep[k] = r.Median(b) - r.Median(a)
	}
	plo, phi := Percentiles(paired, 0.95)
	ilo, ihi := Percentiles(indep, 0.95)
	if !(plo > 0 && phi-plo < 0.25*(ihi-ilo)) {
		t.Errorf("paired interval of the difference [%.3f, %.3f], independent [%.3f, %.3f]: want the paired one above 0 and far narrower", plo, phi, ilo, ihi)
	}
	if ilo > 0 {
		t.Errorf("independent interval [%.3f, %.3f] should not resolve a 3-unit difference under a 20-unit common spread", ilo, ihi)
	}
	if m := r.MedianAt(a, nil); !math.IsNaN(m) {
		t.Errorf("no indices: %v", m)
	}
}
