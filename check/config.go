package check

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/stats"
)

// process is one run's (one process's, on one GPU) trials of a
// configuration.
type process struct {
	id, gpu string
	values  []float64
}

// sample is every process's trials of one configuration on one side.
type sample struct {
	first      results.Row
	runs       []*process
	trials     int
	waived     bool
	waiveWhy   string
	unverified int
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

// sampleKey is the setting key of r (and, when perGPU, its GPU).
func sampleKey(r results.Row, perGPU bool) string {
	if perGPU {
		return settingKey(r) + "|" + r.GPUUUID
	}
	return settingKey(r)
}

// sampleOf returns r's sample in m, adding it (and its key to order) when new.
func sampleOf(m map[string]*sample, order *[]string, r results.Row, perGPU bool) *sample {
	k := sampleKey(r, perGPU)
	if m[k] == nil {
		m[k] = &sample{first: r}
		*order = append(*order, k)
	}
	return m[k]
}

// collectSide collects a side's rows and counts, where they belong, the
// unverified trials its loader left out of them (Metadata.Unverified): a
// configuration whose every trial failed verification keeps a sample,
// with no measurement.
func collectSide(side Side, perGPU bool) (map[string]*sample, []string) {
	m, order := collect(side.Rows, perGPU)
	for _, c := range side.Meta.Unverified.Configs {
		s := sampleOf(m, &order, c.Config, perGPU)
		s.trials += c.Unverified
		s.unverified += c.Unverified
	}
	return m, order
}

// collect groups rows by setting key (and, when perGPU, by GPU as well),
// and within a configuration by process (run ID and GPU). Unverified rows
// (rows not screened by a loader) are counted, not measured.
func collect(rows []results.Row, perGPU bool) (map[string]*sample, []string) {
	m := map[string]*sample{}
	var order []string
	for _, r := range rows {
		s := sampleOf(m, &order, r, perGPU)
		s.trials++
		if r.Waived {
			s.waived, s.waiveWhy = true, r.Note
			continue
		}
		if !r.Verified {
			s.unverified++
			continue // an unverified trial is no measurement
		}
		v := value(r)
		if math.IsNaN(v) {
			continue
		}
		i := slices.IndexFunc(s.runs, func(p *process) bool { return p.id == r.RunID && p.gpu == r.GPUUUID })
		if i < 0 {
			s.runs = append(s.runs, &process{id: r.RunID, gpu: r.GPUUUID})
			i = len(s.runs) - 1
		}
		s.runs[i].values = append(s.runs[i].values, v)
	}
	return m, order
}

// estimate is one side of a configuration on the log scale: the mean over
// processes of their log medians, and the variances it is made of.
type estimate struct {
	mean   float64   // mean log median
	logs   []float64 // each process's log median
	byID   map[string]float64
	within float64 // mean over processes of the trials' bootstrap variance of the log median
	n      int     // trials
	median float64 // median of the pooled trials
}

// judge holds what every configuration is judged with.
type judge struct {
	o     Options
	prior *Prior
	z     float64 // two-sided normal quantile at o.Confidence
	fail  float64 // log(1 − FailPct/100)
}

func newJudge(o Options, p *Prior) *judge {
	return &judge{o: o, prior: p,
		z: distuv.UnitNormal.Quantile(1 - (1-o.Confidence)/2), fail: math.Log1p(-o.FailPct / 100)}
}

// estimate summarises a side's processes; ok is false with too few trials.
// The bootstrap of each process is seeded from the seed, the
// configuration and the process, so that a result does not depend on
// the order in which configurations are judged.
func (j *judge) estimate(s *sample) (estimate, bool) {
	var e estimate
	var pooled []float64
	h := fnv.New64a()
	for _, p := range s.runs {
		if len(p.values) < j.o.MinTrials {
			continue
		}
		lm := math.Log(stats.Median(p.values))
		h.Reset()
		fmt.Fprint(h, settingKey(s.first), p.id, p.gpu)
		rs := stats.NewResampler(j.o.Seed ^ h.Sum64())
		var sum, sum2 float64
		for range j.o.Resamples {
			x := math.Log(rs.Median(p.values)) - lm
			sum += x
			sum2 += x * x
		}
		b := float64(j.o.Resamples)
		e.within += sum2/b - (sum/b)*(sum/b)
		e.logs = append(e.logs, lm)
		if e.byID == nil {
			e.byID = map[string]float64{}
		}
		e.byID[p.id+"|"+p.gpu] = lm
		e.n += len(p.values)
		pooled = append(pooled, p.values...)
	}
	if len(e.logs) == 0 {
		return e, false
	}
	e.mean, _ = sumSquares(e.logs)
	e.within /= float64(len(e.logs))
	e.median = stats.Median(pooled)
	return e, true
}

// between estimates the process-to-process variance of a configuration's
// log median: the calibration's (prior, worth priorWeight processes)
// pooled with what the processes of both sides show beyond their trials'
// noise.
func between(prior float64, sides ...estimate) float64 {
	num, df := priorWeight*prior, float64(priorWeight)
	for _, e := range sides {
		if k := len(e.logs); k > 1 {
			_, ss := sumSquares(e.logs)
			num += math.Max(ss-float64(k-1)*e.within, 0)
			df += float64(k - 1)
		}
	}
	return num / df
}

// priorWeight is how many processes' worth of evidence the calibration's
// spread counts for against a side's own: enough that two processes that
// happen to agree do not claim a tiny spread, little enough that six
// repeats outweigh it.
const priorWeight = 2

// config judges one configuration of the run against the baseline's.
func (j *judge) config(r, b *sample) Result {
	f := r.first
	res := Result{Group: f.Group, Configuration: Label(f), Key: settingKey(f), Resource: results.BoundOf(f),
		GPU: f.GPUUUID, Host: f.Host, RunRuns: len(r.runs), BaselineRuns: len(b.runs)}
	nan := math.NaN()
	res.RunGBps, res.BaselineGBps, res.Ratio, res.Lo, res.Hi, res.SpreadPct, res.P = nan, nan, nan, nan, nan, nan, nan
	switch {
	case r.waived && b.waived:
		res.Verdict, res.Reason = Skip, "waived in both"
	case r.waived:
		res.Verdict, res.Reason = Fail, "waived in this run but measured in the baseline: "+r.waiveWhy
	case b.waived:
		res.Verdict, res.Reason = Skip, "waived in the baseline"
	case r.unverified > 0 && b.unverified == 0:
		res.Verdict, res.Reason = Fail, fmt.Sprintf("%d of %d trials failed verification (the baseline's all passed)", r.unverified, r.trials)
	}
	if res.Verdict != "" {
		return res
	}
	x, okx := j.estimate(r)
	y, oky := j.estimate(b)
	res.RunN, res.BaselineN = x.n, y.n
	if !okx || !oky {
		res.Verdict, res.Reason = Skip, fmt.Sprintf("too few trials to judge (need %d per process)", j.o.MinTrials)
		return res
	}
	res.RunGBps, res.BaselineGBps = x.median, y.median
	res.logs = [2]map[string]float64{x.byID, y.byID}
	res.same = sameGPU(r, b)
	within, tau := j.prior.Spread(res.Key, res.Resource, res.same)
	tau2 := between(within*within, x, y)
	res.SpreadPct = 100 * math.Sqrt(tau2)
	kx, ky := float64(len(x.logs)), float64(len(y.logs))
	res.trials = x.within/kx + y.within/ky
	res.within = res.trials + tau2*(1/kx+1/ky) + tau*tau // all of it this configuration's own
	res.delta, res.se = x.mean-y.mean, math.Sqrt(res.within)
	res.weight = 1 / res.within
	res.Ratio = math.Exp(res.delta)
	res.Lo, res.Hi = math.Exp(res.delta-j.z*res.se), math.Exp(res.delta+j.z*res.se)
	res.P = distuv.UnitNormal.CDF(res.delta / res.se)
	res.Verdict, res.TolerancePct = j.verdict(res.delta, res.se, j.z)
	switch res.Verdict {
	case Inconclusive:
		res.Reason = fmt.Sprintf("within the variation (±%.1f %%)", res.TolerancePct)
	case Pass:
		if res.delta > math.Log1p(res.TolerancePct/100) {
			res.Reason = "faster beyond the variation"
		}
	}
	return res
}

// verdict judges a log change d of standard error se against the larger
// of the threshold and the variation a healthy node shows (z·se): fail
// beyond both, inconclusive beyond the threshold but within the
// variation, pass otherwise. tol is that larger, as a percentage.
func (j *judge) verdict(d, se, z float64) (v Verdict, tolPct float64) {
	t := max(-j.fail, z*se)
	switch {
	case d < -t:
		v = Fail
	case d < j.fail:
		v = Inconclusive
	default:
		v = Pass
	}
	return v, 100 * -math.Expm1(-t)
}

// sameGPU reports whether every process of the baseline ran on the run's
// GPU: then only the variation between processes of one node applies.
func sameGPU(r, b *sample) bool {
	g := r.first.GPUUUID
	for _, p := range b.runs {
		if p.gpu != g || g == "" {
			return false
		}
	}
	return true
}

// discoveries keeps a configuration's Fail only where it survives the
// Benjamini–Hochberg procedure at o.FDR among the configurations of its
// class (GPU or host) that were judged on their intervals: with ~130
// configurations judged at once, the chance of a false alarm somewhere
// would otherwise be large. A failure it does not confirm is inconclusive.
func (j *judge) discoveries(rs []Result) {
	for _, class := range []bool{true, false} {
		var idx []int
		for i, r := range rs {
			if results.GPUBound(r.Resource) == class && !math.IsNaN(r.P) {
				idx = append(idx, i)
			}
		}
		sort.SliceStable(idx, func(a, b int) bool { return rs[idx[a]].P < rs[idx[b]].P })
		m, k := float64(len(idx)), -1
		for rank, i := range idx {
			if rs[i].P <= j.o.FDR*float64(rank+1)/m {
				k = rank
			}
		}
		for rank, i := range idx {
			switch {
			case rs[i].Verdict == Fail && rank > k:
				rs[i].Verdict = Inconclusive
				rs[i].Reason = fmt.Sprintf("slower alone, not at the %g %% false-discovery rate over %d configurations", 100*j.o.FDR, len(idx))
			case rs[i].Verdict == Fail:
				rs[i].Reason = cmp.Or(rs[i].Reason, fmt.Sprintf("slower than -%.1f %%", rs[i].TolerancePct))
			}
		}
	}
}
