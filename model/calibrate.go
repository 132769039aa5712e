package model

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/umlab/umlab/results"
)

// Handoff phases and group, as written in handoff rows.
const (
	groupHandoff = results.GroupHandoff
	phaseCPU     = results.PhaseCPUOnly
	phaseGPU     = results.PhaseGPUOnly
	phaseAlt     = results.PhaseAlternating
)

// hkey identifies one handoff configuration. r is 0 for the cpu_only and
// gpu_only phases, whose reuse_passes column is not an R.
type hkey struct {
	policy, phase string
	size, r       int64
}

// handoff holds the medians of the handoff rows' total_ms, by configuration.
type handoff struct {
	med    map[hkey]float64
	vals   map[hkey][]float64 // every trial's total_ms (results.Grouped.Values), for the bootstrap
	rounds map[hkey][]round   // for sweep trials, the round each of vals was measured in (noise.go pairs them)
	parts  map[hkey]parts     // alternating configurations' trial parts (misses.go)
	// sequential: some rows were measured in sequential order (or before
	// the order was recorded), so drift can land on whole configurations.
	sequential bool
	policies   []string // Table III order
	sizes      []int64  // ascending
	rs         []int64  // alternating R values, ascending
	platform   string
}

// collect takes the median total_ms of each handoff configuration over its
// trials, keeping the values for the bootstrap. Waived rows and rows without
// a total_ms are skipped; bad times, several platforms, a missing policy or
// an unknown phase are errors.
func collect(rows []results.Row) (*handoff, error) {
	var trials []trial
	h := &handoff{med: map[hkey]float64{}, vals: map[hkey][]float64{}, rounds: map[hkey][]round{}}
	keep := func(r results.Row) bool { return r.Group == groupHandoff && !r.Waived && !math.IsNaN(r.TotalMs) }
	for _, r := range rows {
		if !keep(r) {
			continue
		}
		t, err := trialOf(r)
		if err != nil {
			return nil, err
		}
		trials = append(trials, t)
		h.sequential = h.sequential || r.Order != "interleaved"
	}
	if len(trials) == 0 {
		return nil, badInput("no handoff rows with a total_ms (group %q)", groupHandoff)
	}
	var err error
	if h.platform, err = onePlatform(rows, keep, "handoff rows", "calibrate"); err != nil {
		return nil, err
	}
	for _, t := range trials {
		h.rounds[t.k] = append(h.rounds[t.k], t.rd) // in the order GroupStats keeps the values
	}
	for _, g := range results.GroupStats(trials, func(t *trial) hkey { return t.k }, func(t *trial) float64 { return t.ms }) {
		k := g.Key
		h.med[k], h.vals[k] = g.Median, g.Values
		if !slices.Contains(h.policies, k.policy) {
			h.policies = append(h.policies, k.policy)
		}
		if !slices.Contains(h.sizes, k.size) {
			h.sizes = append(h.sizes, k.size)
		}
		if k.phase == phaseAlt && !slices.Contains(h.rs, k.r) {
			h.rs = append(h.rs, k.r)
		}
	}
	h.parts = collectParts(rows)
	slices.SortFunc(h.policies, comparePolicies)
	slices.Sort(h.sizes)
	slices.Sort(h.rs)
	return h, nil
}

// trial is one handoff row's configuration, time and round.
type trial struct {
	k  hkey
	ms float64
	rd round
}

// trialOf checks a handoff row and returns its trial.
func trialOf(r results.Row) (trial, error) {
	t := trial{k: hkey{policy: r.Policy, phase: r.Phase, size: r.SizeBytes}, ms: r.TotalMs}
	where := fmt.Sprintf("handoff row (policy %q, phase %q, size %d, reuse_passes %d, trial %d)", r.Policy, r.Phase, r.SizeBytes, r.ReusePasses, r.Trial)
	switch {
	case r.Policy == "":
		return t, badInput("%s has no policy", where)
	case r.SizeBytes <= 0:
		return t, badInput("%s has no positive size_bytes", where)
	case r.TotalMs < 0 || math.IsInf(r.TotalMs, 0):
		return t, badInput("%s: total_ms = %g is not a valid time", where, r.TotalMs)
	}
	switch r.Phase {
	case phaseCPU, phaseGPU:
	case phaseAlt:
		if r.ReusePasses < 1 {
			return t, badInput("%s: alternating rows need reuse_passes ≥ 1", where)
		}
		t.k.r = r.ReusePasses
		if r.RoundPosition > 0 {
			t.rd = round{run: r.RunID, rep: r.Repetition, trial: r.Trial}
		}
	default:
		return t, badInput("%s: phase must be %s, %s or %s", where, phaseCPU, phaseGPU, phaseAlt)
	}
	return t, nil
}

// onePlatform returns the platform the kept rows name ("" when none); rows
// of several platforms are an error.
func onePlatform(rows []results.Row, keep func(results.Row) bool, what, verb string) (string, error) {
	var ps []string
	for _, r := range rows {
		if keep(r) && r.Platform != "" && !slices.Contains(ps, r.Platform) {
			ps = append(ps, r.Platform)
		}
	}
	if len(ps) > 1 {
		slices.Sort(ps)
		return "", badInput("%s come from several platforms (%s): %s one at a time", what, strings.Join(ps, ", "), verb)
	}
	if len(ps) == 1 {
		return ps[0], nil
	}
	return "", nil
}

// round identifies a round of an alternating sweep, every R of one policy
// and size measured one after another; the zero round is none.
type round struct {
	run        string
	rep, trial int64
}

// get returns the median of a configuration and whether it was measured.
func (h *handoff) get(policy, phase string, size, r int64) (float64, bool) {
	v, ok := h.med[hkey{policy, phase, size, r}]
	return v, ok
}

// Calibrate fits T̂_p(B, R) = F_p(B) + R·G_p(B) (Section VIII-B) to handoff
// rows: G is the median gpu_only total_ms, F = T(B, 1) − G from the
// alternating rows at R = 1. Every policy and size needs both; the error
// lists all that are missing.
func Calibrate(rows []results.Row) (*Model, error) {
	h, err := collect(rows)
	if err != nil {
		return nil, err
	}
	return h.calibrate()
}

func (h *handoff) calibrate() (*Model, error) {
	hasGPU := false
	for k := range h.med {
		hasGPU = hasGPU || k.phase == phaseGPU
	}
	if !hasGPU {
		return nil, badInput("no gpu_only handoff rows: G_p, the cost of one GPU pass, cannot be calibrated")
	}
	var params []Param
	var missing []string
	for _, p := range h.policies {
		for _, s := range h.sizes {
			if !h.present(p, s) {
				continue
			}
			g, okG := h.get(p, phaseGPU, s, 0)
			t1, okT := h.get(p, phaseAlt, s, 1)
			if !okG {
				missing = append(missing, fmt.Sprintf("%s %s: no gpu_only rows", p, formatSize(s)))
			}
			if !okT {
				missing = append(missing, fmt.Sprintf("%s %s: no alternating rows with reuse_passes = 1", p, formatSize(s)))
			}
			if !okG || !okT {
				continue
			}
			if t1 < g {
				return nil, badInput("%s %s: F = T(1) − G = %g − %g ms is negative: the R = 1 alternating time is below the GPU-only time", p, formatSize(s), t1, g)
			}
			params = append(params, Param{Policy: p, SizeBytes: s, F: t1 - g, G: g})
		}
	}
	if len(missing) > 0 {
		return nil, badInput("missing handoff measurements: %s", strings.Join(missing, "; "))
	}
	m, err := NewModel(params)
	if err != nil {
		return nil, err
	}
	m.fitted = true
	if len(h.rs) > 0 {
		m.maxR = h.rs[len(h.rs)-1]
	}
	return m, nil
}

// present reports whether any gpu_only or alternating row has this policy
// and size (cpu_only rows alone do not ask for a calibration).
func (h *handoff) present(policy string, size int64) bool {
	for k := range h.med {
		if k.policy == policy && k.size == size && k.phase != phaseCPU {
			return true
		}
	}
	return false
}
