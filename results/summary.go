package results

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"gonum.org/v1/gonum/stat"

	"github.com/umlab/umlab/stats"
)

// Stats describes a sample: median, min, max, sample standard deviation and
// coefficient of variation (std/mean, percent). NaN values are ignored; an
// empty sample gives NaN everywhere and N = 0.
type Stats struct {
	N                            int
	Median, Min, Max, Std, CVPct float64
}

// Describe computes Stats of x, ignoring NaN: the median with
// stats.Median, the standard deviation with gonum.
func Describe(x []float64) Stats {
	v := slices.DeleteFunc(slices.Clone(x), math.IsNaN)
	nan := math.NaN()
	s := Stats{N: len(v), Median: nan, Min: nan, Max: nan, Std: nan, CVPct: nan}
	if len(v) == 0 {
		return s
	}
	sort.Float64s(v) // gonum sums in this order: the digits of std depend on it
	s.Min, s.Max = v[0], v[len(v)-1]
	if len(v) > 1 {
		mean, std := stat.MeanStdDev(v, nil)
		s.Std = std
		if mean != 0 {
			s.CVPct = 100 * std / math.Abs(mean)
		}
	} else {
		s.Std, s.CVPct = 0, 0
	}
	s.Median = stats.Median(v)
	return s
}

// Quality flags attached to summaries.
const (
	FlagShortKernel = "short_kernel" // median kernel under ShortKernelMs: timer and launch dominate
	FlagHighCV      = "high_cv"      // coefficient of variation above the threshold
	FlagUnverified  = "unverified"   // some trial was not verified
	FlagWaived      = "waived"       // not supported on this system
	FlagAbovePeak   = "above_peak"   // faster than the device's theoretical peak: check the byte count
	FlagThrottled   = "throttled"    // the GPU reported a throttle reason during the run
)

// SummaryOptions tunes Summarize. Zero values take the defaults.
type SummaryOptions struct {
	PeakMemoryGBps   float64 // device memory peak; 0 leaves pct_of_peak empty
	PeakHostLinkGBps float64 // host link peak per direction, for host, transfer and cold modes
	ShortKernelMs    float64 // default 0.05 ms
	HighCVPct        float64 // default 5 %
	ThrottleReasons  string  // from the run metadata; non-empty adds FlagThrottled
}

// SummaryOptions are the summary settings the device d implies.
func (d Device) SummaryOptions() SummaryOptions {
	return SummaryOptions{PeakMemoryGBps: d.PeakMemoryGBps, PeakHostLinkGBps: d.PeakHostLinkGBps,
		ThrottleReasons: d.ThrottleReasons}
}

// Summary column names beyond the configuration columns.
const (
	ColN              = "n"
	ColMedianGBps     = "median_gbps"
	ColMinGBps        = "min_gbps"
	ColMaxGBps        = "max_gbps"
	ColStdGBps        = "std_gbps"
	ColCVPct          = "cv_pct"
	ColMedianKernelMs = "median_kernel_ms"
	ColMedianPrefetch = "median_prefetch_ms"
	ColMedianTransfer = "median_transfer_ms"
	ColMedianCPUMs    = "median_cpu_ms"
	ColMedianTotalMs  = "median_total_ms"
	ColPctOfPeak      = "pct_of_peak"
	ColFlags          = "flags"
	// 95 % percentile-bootstrap interval of the median (package stats),
	// after the flags so that earlier readers of the frame keep their columns.
	ColMedianGBpsLo    = "median_gbps_lo"
	ColMedianGBpsHi    = "median_gbps_hi"
	ColMedianTotalMsLo = "median_total_ms_lo"
	ColMedianTotalMsHi = "median_total_ms_hi"
)

// SummaryResamples is the number of bootstrap resamples behind the
// summary's intervals (seeded, so summaries are reproducible).
const SummaryResamples = 1000

// SummaryRow is the summary of one configuration.
type SummaryRow struct {
	Config                                  Row // configuration columns set, measurements NaN
	N                                       int
	GBps                                    Stats
	KernelMs, PrefetchMs, TransferMs, CPUMs float64 // medians
	TotalMs                                 Stats
	AllVerified                             bool
	PctOfPeak                               float64
	Flags                                   []string
	// GBpsCI and TotalMsCI are 95 % bootstrap intervals of the medians.
	GBpsCI, TotalMsCI stats.Interval
	// Waived: some trial was waived; Published: the rows are figures from a
	// publication (their source column is set), which need no verification.
	Waived, Published bool
}

// linkFactor says whether a configuration's bandwidth is bounded by the
// host link rather than device memory: 0 for device memory, 1 for transfers
// (one direction), 2 for kernels that read and write host memory (both
// directions of a full-duplex link at once), -1 where no peak applies (CPU
// work in the handoff benchmark).
func linkFactor(r Row) float64 {
	switch {
	case r.Group == GroupHandoff && r.Phase != PhaseGPUOnly:
		return -1
	case r.Group == GroupTransfer:
		return 1
	case r.Group == GroupHost:
		return 2
	}
	switch r.Mode {
	case ModeManagedCold, ModeHostMapped, ModeAdvisePreferredCPU, ModeAdvisePreferredGPU, ModeAdviseAccessedBy, ModeSystem:
		return 2
	}
	if r.Policy == PolicyHostMapped && r.Phase == PhaseGPUOnly {
		return 2
	}
	return 0
}

// withDefaults fills the thresholds left zero with their defaults.
func (o SummaryOptions) withDefaults() SummaryOptions {
	o.ShortKernelMs, o.HighCVPct = cmp.Or(o.ShortKernelMs, 0.05), cmp.Or(o.HighCVPct, 5)
	return o
}

// Summarize groups rows by configuration, in a stable order (the order in
// which each configuration first appears), and describes each.
func Summarize(rows []Row, o SummaryOptions) []SummaryRow {
	var groups [][]Row
	at := map[ConfigID]int{}
	for i := range rows {
		k := rows[i].ConfigID()
		j, ok := at[k]
		if !ok {
			j = len(groups)
			at[k] = j
			groups = append(groups, nil)
		}
		groups[j] = append(groups[j], rows[i])
	}
	out := make([]SummaryRow, 0, len(groups))
	for _, g := range groups {
		s := DescribeTrials(g)
		s.Config = ConfigOf(g[0])
		o.Finish(&s)
		out = append(out, s)
	}
	return out
}

// ConfigOf is a row's configuration: its configuration columns, every
// other column empty (measurements NaN).
func ConfigOf(r Row) Row {
	cfg := NewRow()
	for _, at := range configAt {
		setField(fieldAt[at](&cfg), valueOf(fieldAt[at](&r)))
	}
	return cfg
}

// Finish sets the percentage of the device's peak and the quality flags
// of a configuration described by DescribeTrials, its Config set: the
// part of Summarize that depends on the options (the device's peaks, the
// thresholds), so that a summary kept on disk is finished as it is read.
func (o SummaryOptions) Finish(s *SummaryRow) {
	o = o.withDefaults()
	s.PctOfPeak, s.Flags = math.NaN(), nil
	peak := o.PeakMemoryGBps
	if f := linkFactor(s.Config); f != 0 {
		peak = f * o.PeakHostLinkGBps
	}
	if peak > 0 && !math.IsNaN(s.GBps.Median) {
		s.PctOfPeak = 100 * s.GBps.Median / peak
		if s.PctOfPeak > 100 {
			s.Flags = append(s.Flags, FlagAbovePeak)
		}
	}
	if s.Waived {
		s.Flags = append(s.Flags, FlagWaived)
	} else if !s.AllVerified && !s.Published {
		s.Flags = append(s.Flags, FlagUnverified)
	}
	if s.KernelMs < o.ShortKernelMs {
		s.Flags = append(s.Flags, FlagShortKernel)
	}
	cv := s.GBps.CVPct
	if math.IsNaN(cv) {
		cv = s.TotalMs.CVPct
	}
	if cv > o.HighCVPct {
		s.Flags = append(s.Flags, FlagHighCV)
	}
	if o.ThrottleReasons != "" {
		s.Flags = append(s.Flags, FlagThrottled)
	}
}

// DescribeTrials describes a group of trials: their number, the bandwidth
// statistics, the median of each time column (total_ms fully described),
// whether every trial was verified, any waived, and whether they are
// published figures (the first row's source), with TrialIntervals.
// Summarize calls it for each configuration, plots.Summary for each group
// of its key; Config, PctOfPeak and Flags are left for the caller
// (PctOfPeak NaN).
func DescribeTrials(g []Row) SummaryRow {
	s := DescribeTrialStats(g)
	s.GBpsCI, s.TotalMsCI = TrialIntervals(g)
	return s
}

// DescribeTrialStats is DescribeTrials without the intervals (NaN): what
// a comparison of medians needs, without the cost of the bootstrap.
func DescribeTrialStats(g []Row) SummaryRow {
	s := SummaryRow{N: len(g), AllVerified: true, PctOfPeak: math.NaN(), GBpsCI: stats.NaN(), TotalMsCI: stats.NaN()}
	s.GBps = Describe(valuesOf(g, func(r *Row) float64 { return r.GBps }))
	s.KernelMs = Describe(valuesOf(g, func(r *Row) float64 { return r.KernelMs })).Median
	s.PrefetchMs = Describe(valuesOf(g, func(r *Row) float64 { return r.PrefetchMs })).Median
	s.TransferMs = Describe(valuesOf(g, func(r *Row) float64 { return r.TransferMs })).Median
	s.CPUMs = Describe(valuesOf(g, func(r *Row) float64 { return r.CPUMs })).Median
	s.TotalMs = Describe(valuesOf(g, func(r *Row) float64 { return r.TotalMs }))
	for _, r := range g {
		s.AllVerified = s.AllVerified && r.Verified
		s.Waived = s.Waived || r.Waived
	}
	s.Published = g[0].Source != ""
	return s
}

// TrialIntervals are the 95 % percentile-bootstrap intervals of the
// median bandwidth and the median total time of a group of trials
// (SummaryResamples resamples, seed 1).
func TrialIntervals(g []Row) (gbps, totalMs stats.Interval) {
	gbps = stats.MedianCI(valuesOf(g, func(r *Row) float64 { return r.GBps }), stats.DefaultLevel, SummaryResamples, 1)
	totalMs = stats.MedianCI(valuesOf(g, func(r *Row) float64 { return r.TotalMs }), stats.DefaultLevel, SummaryResamples, 1)
	return gbps, totalMs
}

func valuesOf(g []Row, f func(*Row) float64) []float64 {
	x := make([]float64, len(g))
	for i := range g {
		x[i] = f(&g[i])
	}
	return x
}

// SummaryFrame renders summaries as a DataFrame: the configuration columns,
// then n, the bandwidth statistics, the median times, pct_of_peak and flags.
func SummaryFrame(sum []SummaryRow) dataframe.DataFrame {
	num := FloatField[SummaryRow]
	fields := ConfigFields(func(s *SummaryRow) *Row { return &s.Config }, ConfigColumns...)
	fields = append(fields,
		Field[SummaryRow]{ColN, Int, func(s *SummaryRow) any { return s.N }},
		num(ColMedianGBps, func(s *SummaryRow) float64 { return s.GBps.Median }),
		num(ColMinGBps, func(s *SummaryRow) float64 { return s.GBps.Min }),
		num(ColMaxGBps, func(s *SummaryRow) float64 { return s.GBps.Max }),
		num(ColStdGBps, func(s *SummaryRow) float64 { return s.GBps.Std }),
		num(ColCVPct, func(s *SummaryRow) float64 {
			if math.IsNaN(s.GBps.CVPct) {
				return s.TotalMs.CVPct
			}
			return s.GBps.CVPct
		}),
		num(ColMedianKernelMs, func(s *SummaryRow) float64 { return s.KernelMs }),
		num(ColMedianPrefetch, func(s *SummaryRow) float64 { return s.PrefetchMs }),
		num(ColMedianTransfer, func(s *SummaryRow) float64 { return s.TransferMs }),
		num(ColMedianCPUMs, func(s *SummaryRow) float64 { return s.CPUMs }),
		num(ColMedianTotalMs, func(s *SummaryRow) float64 { return s.TotalMs.Median }),
		num(ColPctOfPeak, func(s *SummaryRow) float64 { return s.PctOfPeak }),
		Field[SummaryRow]{ColFlags, String, func(s *SummaryRow) any { return strings.Join(s.Flags, ",") }},
		num(ColMedianGBpsLo, func(s *SummaryRow) float64 { return s.GBpsCI.Lo }),
		num(ColMedianGBpsHi, func(s *SummaryRow) float64 { return s.GBpsCI.Hi }),
		num(ColMedianTotalMsLo, func(s *SummaryRow) float64 { return s.TotalMsCI.Lo }),
		num(ColMedianTotalMsHi, func(s *SummaryRow) float64 { return s.TotalMsCI.Hi }),
	)
	return Build(sum, fields...)
}
