package model

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"text/tabwriter"
)

// paperMaxR is the largest R the paper validates (Section VIII-B), used when
// a model does not know its own range.
const paperMaxR = 32

// Workload describes an application for the advisor.
type Workload struct {
	SizeBytes int64   // working set
	Reuse     float64 // GPU passes per CPU update (R), > 0
	// Pattern is the GPU pass's access pattern: "" or "streaming" (what the
	// handoff benchmark measures), or strided, random, page_touch, which
	// the model does not cover and warns about.
	Pattern string
}

// Ranked is one policy in an Advice: its parameters at the workload's size
// and its predicted time per iteration.
type Ranked struct {
	Estimate
	PredictedMs float64
}

// Advice ranks the calibrated policies for a workload, fastest first.
type Advice struct {
	Workload Workload
	Ranking  []Ranked
	// BreakEven compares the fastest policy (A) with the runner-up (B);
	// zero when only one policy is calibrated.
	BreakEven Crossover
	Why       string   // one sentence
	Notes     []string // how the parameters were obtained (interpolation)
	Warnings  []string // extrapolation, reuse outside the validated range, uncovered patterns
}

// Advise ranks the model's policies for a workload by F + R·G at its size
// (Model.At), gives the break-even reuse against the runner-up and says in
// one sentence why the first is fastest.
func Advise(m *Model, w Workload) (*Advice, error) {
	if m == nil || len(m.policies) == 0 {
		return nil, badInput("no calibrated model")
	}
	if w.SizeBytes <= 0 {
		return nil, badInput("working-set size %d bytes is not positive", w.SizeBytes)
	}
	if !(w.Reuse > 0) || math.IsInf(w.Reuse, 0) {
		return nil, badInput("reuse %g: need a finite number of GPU passes per CPU update above 0", w.Reuse)
	}
	a := &Advice{Workload: w}
	for _, p := range m.policies {
		e, err := m.At(p, w.SizeBytes)
		if err != nil {
			return nil, err
		}
		a.Ranking = append(a.Ranking, Ranked{Estimate: e, PredictedMs: e.Time(w.Reuse)})
		if e.How == Extrapolated {
			a.Warnings = appendOnce(a.Warnings, fmt.Sprintf("%s: %s", p, e.Note))
		} else {
			a.Notes = appendOnce(a.Notes, e.Note)
		}
	}
	sort.SliceStable(a.Ranking, func(i, j int) bool { return a.Ranking[i].PredictedMs < a.Ranking[j].PredictedMs })
	maxR, src := float64(m.maxR), "the calibration data"
	if maxR == 0 {
		maxR, src = paperMaxR, "the paper (Section VIII-B)"
	}
	switch {
	case w.Reuse < 1:
		a.Warnings = append(a.Warnings, fmt.Sprintf("R = %g is below 1, the smallest reuse measured: the model is extrapolated", w.Reuse))
	case w.Reuse > maxR:
		a.Warnings = append(a.Warnings, fmt.Sprintf("R = %g is beyond R = %g, the largest reuse validated in %s", w.Reuse, maxR, src))
	}
	if w.Pattern != "" && w.Pattern != "streaming" {
		a.Warnings = append(a.Warnings, fmt.Sprintf("the model is calibrated with a streaming GPU pass; %s access is not modelled, and useful bandwidth falls for strided, random and page-touch access, most for cold managed memory (Sections VI-B, VI-C), so G is underestimated", w.Pattern))
	}
	best := a.Ranking[0]
	if len(a.Ranking) == 1 {
		a.Why = fmt.Sprintf("%s is the only calibrated policy.", best.Policy)
		return a, nil
	}
	next := a.Ranking[1]
	a.BreakEven = CrossoverOf(best.Param, next.Param)
	a.Why = why(best.Param, next.Param, a.BreakEven, w.Reuse)
	return a, nil
}

func why(b, n Param, c Crossover, r float64) string {
	switch {
	case c.Kind == Same || b.Time(r) == n.Time(r):
		return fmt.Sprintf("%s and %s are predicted to cost the same at R = %g.", b.Policy, n.Policy, r)
	case c.Parallel:
		return fmt.Sprintf("%s is fastest because it has the same per-pass cost as %s (%.4g ms) and a lower fixed cost (%.2f vs %.2f ms), so no amount of reuse changes the order.",
			b.Policy, n.Policy, b.G, b.F, n.F)
	case c.Kind != Crosses:
		return fmt.Sprintf("%s is fastest because both its fixed cost (%.2f vs %.2f ms) and its per-pass cost (%.4g vs %.4g ms) are lower than %s's, so no amount of reuse changes the order.",
			b.Policy, b.F, n.F, b.G, n.G, n.Policy)
	case b.G < n.G:
		return fmt.Sprintf("%s is fastest because its lower per-pass cost (%.4g vs %.4g ms) repays its %.2f ms larger fixed cost after R* = %s passes, and this workload makes %g.",
			b.Policy, b.G, n.G, b.F-n.F, fmtR(c.R), r)
	}
	return fmt.Sprintf("%s is fastest because its lower fixed cost (%.2f vs %.2f ms) outweighs its higher per-pass cost (%.4g vs %.4g ms) up to R* = %s passes, and this workload makes only %g.",
		b.Policy, b.F, n.F, b.G, n.G, fmtR(c.R), r)
}

func appendOnce(s []string, v string) []string {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}

// WriteText writes the advice as a ranked plain-text table, then the
// break-even reuse, the reason, the parameters' notes and any warnings.
func (a *Advice) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	ew.printf("Workload: %s, R = %g GPU passes per CPU update, %s access\n\n", formatSize(a.Workload.SizeBytes), a.Workload.Reuse, cmp.Or(a.Workload.Pattern, "streaming"))
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "rank\tpolicy\tF (ms)\tG (ms/pass)\tpredicted (ms)\tparameters")
	for i, r := range a.Ranking {
		fmt.Fprintf(tw, "%d\t%s\t%.3f\t%.4g\t%.3f\t%s\n", i+1, r.Policy, r.F, r.G, r.PredictedMs, r.How)
	}
	tw.Flush()
	ew.printf("\n")
	if len(a.Ranking) > 1 {
		ew.printf("Break-even vs runner-up %s: %s\n", a.Ranking[1].Policy, a.BreakEven)
	}
	ew.printf("Why: %s\n", a.Why)
	for _, n := range a.Notes {
		ew.printf("Parameters: %s\n", n)
	}
	for _, wn := range a.Warnings {
		ew.printf("Warning: %s\n", wn)
	}
	return ew.err
}
