package claims

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// The measures read their configurations through get (or readFit), so that
// a check knows which rows its figure rests on.

// minRatio is a Measure of min(prefetch, reuse)/explicit, in %, of the
// configurations at(mode) selects.
func minRatio(at func(mode string) sel) func(a, _ *Run) (Quantity, error) {
	return func(a, _ *Run) (Quantity, error) {
		f, err := gets(a, at(results.ModeExplicit), at(results.ModeManagedPrefetch), at(results.ModeManagedReuse))
		if err != nil {
			return Quantity{}, err
		}
		e, p, r := f[0], f[1], f[2]
		lo := p
		if r.v < p.v {
			lo = r
		}
		q := ratioOf(lo, e, "%")
		q.Text = fmt.Sprintf("min(prefetch %s, reuse %s) / explicit %s", p, r, e)
		return q, nil
	}
}

// slowestState is the slowest managed state of the 256 MiB streaming
// kernel as a percentage of explicit.
func slowestState(a, _ *Run) (Quantity, error) {
	e, err := get(a, stream(results.ModeExplicit, 256*mib))
	if err != nil {
		return Quantity{}, err
	}
	lo, who, err := extreme(a, func(m string) sel { return stream(m, 256*mib) }, 1, results.ModeManagedCold, results.ModeManagedPrefetch, results.ModeManagedReuse)
	if err != nil {
		return Quantity{}, err
	}
	q := ratioOf(lo, e, "%")
	q.Text = fmt.Sprintf("slowest state (%s) %s / explicit %s", who, lo, e)
	return q, nil
}

// bestHint is the fastest advice mode as a percentage of prefetch.
func bestHint(a, _ *Run) (Quantity, error) {
	best, who, err := extreme(a, func(m string) sel { return stream(m, 256*mib) }, -1,
		results.ModeAdvisePreferredGPU, results.ModeAdviseAccessedBy, results.ModeAdvisePreferredCPU)
	if err != nil {
		return Quantity{}, err
	}
	p, err := get(a, adviseRef(results.ModeManagedPrefetch)...)
	if err != nil {
		return Quantity{}, err
	}
	q := ratioOf(best, p, "%")
	q.Text = fmt.Sprintf("best hint (%s) %s / prefetch %s", who, best, p)
	return q, nil
}

// spreadBelow is the spread (max/min − 1, %) of a mode's streaming
// oversubscription figures from 25 to 90 %.
func spreadBelow(mode string) func(a, _ *Run) (Quantity, error) {
	return func(a, _ *Run) (Quantity, error) {
		lo, hi := math.Inf(1), math.Inf(-1)
		var ps []string
		for _, p := range a.pcts(oversub(mode, 0)) {
			if p < 25 || p > 90 {
				continue
			}
			f, err := get(a, oversub(mode, p))
			if err != nil {
				continue
			}
			lo, hi = math.Min(lo, f.v), math.Max(hi, f.v)
			ps = append(ps, fmt.Sprintf("%g", p))
		}
		if len(ps) < 2 {
			return Quantity{}, notMeasured("no %s oversubscription sweep with two or more percentages between 25 and 90", mode)
		}
		return Quantity{Value: 100 * (hi/lo - 1), Unit: "%", Text: fmt.Sprintf("%s–%s GB/s at %s %%", num(lo), num(hi), strings.Join(ps, ", "))}, nil
	}
}

// coldAcross is the largest cold/prefetch ratio of the oversubscription
// sweep at or below 100 %.
func coldAcross(a, _ *Run) (Quantity, error) {
	var worst float64
	text := ""
	for _, p := range a.pcts(oversub(results.ModeManagedCold, 0)) {
		if p > 100 {
			continue
		}
		c, err1 := get(a, oversub(results.ModeManagedCold, p))
		r, err2 := get(a, oversub(results.ModeManagedPrefetch, p))
		if err1 != nil || err2 != nil {
			continue
		}
		if v := 100 * c.v / r.v; v > worst || text == "" {
			worst, text = v, fmt.Sprintf("cold %s / prefetch %s at %g %%", c, r, p)
		}
	}
	if text == "" {
		return Quantity{}, notMeasured("no cold and prefetched oversubscription sweep at or below 100 %%")
	}
	return Quantity{Value: worst, Unit: "%", Text: "largest: " + text}, nil
}

// oversubDrop is a mode's streaming bandwidth at pct as a percentage of
// its resident figure (the 256 MiB size sweep's).
func oversubDrop(mode string, pct float64) func(a, _ *Run) (Quantity, error) {
	return func(a, _ *Run) (Quantity, error) {
		o, err := get(a, oversub(mode, pct))
		if err != nil {
			return Quantity{}, oversubMissing(a)
		}
		r, err := get(a, stream(mode, 256*mib))
		if err != nil {
			return Quantity{}, err
		}
		q := ratioOf(o, r, "%")
		q.Text = fmt.Sprintf("%s at %g %% / %s resident (256 MiB)", o, pct, r)
		return q, nil
	}
}

// oversubMissing says why a run has no figure beyond the capacity.
func oversubMissing(a *Run) error {
	f := a.Facts
	if f.OversubMaxPct > 0 && !f.OversubAllowed {
		s := fmt.Sprintf("the sweep stopped at %g %%", f.OversubMaxPct)
		if f.OversubCapacityBytes > 0 {
			s += " of a capacity shrunk to " + bytesText(f.OversubCapacityBytes)
		}
		return notMeasured("%s; percentages above 100 need umbench run --allow-oversubscription (drivers have hung under oversubscription)", s)
	}
	return notMeasured("no oversubscription figure above 100 %% in this run")
}

// reuseAbovePrefetch: reused beats prefetched at every percentage above 100.
func reuseAbovePrefetch(a, _ *Run) (Quantity, error) {
	ok, n := true, 0
	var parts []string
	for _, p := range a.pcts(oversub(results.ModeManagedReuse, 0)) {
		if p <= 100 {
			continue
		}
		r, err1 := get(a, oversub(results.ModeManagedReuse, p))
		f, err2 := get(a, oversub(results.ModeManagedPrefetch, p))
		if err1 != nil || err2 != nil {
			continue
		}
		n++
		ok = ok && r.v > f.v
		parts = append(parts, fmt.Sprintf("%g %%: reuse %s, prefetch %s", p, r, f))
	}
	if n == 0 {
		return Quantity{}, oversubMissing(a)
	}
	return truth(ok, strings.Join(parts, "; ")), nil
}

// extraOverBaseline is a policy's extra cost at R = 1 over its baseline,
// as a factor or a percentage.
func extraOverBaseline(policy, unit string) func(a, _ *Run) (Quantity, error) {
	return func(a, _ *Run) (Quantity, error) {
		e, err := extra(a, policy)
		if err != nil {
			return Quantity{}, err
		}
		b, err := baseline(a, policy)
		if err != nil {
			return Quantity{}, err
		}
		q := ratioOf(e, b, unit)
		q.Text = fmt.Sprintf("extra %s / baseline %s", e, b)
		return q, nil
	}
}

// prefetchRemoves is the share of managed memory's extra cost that
// prefetching removes, in %.
func prefetchRemoves(a, _ *Run) (Quantity, error) {
	m, err := extra(a, model.Managed)
	if err != nil {
		return Quantity{}, err
	}
	p, err := extra(a, model.ManagedPrefetch)
	if err != nil {
		return Quantity{}, err
	}
	return Quantity{Value: 100 * (1 - p.v/m.v), Unit: "%", Text: fmt.Sprintf("1 − prefetch extra %s / managed extra %s", p, m)}, nil
}

// firstAt: policy is the fastest at R = r.
func firstAt(r int64, policy string) func(a, _ *Run) (Quantity, error) {
	return func(a, _ *Run) (Quantity, error) {
		ps, vs, err := order(a, r)
		if err != nil {
			return Quantity{}, err
		}
		return truth(ps[0] == policy, orderText(ps, vs)), nil
	}
}

// orderR32: at R = 32 the policies order as the paper's.
func orderR32(a, _ *Run) (Quantity, error) {
	ps, vs, err := order(a, 32)
	if err != nil {
		return Quantity{}, err
	}
	return truth(strings.Join(ps, ",") == strings.Join(paperOrder32, ","), orderText(ps, vs)), nil
}

var paperOrder32 = []string{model.ExplicitCopy, model.ManagedPrefetch, model.HostMapped, model.Managed}

// validationSizes are the handoff sizes the aggregate and the fastest-policy
// check count (16 MiB or more with validation points).
func validationSizes(rep *model.Report) []int64 {
	var out []int64
	for _, p := range rep.Points {
		if p.SizeBytes >= rep.MinSizeBytes && !slices.Contains(out, p.SizeBytes) {
			out = append(out, p.SizeBytes)
		}
	}
	return out
}

func medianAPE(a, _ *Run) (Quantity, error) {
	rep, err := a.fit()
	if err != nil {
		return Quantity{}, err
	}
	sizes := validationSizes(rep)
	if len(sizes) < 2 {
		return Quantity{}, notMeasured("the handoff sweep has %d size(s) of 16 MiB or more with validation points; the aggregate needs several", len(sizes))
	}
	a.readFit(rep.Model.Policies(), sizes, true)
	return Quantity{Value: rep.MedianAPE, Unit: "%", Text: "median over " + sizesText(sizes) + " (the claim accepts 16 MiB to 1 GiB)"}, nil
}

// sizesText lists sizes in words.
func sizesText(sizes []int64) string {
	var parts []string
	for _, s := range slices.Sorted(slices.Values(sizes)) {
		parts = append(parts, bytesText(s))
	}
	return strings.Join(parts, ", ")
}

// fastestPolicy: the model names the measured fastest policy everywhere;
// the text sets the best constant predictor beside it.
func fastestPolicy(a, _ *Run) (Quantity, error) {
	rep, err := a.fit()
	if err != nil {
		return Quantity{}, err
	}
	if rep.Compared == 0 {
		return Quantity{}, notMeasured("no size of 16 MiB or more with several policies at the same R > 1")
	}
	sizes := validationSizes(rep)
	a.readFit(rep.Model.Policies(), sizes, true)
	text := fmt.Sprintf("%d of %d at %s; always naming %s scores %d of %d", rep.Matches, rep.Compared, sizesText(sizes), rep.BestConstant, rep.BestConstantMatches, rep.Compared)
	if !rep.Discriminates() {
		text += ", as well as the model: these points do not discriminate"
	}
	return truth(rep.Matches == rep.Compared, text), nil
}

// crossover is R* of host-mapped and explicit copy at 1 GiB.
func crossover(a, _ *Run) (Quantity, error) {
	ps, err := params(a, model.ExplicitCopy, model.HostMapped)
	if err != nil {
		return Quantity{}, err
	}
	e, h := ps[0], ps[1]
	return Quantity{Value: crossHostExplicit(e.F, h.F, e.G, h.G), Text: fmt.Sprintf("F %s / %s ms, G %s / %s ms/pass (explicit / host-mapped, 1 GiB)", num(e.F), num(h.F), num(e.G), num(h.G))}, nil
}

// crossoverTableIII is R* from Table III's parameters.
func crossoverTableIII(ref, _ *Run) (Quantity, error) {
	t, err := tableIII(ref, model.ExplicitCopy, model.HostMapped)
	if err != nil {
		return Quantity{}, err
	}
	e, h := t[0], t[1]
	return Quantity{Value: crossHostExplicit(e.F, h.F, e.G, h.G), Text: "from Table III's F and G"}, nil
}

// paramRatio divides a fitted parameter of two policies at 1 GiB.
func paramRatio(top, bottom string, p func(model.Param) float64, name, unit string) func(a, _ *Run) (Quantity, error) {
	return func(a, _ *Run) (Quantity, error) {
		ps, err := params(a, top, bottom)
		if err != nil {
			return Quantity{}, err
		}
		return Quantity{Value: p(ps[0]) / p(ps[1]), Unit: "×", Text: fmt.Sprintf("%s %s / %s %s", name, num(p(ps[0])), num(p(ps[1])), unit)}, nil
	}
}
