package check

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/umlab/umlab/results"
)

// Verdict is the outcome for one configuration, one resource or a whole
// class (GPU or host).
type Verdict string

// Verdicts, from best to worst; Skip means "not judged".
const (
	Pass         Verdict = "pass"
	Inconclusive Verdict = "inconclusive" // the interval straddles the threshold
	Fail         Verdict = "fail"
	Skip         Verdict = "skip"
)

// ErrNotComparable is returned when run and baseline cannot be compared:
// different GPU models, a published baseline, or no configuration in common.
var ErrNotComparable = errors.New("check: not comparable")

// Options are the threshold and statistical settings. Zero values take the
// defaults shown.
type Options struct {
	// FailPct 3: a configuration or resource fails when it is, beyond its
	// interval, more than FailPct % slower than the baseline. A 5 %
	// regression is caught wherever the node's variation leaves less than
	// 2 % of uncertainty (on the H200: every GPU resource).
	FailPct    float64
	Confidence float64 // 0.95: the intervals' coverage, Bonferroni-adjusted over a class's resources
	FDR        float64 // 0.05: the false-discovery rate over the configurations of a class
	Resamples  int     // 400 bootstrap resamples of each run's trials
	MinTrials  int     // 3: fewer trials on either side gives Skip
	Seed       uint64  // 1: the bootstrap is deterministic for a seed
	// Prior is the calibration to use; nil: PriorFor the GPU model.
	Prior *Prior
}

func (o Options) withDefaults() (Options, error) {
	o.FailPct = cmp.Or(o.FailPct, 3)
	o.Confidence = cmp.Or(o.Confidence, 0.95)
	o.FDR = cmp.Or(o.FDR, 0.05)
	o.Resamples = cmp.Or(o.Resamples, 400)
	o.MinTrials = cmp.Or(o.MinTrials, 3)
	o.Seed = cmp.Or(o.Seed, 1)
	switch {
	case !(o.FailPct > 0 && o.FailPct < 100):
		return o, fmt.Errorf("check: fail threshold %v %%: want a percentage between 0 and 100", o.FailPct)
	case !(o.Confidence > 0.5 && o.Confidence < 1):
		return o, fmt.Errorf("check: confidence %v: want a level between 0.5 and 1, e.g. 0.95", o.Confidence)
	case !(o.FDR > 0 && o.FDR < 0.5):
		return o, fmt.Errorf("check: false-discovery rate %v: want a level between 0 and 0.5, e.g. 0.05", o.FDR)
	case o.Resamples < 100:
		return o, fmt.Errorf("check: %d resamples: want at least 100", o.Resamples)
	case o.MinTrials < 2:
		return o, fmt.Errorf("check: minimum trials %d: want at least 2", o.MinTrials)
	}
	return o, nil
}

// Side is one of the two things compared: the rows of one or more runs
// (told apart by their run_id: a directory of runs, or `umbench run
// --repeat N`) with the metadata of one of them and a name to show.
type Side struct {
	Name string
	Rows []results.Row
	Meta results.Metadata
}

// Result is the comparison of one configuration (on one GPU of the run).
type Result struct {
	Group         string  `json:"group"`
	Configuration string  `json:"configuration"` // readable label, e.g. "triad explicit 256 MiB"
	Key           string  `json:"key"`           // the configuration columns joined
	Resource      string  `json:"resource"`      // what the configuration is bound by (the row's bound)
	GPU           string  `json:"gpu,omitempty"` // the run's GPU UUID
	Host          string  `json:"host,omitempty"`
	RunN          int     `json:"run_n"`      // trials of the run
	BaselineN     int     `json:"baseline_n"` // trials of the baseline
	RunRuns       int     `json:"run_runs"`   // processes (run IDs) of the run
	BaselineRuns  int     `json:"baseline_runs"`
	RunGBps       float64 `json:"run_median_gbps"`
	BaselineGBps  float64 `json:"baseline_median_gbps"`
	Ratio         float64 `json:"ratio"` // run / baseline, geometric mean over processes
	Lo            float64 `json:"ratio_lo"`
	Hi            float64 `json:"ratio_hi"`
	// SpreadPct is the sd between processes (%) the interval allows for:
	// measured from the runs where there are several, else the Prior's.
	SpreadPct float64 `json:"spread_pct"`
	// TolerancePct is the slowdown judged against: the larger of FailPct
	// and the variation a healthy node shows (the interval's half-width).
	TolerancePct float64 `json:"tolerance_pct"`
	P            float64 `json:"p"` // one-sided p-value of "no slower than the baseline"
	Verdict      Verdict `json:"verdict"`
	Reason       string  `json:"reason,omitempty"`

	se, delta float64               // the log change and its standard error
	weight    float64               // its weight in its resource's index: 1/se²
	within    float64               // se²: the trials' noise and this configuration's spreads
	trials    float64               // the trials' share of se²
	same      bool                  // every baseline process ran on this GPU
	logs      [2]map[string]float64 // run's and baseline's log median by process
}

// ChangePct is the ratio as a percentage change (−5 = 5 % slower).
func (r Result) ChangePct() float64 { return 100 * (r.Ratio - 1) }

// Report is the whole comparison.
type Report struct {
	Baseline   string  `json:"baseline"`
	Run        string  `json:"run"`
	GPUModel   string  `json:"gpu"` // the GPU model both sides share
	Confidence float64 `json:"confidence"`
	FailPct    float64 `json:"fail_pct"`
	FDR        float64 `json:"fdr"`
	// Resources are the per-resource verdicts, GPU resources first.
	Resources []ResourceResult `json:"resources"`
	// GPU and Host are the two headline verdicts: the worst of their
	// resources and of their configurations found slower at the FDR.
	GPU          Verdict  `json:"gpu_verdict"`
	Host         Verdict  `json:"host_verdict"`
	Results      []Result `json:"results"`
	Counts       Counts   `json:"counts"`
	BaselineOnly int      `json:"baseline_only"` // baseline configurations the run lacks
	RunOnly      int      `json:"run_only"`      // run configurations the baseline lacks
	Notes        []string `json:"notes,omitempty"`
	RunGPUs      int      `json:"run_gpus"`
	SameGPU      bool     `json:"same_gpu"` // every run GPU is measured in the baseline too
	// Variation says where the process-to-process variation came from.
	Variation   string `json:"variation"`
	SummaryLine string `json:"summary"`
}

// Counts are the number of configurations of each verdict.
type Counts struct {
	Pass         int `json:"pass"`
	Inconclusive int `json:"inconclusive"`
	Fail         int `json:"fail"`
	Skip         int `json:"skip"`
}

// OK reports whether the GPU verdict is not a failure; strict also asks
// the host verdict, and both to be conclusive.
func (r *Report) OK(strict bool) bool {
	if strict {
		return r.GPU != Fail && r.Host != Fail && r.GPU != Inconclusive && r.Host != Inconclusive
	}
	return r.GPU != Fail
}

// settingKey identifies a configuration across runs: the configuration
// columns without the GPU's identity, plus the fleet mode (isolated and
// concurrent rows are never pooled).
func settingKey(r results.Row) string {
	c := r
	c.Platform, c.GPUUUID = "", ""
	mode, _ := results.FleetMode(r.Note)
	return results.ConfigKey(c) + "|" + mode
}

// Label is a short readable name for a row's configuration.
func Label(r results.Row) string {
	var f []string // empty parts are dropped at the end
	if (r.Benchmark != "stream" || r.Pattern == "") && r.Benchmark != r.Group {
		f = append(f, r.Benchmark)
	}
	if r.Pattern != r.Benchmark {
		f = append(f, r.Pattern)
	}
	f = append(f, r.Mode, r.Policy, r.Phase, r.Direction)
	if r.SizeBytes > 0 {
		f = append(f, results.FormatBytes(r.SizeBytes))
	} else if r.FootprintBytes > 0 {
		f = append(f, "footprint "+results.FormatBytes(r.FootprintBytes))
	}
	if r.StrideElements > 1 && r.PageIntervalBytes == 0 { // a page-touch stride follows from its interval
		f = append(f, "stride "+strconv.FormatInt(r.StrideElements, 10))
	}
	if r.PageIntervalBytes > 0 {
		f = append(f, "every "+results.FormatBytes(r.PageIntervalBytes))
	}
	if !math.IsNaN(r.OversubPct) && r.OversubPct > 0 {
		f = append(f, strconv.FormatFloat(r.OversubPct, 'g', -1, 64)+"%")
	}
	if r.ReusePasses > 0 {
		f = append(f, "R="+strconv.FormatInt(r.ReusePasses, 10))
	}
	mode, _ := results.FleetMode(r.Note)
	f = append(f, mode)
	return strings.Join(slices.DeleteFunc(f, func(s string) bool { return s == "" }), " ")
}

// platforms lists the distinct GPU models of rows (platform column) and the
// metadata's device name.
func platforms(s Side) []string {
	var out []string
	for _, r := range s.Rows {
		if r.Platform != "" && !slices.Contains(out, r.Platform) {
			out = append(out, r.Platform)
		}
	}
	if len(out) == 0 && s.Meta.Platform != "" {
		out = append(out, s.Meta.Platform)
	}
	sort.Strings(out)
	return out
}

// comparable refuses what a check cannot compare and returns the GPU model.
func comparable(run, base Side) (string, error) {
	if base.Meta.Kind == "published" {
		return "", fmt.Errorf("%w: %s holds published figures (one value per configuration), not trials; use a measured dataset or results directory as the baseline", ErrNotComparable, base.Name)
	}
	if run.Meta.Kind == "published" {
		return "", fmt.Errorf("%w: %s holds published figures, not a run", ErrNotComparable, run.Name)
	}
	if (run.Meta.Kind == "simulated") != (base.Meta.Kind == "simulated") {
		return "", fmt.Errorf("%w: one side is simulated and the other measured; check a simulated run against a simulated baseline", ErrNotComparable)
	}
	rp, bp := platforms(run), platforms(base)
	switch {
	case len(rp) == 0 || len(bp) == 0:
		return "", fmt.Errorf("%w: no GPU model recorded (platform column) in %s", ErrNotComparable, map[bool]string{true: run.Name, false: base.Name}[len(rp) == 0])
	case len(bp) > 1:
		return "", fmt.Errorf("%w: the baseline %s mixes GPU models (%s); use one model's rows", ErrNotComparable, base.Name, strings.Join(bp, ", "))
	case len(rp) > 1:
		return "", fmt.Errorf("%w: the run %s mixes GPU models (%s); check each model against its own baseline", ErrNotComparable, run.Name, strings.Join(rp, ", "))
	case rp[0] != bp[0]:
		return "", fmt.Errorf("%w: the run %s was measured on %s, the baseline %s on %s; a check compares one GPU model with itself", ErrNotComparable, run.Name, rp[0], base.Name, bp[0])
	}
	if rn, bn := run.Meta.Device.Name, base.Meta.Device.Name; rn != "" && bn != "" && rn != bn {
		return "", fmt.Errorf("%w: the run's device is %q, the baseline's %q; a check compares one GPU model with itself", ErrNotComparable, rn, bn)
	}
	return cmp.Or(run.Meta.Device.Name, rp[0]), nil
}

// Compare judges every configuration that run and baseline share, then
// every resource, then the GPU and the host (doc.go: Method).
func Compare(run, base Side, o Options) (*Report, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	model, err := comparable(run, base)
	if err != nil {
		return nil, err
	}
	rep := &Report{Baseline: base.Name, Run: run.Name, GPUModel: model, Confidence: o.Confidence, FailPct: o.FailPct, FDR: o.FDR}
	prior := o.Prior
	if prior == nil {
		prior = PriorFor(model)
	}
	bs, _ := collectSide(base, false)
	rs, order := collectSide(run, true)
	rep.RunGPUs, rep.SameGPU = gpus(rs, bs)
	j := newJudge(o, prior)
	matched := map[string]bool{}
	missing := map[string]int{}
	for _, k := range order {
		r := rs[k]
		sk := settingKey(r.first)
		b := bs[sk]
		if b == nil {
			rep.RunOnly++
			missing[r.first.Group]++
			continue
		}
		matched[sk] = true
		rep.Results = append(rep.Results, j.config(r, b))
	}
	for k := range bs {
		if !matched[k] {
			rep.BaselineOnly++
		}
	}
	if len(rep.Results) == 0 {
		return nil, fmt.Errorf("%w: no configuration of %s is in %s (different groups, sizes or settings: a --quick run matches a baseline that has its sizes); %d run and %d baseline configurations",
			ErrNotComparable, run.Name, base.Name, len(rs), len(bs))
	}
	j.discoveries(rep.Results)
	rep.Resources = j.resources(rep.Results)
	rep.GPU, rep.Host = headline(rep.Resources, rep.Results)
	rep.count()
	rep.Variation = variation(rep.Results, prior, rep.SameGPU)
	rep.Notes = notes(run, base, missing, rep.Host)
	rep.SummaryLine = summaryLine(rep)
	return rep, nil
}

func (r *Report) count() {
	for _, res := range r.Results {
		switch res.Verdict {
		case Pass:
			r.Counts.Pass++
		case Inconclusive:
			r.Counts.Inconclusive++
		case Fail:
			r.Counts.Fail++
		default:
			r.Counts.Skip++
		}
	}
}

// gpus counts the run's GPUs and says whether every one of them is a GPU
// the baseline measured (a same-node check).
func gpus(rs, bs map[string]*sample) (int, bool) {
	in := map[string]bool{}
	for _, b := range bs {
		for _, r := range b.runs {
			in[r.gpu] = true
		}
	}
	seen := map[string]bool{}
	same := true
	for _, r := range rs {
		g := r.first.GPUUUID
		seen[g] = true
		same = same && g != "" && in[g]
	}
	return len(seen), same
}

// variation says where the intervals' process-to-process variation came
// from.
func variation(rs []Result, p *Prior, same bool) string {
	multi := 0
	for _, r := range rs {
		if r.BaselineRuns > 1 || r.RunRuns > 1 {
			multi++
		}
	}
	s := fmt.Sprintf("measured from the runs (%d of %d configurations have several processes), with the calibration of %s as a prior", multi, len(rs), p.Source)
	if multi == 0 {
		s = fmt.Sprintf("one process on each side, so the run-to-run spread cannot be measured here: the intervals use the calibration of %s (conservative, per configuration where it has it, per resource otherwise); a baseline of several runs (a directory of runs, or umbench run --repeat N) measures it", p.Source)
	}
	if !same {
		s += "; run and baseline are on different GPUs, so the variation between hosts is allowed for too"
	}
	return s
}

func notes(run, base Side, missing map[string]int, host Verdict) []string {
	var out []string
	rm, bm := run.Meta, base.Meta
	if rm.Device.DriverVersion != "" && bm.Device.DriverVersion != "" && rm.Device.DriverVersion != bm.Device.DriverVersion {
		out = append(out, fmt.Sprintf("driver %s (run), %s (baseline)", rm.Device.DriverVersion, bm.Device.DriverVersion))
	}
	if rm.Commit != "" && bm.Commit != "" && rm.Commit != bm.Commit {
		out = append(out, fmt.Sprintf("umlab commit %.12s (run), %.12s (baseline): method changes show as differences", rm.Commit, bm.Commit))
	}
	if r, b := results.PlanRewrite(rm), results.PlanRewrite(bm); r != "" && b != "" && r != b {
		out = append(out, fmt.Sprintf("memory states rewritten by %s (run), %s (baseline) before cold, prefetched and advised trials: "+
			"states that depend on it (preferred location CPU above all) differ by method, not health", r, b))
	}
	if host != Pass && host != Skip {
		out = append(out, "host: "+hostFacts(rm)+" (run); "+hostFacts(bm)+" (baseline): the host verdict is about these, not the GPU")
	}
	if len(missing) > 0 {
		var g []string
		for k, n := range missing {
			g = append(g, fmt.Sprintf("%s %d", k, n))
		}
		sort.Strings(g)
		out = append(out, "not in the baseline, not judged: "+strings.Join(g, ", "))
	}
	return out
}

// hostFacts names a run's host CPU and the CPUs it could use.
func hostFacts(m results.Metadata) string {
	cpu := cmp.Or(m.Device.CPU, "CPU model not recorded")
	// CPUAffinity is a list such as "[0 1 2 3]".
	if n := len(strings.Fields(strings.Trim(m.Device.CPUAffinity, "[]"))); n > 0 {
		cpu += fmt.Sprintf(", %d CPUs", n)
	}
	if m.Host != "" {
		cpu = m.Host + ": " + cpu
	}
	return cpu
}

func summaryLine(r *Report) string {
	s := fmt.Sprintf("GPU %s, host %s: %d fail, %d inconclusive, %d pass, %d skipped of %d configurations on %s against %s",
		strings.ToUpper(string(r.GPU)), strings.ToUpper(string(r.Host)), r.Counts.Fail, r.Counts.Inconclusive, r.Counts.Pass, r.Counts.Skip,
		len(r.Results), r.GPUModel, r.Baseline)
	if r.BaselineOnly > 0 {
		s += fmt.Sprintf(" (%d of its configurations not in the run)", r.BaselineOnly)
	}
	return s
}
