package claims

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// Handoff policies, in the paper's order.
var policies = []string{model.ExplicitCopy, model.HostMapped, model.Managed, model.ManagedPrefetch}

// baseline returns the CPU-only plus GPU-only time of one iteration at
// 1 GiB: the paper states it as one figure, a run measures the two phases.
func baseline(run *Run, policy string) (fig, error) {
	if f, err := get(run, handoff(policy, datasets.PhaseBaseline, 1)); err == nil {
		return f, nil
	}
	c, err := get(run, handoff(policy, results.PhaseCPUOnly, 0))
	if err != nil {
		return fig{}, err
	}
	g, err := get(run, handoff(policy, results.PhaseGPUOnly, 0))
	if err != nil {
		return fig{}, err
	}
	return fig{v: c.v + g.v, unit: "ms", at: c.at}, nil
}

// extra returns the extra cost of alternating execution (R = 1) over the
// CPU-only plus GPU-only baseline.
func extra(run *Run, policy string) (fig, error) {
	if f, err := get(run, handoff(policy, datasets.PhaseExtra, 1)); err == nil {
		return f, nil
	}
	a, err := get(run, handoff(policy, results.PhaseAlternating, 1))
	if err != nil {
		return fig{}, err
	}
	b, err := baseline(run, policy)
	if err != nil {
		return fig{}, err
	}
	return fig{v: a.v - b.v, unit: "ms", at: a.at}, nil
}

// handoffRows keeps the measured handoff phases the model reads.
func handoffRows(rows []results.Row) []results.Row {
	var out []results.Row
	for _, r := range rows {
		if r.Group == results.GroupHandoff {
			switch r.Phase {
			case results.PhaseCPUOnly, results.PhaseGPUOnly, results.PhaseAlternating:
				out = append(out, r)
			}
		}
	}
	return out
}

// fit calibrates and validates the reuse model on a run's handoff rows
// (G from GPU-only, F from R = 1, validated on R > 1), once per run.
func (run *Run) fit() (*model.Report, error) {
	run.fitOnce.Do(func() {
		rows := handoffRows(run.Rows)
		if len(rows) == 0 {
			run.fitErr = notMeasured("no handoff sweep in this run")
			return
		}
		rep, err := model.Fit(rows, model.Options{})
		if err != nil {
			run.fitErr = notMeasured("the reuse model cannot be fitted: %v", err)
			return
		}
		run.fitRep = rep
	})
	return run.fitRep, run.fitErr
}

// param returns a policy's fitted parameters at the size nearest 1 GiB.
func param(rep *model.Report, policy string) (model.Param, bool) {
	var best model.Param
	found := false
	for _, c := range rep.Calibration {
		if c.Policy != policy {
			continue
		}
		if !found || math.Abs(math.Log2(float64(c.SizeBytes)/float64(gib))) < math.Abs(math.Log2(float64(best.SizeBytes)/float64(gib))) {
			best, found = c.Param, true
		}
	}
	return best, found
}

func params(run *Run, ps ...string) ([]model.Param, error) {
	rep, err := run.fit()
	if err != nil {
		return nil, err
	}
	var out []model.Param
	for _, p := range ps {
		x, ok := param(rep, p)
		if !ok {
			return nil, notMeasured("no %s handoff configuration to fit", p)
		}
		out = append(out, x)
	}
	return out, nil
}

// tableIII returns the published parameters (model.csv) of a reference.
func tableIII(ref *Run, ps ...string) ([]model.Calibration, error) {
	all, err := datasets.ModelParameters(ref.Meta.RunID)
	if err != nil {
		return nil, err
	}
	var out []model.Calibration
	for _, p := range ps {
		ok := false
		for _, a := range all {
			if a.Policy == p && a.SizeBytes == gib {
				out, ok = append(out, a), true
			}
		}
		if !ok {
			return nil, fmt.Errorf("%s has no Table III parameters for %s", ref.Meta.RunID, p)
		}
	}
	return out, nil
}

// maxAPE is the largest validation error of the given policies at the size
// nearest 1 GiB.
func maxAPE(ps ...string) func(a, _ *Run) (Quantity, error) {
	return func(a, _ *Run) (Quantity, error) {
		rep, err := a.fit()
		if err != nil {
			return Quantity{}, err
		}
		worst, at, n := math.NaN(), "", 0
		for _, p := range ps {
			par, ok := param(rep, p)
			if !ok {
				return Quantity{}, notMeasured("no %s handoff configuration to fit", p)
			}
			for _, pt := range rep.Points {
				if pt.Policy == p && pt.SizeBytes == par.SizeBytes {
					n++
					if math.IsNaN(worst) || pt.APE > worst {
						worst, at = pt.APE, fmt.Sprintf("%s at %s, R = %d", p, bytesText(pt.SizeBytes), pt.R)
					}
				}
			}
		}
		if n == 0 {
			return Quantity{}, notMeasured("no alternating configuration with R > 1 to validate on")
		}
		return Quantity{Value: worst, Unit: "%", Text: fmt.Sprintf("largest of %d points: %s", n, at)}, nil
	}
}

func tableMaxAPE(ps ...string) func(ref, _ *Run) (Quantity, error) {
	return func(ref, _ *Run) (Quantity, error) {
		t, err := tableIII(ref, ps...)
		if err != nil {
			return Quantity{}, err
		}
		worst, who := 0.0, ""
		for _, p := range t {
			if p.MaxAPE > worst {
				worst, who = p.MaxAPE, p.Policy
			}
		}
		return Quantity{Value: worst, Unit: "%", Text: "Table III, " + who}, nil
	}
}

// crossover of host-mapped and explicit placement, R* = (F_e − F_h)/(G_h − G_e).
func crossHostExplicit(fe, fh, ge, gh float64) float64 { return (fe - fh) / (gh - ge) }

// cpuSpread is the spread of the CPU-only medians over the policies at
// 1 GiB, the noise floor of any difference between F values.
func cpuSpread(run *Run) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range policies {
		f, err := get(run, handoff(p, results.PhaseCPUOnly, 0))
		if err != nil {
			continue
		}
		lo, hi, ok = math.Min(lo, f.v), math.Max(hi, f.v), true
	}
	return lo, hi, ok
}

// cpuInAlternating is the median CPU-update time inside alternating
// execution at R = 1, and the CPU-only time, for a policy.
func cpuInAlternating(run *Run, policy string) (alt, only float64, ok bool) {
	a, _, ok1 := run.find(handoff(policy, results.PhaseAlternating, 1))
	o, _, ok2 := run.find(handoff(policy, results.PhaseCPUOnly, 0))
	if !ok1 || !ok2 || math.IsNaN(a.cpu) || math.IsNaN(o.total) {
		return 0, 0, false
	}
	return a.cpu, o.total, true
}

// order returns the handoff policies at R sorted by median time.
func order(run *Run, r int64) ([]string, []float64, error) {
	type pt struct {
		p string
		v float64
	}
	var pts []pt
	for _, p := range policies {
		f, err := get(run, handoff(p, results.PhaseAlternating, r))
		if err != nil {
			return nil, nil, err
		}
		pts = append(pts, pt{p, f.v})
	}
	sort.SliceStable(pts, func(i, j int) bool { return pts[i].v < pts[j].v })
	var ps []string
	var vs []float64
	for _, x := range pts {
		ps, vs = append(ps, x.p), append(vs, x.v)
	}
	return ps, vs, nil
}

func orderText(ps []string, vs []float64) string {
	var parts []string
	for i := range ps {
		parts = append(parts, fmt.Sprintf("%s %s ms", ps[i], num(vs[i])))
	}
	return strings.Join(parts, " < ")
}
