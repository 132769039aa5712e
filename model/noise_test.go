package model_test

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// noisySweep returns 30 trials of every handoff configuration of policies
// whose time is exactly F + R·G plus Gaussian noise of sd ms, at one size
// and R = 1, 2, 4, 8, 16, 32 (G from the gpu_only rows).
func noisySweep(params map[string][2]float64, sd float64, seed uint64) []results.Row {
	rng := rand.New(rand.NewPCG(seed, 9))
	var rows []results.Row
	for _, p := range slices.Sorted(maps.Keys(params)) {
		fg := params[p]
		for i := 0; i < 30; i++ {
			rows = append(rows, handoffRow(p, "gpu_only", gib, 1, fg[1]+sd/100*rng.NormFloat64()))
			for _, r := range []int64{1, 2, 4, 8, 16, 32} {
				rows = append(rows, handoffRow(p, "alternating", gib, r, fg[0]+float64(r)*fg[1]+sd*rng.NormFloat64()))
			}
		}
	}
	return rows
}

// crossoverVerdict returns the verdict on a and b's crossover and checks
// that Stated agrees with it: true exactly where a crossover is stated.
func crossoverVerdict(t *testing.T, rep *model.Report, a, b string) string {
	t.Helper()
	for _, c := range rep.Crossovers {
		if (c.A == a && c.B == b) || (c.A == b && c.B == a) {
			if stated := strings.Contains(c.Verdict, "faster below R* ="); c.Stated != stated {
				t.Errorf("%s/%s: Stated %v for %q", a, b, c.Stated, c.Verdict)
			}
			// Throughout names the policy the verdict says is faster throughout, or is empty.
			if said := strings.Contains(c.Verdict, c.Throughout+" faster throughout"); (c.Throughout != "") != said {
				t.Errorf("%s/%s: Throughout %q for %q", a, b, c.Throughout, c.Verdict)
			}
			return c.Verdict
		}
	}
	t.Fatalf("no crossover %s/%s", a, b)
	return ""
}

// TestCrossoverRules: a crossover is stated only inside the measured R range
// and beyond noise; otherwise the verdict says there is none and why.
func TestCrossoverRules(t *testing.T) {
	// A: F 100, G 1. B: F 60, G 11 → R* = 4, far apart at R = 1 and 32.
	// C: F 100, G 1.0005 against A → R* far outside 1…32 (the "72483" case).
	rows := noisySweep(map[string][2]float64{"a": {100, 1}, "b": {60, 11}, "c": {99.99, 1.0005}}, 0.5, 1)
	rep, err := model.Fit(rows, model.Options{Resamples: 400})
	if err != nil {
		t.Fatal(err)
	}
	if v := crossoverVerdict(t, rep, "a", "b"); !(strings.HasPrefix(v, "b faster below R* = 4.0") || strings.HasPrefix(v, "b faster below R* = 3.9")) || !strings.Contains(v, "a above") {
		t.Errorf("a/b: %q, want b faster below R* ≈ 4, a above", v)
	}
	if v := crossoverVerdict(t, rep, "a", "c"); !strings.HasPrefix(v, "no crossover within R = 1…32") {
		t.Errorf("a/c: %q, want no crossover within the measured range", v)
	}
	// b is fastest at R = 2 (82 against 102 ms), a or c (a near tie) above
	// R* = 4: always naming one policy scores at most 3 of 5.
	if rep.BestConstantMatches > 3 || !rep.Discriminates() || !strings.Contains(rep.Headline(), "so the model discriminates") {
		t.Errorf("crossing policies: model %d of %d, constant %s %d, headline %q; want at most 3 for the constant, discriminating",
			rep.Matches, rep.Compared, rep.BestConstant, rep.BestConstantMatches, rep.Headline())
	}
	// The same lines under noise larger than their difference at R = 1.
	rows = noisySweep(map[string][2]float64{"a": {1000, 1}, "b": {999, 1.3}}, 40, 2)
	rep, err = model.Fit(rows, model.Options{Resamples: 400})
	if err != nil {
		t.Fatal(err)
	}
	if v := crossoverVerdict(t, rep, "a", "b"); !strings.Contains(v, "within noise") {
		t.Errorf("noisy a/b: %q, want within noise", v)
	}
}

// TestFastestDecisive: points where the two fastest policies overlap do not
// count; the constant predictor's score is reported.
func TestFastestDecisive(t *testing.T) {
	// x is fastest everywhere by far; y and z tie closely behind it... then
	// y, z alone: a tie at every R.
	rows := noisySweep(map[string][2]float64{"x": {10, 1}, "y": {200, 1}, "z": {200.01, 1}}, 1, 3)
	rep, err := model.Fit(rows, model.Options{Resamples: 400, MinSizeBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Decisive != 5 || rep.DecisiveMatches != 5 || rep.ConstantPolicy != "x" || rep.ConstantMatches != 5 {
		t.Errorf("x clearly fastest: decisive %d, matches %d, constant %s %d; want 5, 5, x 5",
			rep.Decisive, rep.DecisiveMatches, rep.ConstantPolicy, rep.ConstantMatches)
	}
	// Naming x everywhere scores as well as the model: it does not discriminate.
	if rep.BestConstant != "x" || rep.BestConstantMatches != rep.Matches || rep.Discriminates() || !strings.Contains(rep.Headline(), "always naming x scores 5 of 5, so the model does not discriminate") {
		t.Errorf("x clearly fastest: constant %s %d against %d, headline %q; want x, not discriminating", rep.BestConstant, rep.BestConstantMatches, rep.Matches, rep.Headline())
	}
	rows = noisySweep(map[string][2]float64{"y": {200, 1}, "z": {200.01, 1}}, 1, 4)
	rep, err = model.Fit(rows, model.Options{Resamples: 400, MinSizeBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Compared != 5 || rep.Decisive != 0 {
		t.Errorf("tied policies: compared %d, decisive %d; want 5, 0", rep.Compared, rep.Decisive)
	}
	if !(rep.MedianAPECI.Lo <= rep.MedianAPE && rep.MedianAPE <= rep.MedianAPECI.Hi) {
		t.Errorf("median APE %v outside its interval %v", rep.MedianAPE, rep.MedianAPECI)
	}
	for _, p := range rep.Points {
		if !(p.APECI.Lo <= p.APE && p.APE <= p.APECI.Hi) || !(p.MeasuredCI.Lo <= p.MeasuredMs && p.MeasuredMs <= p.MeasuredCI.Hi) {
			t.Errorf("point %s R=%d: estimate outside its interval: APE %v %v, measured %v %v", p.Policy, p.R, p.APE, p.APECI, p.MeasuredMs, p.MeasuredCI)
		}
	}
}

// TestFDependsOnR: a policy whose alternating time is not affine in R gets
// a note; an affine one does not.
func TestFDependsOnR(t *testing.T) {
	rows := noisySweep(map[string][2]float64{"affine": {100, 1}, "other": {50, 2}, model.Managed: {300, 0.5}}, 0.2, 5)
	for i, r := range rows {
		if (r.Policy == "other" || r.Policy == model.Managed) && r.Phase == "alternating" && r.ReusePasses == 32 {
			rows[i].TotalMs -= 20 // cheaper handoff at high R
		}
	}
	counted := func(r int64, htod, groups float64) model.Counted {
		c := handoffRow(model.Managed, "alternating", gib, r, 0)
		return model.Counted{Config: c, HtoDBytes: htod, GPUFaultGroups: groups}
	}
	rep, err := model.Fit(rows, model.Options{Resamples: 400, Counted: []model.Counted{counted(1, float64(gib), 9000), counted(32, float64(gib/2), 4000)}})
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(rep.Notes, "\n")
	if !strings.Contains(notes, "other 1 GiB: F depends on R") || strings.Contains(notes, "affine 1 GiB: F depends") {
		t.Errorf("notes:\n%s", notes)
	}
	if !strings.Contains(notes, "R = 1: 1 GiB host to device, 9000 GPU fault groups; R = 32: 512 MiB host to device, 4000 GPU fault groups") {
		t.Errorf("managed note lacks the counter evidence:\n%s", notes)
	}
}

// TestAPEIntervalCoversNoiseOnlyError: when the model is exact and the
// points miss it only by measurement noise, the points' APE intervals
// contain both the measured APE and the true one, 0. (Absolute errors
// resampled from noisy data sit above the measured ones: percentile
// intervals of the APE itself exclude both; the intervals come from the
// signed errors.) The aggregate's interval, a bootstrap of the aggregate
// itself, holds its estimate and reaches below half of it, towards the
// true 0.
func TestAPEIntervalCoversNoiseOnlyError(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		rows := noisySweep(map[string][2]float64{"a": {100, 1}, "b": {50, 3}}, 1, seed)
		rep, err := model.Fit(rows, model.Options{Resamples: 400, MinSizeBytes: 1})
		if err != nil {
			t.Fatal(err)
		}
		if ci := rep.MedianAPECI; !ci.Contains(rep.MedianAPE) || ci.Lo > rep.MedianAPE/2 {
			t.Errorf("seed %d: median APE %.3f %%, interval %v: want it inside and the interval below half of it", seed, rep.MedianAPE, ci)
		}
		holds := 0
		for _, p := range rep.Points {
			if !p.APECI.Contains(p.APE) {
				t.Errorf("seed %d: %s R=%d: APE %.3f %% outside its interval %v", seed, p.Policy, p.R, p.APE, p.APECI)
			}
			if p.APECI.Contains(0) {
				holds++
			}
		}
		if holds < len(rep.Points)*3/4 {
			t.Errorf("seed %d: the true APE, 0, is inside %d of %d point intervals", seed, holds, len(rep.Points))
		}
		for _, c := range rep.Calibration {
			if !c.MedianAPECI.Contains(c.MedianAPE) {
				t.Errorf("seed %d: %s: median APE %.3f %% outside %v", seed, c.Policy, c.MedianAPE, c.MedianAPECI)
			}
		}
	}
}

// sweepRows returns 40 rounds of an exact F + R·G sweep (R = 1…32) whose
// rounds share a common term of sd ms (the host's state of those seconds)
// on top of 0.05 ms of noise per trial, with 40 GPU-only trials. round
// says whether the rows carry their rounds, as umkit's sweeps write them.
func sweepRows(policy string, f, g, sd float64, round bool, seed uint64) []results.Row {
	rng := rand.New(rand.NewPCG(seed, 11))
	var rows []results.Row
	for i := 0; i < 40; i++ {
		rows = append(rows, handoffRow(policy, "gpu_only", gib, 1, g))
		common := sd * rng.NormFloat64()
		for pos, r := range []int64{1, 2, 4, 8, 16, 32} {
			row := handoffRow(policy, "alternating", gib, r, f+float64(r)*g+common+0.05*rng.NormFloat64())
			row.Trial, row.Repetition, row.RunID = int64(i%20), int64(i/20), "run"
			if round {
				row.Order, row.RoundPosition = "interleaved", int64(pos+1)
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// TestPairedSweepIntervals: trials measured in rounds are resampled round
// by round, so a host state common to a round, which moves every R alike,
// does not widen the intervals of the model's errors; the same values
// without rounds are resampled R by R and their intervals carry it.
func TestPairedSweepIntervals(t *testing.T) {
	fit := func(round bool) *model.Report {
		rows := append(sweepRows(model.ExplicitCopy, 200, 0.5, 10, round, 1), sweepRows(model.HostMapped, 150, 26, 10, round, 2)...)
		rep, err := model.Fit(rows, model.Options{Resamples: 400})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	p, u := fit(true), fit(false)
	if p.PairedSweeps != 2 || u.PairedSweeps != 0 {
		t.Errorf("paired sweeps: %d with rounds, %d without; want 2 and 0", p.PairedSweeps, u.PairedSweeps)
	}
	if !(p.MedianAPECI.Hi < 0.5 && u.MedianAPECI.Hi > 2*p.MedianAPECI.Hi) {
		t.Errorf("median APE interval with rounds %v, without %v: want the first under 0.5 %% and far narrower", p.MedianAPECI, u.MedianAPECI)
	}
	var out strings.Builder
	if err := p.WriteTable(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "sweeps of 2 policy–size pairs resampled round by round") {
		t.Errorf("the table does not say how it resampled:\n%s", out.String())
	}
	if h := p.Headline(); !strings.HasPrefix(h, "median APE ") || !strings.Contains(h, "% (95 % CI 0.00–") || !strings.Contains(h, "beyond noise)") {
		t.Errorf("headline %q: want the median APE with its interval and the count beyond noise", h)
	}
	rows := sweepRows(model.ExplicitCopy, 200, 0.5, 10, true, 1)
	rep, err := model.Fit(append(rows, sweepRows(model.HostMapped, 150, 26, 10, true, 2)...), model.Options{Resamples: -1})
	if err != nil {
		t.Fatal(err)
	}
	if h := rep.Headline(); strings.Contains(h, "CI") || strings.Contains(h, "noise") || !strings.Contains(h, "fastest policy named at 5 of 5 points") {
		t.Errorf("headline without intervals %q", h)
	}
}

// TestMissWithinNoise: a policy missing by more than 2 % only because its
// medians are noisy is noted as within noise.
func TestMissWithinNoise(t *testing.T) {
	rows := noisySweep(map[string][2]float64{"a": {100, 1}, "b": {50, 3}}, 6, 3)
	for i := range rows { // parts, so the note can split the misses
		if rows[i].Phase == "alternating" {
			rows[i].CPUMs, rows[i].KernelMs, rows[i].SyncMs = rows[i].TotalMs-float64(rows[i].ReusePasses), float64(rows[i].ReusePasses), 0
		}
	}
	rep, err := model.Fit(rows, model.Options{Resamples: 400, MinSizeBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(rep.Notes, "\n")
	for _, c := range rep.Calibration {
		if c.MedianAPE > model.MissAPE && !strings.Contains(notes, c.Policy+" 1 GiB: median APE") {
			t.Errorf("%s misses by %.2f %% without a note:\n%s", c.Policy, c.MedianAPE, notes)
		}
	}
	if !strings.Contains(notes, "within the noise of its medians") {
		t.Errorf("misses from noise alone not called noise:\n%s", notes)
	}
}

// TestCalibrationSpread: the report describes the R = 1 trials at the
// largest size as they were drawn: Gaussian noise of sd 2 ms on 1 s
// spreads by 2·1.2816·sd (10th to 90th percentile), 0.51 % of the median,
// and the median of 30 trials is known to about ±1.2533·1.96·sd/√30.
func TestCalibrationSpread(t *testing.T) {
	rows := noisySweep(map[string][2]float64{"a": {999, 1}, "b": {499, 1}}, 2, 3)
	rep, err := model.Fit(rows, model.Options{Resamples: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Spread) != 2 {
		t.Fatalf("Spread has %d policies, want 2: %+v", len(rep.Spread), rep.Spread)
	}
	for _, s := range rep.Spread {
		total := map[string]float64{"a": 1000, "b": 500}[s.Policy]
		if s.SizeBytes != gib || s.Trials != 30 {
			t.Errorf("%s: size %d, %d trials; want 1 GiB, 30", s.Policy, s.SizeBytes, s.Trials)
		}
		if want := 100 * 2 * 1.2816 * 2 / total; s.SpreadPct() < want/2 || s.SpreadPct() > want*2 {
			t.Errorf("%s: spread %.3f %%, want about %.3f %%", s.Policy, s.SpreadPct(), want)
		}
		half := 100 * 1.2533 * 1.96 * 2 / 5.477 / total
		for _, v := range []float64{s.BelowPct(), s.AbovePct()} {
			if v < half/3 || v > half*3 {
				t.Errorf("%s: the median's interval reaches %.3f %% (below %.3f, above %.3f), want about %.3f %%", s.Policy, v, s.BelowPct(), s.AbovePct(), half)
			}
		}
	}
	var b strings.Builder
	if err := rep.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "calibration noise: at 1 GiB and R = 1 the 30 alternating trials of a policy spread by") {
		t.Errorf("the table does not describe the calibration's noise:\n%s", b.String())
	}
	// Without intervals there is nothing to describe.
	rep, err = model.Fit(rows, model.Options{Resamples: -1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Spread != nil {
		t.Errorf("Spread without intervals: %+v", rep.Spread)
	}
}
