package claims

import (
	"hash/fnv"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/stats"
)

// DefaultResamples is the number of bootstrap replicates behind a claim's
// interval.
const DefaultResamples = 200

// A replicate resamples the runs, then each run's trials (handoff sweeps
// round by round, as measured). The handoff's CPU update does the same work
// in every configuration, yet its median differs between configurations by
// more than its trials' noise, so each replicate also draws such an effect,
// from those the run measured, for every configuration that updates on the
// CPU.

// bootstrap is the resampling structure of a run, shared by its replicates.
type bootstrap struct {
	keys    []string // rowKey of each row, "" for waived rows
	runIDs  []string // the runs among the rows, in order
	strata  map[string]*stratum
	byKey   map[string]*stratum
	effects map[int64][]float64 // relative effects of configuration on the CPU update, by size
	trivial bool                // every replicate equals the run: nothing to resample
	reps    map[int]*Run
}

// stratum is a set of configurations resampled together: one, or a
// handoff sweep (every R of a policy and size).
type stratum struct {
	id     string
	keys   []string
	units  map[int][][]int  // run index → units, each the row indices of one trial or round
	round  map[runRound]int // a round's unit in units[run]
	effect bool             // its configurations update on the CPU
	size   int64
}

// index computes the medians of every configuration and the resampling
// structure.
func (run *Run) index() {
	b := &bootstrap{keys: make([]string, len(run.Rows)), strata: map[string]*stratum{}, byKey: map[string]*stratum{}, reps: map[int]*Run{}}
	run.cfg, run.boot = map[string]results.Row{}, b
	for i, r := range run.Rows {
		if r.Waived {
			continue
		}
		k := rowKey(r)
		b.keys[i] = k
		ri := slices.Index(b.runIDs, r.RunID)
		if ri < 0 {
			ri = len(b.runIDs)
			b.runIDs = append(b.runIDs, r.RunID)
		}
		id, unit := k, ""
		if r.Group == results.GroupHandoff && r.Phase == results.PhaseAlternating && r.RoundPosition > 0 {
			id = "sweep|" + r.Policy + "|" + strconv.FormatInt(r.SizeBytes, 10)
			unit = strconv.FormatInt(r.Repetition, 10) + "|" + strconv.FormatInt(r.Trial, 10)
		}
		s := b.strata[id]
		if s == nil {
			s = &stratum{id: id, units: map[int][][]int{}, round: map[runRound]int{}, size: r.SizeBytes,
				effect: r.Group == results.GroupHandoff && (r.Phase == results.PhaseCPUOnly || r.Phase == results.PhaseAlternating)}
			b.strata[id] = s
		}
		if _, ok := run.cfg[k]; !ok {
			run.cfg[k] = norm(r)
			s.keys = append(s.keys, k)
			b.byKey[k] = s
		}
		s.add(ri, unit, i)
	}
	run.sum = map[string]summary{}
	for _, s := range b.strata {
		var all []int
		for _, us := range s.units {
			for _, u := range us {
				all = append(all, u...)
			}
		}
		maps.Copy(run.sum, medians(run.Rows, b.keys, all))
	}
	b.effects = cpuEffects(run)
	b.trivial = len(b.runIDs) < 2 && len(b.effects) == 0
	for _, s := range b.strata {
		for _, us := range s.units {
			b.trivial = b.trivial && len(us) < 2
		}
	}
}

type runRound struct {
	run   int
	round string
}

// add puts a row in its unit: the trials of one round ("": a trial alone).
func (s *stratum) add(run int, round string, row int) {
	if round != "" {
		k := runRound{run, round}
		if j, ok := s.round[k]; ok {
			s.units[run][j] = append(s.units[run][j], row)
			return
		}
		s.round[k] = len(s.units[run])
	}
	s.units[run] = append(s.units[run], []int{row})
}

// medians of the rows at the given indices, by key.
func medians(rows []results.Row, keys []string, idx []int) map[string]summary {
	by := map[string][]int{}
	for _, i := range idx {
		by[keys[i]] = append(by[keys[i]], i)
	}
	out := make(map[string]summary, len(by))
	buf := make([]float64, 0, 64)
	col := func(is []int, f func(*results.Row) float64) float64 {
		buf = buf[:0]
		for _, i := range is {
			buf = append(buf, f(&rows[i]))
		}
		return stats.Median(buf)
	}
	for k, is := range by {
		out[k] = summary{
			gbps:     col(is, func(r *results.Row) float64 { return r.GBps }),
			total:    col(is, func(r *results.Row) float64 { return r.TotalMs }),
			cpu:      col(is, func(r *results.Row) float64 { return r.CPUMs }),
			kernel:   col(is, func(r *results.Row) float64 { return r.KernelMs }),
			transfer: col(is, func(r *results.Row) float64 { return r.TransferMs }),
			prefetch: col(is, func(r *results.Row) float64 { return r.PrefetchMs }),
			n:        len(is),
		}
	}
	return out
}

// cpuEffects are, at each handoff size, the CPU-update medians of
// configurations doing the same work (every policy's CPU-only update, and
// explicit copy's and host-mapped's at R = 1, which migrate nothing),
// relative to their median.
func cpuEffects(run *Run) map[int64][]float64 {
	bySize := map[int64][]float64{}
	for k, c := range run.cfg {
		if c.Group != results.GroupHandoff {
			continue
		}
		v := run.sum[k]
		switch {
		case c.Phase == results.PhaseCPUOnly:
			bySize[c.SizeBytes] = append(bySize[c.SizeBytes], v.total)
		case c.Phase == results.PhaseAlternating && c.ReusePasses == 1 && (c.Policy == model.ExplicitCopy || c.Policy == model.HostMapped):
			bySize[c.SizeBytes] = append(bySize[c.SizeBytes], v.cpu)
		}
	}
	out := map[int64][]float64{}
	for size, vs := range bySize {
		m := stats.Median(vs)
		if len(vs) < 3 || math.IsNaN(m) || m <= 0 {
			continue
		}
		for _, v := range vs {
			if !math.IsNaN(v) {
				out[size] = append(out[size], v/m-1)
			}
		}
		sort.Float64s(out[size])
	}
	return out
}

// replicate returns the run's bootstrap replicate b (the run itself when
// there is nothing to resample).
func (run *Run) replicate(b int) *Run {
	if run == nil || run.boot == nil || run.boot.trivial {
		return run
	}
	if r, ok := run.boot.reps[b]; ok {
		return r
	}
	r := &Run{Name: run.Name, Meta: run.Meta, Facts: run.Facts, Counters: run.Counters, Sources: run.Sources,
		cfg: run.cfg, sum: map[string]summary{}, boot: run.boot, rep: b + 1, rows: run.Rows}
	run.boot.reps[b] = r
	return r
}

// summaryOf returns a configuration's medians; a replicate computes those
// of its stratum when first asked.
func (run *Run) summaryOf(k string) (summary, bool) {
	if v, ok := run.sum[k]; ok || run.rep == 0 {
		return v, ok
	}
	s := run.boot.byKey[k]
	if s == nil {
		return summary{}, false
	}
	run.fill(s)
	v, ok := run.sum[k]
	return v, ok
}

// fill computes the replicate's medians of one stratum.
func (r *Run) fill(s *stratum) {
	b := r.rep - 1
	rs := stats.NewResampler(seedOf(s.id, b))
	var idx []int
	for _, ri := range r.boot.runDraw(b, s) {
		us := s.units[ri]
		for _, u := range rs.Indices(len(us)) {
			idx = append(idx, us[u]...)
		}
	}
	effect := 0.0
	if es := r.boot.effects[s.size]; s.effect && len(es) > 0 {
		effect = es[rs.Indices(len(es))[0]]
	}
	for k, v := range medians(r.rows, r.boot.keys, idx) {
		if effect != 0 && !math.IsNaN(v.cpu) {
			v.total += effect * v.cpu
			v.cpu += effect * v.cpu
		}
		r.sum[k] = v
	}
}

// runDraw resamples the runs for replicate b, the same draw for every
// stratum; a stratum measured in only some of them draws among those.
func (bs *bootstrap) runDraw(b int, s *stratum) []int {
	if len(s.units) == 1 {
		for ri := range s.units {
			return []int{ri}
		}
	}
	var out []int
	for _, ri := range stats.NewResampler(seedOf("runs", b)).Indices(len(bs.runIDs)) {
		if _, ok := s.units[ri]; ok {
			out = append(out, ri)
		}
	}
	if len(out) == 0 {
		for ri := range bs.runIDs {
			if _, ok := s.units[ri]; ok {
				out = append(out, ri)
			}
		}
	}
	return out
}

func seedOf(id string, b int) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64() ^ (uint64(b)+1)*0x9e3779b97f4a7c15
}

// fit fits the reuse model on a run's handoff rows of 16 MiB or more, once
// per run; a replicate fits its own medians, one row per configuration.
// Every claim about the model reads those sizes only, so a noisy small
// size, where R = 1 can time below GPU-only, cannot unfit them.
func (run *Run) fit() (*model.Report, error) {
	run.fitOnce.Do(func() {
		rows, o := model.HandoffPhases(run.Rows), model.Options{Resamples: 400}
		switch {
		case run.rep > 0:
			rows, o = run.medianRows(), model.Options{Resamples: -1}
		case run.noCI:
			o.Resamples = -1
		}
		if len(rows) == 0 {
			run.fitErr = notMeasured("no handoff sweep in this run")
			return
		}
		if rows = slices.DeleteFunc(rows, func(r results.Row) bool { return r.SizeBytes < model.DefaultMinSizeBytes }); len(rows) == 0 {
			run.fitErr = notMeasured("the handoff sweep has no size of 16 MiB or more")
			return
		}
		rep, err := model.Fits.Fit(rows, o)
		if err != nil {
			run.fitErr = notMeasured("the reuse model cannot be fitted: %v", err)
			return
		}
		run.fitRep = rep
	})
	return run.fitRep, run.fitErr
}

// medianRows are the handoff phases the model reads, one row per
// configuration holding its median time.
func (run *Run) medianRows() []results.Row {
	var out []results.Row
	for k, c := range run.cfg {
		if c.Group != results.GroupHandoff {
			continue
		}
		switch c.Phase {
		case results.PhaseCPUOnly, results.PhaseGPUOnly, results.PhaseAlternating:
			if v, ok := run.summaryOf(k); ok {
				r := c
				r.TotalMs = v.total
				out = append(out, r)
			}
		}
	}
	return out
}
