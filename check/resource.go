package check

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/umlab/umlab/results"
)

// ResourceResult is the verdict on one resource of one GPU of the run: the
// weighted mean change of its configurations (an index), its interval and
// the configurations that moved most.
type ResourceResult struct {
	Resource       string  `json:"resource"`
	Class          string  `json:"class"` // results.ClassGPU or ClassHost
	GPU            string  `json:"gpu,omitempty"`
	Configurations int     `json:"configurations"`
	Ratio          float64 `json:"ratio"`
	Lo             float64 `json:"ratio_lo"`
	Hi             float64 `json:"ratio_hi"`
	Level          float64 `json:"level"` // the interval's coverage, Bonferroni-adjusted over the class
	// TolerancePct is the slowdown it is judged against: the larger of
	// FailPct and the variation a healthy node shows at Level.
	TolerancePct float64  `json:"tolerance_pct"`
	Verdict      Verdict  `json:"verdict"`
	Worst        []string `json:"worst,omitempty"` // the configurations that slowed most, worst first
}

// ChangePct is the index as a percentage change (−5 = 5 % slower).
func (r ResourceResult) ChangePct() float64 { return 100 * (r.Ratio - 1) }

// resources judges each resource of each run GPU on the index of its
// configurations: their changes weighted by the inverse of their own
// variance (trials' noise and spreads: a random-effects mean), with an
// interval that adds the spread common to all of a process's
// configurations (a whole process running slow: the calibration's,
// pooled with what the sides' processes show). Failures are claimed at
// the Bonferroni-adjusted level within a class (GPU or host).
func (j *judge) resources(rs []Result) []ResourceResult {
	type key struct{ resource, gpu string }
	groups := map[key][]Result{}
	var keys []key
	for _, r := range rs {
		if math.IsNaN(r.delta) || r.se == 0 {
			continue
		}
		k := key{r.Resource, r.GPU}
		if groups[k] == nil {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], r)
	}
	slices.SortStableFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(resourceRank(a.resource), resourceRank(b.resource)), strings.Compare(a.gpu, b.gpu))
	})
	perClass := map[string]int{}
	for _, k := range keys {
		perClass[results.ClassOf(k.resource)+k.gpu]++
	}
	var out []ResourceResult
	for _, k := range keys {
		g := groups[k]
		m := perClass[results.ClassOf(k.resource)+k.gpu]
		level := 1 - (1-j.o.Confidence)/float64(m)
		z := distuv.UnitNormal.Quantile(1 - (1-level)/2)
		var sw, swd, sw2v float64
		for _, r := range g {
			sw += r.weight
			swd += r.weight * r.delta
			sw2v += r.weight * r.weight * r.within
		}
		d := swd / sw
		same := g[0].same
		proc := j.prior.Process(k.resource, same)
		kx, ky := float64(g[0].RunRuns), float64(g[0].BaselineRuns)
		tau2 := pooledProcess(proc.Within, g, noiseOf(g, sw))
		se := math.Sqrt(sw2v/(sw*sw) + tau2*(1/kx+1/ky) + proc.Between*proc.Between)
		res := ResourceResult{Resource: k.resource, Class: results.ClassOf(k.resource), GPU: k.gpu, Configurations: len(g),
			Ratio: math.Exp(d), Lo: math.Exp(d - z*se), Hi: math.Exp(d + z*se), Level: level}
		res.Verdict, res.TolerancePct = j.verdict(d, se, z)
		slices.SortStableFunc(g, func(a, b Result) int { return cmp.Compare(a.delta, b.delta) })
		for _, r := range g[:min(3, len(g))] {
			if r.delta < 0 {
				res.Worst = append(res.Worst, fmt.Sprintf("%s %s %+.1f %%", r.Group, r.Configuration, r.ChangePct()))
			}
		}
		out = append(out, res)
	}
	return out
}

// headline gives the GPU and the host verdict: the worst of their
// resources, and a failure wherever one of their configurations failed
// at the false-discovery rate.
func headline(res []ResourceResult, rs []Result) (gpu, host Verdict) {
	gpu, host = Skip, Skip
	for _, r := range res {
		if r.Class == results.ClassGPU {
			gpu = worse(gpu, r.Verdict)
		} else {
			host = worse(host, r.Verdict)
		}
	}
	for _, r := range rs {
		if r.Verdict != Fail {
			continue
		}
		if results.GPUBound(r.Resource) {
			gpu = Fail
		} else {
			host = Fail
		}
	}
	return gpu, host
}

// severity orders verdicts from Skip (nothing) to Fail.
var severity = map[Verdict]int{Skip: 0, Pass: 1, Inconclusive: 2, Fail: 3}

// worse returns the worse of two verdicts.
func worse(a, b Verdict) Verdict {
	if severity[b] > severity[a] {
		return b
	}
	return a
}

// pooledProcess is the variance of a resource's index between processes:
// the calibration's (prior, worth priorWeight processes) pooled with the
// spread of the index over each side's processes beyond the trials' noise
// (noise: the index's share of it, about the same for every process),
// where a side has several processes that measured every configuration.
func pooledProcess(prior float64, g []Result, noise float64) float64 {
	num, df := priorWeight*prior*prior, float64(priorWeight)
	for side := range 2 {
		var idx []float64
		for id := range g[0].logs[side] {
			var sw, swl float64
			for _, r := range g {
				l, ok := r.logs[side][id]
				if !ok {
					sw = 0
					break
				}
				sw += r.weight
				swl += r.weight * l
			}
			if sw > 0 {
				idx = append(idx, swl/sw)
			}
		}
		if len(idx) < 2 {
			continue
		}
		_, ss := sumSquares(idx)
		num += math.Max(ss-float64(len(idx)-1)*noise, 0)
		df += float64(len(idx) - 1)
	}
	return num / df
}

// noiseOf is the trials' share of the variance of the index: what a
// process's index varies by even when no process runs slow.
func noiseOf(g []Result, sw float64) float64 {
	var v float64
	for _, r := range g {
		v += r.weight * r.weight * r.trials
	}
	return v / (sw * sw)
}
