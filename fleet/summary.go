package fleet

import (
	"math"
	"path/filepath"
	"slices"

	"github.com/go-gota/gota/dataframe"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/stats"
)

// Summarize is results.Summarize over every part, from their digests: the
// summary of each GPU's configurations, split by fleet mode (isolated,
// concurrent, "" outside fleet runs) as umbench summary splits rows,
// modes in order of first appearance. Each part's configurations are
// finished with its own device's peaks and throttle reasons; the parts of
// one directory come in the order of its rows, as Summarize of its rows
// gives them. Parts loaded without intervals (Load, not LoadSummaries)
// are read again for them. A configuration that several parts measured on one GPU
// (runs of one GPU merged) is described from their rows together, as
// Summarize of the merged rows pools them. A platform left empty by an
// old results file takes the metadata's (else the directory's name), as
// datasets.LoadDir fills it.
func Summarize(parts []Part) (modes []string, byMode map[string][]results.SummaryRow, err error) {
	if err := withIntervals(parts); err != nil {
		return nil, nil, err
	}
	byMode = map[string][]results.SummaryRow{}
	items := summaryOrder(parts)
	seen := map[configMode]int{}
	for _, it := range items {
		seen[it.key()]++
	}
	pooled := poolSummaries(parts, items, seen)
	for _, it := range items {
		k := it.key()
		s := it.c.summary()
		if seen[k] > 1 {
			if pooled[k] == nil {
				continue // described with its first part
			}
			s, pooled[k] = *pooled[k], nil
		}
		if s.Config.Platform == "" {
			s.Config.Platform = cmpOr(it.p.Meta.Platform, filepath.Base(it.p.Dir))
		}
		d := it.p.Meta.Device
		results.SummaryOptions{PeakMemoryGBps: d.PeakMemoryGBps, PeakHostLinkGBps: d.PeakHostLinkGBps,
			ThrottleReasons: d.ThrottleReasons}.Finish(&s)
		if _, ok := byMode[it.c.Mode]; !ok {
			modes = append(modes, it.c.Mode)
		}
		byMode[it.c.Mode] = append(byMode[it.c.Mode], s)
	}
	return modes, byMode, nil
}

type summaryItem struct {
	c *configDigest
	p *Part
}

func (it summaryItem) key() configMode {
	cfg := it.c.config()
	return configMode{cfg.ConfigID(), it.c.Mode}
}

// summaryOrder lists the parts' configurations in the order Summarize of
// their rows gives them: directory by directory, each in its rows' order.
func summaryOrder(parts []Part) []summaryItem {
	var dirs []string
	byDir := map[string][]summaryItem{}
	for i := range parts {
		p := &parts[i]
		if _, ok := byDir[p.Dir]; !ok {
			dirs = append(dirs, p.Dir)
		}
		for j := range p.digest().Configs {
			byDir[p.Dir] = append(byDir[p.Dir], summaryItem{&p.digest().Configs[j], p})
		}
	}
	var items []summaryItem
	for _, dir := range dirs {
		d := byDir[dir]
		slices.SortStableFunc(d, func(a, b summaryItem) int { return a.c.First - b.c.First })
		items = append(items, d...)
	}
	return items
}

// poolSummaries describes, from the rows of the parts that share them, the
// configurations counted more than once in seen.
func poolSummaries(parts []Part, items []summaryItem, seen map[configMode]int) map[configMode]*results.SummaryRow {
	rows := map[configMode][]results.Row{}
	read := map[*Part]bool{}
	for _, it := range items {
		k := it.key()
		if seen[k] < 2 || read[it.p] {
			continue
		}
		read[it.p] = true
		it.p.EachRow(func(r *results.Row) error {
			mode, _ := ModeOf(r.Note)
			if k := (configMode{r.ConfigID(), mode}); seen[k] > 1 {
				rows[k] = append(rows[k], *r)
			}
			return nil
		})
	}
	out := map[configMode]*results.SummaryRow{}
	for k, rs := range rows {
		s := results.DescribeTrials(rs)
		s.Config = results.ConfigOf(rs[0])
		out[k] = &s
	}
	return out
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Spread is one configuration across the fleet: how its GPUs' medians
// spread, and how much each GPU varies on its own, for the fleet-wide
// summary.
type Spread struct {
	Config         results.Row // the configuration columns
	Label          string
	Platform, Mode string
	Metric         string
	HigherIsBetter bool
	GPUs           int
	// Median is the fleet median (the median of the GPUs' medians) with a
	// 95 % bootstrap interval over GPUs (results.SummaryResamples, seed 1).
	Median stats.Interval
	// Lo and Hi are the 5th and 95th percentiles of the GPUs' medians
	// (empirical, as stats.Percentiles), Min and Max their extremes.
	Lo, Hi, Min, Max float64
	MADPct           float64 // median absolute deviation of the GPUs' medians, % of Median
	// TrialCVPct is the median over GPUs of their trials' coefficient of
	// variation; RunSpreadPct the median over GPUs measured in several
	// runs of the spread of their runs' medians (NaN when none was).
	TrialCVPct, RunSpreadPct float64
	Outliers                 int // GPUs Compare flagged
}

// Spreads sums Compare's comparisons up per configuration, in Compare's
// order: the fleet-wide summary.
func Spreads(cmp []Comparison) []Spread {
	var out []Spread
	for i := 0; i < len(cmp); {
		j := i
		for j < len(cmp) && sameConfig(cmp[j], cmp[i]) {
			j++
		}
		out = append(out, spreadOf(cmp[i:j]))
		i = j
	}
	return out
}

func sameConfig(a, b Comparison) bool {
	return a.Label == b.Label && a.Platform == b.Platform && a.Mode == b.Mode && a.Metric == b.Metric && a.FleetMedian == b.FleetMedian
}

func spreadOf(g []Comparison) Spread {
	c := g[0]
	s := Spread{Config: *c.Config, Label: c.Label, Platform: c.Platform, Mode: c.Mode, Metric: c.Metric,
		HigherIsBetter: c.HigherIsBetter, GPUs: len(g), MADPct: c.MADPct}
	meds, cvs, runs := make([]float64, len(g)), make([]float64, len(g)), []float64{}
	for i, x := range g {
		meds[i], cvs[i] = x.Median, x.CVPct
		if !math.IsNaN(x.RunSpreadPct) {
			runs = append(runs, x.RunSpreadPct)
		}
		if x.Outlier {
			s.Outliers++
		}
	}
	s.Median = stats.MedianCI(meds, stats.DefaultLevel, results.SummaryResamples, 1)
	s.Lo, s.Hi = stats.Percentiles(meds, 0.9)
	s.Min, s.Max = slices.Min(meds), slices.Max(meds)
	s.TrialCVPct, s.RunSpreadPct = stats.Median(cvs), stats.Median(runs)
	return s
}

// Column names of the fleet-wide summary beyond the configuration columns
// and those of the comparison frame.
const (
	ColGPUs         = "gpus"
	ColMedianLo     = "median_lo"
	ColMedianHi     = "median_hi"
	ColP5           = "p5"
	ColP95          = "p95"
	ColMin          = "min"
	ColMax          = "max"
	ColTrialCVPct   = "trial_cv_pct"
	ColRunSpreadPct = "run_spread_pct"
	ColOutliers     = "outliers"
)

// SpreadFrame lays the fleet-wide summary out as a gota DataFrame, one row
// per configuration, in Spreads' order: the configuration columns
// (platform included), then fleet_mode, metric, gpus, median,
// median_lo, median_hi, p5, p95, min, max, mad_pct, trial_cv_pct,
// run_spread_pct and outliers.
func SpreadFrame(sp []Spread) dataframe.DataFrame {
	type F = results.Field[Spread]
	num := func(name string, f func(s *Spread) float64) F {
		return F{Name: name, Kind: results.Float, Value: func(s *Spread) any { return f(s) }}
	}
	var cfg []string
	for _, c := range results.ConfigColumns {
		if c != results.ColGPUUUID {
			cfg = append(cfg, c)
		}
	}
	fields := results.ConfigFields(func(s *Spread) *results.Row { return &s.Config }, inSchemaOrder(cfg)...)
	fields = append(fields,
		F{Name: ColFleetMode, Kind: results.String, Value: func(s *Spread) any { return s.Mode }},
		F{Name: ColMetric, Kind: results.String, Value: func(s *Spread) any { return s.Metric }},
		F{Name: ColGPUs, Kind: results.Int, Value: func(s *Spread) any { return s.GPUs }},
		num(ColMedian, func(s *Spread) float64 { return s.Median.Est }),
		num(ColMedianLo, func(s *Spread) float64 { return s.Median.Lo }),
		num(ColMedianHi, func(s *Spread) float64 { return s.Median.Hi }),
		num(ColP5, func(s *Spread) float64 { return s.Lo }),
		num(ColP95, func(s *Spread) float64 { return s.Hi }),
		num(ColMin, func(s *Spread) float64 { return s.Min }),
		num(ColMax, func(s *Spread) float64 { return s.Max }),
		num(ColMADPct, func(s *Spread) float64 { return s.MADPct }),
		num(ColTrialCVPct, func(s *Spread) float64 { return s.TrialCVPct }),
		num(ColRunSpreadPct, func(s *Spread) float64 { return s.RunSpreadPct }),
		F{Name: ColOutliers, Kind: results.Int, Value: func(s *Spread) any { return s.Outliers }},
	)
	return results.Build(sp, fields...)
}
