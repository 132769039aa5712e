package claims

import (
	"cmp"
	"fmt"
	"math"
	"slices"
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
	f, err := gets(run, handoff(policy, results.PhaseCPUOnly, 0), handoff(policy, results.PhaseGPUOnly, 0))
	if err != nil {
		return fig{}, err
	}
	return fig{v: f[0].v + f[1].v, unit: "ms", at: f[0].at}, nil
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

// param returns a policy's fitted parameters at 1 GiB.
func param(rep *model.Report, policy string) (model.Param, bool) {
	for _, c := range rep.Calibration {
		if c.Policy == policy && c.SizeBytes == gib {
			return c.Param, true
		}
	}
	return model.Param{}, false
}

// readFit marks, while a claim is measured, the handoff configurations a
// figure of the fitted model rests on: the calibration (GPU-only and R = 1)
// of the policies at the sizes, and with validation every R.
func (run *Run) readFit(policies []string, sizes []int64, validation bool) {
	if run.reads == nil {
		return
	}
	for k, c := range run.cfg {
		if c.Group == results.GroupHandoff && slices.Contains(policies, c.Policy) && slices.Contains(sizes, c.SizeBytes) &&
			(c.Phase == results.PhaseGPUOnly || c.Phase == results.PhaseAlternating && (validation || c.ReusePasses == 1)) {
			run.reads[k] = true
		}
	}
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
			return nil, notMeasured("no %s handoff calibration at 1 GiB (GPU-only and R = 1)", p)
		}
		out = append(out, x)
	}
	run.readFit(ps, []int64{gib}, false)
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

// maxAPE is the largest validation error of the given policies at 1 GiB.
func maxAPE(ps ...string) func(a, _ *Run) (Quantity, error) {
	return func(a, _ *Run) (Quantity, error) {
		rep, err := a.fit()
		if err != nil {
			return Quantity{}, err
		}
		worst, at, n := math.NaN(), "", 0
		for _, p := range ps {
			if _, ok := param(rep, p); !ok {
				return Quantity{}, notMeasured("no %s handoff calibration at 1 GiB (GPU-only and R = 1)", p)
			}
			for _, pt := range rep.Points {
				if pt.Policy == p && pt.SizeBytes == gib {
					n++
					if math.IsNaN(worst) || pt.APE > worst {
						worst, at = pt.APE, fmt.Sprintf("%s at %s, R = %d", p, bytesText(pt.SizeBytes), pt.R)
					}
				}
			}
		}
		if n == 0 {
			return Quantity{}, notMeasured("no alternating configuration with R > 1 at 1 GiB to validate on")
		}
		a.readFit(ps, []int64{gib}, true)
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

// order returns the handoff policies at R sorted by median time.
func order(run *Run, r int64) ([]string, map[string]float64, error) {
	vs := map[string]float64{}
	for _, p := range policies {
		f, err := get(run, handoff(p, results.PhaseAlternating, r))
		if err != nil {
			return nil, nil, err
		}
		vs[p] = f.v
	}
	ps := slices.Clone(policies)
	slices.SortStableFunc(ps, func(a, b string) int { return cmp.Compare(vs[a], vs[b]) })
	return ps, vs, nil
}

func orderText(ps []string, vs map[string]float64) string {
	var parts []string
	for _, p := range ps {
		parts = append(parts, fmt.Sprintf("%s %s ms", p, num(vs[p])))
	}
	return strings.Join(parts, " < ")
}
