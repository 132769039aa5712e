package model

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/umlab/umlab/stats"
)

// minTrialsForCI is the fewest trials per configuration the bootstrap
// intervals are computed from.
const minTrialsForCI = 5

// noise adds 95 % bootstrap intervals to a validated report. Each of B
// replicates resamples every configuration's trials; a fitted model is
// recalibrated on each, so the intervals carry the calibration's noise.
func (h *handoff) noise(m *Model, rep *Report, o Options) {
	B := cmp.Or(o.Resamples, stats.DefaultResamples)
	fewest := math.MaxInt
	for _, v := range h.vals {
		fewest = min(fewest, len(v))
	}
	if B < 0 || fewest < minTrialsForCI {
		if B >= 0 {
			rep.Notes = append(rep.Notes, fmt.Sprintf("no confidence intervals: a configuration has %d trials (the bootstrap needs at least %d)", fewest, minTrialsForCI))
		}
		rep.judgeCrossovers(nil, B)
		return
	}
	paired := h.pairedSweeps()
	med := h.replicates(B, cmp.Or(o.Seed, 1), paired)
	rep.PairedSweeps = len(paired)
	param := func(p string, s int64, b int) (float64, float64) {
		if m.fitted {
			g, t1 := med[hkey{p, phaseGPU, s, 0}], med[hkey{p, phaseAlt, s, 1}]
			if g != nil && t1 != nil {
				return t1[b] - g[b], g[b]
			}
		}
		e, err := m.At(p, s)
		if err != nil {
			return math.NaN(), math.NaN()
		}
		return e.F, e.G
	}
	errs := rep.pointCIs(med, param, B)
	// The aggregate and per-calibration median APE are bootstrapped
	// whole: each replicate's median over its points' absolute errors.
	rep.MedianAPECI = medianAPECI(rep.MedianAPE, rep.Points, errs, B, func(p Point) bool { return p.SizeBytes >= rep.MinSizeBytes })
	for i := range rep.Calibration {
		c := &rep.Calibration[i]
		if c.Points > 0 {
			c.MedianAPECI = medianAPECI(c.MedianAPE, rep.Points, errs, B, func(p Point) bool { return p.Policy == c.Policy && p.SizeBytes == c.SizeBytes })
		}
	}
	h.decisive(rep, med)
	rep.Spread = h.spread(med)
	rep.judgeCrossovers(param, B)
	h.checkFConstant(rep, med, B, o.Counted, paired)
}

// replicateParam returns bootstrap replicate b's F and G of a policy at a size.
type replicateParam func(p string, s int64, b int) (f, g float64)

// pointCIs sets every point's intervals and returns its signed errors,
// replicate by replicate. An APE's interval is the signed one's image
// under |·|: noise only adds to an absolute value, so an interval of the
// resampled APE would exclude a true error of 0 when the miss is small.
func (rep *Report) pointCIs(med map[hkey][]float64, param replicateParam, B int) [][]float64 {
	errs := make([][]float64, len(rep.Points))
	for i := range rep.Points {
		pt := &rep.Points[i]
		meas := med[hkey{pt.Policy, phaseAlt, pt.SizeBytes, pt.R}]
		e := make([]float64, B)
		for b := range e {
			f, g := param(pt.Policy, pt.SizeBytes, b)
			e[b] = 100 * (f + float64(pt.R)*g - meas[b]) / meas[b]
		}
		lo, hi := stats.Percentiles(e, stats.DefaultLevel)
		pt.MeasuredCI, pt.APECI = replicateCI(pt.MeasuredMs, meas), absInterval(pt.APE, lo, hi)
		errs[i] = e
	}
	return errs
}

// decisive marks the fastest-policy checks whose two best measured
// policies' intervals are apart, and counts them.
func (h *handoff) decisive(rep *Report, med map[hkey][]float64) {
	for i := range rep.Fastest {
		c := &rep.Fastest[i]
		type pm struct {
			policy string
			ci     stats.Interval
		}
		var ps []pm
		for _, p := range h.policies {
			k := hkey{p, phaseAlt, c.SizeBytes, c.R}
			if v, ok := h.med[k]; ok && med[k] != nil {
				ps = append(ps, pm{p, replicateCI(v, med[k])})
			}
		}
		if len(ps) < 2 {
			continue
		}
		slices.SortFunc(ps, func(a, b pm) int { return cmp.Compare(a.ci.Est, b.ci.Est) })
		c.Second = ps[1].policy
		c.Decisive = ps[0].ci.Hi < ps[1].ci.Lo
	}
	decisive := func(c FastestCheck) bool { return c.Included && c.Decisive }
	rep.Decisive, rep.DecisiveMatches, rep.ConstantPolicy, rep.ConstantMatches = rep.score(decisive)
}

// replicates returns B bootstrap replicates of every configuration's
// median, in a fixed order so that a seed gives the same replicates.
func (h *handoff) replicates(B int, seed uint64, paired map[hkey]sweep) map[hkey][]float64 {
	keys := slices.SortedFunc(maps.Keys(h.vals), func(a, b hkey) int {
		return cmp.Or(cmp.Compare(a.policy, b.policy), cmp.Compare(a.phase, b.phase), cmp.Compare(a.size, b.size), cmp.Compare(a.r, b.r))
	})
	rs := stats.NewResampler(seed)
	med := map[hkey][]float64{}
	for _, k := range keys {
		if med[k] != nil {
			continue
		}
		if sweep, ok := paired[hkey{policy: k.policy, phase: phaseAlt, size: k.size}]; ok && k.phase == phaseAlt {
			// A sweep's rounds are resampled whole: every R of a round
			// shares the host's state of those seconds, as measured.
			for _, kk := range sweep.keys {
				med[kk] = make([]float64, B)
			}
			for b := range B {
				idx := rs.Indices(sweep.rounds)
				for j, kk := range sweep.keys {
					med[kk][b] = rs.MedianAt(sweep.vals[j], idx)
				}
			}
			continue
		}
		v := make([]float64, B)
		for b := range v {
			v[b] = rs.Median(h.vals[k])
		}
		med[k] = v
	}
	return med
}

// medianAPECI is the bootstrap interval of a median APE over the points
// keep selects, from each replicate's median of |errs[i][b]|. Noise only
// adds to an absolute value, biasing the replicates upward, so the interval
// joins the percentile and the basic (reflected) one, cut at 0.
func medianAPECI(est float64, pts []Point, errs [][]float64, B int, keep func(Point) bool) stats.Interval {
	reps := make([]float64, B)
	var abs []float64
	for b := range reps {
		abs = abs[:0]
		for i, p := range pts {
			if keep(p) {
				abs = append(abs, math.Abs(errs[i][b]))
			}
		}
		reps[b] = stats.Median(abs)
	}
	lo, hi := stats.Percentiles(reps, stats.DefaultLevel)
	return stats.Interval{Est: est, Lo: max(0, min(lo, 2*est-hi)), Hi: max(hi, 2*est-lo)}
}

// replicateCI is the 95 % percentile interval of est's bootstrap
// replicates reps.
func replicateCI(est float64, reps []float64) stats.Interval {
	lo, hi := stats.Percentiles(reps, stats.DefaultLevel)
	return stats.Interval{Est: est, Lo: lo, Hi: hi}
}

// spread describes the R = 1 alternating configurations at the largest
// size (Report.Spread), with the medians' intervals from the replicates med.
func (h *handoff) spread(med map[hkey][]float64) []Spread {
	if len(h.sizes) == 0 {
		return nil
	}
	s := h.sizes[len(h.sizes)-1]
	var out []Spread
	for _, p := range h.policies {
		k := hkey{p, phaseAlt, s, 1}
		v, reps := h.vals[k], med[k]
		if len(v) == 0 || reps == nil {
			continue
		}
		lo, hi := stats.Percentiles(v, 0.8)
		out = append(out, Spread{Policy: p, SizeBytes: s, Trials: len(v), P10: lo, P90: hi, MedianCI: replicateCI(h.med[k], reps)})
	}
	return out
}

// sweep is one policy and size's alternating configurations measured in
// the same rounds: vals[j] holds keys[j]'s trials in round order, so index
// i is one round in every R.
type sweep struct {
	keys   []hkey
	vals   [][]float64
	rounds int
}

// pairedSweeps finds the policies and sizes (r 0) whose alternating trials
// were all measured in the same rounds at every R; others are resampled
// configuration by configuration.
func (h *handoff) pairedSweeps() map[hkey]sweep {
	groups := map[hkey][]hkey{}
	for k := range h.vals {
		if k.phase == phaseAlt {
			g := hkey{policy: k.policy, phase: phaseAlt, size: k.size}
			groups[g] = append(groups[g], k)
		}
	}
	out := map[hkey]sweep{}
	for g, keys := range groups {
		slices.SortFunc(keys, func(a, b hkey) int { return cmp.Compare(a.r, b.r) })
		var want []round
		sw := sweep{keys: keys}
		ok := true
		for _, k := range keys {
			rd, vals := h.rounds[k], h.vals[k]
			order := make([]int, len(rd))
			for i := range order {
				order[i] = i
				ok = ok && rd[i] != round{}
			}
			slices.SortFunc(order, func(a, b int) int {
				x, y := rd[a], rd[b]
				return cmp.Or(strings.Compare(x.run, y.run), cmp.Compare(x.rep, y.rep), cmp.Compare(x.trial, y.trial))
			})
			got := make([]round, len(order))
			v := make([]float64, len(order))
			for i, j := range order {
				got[i], v[i] = rd[j], vals[j]
			}
			if want == nil {
				want = got
			}
			ok = ok && len(rd) == len(vals) && slices.Equal(got, want)
			sw.vals = append(sw.vals, v)
		}
		if ok && len(want) > 0 {
			sw.rounds = len(want)
			out[g] = sw
		}
	}
	return out
}

// absInterval is the image of the signed interval [lo, hi] under |·|, an
// interval of the absolute value est.
func absInterval(est, lo, hi float64) stats.Interval {
	switch {
	case lo > 0:
		return stats.Interval{Est: est, Lo: lo, Hi: hi}
	case hi < 0:
		return stats.Interval{Est: est, Lo: -hi, Hi: -lo}
	}
	return stats.Interval{Est: est, Lo: 0, Hi: max(-lo, hi)}
}

// judgeCrossovers sets every crossover's Verdict from the measured R range
// and, when param gives bootstrap replicates of F and G (B of them), the
// noise of the predicted difference at both ends of the range.
func (r *Report) judgeCrossovers(param replicateParam, B int) {
	if r.RMax == 0 {
		return
	}
	lo, hi := float64(r.RMin), float64(r.RMax)
	for i := range r.Crossovers {
		c := &r.Crossovers[i]
		ea, errA := r.Model.At(c.A, c.SizeBytes)
		eb, errB := r.Model.At(c.B, c.SizeBytes)
		if errA != nil || errB != nil {
			continue
		}
		dLo := stats.Interval{Est: diff(ea.F, ea.G, eb.F, eb.G, lo)}
		dHi := stats.Interval{Est: diff(ea.F, ea.G, eb.F, eb.G, hi)}
		dLo.Lo, dLo.Hi, dHi.Lo, dHi.Hi = dLo.Est, dLo.Est, dHi.Est, dHi.Est
		if param != nil {
			xl, xh, rr := make([]float64, B), make([]float64, B), make([]float64, B)
			for b := 0; b < B; b++ {
				fa, ga := param(c.A, c.SizeBytes, b)
				fb, gb := param(c.B, c.SizeBytes, b)
				xl[b], xh[b] = diff(fa, ga, fb, gb, lo), diff(fa, ga, fb, gb, hi)
				rr[b] = (fa - fb) / (gb - ga)
			}
			dLo.Lo, dLo.Hi = stats.Percentiles(xl, stats.DefaultLevel)
			dHi.Lo, dHi.Hi = stats.Percentiles(xh, stats.DefaultLevel)
			c.RCI = stats.Interval{Est: c.R}
			c.RCI.Lo, c.RCI.Hi = stats.Percentiles(rr, stats.DefaultLevel)
		}
		c.judge(dLo, dHi, r.RMin, r.RMax)
	}
}

// diff is the predicted time of (f1, g1) less that of (f2, g2) at R.
func diff(f1, g1, f2, g2, R float64) float64 { return f1 + R*g1 - (f2 + R*g2) }

// judge sets the crossover's verdict from the predicted differences at
// both ends of the measured R range, rMin and rMax.
func (c *Crossover) judge(dLo, dHi stats.Interval, rMin, rMax int64) {
	lo, hi := float64(rMin), float64(rMax)
	rng := fmt.Sprintf("R = %d…%d", rMin, rMax)
	sign := func(d stats.Interval) int {
		switch {
		case d.Lo > 0:
			return 1
		case d.Hi < 0:
			return -1
		}
		return 0
	}
	faster := func(s int) string {
		if s > 0 {
			return c.B
		}
		return c.A
	}
	sLo, sHi := sign(dLo), sign(dHi)
	inRange := c.Kind == Crosses && c.R >= lo && c.R <= hi
	switch {
	case inRange && sLo != 0 && sHi != 0 && sLo != sHi:
		ci := ""
		if !math.IsNaN(c.RCI.Lo) {
			ci = fmt.Sprintf(" (95 %% CI %s to %s)", fmtR(c.RCI.Lo), fmtR(c.RCI.Hi))
		}
		c.Verdict = fmt.Sprintf("%s faster below R* = %s%s, %s above", faster(sLo), fmtR(c.R), ci, faster(sHi))
		c.Stated = true
	case sLo != 0 && sLo == sHi:
		why := "parallel lines"
		if !c.Parallel {
			why = fmt.Sprintf("the lines meet at R* = %s, outside the measured range", fmtR(c.R))
			if inRange {
				why = fmt.Sprintf("R* = %s is inside, but the order never changes beyond noise", fmtR(c.R))
			}
		}
		c.Verdict = fmt.Sprintf("no crossover within %s: %s faster throughout (%s)", rng, faster(sLo), why)
		c.Throughout = faster(sLo)
	default:
		at, d := lo, dLo
		if sLo != 0 {
			at, d = hi, dHi
		}
		c.Verdict = fmt.Sprintf("no crossover within %s: at R = %.0f the predicted difference %s − %s is within noise (%.3g ms, 95 %% CI %.3g to %.3g)",
			rng, at, c.A, c.B, d.Est, d.Lo, d.Hi)
	}
}

// checkFConstant tests the assumption that F does not depend on R: it
// notes where F(R) = T(R) − R·G at RMin and RMax differ beyond noise and by
// more than 2 %, at sizes counted in the aggregate.
func (h *handoff) checkFConstant(rep *Report, med map[hkey][]float64, B int, counted []Counted, paired map[hkey]sweep) {
	counts := countedAlt(counted)
	evidence := func(p string, s int64) string {
		var parts []string
		for _, r := range []int64{rep.RMin, rep.RMax} {
			c, ok := counts[hkey{p, phaseAlt, s, r}]
			if !ok {
				return "no counter passes in these rows: measure with umbench run --counters"
			}
			parts = append(parts, fmt.Sprintf("R = %d: %s host to device, %.0f GPU fault groups", r, formatSize(int64(c.HtoDBytes)), c.GPUFaultGroups))
		}
		return "counter passes, one iteration: " + strings.Join(parts, "; ")
	}
	for _, c := range rep.Calibration {
		p, s := c.Policy, c.SizeBytes
		g := med[hkey{p, phaseGPU, s, 0}]
		t1, tN := med[hkey{p, phaseAlt, s, rep.RMin}], med[hkey{p, phaseAlt, s, rep.RMax}]
		if g == nil || t1 == nil || tN == nil || rep.RMin == rep.RMax || s < rep.MinSizeBytes {
			continue
		}
		f1, fN, d := make([]float64, B), make([]float64, B), make([]float64, B)
		for b := range f1 {
			f1[b] = t1[b] - float64(rep.RMin)*g[b]
			fN[b] = tN[b] - float64(rep.RMax)*g[b]
			d[b] = fN[b] - f1[b] // paired where the rounds were (a sweep's R share each replicate's rounds)
		}
		e1 := h.med[hkey{p, phaseAlt, s, rep.RMin}] - float64(rep.RMin)*h.med[hkey{p, phaseGPU, s, 0}]
		eN := h.med[hkey{p, phaseAlt, s, rep.RMax}] - float64(rep.RMax)*h.med[hkey{p, phaseGPU, s, 0}]
		l1, h1 := stats.Percentiles(f1, stats.DefaultLevel)
		lN, hN := stats.Percentiles(fN, stats.DefaultLevel)
		dl, dh := stats.Percentiles(d, stats.DefaultLevel)
		if (dl > 0 || dh < 0) && math.Abs(eN-e1) > 0.02*math.Abs(e1) {
			why := "no fault or migration to vary: the CPU update's speed varying from one block of trials to the next, or passes inside the loop that cost more or less than the GPU-only pass G"
			if _, ok := paired[hkey{policy: p, phase: phaseAlt, size: s}]; ok {
				why = "no fault or migration to vary, and every R measured in the same rounds: passes inside the loop that cost more or less than the GPU-only pass G, or a CPU update whose speed depends on what ran before it"
			}
			if h.sequential {
				why = "no fault or migration to vary: the CPU update drifting between configurations (measured in sequential order, drift lands on whole R values), or passes inside the loop that cost more or less than the GPU-only pass G"
			}
			if p == Managed || p == ManagedPrefetch {
				why = "the managed handoff's cost (CPU-side page work, migration, faults) changes with R; " + evidence(p, s)
			}
			rep.Notes = append(rep.Notes, fmt.Sprintf(
				"%s %s: F depends on R beyond noise: T(R) − R·G = %.3g ms at R = %d (95 %% CI %.3g to %.3g) but %.3g ms at R = %d (%.3g to %.3g), "+
					"a difference of %.3g ms (%.3g to %.3g); the model's constant F does not hold here (%s)",
				p, formatSize(s), e1, rep.RMin, l1, h1, eN, rep.RMax, lN, hN, eN-e1, dl, dh, why))
		}
	}
}
