package check

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/stats"
)

// Verdict is the outcome for one configuration.
type Verdict string

// Verdicts, from best to worst; Skip means "not judged".
const (
	Pass Verdict = "pass"
	Warn Verdict = "warn"
	Fail Verdict = "fail"
	Skip Verdict = "skip"
)

// ErrNotComparable is returned when run and baseline cannot be compared:
// different GPU models, a published baseline, or no configuration in common.
var ErrNotComparable = errors.New("check: not comparable")

// Options are the thresholds and bootstrap settings. Zero values take the
// defaults shown.
type Options struct {
	FailPct    float64 // 5: fail when the whole interval lies below −FailPct %
	WarnPct    float64 // 2: warn when the whole interval lies below −WarnPct %
	Confidence float64 // 0.95: the interval's coverage
	Resamples  int     // 2000 bootstrap resamples per configuration
	MinTrials  int     // 3: fewer trials on either side gives Skip
	Seed       uint64  // 1: the bootstrap is deterministic for a seed
}

func (o Options) withDefaults() (Options, error) {
	o.FailPct = cmp.Or(o.FailPct, 5)
	o.WarnPct = cmp.Or(o.WarnPct, 2)
	o.Confidence = cmp.Or(o.Confidence, 0.95)
	o.Resamples = cmp.Or(o.Resamples, 2000)
	o.MinTrials = cmp.Or(o.MinTrials, 3)
	o.Seed = cmp.Or(o.Seed, 1)
	switch {
	case !(o.FailPct > 0 && o.FailPct < 100):
		return o, fmt.Errorf("check: fail threshold %v %%: want a percentage between 0 and 100", o.FailPct)
	case !(o.WarnPct > 0 && o.WarnPct <= o.FailPct):
		return o, fmt.Errorf("check: warn threshold %v %%: want a percentage above 0 and at most the fail threshold (%v %%)", o.WarnPct, o.FailPct)
	case !(o.Confidence > 0.5 && o.Confidence < 1):
		return o, fmt.Errorf("check: confidence %v: want a level between 0.5 and 1, e.g. 0.95", o.Confidence)
	case o.Resamples < 100:
		return o, fmt.Errorf("check: %d resamples: want at least 100", o.Resamples)
	case o.MinTrials < 2:
		return o, fmt.Errorf("check: minimum trials %d: want at least 2", o.MinTrials)
	}
	return o, nil
}

// Side is one of the two things compared: rows with their metadata and a
// name to show (a dataset name or a directory).
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
	GPU           string  `json:"gpu,omitempty"` // the run's GPU UUID
	Host          string  `json:"host,omitempty"`
	RunN          int     `json:"run_n"`
	BaselineN     int     `json:"baseline_n"`
	RunGBps       float64 `json:"run_median_gbps"`
	BaselineGBps  float64 `json:"baseline_median_gbps"`
	Ratio         float64 `json:"ratio"` // run median / baseline median
	Lo            float64 `json:"ratio_lo"`
	Hi            float64 `json:"ratio_hi"`
	Verdict       Verdict `json:"verdict"`
	Reason        string  `json:"reason,omitempty"`
}

// ChangePct is the median ratio as a percentage change (−5 = 5 % slower).
func (r Result) ChangePct() float64 { return 100 * (r.Ratio - 1) }

// Report is the whole comparison.
type Report struct {
	Baseline     string   `json:"baseline"`
	Run          string   `json:"run"`
	GPU          string   `json:"gpu"` // the GPU model both sides share
	Confidence   float64  `json:"confidence"`
	FailPct      float64  `json:"fail_pct"`
	WarnPct      float64  `json:"warn_pct"`
	Results      []Result `json:"results"`
	Counts       Counts   `json:"counts"`
	BaselineOnly int      `json:"baseline_only"` // baseline configurations the run lacks
	RunOnly      int      `json:"run_only"`      // run configurations the baseline lacks
	Notes        []string `json:"notes,omitempty"`
	RunGPUs      int      `json:"run_gpus"`
	Verdict      Verdict  `json:"verdict"` // the worst verdict judged: fail, warn or pass
	SummaryLine  string   `json:"summary"`
}

// Counts are the number of results of each verdict.
type Counts struct {
	Pass int `json:"pass"`
	Warn int `json:"warn"`
	Fail int `json:"fail"`
	Skip int `json:"skip"`
}

// OK reports whether nothing failed (and, when strict, nothing warned).
func (r *Report) OK(strict bool) bool {
	return r.Counts.Fail == 0 && (!strict || r.Counts.Warn == 0)
}

// settingKey identifies a configuration across runs: the configuration
// columns without the GPU's identity, plus the fleet mode (isolated and
// concurrent rows are never pooled).
func settingKey(r results.Row) string {
	c := r
	c.Platform, c.GPUUUID = "", ""
	return results.ConfigKey(c) + "|" + fleetMode(r.Note)
}

// fleetMode is the fleet=... token of a row's note ("" outside a fleet run).
func fleetMode(note string) string {
	for _, f := range strings.FieldsFunc(note, func(r rune) bool { return r == ';' || r == ' ' || r == ',' }) {
		if strings.HasPrefix(f, "fleet=") {
			m := strings.TrimPrefix(f, "fleet=")
			if strings.HasPrefix(m, "concurrent") {
				return "concurrent"
			}
			return m
		}
	}
	return ""
}

// Label is a short readable name for a row's configuration.
func Label(r results.Row) string {
	var f []string
	add := func(s string) {
		if s != "" {
			f = append(f, s)
		}
	}
	if (r.Benchmark != "stream" || r.Pattern == "") && r.Benchmark != r.Group {
		add(r.Benchmark)
	}
	if r.Pattern != r.Benchmark {
		add(r.Pattern)
	}
	add(r.Mode)
	add(r.Policy)
	add(r.Phase)
	add(r.Direction)
	if r.SizeBytes > 0 {
		add(HumanBytes(r.SizeBytes))
	} else if r.FootprintBytes > 0 {
		add("footprint " + HumanBytes(r.FootprintBytes))
	}
	if r.StrideElements > 1 && r.PageIntervalBytes == 0 { // a page-touch stride follows from its interval
		add("stride " + strconv.FormatInt(r.StrideElements, 10))
	}
	if r.PageIntervalBytes > 0 {
		add("every " + HumanBytes(r.PageIntervalBytes))
	}
	if !math.IsNaN(r.OversubPct) && r.OversubPct > 0 {
		add(strconv.FormatFloat(r.OversubPct, 'g', -1, 64) + "%")
	}
	if r.ReusePasses > 0 {
		add("R=" + strconv.FormatInt(r.ReusePasses, 10))
	}
	if m := fleetMode(r.Note); m != "" {
		add(m)
	}
	return strings.Join(f, " ")
}

// HumanBytes writes a byte count in binary units: 64 KiB, 1.5 GiB.
func HumanBytes(b int64) string {
	if b < 1024 {
		return strconv.FormatInt(b, 10) + " B"
	}
	v, i := float64(b), -1
	for v >= 1024 && i < 4 {
		v /= 1024
		i++
	}
	u := []string{"KiB", "MiB", "GiB", "TiB", "PiB"}[i]
	if v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 0, 64) + " " + u
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + " " + u
}

type sample struct {
	first    results.Row
	values   []float64
	n        int
	waived   bool
	waiveWhy string
	unverif  int
}

// value is what a configuration is judged on: bandwidth, or the inverse
// total time where a row has no bandwidth.
func value(r results.Row) float64 {
	if !math.IsNaN(r.GBps) && r.GBps > 0 {
		return r.GBps
	}
	if !math.IsNaN(r.TotalMs) && r.TotalMs > 0 {
		return 1 / r.TotalMs
	}
	return math.NaN()
}

// collect groups rows by setting key and, when perGPU, by GPU as well.
func collect(rows []results.Row, perGPU bool) (map[string]*sample, []string) {
	m := map[string]*sample{}
	var order []string
	for _, r := range rows {
		k := settingKey(r)
		if perGPU {
			k += "|" + r.GPUUUID
		}
		s := m[k]
		if s == nil {
			s = &sample{first: r}
			m[k] = s
			order = append(order, k)
		}
		s.n++
		if r.Waived {
			s.waived, s.waiveWhy = true, r.Note
			continue
		}
		if !r.Verified {
			s.unverif++
		}
		if v := value(r); !math.IsNaN(v) {
			s.values = append(s.values, v)
		}
	}
	return m, order
}

// platforms lists the distinct GPU models of rows (platform column) and the
// metadata's device name.
func platforms(s Side) []string {
	seen := map[string]bool{}
	for _, r := range s.Rows {
		if r.Platform != "" {
			seen[r.Platform] = true
		}
	}
	if len(seen) == 0 && s.Meta.Platform != "" {
		seen[s.Meta.Platform] = true
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Compare judges every configuration that run and baseline share.
func Compare(run, base Side, o Options) (*Report, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	if base.Meta.Kind == "published" {
		return nil, fmt.Errorf("%w: %s holds published figures (one value per configuration), not trials; use a measured dataset or results directory as the baseline", ErrNotComparable, base.Name)
	}
	if run.Meta.Kind == "published" {
		return nil, fmt.Errorf("%w: %s holds published figures, not a run", ErrNotComparable, run.Name)
	}
	rp, bp := platforms(run), platforms(base)
	switch {
	case len(rp) == 0 || len(bp) == 0:
		return nil, fmt.Errorf("%w: no GPU model recorded (platform column) in %s", ErrNotComparable, map[bool]string{true: run.Name, false: base.Name}[len(rp) == 0])
	case len(bp) > 1:
		return nil, fmt.Errorf("%w: the baseline %s mixes GPU models (%s); use one model's rows", ErrNotComparable, base.Name, strings.Join(bp, ", "))
	case len(rp) > 1:
		return nil, fmt.Errorf("%w: the run %s mixes GPU models (%s); check each model against its own baseline", ErrNotComparable, run.Name, strings.Join(rp, ", "))
	case rp[0] != bp[0]:
		return nil, fmt.Errorf("%w: the run %s was measured on %s, the baseline %s on %s; a check compares one GPU model with itself", ErrNotComparable, run.Name, rp[0], base.Name, bp[0])
	}
	if rn, bn := run.Meta.Device.Name, base.Meta.Device.Name; rn != "" && bn != "" && rn != bn {
		return nil, fmt.Errorf("%w: the run's device is %q, the baseline's %q; a check compares one GPU model with itself", ErrNotComparable, rn, bn)
	}
	rep := &Report{Baseline: base.Name, Run: run.Name, GPU: rp[0], Confidence: o.Confidence, FailPct: o.FailPct, WarnPct: o.WarnPct}
	if d := run.Meta.Device.Name; d != "" {
		rep.GPU = d
	}
	gpus := map[string]bool{}
	for _, r := range run.Rows {
		gpus[r.GPUUUID] = true
	}
	rep.RunGPUs = len(gpus)
	bs, _ := collect(base.Rows, false)
	rs, order := collect(run.Rows, true)
	matched := map[string]bool{}
	rng := rand.New(rand.NewPCG(o.Seed, 0x9e3779b97f4a7c15))
	missingGroups := map[string]int{}
	for _, k := range order {
		r := rs[k]
		sk := settingKey(r.first)
		b := bs[sk]
		if b == nil {
			rep.RunOnly++
			missingGroups[r.first.Group]++
			continue
		}
		matched[sk] = true
		rep.Results = append(rep.Results, judge(r, b, rng, o))
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
	for _, res := range rep.Results {
		switch res.Verdict {
		case Pass:
			rep.Counts.Pass++
		case Warn:
			rep.Counts.Warn++
		case Fail:
			rep.Counts.Fail++
		default:
			rep.Counts.Skip++
		}
	}
	switch {
	case rep.Counts.Fail > 0:
		rep.Verdict = Fail
	case rep.Counts.Warn > 0:
		rep.Verdict = Warn
	case rep.Counts.Pass > 0:
		rep.Verdict = Pass
	default:
		rep.Verdict = Skip
	}
	rep.Notes = notes(run, base, missingGroups)
	rep.SummaryLine = summaryLine(rep)
	return rep, nil
}

func judge(r, b *sample, rng *rand.Rand, o Options) Result {
	res := Result{Group: r.first.Group, Configuration: Label(r.first), Key: settingKey(r.first),
		GPU: r.first.GPUUUID, Host: r.first.Host, RunN: len(r.values), BaselineN: len(b.values)}
	nan := math.NaN()
	res.RunGBps, res.BaselineGBps, res.Ratio, res.Lo, res.Hi = nan, nan, nan, nan, nan
	switch {
	case r.waived && b.waived:
		res.Verdict, res.Reason = Skip, "waived in both"
		return res
	case r.waived:
		res.Verdict, res.Reason = Warn, "waived in this run but measured in the baseline: "+r.waiveWhy
		return res
	case b.waived:
		res.Verdict, res.Reason = Skip, "waived in the baseline"
		return res
	}
	rv, bv := slices.Clone(r.values), slices.Clone(b.values)
	sort.Float64s(rv)
	sort.Float64s(bv)
	if len(rv) > 0 {
		res.RunGBps = stats.Median(rv)
	}
	if len(bv) > 0 {
		res.BaselineGBps = stats.Median(bv)
	}
	if r.unverif > 0 && b.unverif == 0 {
		res.Verdict, res.Reason = Fail, fmt.Sprintf("%d of %d trials not verified (the baseline's all were)", r.unverif, r.n)
		if len(rv) > 0 && len(bv) > 0 {
			res.Ratio = res.RunGBps / res.BaselineGBps
		}
		return res
	}
	if len(rv) < o.MinTrials || len(bv) < o.MinTrials {
		res.Verdict, res.Reason = Skip, fmt.Sprintf("too few trials to judge (run %d, baseline %d; need %d)", len(rv), len(bv), o.MinTrials)
		if len(rv) > 0 && len(bv) > 0 {
			res.Ratio = res.RunGBps / res.BaselineGBps
		}
		return res
	}
	res.Ratio = res.RunGBps / res.BaselineGBps
	res.Lo, res.Hi = RatioInterval(rv, bv, o.Confidence, o.Resamples, rng)
	fail, warn := 1-o.FailPct/100, 1-o.WarnPct/100
	switch {
	case res.Hi < fail:
		res.Verdict, res.Reason = Fail, fmt.Sprintf("below -%g %%", o.FailPct)
	case res.Hi < warn:
		res.Verdict, res.Reason = Warn, fmt.Sprintf("below -%g %%", o.WarnPct)
	case res.Ratio < fail:
		res.Verdict, res.Reason = Warn, fmt.Sprintf("median < -%g %%", o.FailPct)
	case res.Lo > 1/fail:
		res.Verdict, res.Reason = Pass, fmt.Sprintf("above +%g %%", o.FailPct)
	default:
		res.Verdict = Pass
	}
	return res
}

// RatioInterval is a percentile bootstrap interval at level conf for
// median(run)/median(base): both samples resampled with replacement,
// independently, n times.
func RatioInterval(run, base []float64, conf float64, n int, rng *rand.Rand) (lo, hi float64) {
	ratios := make([]float64, n)
	ra, ba := make([]float64, len(run)), make([]float64, len(base))
	for i := range ratios {
		for j := range ra {
			ra[j] = run[rng.IntN(len(run))]
		}
		for j := range ba {
			ba[j] = base[rng.IntN(len(base))]
		}
		sort.Float64s(ra)
		sort.Float64s(ba)
		ratios[i] = stats.Median(ra) / stats.Median(ba)
	}
	sort.Float64s(ratios)
	a := (1 - conf) / 2
	return quantile(ratios, a), quantile(ratios, 1-a)
}

// quantile of sorted data with linear interpolation.
func quantile(s []float64, p float64) float64 {
	x := p * float64(len(s)-1)
	i := int(math.Floor(x))
	if i >= len(s)-1 {
		return s[len(s)-1]
	}
	f := x - float64(i)
	return s[i]*(1-f) + s[i+1]*f
}

func notes(run, base Side, missing map[string]int) []string {
	var out []string
	rm, bm := run.Meta, base.Meta
	if rm.Device.DriverVersion != "" && bm.Device.DriverVersion != "" && rm.Device.DriverVersion != bm.Device.DriverVersion {
		out = append(out, fmt.Sprintf("driver %s (run), %s (baseline)", rm.Device.DriverVersion, bm.Device.DriverVersion))
	}
	if rm.Commit != "" && bm.Commit != "" && rm.Commit != bm.Commit {
		out = append(out, fmt.Sprintf("umlab commit %.12s (run), %.12s (baseline): method changes show as differences", rm.Commit, bm.Commit))
	}
	if r, b := results.PlanRewrite(rm.Config), results.PlanRewrite(bm.Config); r != "" && b != "" && r != b {
		out = append(out, fmt.Sprintf("memory states rewritten by %s (run), %s (baseline) before cold, prefetched and advised trials: "+
			"states that depend on it (preferred location CPU above all) differ by method, not health", r, b))
	}
	if t, w := trialsWarmups(run.Rows), trialsWarmups(base.Rows); t != w {
		out = append(out, fmt.Sprintf("trials × warm-ups: %s (run), %s (baseline); the intervals allow for the trial counts", t, w))
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

// trialsWarmups describes the most common trial count and warm-up count.
func trialsWarmups(rows []results.Row) string {
	trials := map[string]int{}
	warm := map[int64]int{}
	for _, r := range rows {
		trials[settingKey(r)+"|"+r.GPUUUID+"|"+strconv.FormatInt(r.Repetition, 10)]++
		warm[r.Warmups]++
	}
	counts := map[int]int{}
	for _, n := range trials {
		counts[n]++
	}
	return fmt.Sprintf("%d × %d", results.MostCommon(counts), results.MostCommon(warm))
}

func summaryLine(r *Report) string {
	s := fmt.Sprintf("check %s: %d fail, %d warn, %d pass, %d skipped of %d configurations on %s against %s",
		strings.ToUpper(string(r.Verdict)), r.Counts.Fail, r.Counts.Warn, r.Counts.Pass, r.Counts.Skip, len(r.Results), r.GPU, r.Baseline)
	if r.BaselineOnly > 0 {
		s += fmt.Sprintf(" (%d of its configurations not in the run)", r.BaselineOnly)
	}
	return s
}
