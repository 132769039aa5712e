package fleet

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/stats"
)

// CompareOptions tune Compare. Zero values take the defaults.
type CompareOptions struct {
	TolerancePct float64 // flag a GPU this many percent from the fleet median (default 5; negative: off)
	MaxZ         float64 // flag a robust z-score beyond this (default 3.5, Iglewicz and Hoaglin's; negative: off)
	// MADFloorPct is the smallest spread the robust z-score divides by, in
	// % of the fleet median (default 0.5): else GPUs that agree to 0.1 %
	// make a 1 % difference an outlier.
	MADFloorPct float64
	// Metric is the column compared: "" picks gbps where the configuration
	// has bandwidth, else total_ms (then kernel_ms, cpu_ms).
	Metric string
	// Spread, where set, is the variation of a configuration's median
	// between healthy GPUs (the sd of its log, check.Prior.NodeSpread): a
	// difference counts only beyond it and the GPU's trials' noise.
	Spread func(config results.Row) float64
	// FDR is the false-discovery rate of the Benjamini–Hochberg procedure
	// over a class's comparisons (default 0.05): with a thousand GPUs, a
	// per-comparison cut-off would flag healthy GPUs every time.
	FDR float64
}

func (o CompareOptions) defaults() CompareOptions {
	o.TolerancePct = cmp.Or(o.TolerancePct, 5)
	o.MaxZ = cmp.Or(o.MaxZ, 3.5)
	o.MADFloorPct = cmp.Or(o.MADFloorPct, 0.5)
	o.FDR = cmp.Or(o.FDR, 0.05)
	return o
}

// minGPUs is the fewest GPUs a configuration is compared across.
const minGPUs = 2

// Outlier flags.
const (
	FlagSlow    = "slow"     // worse than the fleet median by more than the tolerance
	FlagFast    = "fast"     // better than the fleet median by more than the tolerance
	FlagRobustZ = "robust_z" // robust z-score beyond MaxZ
)

// Comparison is one GPU's median of one configuration against the median
// of every GPU that measured it (the fleet median).
type Comparison struct {
	Config          *results.Row // the configuration columns (GPU UUID cleared), shared by its comparisons
	Label           string       // ConfigLabel of Config
	Platform        string
	Mode            string // how the part was measured (Part.ModeLabel); modes are compared apart
	Metric          string // the column compared: gbps, total_ms, kernel_ms or cpu_ms
	HigherIsBetter  bool   // bandwidth, not a time
	Resource, Class string // what the configuration is bound by (results.BoundOf); results.ClassGPU or ClassHost

	Part  string // Part.Label
	Host  string
	GPU   string // gpu<N>
	Index int
	UUID  string
	RunID string

	N            int     // trials
	Median       float64 // the GPU's median of Metric
	CVPct        float64 // its coefficient of variation across trials
	Runs         int     // runs among the GPU's trials
	RunSpreadPct float64 // the spread of their medians (max − min, % of their median; NaN with one run)

	FleetMedian float64 // median of the GPUs' medians
	FleetN      int     // GPUs that measured the configuration
	MADPct      float64 // median absolute deviation of the GPUs' medians, % of FleetMedian
	DevPct      float64 // 100·(Median − FleetMedian)/FleetMedian
	RobustZ     float64 // 0.6745·(Median − FleetMedian)/max(MAD, floor)
	// SpreadPct is the sd of a healthy GPU's difference from the fleet
	// median in % (Spread and the trials' noise); P the two-sided
	// probability of this difference from it alone; TolPct the smallest
	// difference flagged: the larger of TolerancePct and what the FDR asks
	// of this variation (a log difference d is 100·(1 − e^−d) % slower).
	SpreadPct, P, TolPct float64
	Flags                []string
	Outlier              bool // any flag
}

// metricOf returns a row's value of a metric column.
func metricOf(r *results.Row, metric string) float64 {
	switch metric {
	case results.ColGBps:
		return r.GBps
	case results.ColKernelMs:
		return r.KernelMs
	case results.ColTotalMs:
		return r.TotalMs
	case results.ColCPUMs:
		return r.CPUMs
	case results.ColPrefetchMs:
		return r.PrefetchMs
	case results.ColTransferMs:
		return r.TransferMs
	}
	return math.NaN()
}

// Metrics are the columns Compare can compare.
var Metrics = metricCols[:]

// Compare sets each GPU's median of each configuration against the fleet
// median, the median of the medians of every GPU that measured it (same
// platform and mode). A GPU is flagged slow or fast beyond ±TolerancePct,
// and robust_z beyond MaxZ. Waived rows are left out. With two GPUs, both
// are beyond the tolerance when either is. It reads the parts' digests,
// and a part's rows only where it has two configurations the fleet counts
// as one (oversubscription at one percentage, two sizes), to pool them.
func Compare(parts []Part, o CompareOptions) ([]Comparison, error) {
	o = o.defaults()
	if o.Metric != "" && !slices.Contains(Metrics, o.Metric) {
		return nil, fmt.Errorf("fleet: metric %q: want one of %s", o.Metric, strings.Join(Metrics, ", "))
	}
	configs, err := gatherConfigs(parts)
	if err != nil {
		return nil, err
	}
	var out []Comparison
	for _, c := range configs {
		if len(c.units) < minGPUs {
			continue
		}
		metric := o.Metric
		if metric == "" {
			metric = c.metric()
		}
		if metric == "" {
			continue
		}
		meds := c.medians(metric)
		if len(meds) < minGPUs {
			continue
		}
		out = append(out, compareConfig(parts, c, metric, meds, o)...)
	}
	flagAll(out, o)
	return out, nil
}

// flagAll flags each comparison whose difference is beyond the variation
// (claimed at o.FDR over its class by Benjamini–Hochberg) and beyond the
// tolerance (slow or fast) or the robust z cut-off (robust_z).
func flagAll(cs []Comparison, o CompareOptions) {
	for _, class := range []string{results.ClassGPU, results.ClassHost} {
		var idx []int
		for i := range cs {
			if cs[i].Class == class {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			continue
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(cs[a].P, cs[b].P) })
		m, k := float64(len(idx)), 0
		for rank, i := range idx {
			if cs[i].P <= o.FDR*float64(rank+1)/m {
				k = rank + 1
			}
		}
		// The largest p claimed (or the first rank's bar when none is):
		// the z every comparison of the class is judged at.
		z := distuv.UnitNormal.Quantile(1 - o.FDR*float64(max(k, 1))/m/2)
		for rank, i := range idx {
			c := &cs[i]
			c.TolPct = math.Max(o.TolerancePct, -100*math.Expm1(-z*c.SpreadPct/100))
			c.Flags = flagsOf(*c, o, rank < k)
			c.Outlier = len(c.Flags) > 0
		}
	}
}

// unit is one part's statistics of one configuration's trials not waived.
type unit struct {
	part    int
	metrics [len(metricCols)]metricStats
	runs    int
	spread  float64
}

// cmpConfig is one configuration, platform and mode, with each part's unit.
type cmpConfig struct {
	first results.Row
	mode  string
	bound string // the first part's (results.BoundOf)
	units []*unit
}

// fleetID identifies a configuration across GPUs (identity), with the
// platform and the part's mode.
type fleetID struct {
	id             results.ConfigID
	platform, mode string
}

// gatherConfigs groups the parts' configurations by fleetID, in first-seen
// order, leaving out those with every trial waived.
func gatherConfigs(parts []Part) ([]*cmpConfig, error) {
	var configs []*cmpConfig
	idx := map[fleetID]*cmpConfig{}
	for pi := range parts {
		p := &parts[pi]
		mode := p.ModeLabel()
		var pooled map[fleetID]*unit // configurations this part has twice
		for _, c := range p.digest().Configs {
			if c.Trials == 0 {
				continue
			}
			cfg := identity(c.config())
			k := fleetID{cfg.ConfigID(), c.Platform, mode}
			x := idx[k]
			if x == nil {
				x = &cmpConfig{first: c.config(), mode: mode, bound: c.Bound}
				idx[k] = x
				configs = append(configs, x)
			}
			if n := len(x.units); n > 0 && x.units[n-1].part == pi {
				if pooled == nil {
					pooled = map[fleetID]*unit{}
				}
				pooled[k] = x.units[n-1]
				continue
			}
			x.units = append(x.units, &unit{part: pi, metrics: c.Metrics, runs: c.Runs, spread: c.RunSpreadPct})
		}
		if len(pooled) > 0 {
			if err := pool(p, mode, pooled); err != nil {
				return nil, err
			}
		}
	}
	return configs, nil
}

// pool describes again, from the part's rows, the configurations it has
// in two digests (the fleet identity pools them).
func pool(p *Part, mode string, units map[fleetID]*unit) error {
	vals := map[fleetID]*[len(metricCols)][]float64{}
	err := p.EachRow(func(r *results.Row) error {
		if r.Waived {
			return nil
		}
		id := identity(*r)
		k := fleetID{id.ConfigID(), r.Platform, mode}
		if units[k] == nil {
			return nil
		}
		v := vals[k]
		if v == nil {
			v = new([len(metricCols)][]float64)
			vals[k] = v
		}
		for m, col := range metricCols {
			v[m] = append(v[m], metricOf(r, col))
		}
		return nil
	})
	if err != nil {
		return err
	}
	for k, u := range units {
		if vals[k] == nil {
			continue
		}
		for m := range metricCols {
			u.metrics[m] = describeMetric(vals[k][m])
		}
		u.runs, u.spread = 0, math.NaN()
	}
	return nil
}

// metric is the best-ranked metric any part has of the configuration.
func (c *cmpConfig) metric() string {
	best := -1
	for _, u := range c.units {
		m := slices.IndexFunc(u.metrics[:4], func(s metricStats) bool { return s.Finite })
		if m >= 0 && (best < 0 || m < best) {
			best = m
		}
	}
	if best < 0 {
		return ""
	}
	return metricCols[best]
}

// medians is the units with a value of metric.
func (c *cmpConfig) medians(metric string) []*unit {
	m := metricIndex(metric)
	return slices.DeleteFunc(slices.Clone(c.units), func(u *unit) bool { return u.metrics[m].N == 0 })
}

// compareConfig sets each part's median against the fleet median (the
// median of meds), with the variation it is judged against.
func compareConfig(parts []Part, c *cmpConfig, metric string, meds []*unit, o CompareOptions) []Comparison {
	mi := metricIndex(metric)
	v := make([]float64, len(meds))
	for i, u := range meds {
		v[i] = u.metrics[mi].Median
	}
	fm := stats.Median(v)
	dev := make([]float64, len(v))
	for i, x := range v {
		dev[i] = math.Abs(x - fm)
	}
	mad := stats.Median(dev)
	scale := math.Max(mad, o.MADFloorPct/100*math.Abs(fm))
	cfg := identity(c.first) // a digest's configuration (results.ConfigOf): no measurement, run or note
	cfg.Platform = c.first.Platform
	higher := metric == results.ColGBps
	label := ConfigLabel(cfg)
	resource, spread := c.bound, 0.0
	if o.Spread != nil {
		cfg.Bound = resource
		spread = o.Spread(cfg)
		cfg.Bound = ""
	}
	var out []Comparison
	for _, u := range meds {
		p, s := &parts[u.part], u.metrics[mi]
		cmp := Comparison{
			Config: &cfg, Label: label, Platform: cfg.Platform, Mode: c.mode, Metric: metric, HigherIsBetter: higher,
			Part: p.Label, Host: p.Host, GPU: p.GPU, Index: p.Index, UUID: p.UUID, RunID: p.RunID,
			N: s.N, Median: s.Median, CVPct: s.CVPct, FleetMedian: fm, FleetN: len(meds),
			MADPct: math.NaN(), DevPct: math.NaN(), RobustZ: 0, Runs: u.runs, RunSpreadPct: u.spread,
			Resource: resource, Class: results.ClassOf(resource), P: 1,
		}
		// The median of N trials varies about 1.25·CV/√N (normal trials).
		noise := 1.2533 * s.CVPct / 100 / math.Sqrt(float64(max(s.N, 1)))
		se := math.Hypot(spread, nz(noise))
		cmp.SpreadPct = 100 * se
		if fm != 0 {
			cmp.MADPct = 100 * mad / math.Abs(fm)
			cmp.DevPct = 100 * (s.Median - fm) / math.Abs(fm)
		}
		if scale > 0 {
			cmp.RobustZ = 0.6745 * (s.Median - fm) / scale
		}
		if d := math.Abs(math.Log(s.Median / fm)); d > 0 && !math.IsNaN(d) {
			cmp.P = 0
			if se > 0 {
				cmp.P = 2 * distuv.UnitNormal.Survival(d/se)
			}
		}
		out = append(out, cmp)
	}
	return out
}

// flagsOf flags a comparison whose difference is beyond the variation
// (claimed) slow or fast beyond the tolerance, and robust_z beyond MaxZ.
func flagsOf(cmp Comparison, o CompareOptions, claimed bool) []string {
	if !claimed {
		return nil
	}
	var flags []string
	if o.TolerancePct >= 0 && !math.IsNaN(cmp.DevPct) && math.Abs(cmp.DevPct) > o.TolerancePct {
		if (cmp.DevPct < 0) == cmp.HigherIsBetter {
			flags = append(flags, FlagSlow)
		} else {
			flags = append(flags, FlagFast)
		}
	}
	if o.MaxZ >= 0 && math.Abs(cmp.RobustZ) > o.MaxZ {
		flags = append(flags, FlagRobustZ)
	}
	return flags
}

// nz is 0 for NaN (a CV of one trial).
func nz(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}

// GPUSummary sums up one GPU over every configuration it was compared in.
type GPUSummary struct {
	Part, Host, GPU, UUID string
	Index                 int
	Configurations        int // compared
	Outliers              int // flagged in any way
	Slow, Fast            int // beyond the tolerance
	// GPUOutliers and HostOutliers split Outliers by class: a host's
	// difference (pageable memory, faults, its CPU) is not the GPU's.
	GPUOutliers, HostOutliers int
	MedianDevPct              float64 // median deviation from the fleet, in the "better is positive" sense
}

// PerGPU sums comparisons up per GPU, in the order the GPUs first appear.
// MedianDevPct is signed so that positive is better (higher bandwidth or
// shorter time) whatever the metric.
func PerGPU(cmp []Comparison) []GPUSummary {
	var out []GPUSummary
	at := map[string]int{}
	for _, c := range cmp {
		i, ok := at[c.Part]
		if !ok {
			i = len(out)
			at[c.Part] = i
			out = append(out, GPUSummary{Part: c.Part, Host: c.Host, GPU: c.GPU, UUID: c.UUID, Index: c.Index})
		}
		s := &out[i]
		s.Configurations++
		if c.Outlier {
			s.Outliers++
			if c.Class == results.ClassGPU {
				s.GPUOutliers++
			} else {
				s.HostOutliers++
			}
		}
		if slices.Contains(c.Flags, FlagSlow) {
			s.Slow++
		}
		if slices.Contains(c.Flags, FlagFast) {
			s.Fast++
		}
	}
	med := results.Medians(cmp, func(c *Comparison) string { return c.Part }, func(c *Comparison) float64 {
		if c.HigherIsBetter {
			return c.DevPct
		}
		return -c.DevPct
	})
	for i := range out {
		out[i].MedianDevPct = med[out[i].Part]
	}
	return out
}

// Columns of the comparison frame that callers select by name.
const (
	ColPart    = "part"
	ColOutlier = "outlier"
)

// Frame lays comparisons out as a gota DataFrame, one row per GPU and
// configuration, in Compare's order: the configuration columns (platform
// included, GPU UUID not), then fleet_mode, metric, part, host, gpu,
// gpu_index, gpu_uuid, run_id, n, median, cv_pct, fleet_median, fleet_n,
// mad_pct, dev_pct, robust_z, resource, class, spread_pct, p, tol_pct,
// outlier and flags.
func Frame(cmp []Comparison) dataframe.DataFrame {
	var cfg []string // the configuration columns in schema order, GPU UUID not
	for _, c := range results.Columns {
		if c.Name != results.ColGPUUUID && slices.Contains(results.ConfigColumns, c.Name) {
			cfg = append(cfg, c.Name)
		}
	}
	str, num := results.StringField[Comparison], results.FloatField[Comparison]
	integer := results.IntField[Comparison, int]
	fields := results.ConfigFields(func(c *Comparison) *results.Row { return c.Config }, cfg...)
	fields = append(fields,
		str("fleet_mode", func(c *Comparison) string { return c.Mode }),
		str("metric", func(c *Comparison) string { return c.Metric }),
		str(ColPart, func(c *Comparison) string { return c.Part }),
		str(results.ColHost, func(c *Comparison) string { return c.Host }),
		str("gpu", func(c *Comparison) string { return c.GPU }),
		integer("gpu_index", func(c *Comparison) int { return c.Index }),
		str(results.ColGPUUUID, func(c *Comparison) string { return c.UUID }),
		str(results.ColRunID, func(c *Comparison) string { return c.RunID }),
		integer(results.ColN, func(c *Comparison) int { return c.N }),
		num("median", func(c *Comparison) float64 { return c.Median }),
		num("cv_pct", func(c *Comparison) float64 { return c.CVPct }),
		num("fleet_median", func(c *Comparison) float64 { return c.FleetMedian }),
		integer("fleet_n", func(c *Comparison) int { return c.FleetN }),
		num("mad_pct", func(c *Comparison) float64 { return c.MADPct }),
		num("dev_pct", func(c *Comparison) float64 { return c.DevPct }),
		num("robust_z", func(c *Comparison) float64 { return c.RobustZ }),
		str("resource", func(c *Comparison) string { return c.Resource }),
		str("class", func(c *Comparison) string { return c.Class }),
		num("spread_pct", func(c *Comparison) float64 { return c.SpreadPct }),
		num("p", func(c *Comparison) float64 { return c.P }),
		num("tol_pct", func(c *Comparison) float64 { return c.TolPct }),
		results.BoolField(ColOutlier, func(c *Comparison) bool { return c.Outlier }),
		str("flags", func(c *Comparison) string { return strings.Join(c.Flags, ",") }),
	)
	return results.Build(cmp, fields...)
}
