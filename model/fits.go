package model

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/go-gota/gota/dataframe"

	"github.com/umlab/umlab/results"
)

// PlatformFit is the reuse model fitted to one platform's handoff rows.
type PlatformFit struct {
	Platform string
	Report   *Report // nil when Err is set
	Err      error   // why the platform could not be fitted
}

// Models returns the fit's calibrated parameters with their validation
// errors, each stamped with the platform.
func (f PlatformFit) Models() []Calibration {
	if f.Report == nil {
		return nil
	}
	out := append([]Calibration(nil), f.Report.Calibration...)
	for i := range out {
		out[i].Platform = f.Platform
	}
	return out
}

// FitEach fits the reuse model (Fit) separately for each platform of the
// handoff phases (HandoffPhases), the paper's platforms first, then the
// others by name; a platform that cannot be fitted has Err set.
func FitEach(rows []results.Row, o Options) []PlatformFit {
	by := map[string][]results.Row{}
	for _, r := range HandoffPhases(rows) {
		by[r.Platform] = append(by[r.Platform], r)
	}
	var fits []PlatformFit
	paperFirst := inOrder("GB200", "GH200", "GB10")
	for _, p := range slices.SortedFunc(maps.Keys(by), paperFirst) {
		rep, err := Fits.Fit(by[p], o)
		fits = append(fits, PlatformFit{Platform: p, Report: rep, Err: err})
	}
	return fits
}

// AllModels returns the models of every fit that succeeded.
func AllModels(fits []PlatformFit) []Calibration {
	var out []Calibration
	for _, f := range fits {
		out = append(out, f.Models()...)
	}
	return out
}

// CompareFrame sets published parameters beside fitted ones, matched by
// platform, policy and size (NaN where one has no match): F, G and the
// errors of each, and the difference of F in percent.
func CompareFrame(published, fitted []Calibration) dataframe.DataFrame {
	type k struct {
		platform, policy string
		size             int64
	}
	fit := map[k]Calibration{}
	for _, m := range fitted {
		fit[k{m.Platform, m.Policy, m.SizeBytes}] = m
	}
	nan := math.NaN()
	none := Calibration{Param: Param{F: nan, G: nan}, MedianAPE: nan, MaxAPE: nan}
	type pair struct{ p, f Calibration }
	var pairs []pair
	used := map[k]bool{}
	for _, p := range published {
		key := k{p.Platform, p.Policy, p.SizeBytes}
		f, ok := fit[key]
		if !ok {
			f = none
		}
		used[key] = true
		pairs = append(pairs, pair{p, f})
	}
	for _, f := range fitted {
		if !used[k{f.Platform, f.Policy, f.SizeBytes}] {
			p := none
			p.Platform, p.Policy, p.SizeBytes = f.Platform, f.Policy, f.SizeBytes
			pairs = append(pairs, pair{p, f})
		}
	}
	if len(pairs) == 0 {
		return dataframe.DataFrame{Err: fmt.Errorf("%w: no models to compare", ErrBadInput)}
	}
	type P = pair
	num := func(name string, f func(p *P) float64) results.Field[P] { return results.FloatField(name, f) }
	return results.Build(pairs,
		results.StringField(results.ColPlatform, func(p *P) string { return p.p.Platform }),
		results.StringField(results.ColPolicy, func(p *P) string { return p.p.Policy }),
		results.IntField(results.ColSizeBytes, func(p *P) int64 { return p.p.SizeBytes }),
		num("f_ms_published", func(p *P) float64 { return p.p.F }),
		num("f_ms_fitted", func(p *P) float64 { return p.f.F }),
		num("f_diff_pct", func(p *P) float64 { return 100 * (p.f.F - p.p.F) / p.p.F }),
		num("g_ms_published", func(p *P) float64 { return p.p.G }),
		num("g_ms_fitted", func(p *P) float64 { return p.f.G }),
		num("median_ape_pct_published", func(p *P) float64 { return p.p.MedianAPE }),
		num("median_ape_pct_fitted", func(p *P) float64 { return p.f.MedianAPE }),
		num("max_ape_pct_published", func(p *P) float64 { return p.p.MaxAPE }),
		num("max_ape_pct_fitted", func(p *P) float64 { return p.f.MaxAPE }),
	)
}

// AdviceFrame asks Advise which policy is fastest for each workload under
// each fit's model: platform, size, R, the fastest and runner-up with
// their times, the break-even R* and how the parameters were obtained.
func AdviceFrame(fits []PlatformFit, workloads []Workload) dataframe.DataFrame {
	type advice struct {
		platform           string
		size, reuse        int64
		best, next, how    string
		pred, nextMs, rstr float64
	}
	var out []advice
	for _, f := range fits {
		if f.Report == nil {
			continue
		}
		for _, w := range workloads {
			a, err := Advise(f.Report.Model, w)
			if err != nil {
				return dataframe.DataFrame{Err: fmt.Errorf("model: advice for %s: %w", f.Platform, err)}
			}
			b := a.Ranking[0]
			ad := advice{platform: f.Platform, size: w.SizeBytes, reuse: int64(math.Round(w.Reuse)),
				best: b.Policy, pred: b.PredictedMs, how: b.How.String(), nextMs: math.NaN(), rstr: math.NaN()}
			if len(a.Ranking) > 1 {
				ad.next, ad.nextMs = a.Ranking[1].Policy, a.Ranking[1].PredictedMs
				if a.BreakEven.Kind == Crosses {
					ad.rstr = a.BreakEven.R
				}
			}
			out = append(out, ad)
		}
	}
	if len(out) == 0 {
		return dataframe.DataFrame{Err: fmt.Errorf("%w: no fitted model to advise with", ErrBadInput)}
	}
	type A = advice
	return results.Build(out,
		results.StringField(results.ColPlatform, func(a *A) string { return a.platform }),
		results.IntField(results.ColSizeBytes, func(a *A) int64 { return a.size }),
		results.IntField(results.ColReusePasses, func(a *A) int64 { return a.reuse }),
		results.StringField("fastest", func(a *A) string { return a.best }),
		results.FloatField("fastest_ms", func(a *A) float64 { return a.pred }),
		results.StringField("runner_up", func(a *A) string { return a.next }),
		results.FloatField("runner_up_ms", func(a *A) float64 { return a.nextMs }),
		results.FloatField("break_even_r", func(a *A) float64 { return a.rstr }),
		results.StringField("parameters", func(a *A) string { return a.how }),
	)
}
