package claims

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/stats"
)

const (
	kib = int64(1) << 10
	mib = int64(1) << 20
	gib = int64(1) << 30
)

// Selectors of the configurations the claims read. Each names one size;
// no other size stands in for it.

func triad(size int64) sel {
	return sel{group: results.GroupHBM, bench: results.BenchTriad, mode: results.ModeExplicit, size: size}
}
func hbmCopy(size int64) sel {
	return sel{group: results.GroupHBM, bench: results.BenchCopy, mode: results.ModeExplicit, size: size}
}
func hostTriad(size int64) sel {
	return sel{group: results.GroupHost, bench: results.BenchTriad, mode: results.ModeHostMapped, size: size}
}
func copyDir(dir string) sel {
	return sel{group: results.GroupTransfer, bench: results.BenchCopy, mode: results.ModePinned, dir: dir, size: gib}
}
func prefetchDir(dir string) sel {
	return sel{group: results.GroupTransfer, bench: results.BenchPrefetch, mode: results.ModeManaged, dir: dir, size: gib}
}
func stream(mode string, size int64) sel {
	return sel{group: results.GroupManaged, bench: results.BenchStream, mode: mode, size: size}
}

// adviseRef is the prefetch or reuse reference of the paper's separate
// advice-mode run, or, where a run has none, the size sweep's figure.
func adviseRef(mode string) []sel {
	a := stream(mode, 256*mib)
	a.bench = "advise"
	return []sel{a, stream(mode, 256*mib)}
}
func strided(mode string, stride int64) sel {
	return sel{group: results.GroupPattern, bench: results.BenchStrided, mode: mode, pattern: results.PatternStrided, size: 256 * mib, stride: stride}
}
func random(mode string) sel {
	return sel{group: results.GroupPattern, bench: results.BenchRandom, mode: mode, pattern: results.PatternRandom, size: 256 * mib}
}

// sparseRandom selects pattern.sparse_random at density 1/k (its
// stride_elements is k).
func sparseRandom(mode string, k int64) sel {
	return sel{group: results.GroupPattern, bench: results.BenchSparse, mode: mode, pattern: results.PatternSparse, size: 256 * mib, stride: k}
}

// randomRatio divides two random-access figures of the same benchmark:
// the sparse random benchmark when the run has it (the paper's "sparse
// random"; density 1/16, else 1/256), else the dense one.
func randomRatio(numMode, denMode, unit string) func(a, b *Run) (Quantity, error) {
	return func(a, _ *Run) (Quantity, error) {
		for _, pick := range []func(string) sel{
			func(m string) sel { return sparseRandom(m, 16) },
			func(m string) sel { return sparseRandom(m, 256) },
			random,
		} {
			if _, _, ok := a.find(pick(numMode)); !ok {
				continue
			}
			q, err := ratio(pick(numMode), pick(denMode), unit)(a, nil)
			if err != nil {
				continue
			}
			if s := pick(numMode); s.bench == results.BenchSparse {
				q.Text += fmt.Sprintf(" (sparse random, density 1/%d)", s.stride)
			}
			return q, nil
		}
		return Quantity{}, notMeasured("no random-access %s and %s figures in this run", numMode, denMode)
	}
}

// pageTouch selects the page-touch benchmark; the paper's rows have mode
// "managed" (it does not name the state), ours name it.
func pageTouch(mode string, interval int64) []sel {
	s := sel{group: results.GroupPattern, bench: results.BenchPageTouch, mode: mode, pattern: results.PatternPageTouch, size: 256 * mib, interval: interval}
	p := s
	p.mode = results.ModeManaged
	return []sel{s, p}
}
func oversub(mode string, pct float64) sel {
	return sel{group: results.GroupOversub, bench: results.BenchStream, mode: mode, pattern: results.PatternStreaming, pct: pct}
}
func handoff(policy, phase string, r int64) sel {
	return sel{group: results.GroupHandoff, bench: results.BenchHandoff, policy: policy, phase: phase, size: gib, r: r}
}

// describe names a configuration for "not measured" reasons.
func (s sel) describe() string {
	var parts []string
	for _, p := range []string{s.group, s.bench, s.mode, s.policy, s.phase, s.dir} {
		if p != "" && !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	if s.stride > 0 {
		parts = append(parts, fmt.Sprintf("stride %d", s.stride))
	}
	if s.interval > 0 {
		parts = append(parts, "every "+bytesText(s.interval))
	}
	if s.group == results.GroupOversub {
		parts = append(parts, fmt.Sprintf("at %g %%", s.pct))
	} else if s.size > 0 {
		sizes := bytesText(s.size)
		for _, a := range s.also {
			sizes += " or " + bytesText(a)
		}
		parts = append(parts, sizes)
	}
	if s.phase == results.PhaseAlternating {
		parts = append(parts, fmt.Sprintf("R = %d", s.r))
	}
	return strings.Join(parts, " ")
}

// fig is one figure read from a run.
type fig struct {
	v    float64
	unit string
	at   int64          // the size used, when the selector's first was not measured
	ci   stats.Interval // the median's 95 % interval, where the run resamples
}

func (f fig) String() string {
	t := Quantity{Value: f.v, Unit: f.unit, CI: f.ci}.WithCI()
	if f.at != 0 {
		t += " (at " + bytesText(f.at) + ")"
	}
	return t
}

// get reads the median bandwidth (or, for handoff rows, the median time of
// one iteration) of the first of the selectors the run measured.
func get(run *Run, ss ...sel) (fig, error) {
	for _, s := range ss {
		v, at, ok := run.find(s)
		if !ok {
			continue
		}
		col := func(v summary) float64 { return v.gbps }
		f := fig{unit: "GB/s", ci: stats.NaN()}
		if s.group == results.GroupHandoff {
			col, f.unit = func(v summary) float64 { return v.total }, "ms"
		}
		if f.v = col(v); math.IsNaN(f.v) {
			continue
		}
		if at != s.size {
			f.at = at
		}
		if run.reads != nil { // the figure a claim is measured from: with its interval
			f.ci = run.medianCI(s.key(at), col)
		}
		return f, nil
	}
	return fig{}, notMeasured("no %s in this run", ss[0].describe())
}

// gets reads one figure of each selector, stopping at the first the run
// did not measure.
func gets(run *Run, ss ...sel) ([]fig, error) {
	out := make([]fig, len(ss))
	for i, s := range ss {
		f, err := get(run, s)
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}

// medianCI is the 95 % interval of one configuration's median over the
// run's replicates.
func (run *Run) medianCI(k string, col func(summary) float64) stats.Interval {
	v, _ := run.summaryOf(k)
	est := col(v)
	if run.boot.trivial {
		return stats.Interval{Est: est, Lo: est, Hi: est}
	}
	vals := make([]float64, DefaultResamples)
	for b := range vals {
		r, _ := run.replicate(b).summaryOf(k)
		vals[b] = col(r)
	}
	lo, hi := stats.Percentiles(vals, stats.DefaultLevel)
	return stats.Interval{Est: est, Lo: math.Min(lo, est), Hi: math.Max(hi, est)}
}

// ratioOf divides two figures: in percent when unit is "%", else as a factor.
func ratioOf(n, d fig, unit string) Quantity {
	v := n.v / d.v
	if unit == "%" {
		v *= 100
	}
	return Quantity{Value: v, Unit: unit, Text: n.String() + " / " + d.String()}
}

// ratio is a Measure dividing the figure of num by that of den.
func ratio(num, den sel, unit string) func(a, b *Run) (Quantity, error) {
	return ratioAny([]sel{num}, []sel{den}, unit)
}

func ratioAny(num, den []sel, unit string) func(a, b *Run) (Quantity, error) {
	return func(a, _ *Run) (Quantity, error) {
		n, err := get(a, num...)
		if err != nil {
			return Quantity{}, err
		}
		d, err := get(a, den...)
		if err != nil {
			return Quantity{}, err
		}
		return ratioOf(n, d, unit), nil
	}
}

// value is a Measure returning one figure.
func value(ss ...sel) func(a, b *Run) (Quantity, error) {
	return func(a, _ *Run) (Quantity, error) {
		f, err := get(a, ss...)
		if err != nil {
			return Quantity{}, err
		}
		q := Quantity{Value: f.v, Unit: f.unit}
		if f.at != 0 {
			q.Text = "at " + bytesText(f.at)
		}
		return q, nil
	}
}

// cross is a Measure dividing a's figure by b's (cross-platform claims).
func cross(s sel, unit string) func(a, b *Run) (Quantity, error) {
	return func(a, b *Run) (Quantity, error) {
		if b == nil {
			return Quantity{}, notMeasured("no run of the other platform to compare with")
		}
		n, err := get(a, s)
		if err != nil {
			return Quantity{}, err
		}
		d, err := get(b, s)
		if err != nil {
			return Quantity{}, err
		}
		q := ratioOf(n, d, unit)
		q.Text = fmt.Sprintf("%s %s / %s %s", a.Meta.Platform, n, b.Meta.Platform, d)
		return q, nil
	}
}

// extreme returns the smallest (sign 1) or the largest (sign −1) of the
// figures of the given modes, with its mode, reading every one.
func extreme(a *Run, at func(mode string) sel, sign float64, modes ...string) (fig, string, error) {
	var best fig
	who := ""
	for _, m := range modes {
		f, err := get(a, at(m))
		if err != nil {
			return fig{}, "", err
		}
		if who == "" || sign*f.v < sign*best.v {
			best, who = f, m
		}
	}
	return best, who, nil
}

// truth is a Quantity for an ordering or a yes/no finding: 1 or 0.
func truth(ok bool, text string) Quantity {
	v := 0.0
	if ok {
		v = 1
	}
	return Quantity{Value: v, Unit: "yes/no", Text: text}
}

func below(x float64) *Band       { return &Band{math.Inf(-1), x} }
func above(x float64) *Band       { return &Band{x, math.Inf(1)} }
func within(lo, hi float64) *Band { return &Band{lo, hi} }
