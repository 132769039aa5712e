package model_test

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

var (
	sizes    = []int64{64 * kib, 2 * mib, 16 * mib, 64 * mib, 256 * mib, gib}
	reuses   = []int64{1, 2, 4, 8, 16, 32}
	policies = []string{model.ExplicitCopy, model.HostMapped, model.Managed, model.ManagedPrefetch}
)

// truth is a synthetic device: F and G grow linearly with size from a fixed
// overhead, with per-GiB slopes shaped like Table III.
func truth(policy string, size int64) (f, g float64) {
	gb := float64(size) / float64(gib)
	switch policy {
	case model.ExplicitCopy:
		return 0.05 + 60*gb, 0.01 + 0.4*gb
	case model.HostMapped:
		return 0.04 + 55*gb, 0.01 + 5.1*gb
	case model.Managed:
		return 0.2 + 270*gb, 0.01 + 0.4*gb
	}
	return 0.1 + 79*gb, 0.01 + 0.48*gb
}

// synthRows emits handoff rows from truth: 20 trials × 3 repetitions per
// configuration, each multiplied by 1 + noise·u with u uniform in [−1, 1].
func synthRows(noise float64) []results.Row {
	rng := rand.New(rand.NewPCG(1, 2))
	var rows []results.Row
	emit := func(p, phase string, s, r int64, ms float64) {
		for rep := range 3 {
			for trial := range 20 {
				row := handoffRow(p, phase, s, r, ms*(1+noise*(2*rng.Float64()-1)))
				row.Repetition, row.Trial = int64(rep), int64(trial)
				rows = append(rows, row)
			}
		}
	}
	for _, p := range policies {
		for _, s := range sizes {
			f, g := truth(p, s)
			emit(p, "cpu_only", s, 1, f/2)
			emit(p, "gpu_only", s, 1, g)
			for _, r := range reuses {
				emit(p, "alternating", s, r, f+float64(r)*g)
			}
		}
	}
	return rows
}

func TestCalibrateExact(t *testing.T) {
	rep, err := model.Fit(synthRows(0), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Calibration) != len(policies)*len(sizes) {
		t.Fatalf("%d calibrations", len(rep.Calibration))
	}
	for _, c := range rep.Calibration {
		f, g := truth(c.Policy, c.SizeBytes)
		if math.Abs(c.F-f) > 1e-9*f || math.Abs(c.G-g) > 1e-12 {
			t.Errorf("%s %d: F, G = %g, %g; want %g, %g", c.Policy, c.SizeBytes, c.F, c.G, f, g)
		}
		if c.Points != len(reuses)-1 || c.MaxAPE > 1e-9 {
			t.Errorf("%s %d: %d points, max APE %g", c.Policy, c.SizeBytes, c.Points, c.MaxAPE)
		}
	}
	if rep.Compared != 4*5 || rep.Matches != rep.Compared {
		t.Errorf("fastest matched %d of %d, want 20 of 20", rep.Matches, rep.Compared)
	}
	if len(rep.Fastest) != len(sizes)*5 {
		t.Errorf("%d fastest checks, want %d", len(rep.Fastest), len(sizes)*5)
	}
	// The model keeps the largest R it was calibrated with (32): advice beyond it says so.
	a, err := model.Advise(rep.Model, model.Workload{SizeBytes: sizes[0], Reuse: 64})
	if err != nil || !strings.Contains(strings.Join(a.Warnings, "\n"), "beyond R = 32, the largest reuse validated in the calibration data") {
		t.Errorf("advice at R = 64: %v, warnings %q", err, a.Warnings)
	}
}

// With ±2 % uniform noise on every trial, the median of 60 trials is within
// a fraction of a percent of the truth, and so are F and G.
func TestCalibrateNoisy(t *testing.T) {
	const noise = 0.02
	rep, err := model.Fit(synthRows(noise), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Calibration {
		f, g := truth(c.Policy, c.SizeBytes)
		// F = T(1) − G: its error is at most that of T(1) plus that of G.
		tolG := noise / 2 * g
		tolF := noise/2*(f+g) + tolG
		if math.Abs(c.G-g) > tolG || math.Abs(c.F-f) > tolF {
			t.Errorf("%s %d: F = %g (want %g ± %g), G = %g (want %g ± %g)", c.Policy, c.SizeBytes, c.F, f, tolF, c.G, g, tolG)
		}
		if c.MedianAPE > 100*noise || c.MaxAPE > 2*100*noise {
			t.Errorf("%s %d: APE median %g max %g", c.Policy, c.SizeBytes, c.MedianAPE, c.MaxAPE)
		}
	}
	if rep.MedianAPE > 100*noise/2 {
		t.Errorf("aggregate median APE %g %%", rep.MedianAPE)
	}
	if rep.Matches != rep.Compared {
		t.Errorf("fastest matched %d of %d", rep.Matches, rep.Compared)
	}
}

// withMeasured replaces the alternating time of one configuration.
func withMeasured(rows []results.Row, policy string, size, r int64, ms float64) []results.Row {
	out := append([]results.Row(nil), rows...)
	for i := range out {
		x := &out[i]
		if x.Policy == policy && x.SizeBytes == size && x.Phase == "alternating" && x.ReusePasses == r {
			x.TotalMs = ms
		}
	}
	return out
}

func TestValidationAPEAndFastest(t *testing.T) {
	f, g := truth(model.ExplicitCopy, gib)
	want := f + 8*g
	// Explicit copy measured 10 % slow at 1 GiB, R = 8: APE = 100·0.1/1.1.
	rows := withMeasured(synthRows(0), model.ExplicitCopy, gib, 8, 1.1*want)
	// Host-mapped measured 1 ms at 16 MiB, R = 2: it becomes the measured
	// fastest there, which the model does not predict.
	rows = withMeasured(rows, model.HostMapped, 16*mib, 2, 1)
	rep, err := model.Fit(rows, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, p := range rep.Points {
		if p.Policy == model.ExplicitCopy && p.SizeBytes == gib && p.R == 8 {
			found = true
			if math.Abs(p.APE-100*0.1/1.1) > 1e-9 || p.Trials != 60 {
				t.Errorf("point %+v, want APE %g over 60 trials", p, 100*0.1/1.1)
			}
		}
	}
	if !found {
		t.Fatal("no explicit_copy 1 GiB R=8 point")
	}
	for _, c := range rep.Calibration {
		if c.Policy == model.ExplicitCopy && c.SizeBytes == gib {
			if math.Abs(c.MaxAPE-100*0.1/1.1) > 1e-9 || c.MedianAPE > 1e-9 {
				t.Errorf("explicit 1 GiB: median %g max %g", c.MedianAPE, c.MaxAPE)
			}
		}
	}
	if rep.Compared != 20 || rep.Matches != 19 {
		t.Errorf("fastest matched %d of %d, want 19 of 20", rep.Matches, rep.Compared)
	}
	var buf bytes.Buffer
	if err := rep.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "mismatch at 16 MiB, R = 2: predicted explicit_copy, measured host_mapped") {
		t.Errorf("table does not report the mismatch:\n%s", buf.String())
	}
}

// The aggregate leaves out sizes below MinSizeBytes (Section VIII-C excludes
// 64 KiB and 2 MiB); MinSizeBytes = 1 counts them.
func TestMinSizeCut(t *testing.T) {
	rows := withMeasured(synthRows(0), model.Managed, 64*kib, 2, 1000)
	rows = withMeasured(rows, model.Managed, 64*kib, 4, 1000)
	rows = withMeasured(rows, model.Managed, 64*kib, 8, 1000)
	def, err := model.Fit(rows, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if def.MinSizeBytes != 16*mib || def.MedianAPE > 1e-9 || def.Matches != def.Compared {
		t.Errorf("default cut: min %d, median APE %g, matched %d of %d", def.MinSizeBytes, def.MedianAPE, def.Matches, def.Compared)
	}
	all, err := model.Fit(rows, model.Options{MinSizeBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	if all.Compared != 30 {
		t.Errorf("no cut: %d compared, want 30", all.Compared)
	}
}

func TestErrors(t *testing.T) {
	good := synthRows(0)
	drop := func(keep func(r results.Row) bool) []results.Row {
		var out []results.Row
		for _, r := range good {
			if keep(r) {
				out = append(out, r)
			}
		}
		return out
	}
	negative := append([]results.Row(nil), good...)
	negative[5].TotalMs = -1
	noPolicy := append([]results.Row(nil), good...)
	noPolicy[7].Policy = ""
	gh := append([]results.Row(nil), good...)
	gh[0].Platform = "GH200"
	other := results.NewRow()
	other.Group, other.Benchmark, other.Mode, other.SizeBytes, other.GBps = "hbm", "triad", "explicit", gib, 3963
	for _, c := range []struct {
		name string
		rows []results.Row
		want string
	}{
		{"empty", nil, "no handoff rows"},
		{"other groups only", []results.Row{other}, "no handoff rows"},
		{"no gpu_only", drop(func(r results.Row) bool { return r.Phase != "gpu_only" }), "no gpu_only handoff rows"},
		{"missing R=1 of one policy", drop(func(r results.Row) bool {
			return !(r.Policy == model.Managed && r.SizeBytes == gib && r.Phase == "alternating" && r.ReusePasses == 1)
		}), "managed 1 GiB: no alternating rows with reuse_passes = 1"},
		{"missing gpu_only of one policy", drop(func(r results.Row) bool {
			return !(r.Policy == model.HostMapped && r.SizeBytes == 16*mib && r.Phase == "gpu_only")
		}), "host_mapped 16 MiB: no gpu_only rows"},
		{"single R", drop(func(r results.Row) bool { return r.Phase != "alternating" || r.ReusePasses == 1 }), "only at R = 1"},
		{"one policy", drop(func(r results.Row) bool { return r.Policy == model.Managed }), "at least two"},
		{"negative time", negative, "not a valid time"},
		{"no policy", noPolicy, "has no policy"},
		{"two platforms", gh, "several platforms (GB200, GH200)"},
	} {
		_, err := model.Fit(c.rows, model.Options{})
		if err == nil || !errors.Is(err, model.ErrBadInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	partial := drop(func(r results.Row) bool { return !(r.Policy == model.ManagedPrefetch && r.SizeBytes == 2*mib) })
	if _, err := model.Fit(partial, model.Options{}); err != nil {
		t.Errorf("a policy missing at one size, nothing required: %v", err)
	}
	_, err := model.Fit(partial, model.Options{Require: policies})
	if err == nil || !strings.Contains(err.Error(), "required policies missing: managed_prefetch at 2 MiB") {
		t.Errorf("required policy missing: %v", err)
	}
	for _, c := range []struct {
		name   string
		params []model.Param
		want   string
	}{
		{"none", nil, "no parameters"},
		{"negative F", []model.Param{{Policy: "a", SizeBytes: 1, F: -1, G: 1}}, "negative"},
		{"NaN G", []model.Param{{Policy: "a", SizeBytes: 1, F: 1, G: math.NaN()}}, "not finite"},
		{"no policy", []model.Param{{SizeBytes: 1, F: 1, G: 1}}, "no policy"},
		{"no size", []model.Param{{Policy: "a", F: 1, G: 1}}, "not positive"},
		{"twice", []model.Param{{Policy: "a", SizeBytes: 1, F: 1, G: 1}, {Policy: "a", SizeBytes: 1, F: 2, G: 1}}, "twice"},
	} {
		_, err := model.NewModel(c.params)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewModel %s: error %v, want %q", c.name, err, c.want)
		}
	}
	m, _ := model.NewModel(tableIII)
	for _, w := range []model.Workload{{SizeBytes: 0, Reuse: 1}, {SizeBytes: gib, Reuse: -1}, {SizeBytes: gib, Reuse: math.NaN()}, {SizeBytes: gib}} {
		if _, err := model.Advise(m, w); err == nil {
			t.Errorf("Advise(%+v): no error", w)
		}
	}
	if _, err := m.At("system", gib); err == nil {
		t.Error("At of an uncalibrated policy: no error")
	}
}

// Waived rows and rows without a total_ms are not measurements.
func TestSkipsWaivedAndNaN(t *testing.T) {
	rows := synthRows(0)
	w := handoffRow(model.ExplicitCopy, "gpu_only", gib, 1, 1e6)
	w.Waived = true
	n := handoffRow(model.ExplicitCopy, "gpu_only", gib, 1, math.NaN())
	rep, err := model.Fit(append(rows, w, n), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.MedianAPE > 1e-9 {
		t.Errorf("median APE %g", rep.MedianAPE)
	}
}

func TestCrossoverKinds(t *testing.T) {
	p := func(name string, f, g float64) model.Param {
		return model.Param{Policy: name, SizeBytes: gib, F: f, G: g}
	}
	for _, c := range []struct {
		a, b         model.Param
		kind         model.CrossoverKind
		parallel     bool
		r            float64
		below, above string
	}{
		{p("a", 1, 2), p("b", 3, 1), model.Crosses, false, 2, "a", "b"},
		{p("a", 3, 1), p("b", 1, 2), model.Crosses, false, 2, "b", "a"},
		{p("a", 1, 1), p("b", 2, 2), model.AAlways, false, -1, "a", "a"},
		{p("a", 2, 2), p("b", 1, 1), model.ANever, false, -1, "b", "b"},
		{p("a", 1, 1), p("b", 2, 1), model.AAlways, true, math.NaN(), "a", "a"},
		{p("a", 2, 1), p("b", 1, 1), model.ANever, true, math.NaN(), "b", "b"},
		{p("a", 1, 1), p("b", 1, 1), model.Same, true, math.NaN(), "", ""},
		{p("a", 1, 1), p("b", 1, 2), model.AAlways, false, 0, "a", "a"},
	} {
		got := model.CrossoverOf(c.a, c.b)
		sameR := got.R == c.r || (math.IsNaN(got.R) && math.IsNaN(c.r))
		if got.Kind != c.kind || got.Parallel != c.parallel || !sameR || got.Below != c.below || got.Above != c.above {
			t.Errorf("CrossoverOf(%v, %v) = %+v", c.a, c.b, got)
		}
		// Faster agrees with the two lines wherever they differ.
		for _, r := range []float64{0.5, 1, 1.5, 3, 100} {
			ta, tb := c.a.Time(r), c.b.Time(r)
			want := ""
			if ta < tb {
				want = "a"
			} else if tb < ta {
				want = "b"
			}
			if f := got.Faster(r); f != want {
				t.Errorf("%v vs %v at R=%g: Faster = %q, want %q", c.a, c.b, r, f, want)
			}
		}
	}
}

func TestAt(t *testing.T) {
	m, err := model.NewModel([]model.Param{
		{Policy: "p", SizeBytes: 16 * mib, F: 2, G: 1},
		{Policy: "p", SizeBytes: 64 * mib, F: 8, G: 4},
		{Policy: "q", SizeBytes: 64 * mib, F: 10, G: 2},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		policy string
		size   int64
		how    model.How
		f, g   float64
	}{
		{"p", 16 * mib, model.Calibrated, 2, 1},
		{"p", 32 * mib, model.Interpolated, 4, 2},
		{"p", 40 * mib, model.Interpolated, 5, 2.5},
		{"p", 128 * mib, model.Extrapolated, 16, 8}, // along the line through 16 and 64 MiB
		{"p", 1 * mib, model.Extrapolated, 2, 1},    // held at the smallest size
		{"q", 128 * mib, model.Extrapolated, 20, 4}, // one size: proportional
		{"q", 32 * mib, model.Extrapolated, 10, 2},
	} {
		e, err := m.At(c.policy, c.size)
		if err != nil {
			t.Fatal(err)
		}
		if e.How != c.how || math.Abs(e.F-c.f) > 1e-12 || math.Abs(e.G-c.g) > 1e-12 {
			t.Errorf("At(%s, %d) = %+v, want %v F=%g G=%g", c.policy, c.size, e, c.how, c.f, c.g)
		}
		if e.Note == "" {
			t.Errorf("At(%s, %d): no note", c.policy, c.size)
		}
	}
}
