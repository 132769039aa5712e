package results

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/go-gota/gota/series"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestDescribe(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name                      string
		x                         []float64
		n                         int
		median, min, max, std, cv float64
	}{
		{"odd", []float64{5, 1, 3}, 3, 3, 1, 5, 2, 100 * 2.0 / 3},
		{"even", []float64{4, 1, 3, 2}, 4, 2.5, 1, 4, math.Sqrt(5.0 / 3), 100 * math.Sqrt(5.0/3) / 2.5},
		{"NaN ignored", []float64{nan, 3, nan, 1}, 2, 2, 1, 3, math.Sqrt2, 100 * math.Sqrt2 / 2},
		{"single", []float64{7}, 1, 7, 7, 7, 0, 0},
		{"single among NaN", []float64{nan, 7}, 1, 7, 7, 7, 0, 0},
		{"negative mean", []float64{-1, -3}, 2, -2, -3, -1, math.Sqrt2, 100 * math.Sqrt2 / 2},
		{"empty", nil, 0, nan, nan, nan, nan, nan},
		{"all NaN", []float64{nan, nan}, 0, nan, nan, nan, nan, nan},
		{"zero mean", []float64{-1, 1}, 2, 0, -1, 1, math.Sqrt2, nan},
	}
	eq := func(a, b float64) bool { return (math.IsNaN(a) && math.IsNaN(b)) || near(a, b) }
	for _, c := range cases {
		in := slices.Clone(c.x)
		s := Describe(c.x)
		if s.N != c.n || !eq(s.Median, c.median) || !eq(s.Min, c.min) || !eq(s.Max, c.max) ||
			!eq(s.Std, c.std) || !eq(s.CVPct, c.cv) {
			t.Errorf("%s: Describe(%v) = %+v, want N %d median %v min %v max %v std %v cv %v",
				c.name, c.x, s, c.n, c.median, c.min, c.max, c.std, c.cv)
		}
		if !slices.EqualFunc(in, c.x, eq) {
			t.Errorf("%s: Describe changed its input: %v", c.name, c.x)
		}
	}
	if m := Describe(nil).Median; !math.IsNaN(m) {
		t.Errorf("Describe(nil).Median = %v", m)
	}
}

// cfg returns one trial row of a configuration.
func cfg(group, mode string, gbps, kernelMs float64) Row {
	r := NewRow()
	r.Group, r.Benchmark, r.Mode, r.SizeBytes = group, "b", mode, 1<<30
	r.GBps, r.KernelMs, r.TotalMs, r.Verified = gbps, kernelMs, kernelMs, true
	return r
}

func TestSummarizeOrderAndStats(t *testing.T) {
	a := func(g float64, trial int64) Row { r := cfg("hbm", "explicit", g, 1); r.Trial = trial; return r }
	b := func(g float64, trial int64) Row { r := cfg("managed", "managed_cold", g, 2); r.Trial = trial; return r }
	c := cfg("host", "host_mapped", 50, 3)
	a1 := a(300, 1)
	a1.KernelMs, a1.PrefetchMs, a1.TransferMs, a1.CPUMs = 3, 0.5, 0.25, 7
	rows := []Row{b(10, 0), a(100, 0), b(30, 1), c, a1, a(200, 2), b(20, 2), b(40, 3)}
	sum := Summarize(rows, SummaryOptions{})
	if len(sum) != 3 {
		t.Fatalf("%d summaries, want 3", len(sum))
	}
	var groups []string
	for _, s := range sum {
		groups = append(groups, s.Config.Group)
	}
	if strings.Join(groups, ",") != "managed,hbm,host" {
		t.Errorf("order %v, want first appearance: managed, hbm, host", groups)
	}
	m, h, x := sum[0], sum[1], sum[2]
	if m.N != 4 || m.GBps.N != 4 || m.GBps.Median != 25 || m.GBps.Min != 10 || m.GBps.Max != 40 {
		t.Errorf("managed: %+v", m.GBps)
	}
	if h.N != 3 || h.GBps.Median != 200 || !near(h.GBps.Std, 100) || !near(h.GBps.CVPct, 50) {
		t.Errorf("hbm: %+v", h.GBps)
	}
	if h.KernelMs != 1 || h.PrefetchMs != 0.5 || h.TransferMs != 0.25 || h.CPUMs != 7 || h.TotalMs.Median != 1 {
		t.Errorf("hbm medians: kernel %v prefetch %v transfer %v cpu %v total %v",
			h.KernelMs, h.PrefetchMs, h.TransferMs, h.CPUMs, h.TotalMs.Median)
	}
	if x.N != 1 || x.GBps.Median != 50 || x.GBps.CVPct != 0 || !x.AllVerified {
		t.Errorf("host: %+v", x)
	}
	// The configuration carries the config columns only.
	if h.Config.Group != "hbm" || h.Config.Mode != "explicit" || h.Config.SizeBytes != 1<<30 {
		t.Errorf("config %+v", h.Config)
	}
	if h.Config.Trial != 0 || !math.IsNaN(h.Config.GBps) || !math.IsNaN(h.Config.KernelMs) || h.Config.Verified {
		t.Errorf("config carries measurements: %+v", h.Config)
	}
	if !math.IsNaN(h.PctOfPeak) {
		t.Errorf("pct_of_peak without a peak: %v", h.PctOfPeak)
	}
	if s := Summarize(nil, SummaryOptions{}); len(s) != 0 {
		t.Errorf("Summarize(nil) = %v", s)
	}
}

func hasFlag(s SummaryRow, f string) bool { return slices.Contains(s.Flags, f) }

func TestSummarizeFlags(t *testing.T) {
	o := SummaryOptions{PeakMemoryGBps: 1000, PeakHostLinkGBps: 50}
	one := func(r Row, opts SummaryOptions) SummaryRow {
		t.Helper()
		s := Summarize([]Row{r}, opts)
		if len(s) != 1 {
			t.Fatalf("%d summaries", len(s))
		}
		return s[0]
	}
	withPhase := func(r Row, policy, phase string) Row { r.Policy, r.Phase = policy, phase; return r }

	// Percent of peak and above_peak, with the link factor.
	peaks := []struct {
		name  string
		r     Row
		pct   float64 // NaN: no peak applies
		above bool
	}{
		{"hbm under", cfg("hbm", "explicit", 900, 1), 90, false},
		{"hbm over", cfg("hbm", "explicit", 1200, 1), 120, true},
		{"managed explicit uses HBM", cfg("managed", "explicit", 900, 1), 90, false},
		{"managed prefetch uses HBM", cfg("managed", "managed_prefetch", 900, 1), 90, false},
		{"transfer 1x", cfg("transfer", "pinned", 40, 1), 80, false},
		{"transfer over 1x", cfg("transfer", "pinned", 60, 1), 120, true},
		{"host 2x", cfg("host", "host_mapped", 90, 1), 90, false},
		{"host over 2x", cfg("host", "host_mapped", 110, 1), 110, true},
		{"managed_cold 2x", cfg("managed", "managed_cold", 90, 1), 90, false},
		{"pattern managed_cold 2x", cfg("pattern", "managed_cold", 120, 1), 120, true},
		{"handoff cpu_only", withPhase(cfg("handoff", "", 5000, 1), "managed", "cpu_only"), math.NaN(), false},
		{"handoff alternating", withPhase(cfg("handoff", "", 5000, 1), "managed", "alternating"), math.NaN(), false},
		{"handoff gpu_only managed", withPhase(cfg("handoff", "", 900, 1), "managed", "gpu_only"), 90, false},
		{"handoff gpu_only host_mapped 2x", withPhase(cfg("handoff", "", 90, 1), "host_mapped", "gpu_only"), 90, false},
	}
	for _, c := range peaks {
		s := one(c.r, o)
		if math.IsNaN(c.pct) != math.IsNaN(s.PctOfPeak) || (!math.IsNaN(c.pct) && !near(s.PctOfPeak, c.pct)) {
			t.Errorf("%s: pct_of_peak %v, want %v", c.name, s.PctOfPeak, c.pct)
		}
		if hasFlag(s, FlagAbovePeak) != c.above {
			t.Errorf("%s: flags %v, above_peak want %t", c.name, s.Flags, c.above)
		}
	}
	// No host-link peak known: host-bound configurations get no percentage.
	if s := one(cfg("host", "host_mapped", 90, 1), SummaryOptions{PeakMemoryGBps: 1000}); !math.IsNaN(s.PctOfPeak) || hasFlag(s, FlagAbovePeak) {
		t.Errorf("host without link peak: pct %v flags %v", s.PctOfPeak, s.Flags)
	}

	// short_kernel: default threshold 0.05 ms, configurable.
	if s := one(cfg("hbm", "explicit", 1, 0.01), o); !hasFlag(s, FlagShortKernel) {
		t.Errorf("0.01 ms kernel: flags %v", s.Flags)
	}
	if s := one(cfg("hbm", "explicit", 1, 0.06), o); hasFlag(s, FlagShortKernel) {
		t.Errorf("0.06 ms kernel: flags %v", s.Flags)
	}
	if s := one(cfg("hbm", "explicit", 1, 0.06), SummaryOptions{ShortKernelMs: 0.1}); !hasFlag(s, FlagShortKernel) {
		t.Errorf("0.06 ms kernel, threshold 0.1: flags %v", s.Flags)
	}
	if s := one(cfg("hbm", "explicit", 1, math.NaN()), o); hasFlag(s, FlagShortKernel) {
		t.Errorf("no kernel time: flags %v", s.Flags)
	}

	// high_cv: from gbps, or from total_ms when gbps is not measured.
	steady := []Row{cfg("hbm", "explicit", 100, 1), cfg("hbm", "explicit", 101, 1), cfg("hbm", "explicit", 99, 1)}
	noisy := []Row{cfg("hbm", "explicit", 100, 1), cfg("hbm", "explicit", 100, 1), cfg("hbm", "explicit", 130, 1)}
	if s := Summarize(steady, o)[0]; hasFlag(s, FlagHighCV) {
		t.Errorf("steady: cv %v flags %v", s.GBps.CVPct, s.Flags)
	}
	if s := Summarize(noisy, o)[0]; !hasFlag(s, FlagHighCV) {
		t.Errorf("noisy: cv %v flags %v", s.GBps.CVPct, s.Flags)
	}
	if s := Summarize(noisy, SummaryOptions{HighCVPct: 20})[0]; hasFlag(s, FlagHighCV) {
		t.Errorf("noisy under a 20%% threshold: cv %v flags %v", s.GBps.CVPct, s.Flags)
	}
	cpu := []Row{cfg("handoff", "", math.NaN(), 1), cfg("handoff", "", math.NaN(), 1), cfg("handoff", "", math.NaN(), 1)}
	cpu[2].TotalMs = 2
	for i := range cpu {
		cpu[i].Phase, cpu[i].KernelMs = "cpu_only", math.NaN()
	}
	if s := Summarize(cpu, o)[0]; !hasFlag(s, FlagHighCV) {
		t.Errorf("noisy total_ms without gbps: total cv %v flags %v", s.TotalMs.CVPct, s.Flags)
	}

	// waived and unverified.
	w := cfg("host", "system", math.NaN(), math.NaN())
	w.Waived, w.Verified, w.Note = true, false, "no pageable memory access"
	if s := one(w, o); !hasFlag(s, FlagWaived) || hasFlag(s, FlagUnverified) {
		t.Errorf("waived: flags %v", s.Flags)
	}
	bad := []Row{cfg("hbm", "explicit", 100, 1), cfg("hbm", "explicit", 100, 1)}
	bad[1].Verified = false
	if s := Summarize(bad, o)[0]; !hasFlag(s, FlagUnverified) || s.AllVerified {
		t.Errorf("one unverified trial: AllVerified %t flags %v", s.AllVerified, s.Flags)
	}
	pub := cfg("hbm", "explicit", 100, 1)
	pub.Verified, pub.Source = false, "Table II"
	if s := one(pub, o); hasFlag(s, FlagUnverified) {
		t.Errorf("published figure: flags %v", s.Flags)
	}
	if s := one(cfg("hbm", "explicit", 100, 1), o); len(s.Flags) != 0 {
		t.Errorf("a clean measurement has flags %v", s.Flags)
	}

	// throttled comes from the metadata.
	if s := one(cfg("hbm", "explicit", 100, 1), SummaryOptions{ThrottleReasons: "hw_slowdown"}); !hasFlag(s, FlagThrottled) {
		t.Errorf("throttled run: flags %v", s.Flags)
	}
}

func TestSummaryFrame(t *testing.T) {
	rows := []Row{cfg("hbm", "explicit", 1200, 0.01), cfg("hbm", "explicit", 1000, 0.01), cfg("managed", "managed_cold", 10, 5)}
	rows[2].OversubPct = 50
	sum := Summarize(rows, SummaryOptions{PeakMemoryGBps: 1000, PeakHostLinkGBps: 50})
	df := SummaryFrame(sum)
	if df.Err != nil {
		t.Fatal(df.Err)
	}
	want := append(slices.Clone(ConfigColumns), ColN, ColMedianGBps, ColMinGBps, ColMaxGBps, ColStdGBps, ColCVPct,
		ColMedianKernelMs, ColMedianPrefetch, ColMedianTransfer, ColMedianCPUMs, ColMedianTotalMs, ColPctOfPeak, ColFlags,
		ColMedianGBpsLo, ColMedianGBpsHi, ColMedianTotalMsLo, ColMedianTotalMsHi)
	if got := df.Names(); !slices.Equal(got, want) {
		t.Fatalf("columns\n got %v\nwant %v", got, want)
	}
	if r, _ := df.Dims(); r != 2 {
		t.Fatalf("%d rows, want 2", r)
	}
	types := map[string]series.Type{ColSizeBytes: series.Int, ColOversubPct: series.Float, ColGroup: series.String,
		ColN: series.Int, ColMedianGBps: series.Float, ColFlags: series.String}
	for c, ty := range types {
		if got := df.Col(c).Type(); got != ty {
			t.Errorf("column %s has type %s, want %s", c, got, ty)
		}
	}
	if g := df.Col(ColGroup).Records(); !slices.Equal(g, []string{"hbm", "managed"}) {
		t.Errorf("groups %v", g)
	}
	n, _ := df.Col(ColN).Elem(0).Int()
	if n != 2 || df.Col(ColMedianGBps).Elem(0).Float() != 1100 || df.Col(ColMinGBps).Elem(0).Float() != 1000 ||
		df.Col(ColMaxGBps).Elem(0).Float() != 1200 || !near(df.Col(ColPctOfPeak).Elem(0).Float(), 110) {
		t.Errorf("hbm row: %v", df.Subset(0))
	}
	if f := df.Col(ColFlags).Elem(0).String(); f != "above_peak,short_kernel,high_cv" {
		t.Errorf("hbm flags %q", f)
	}
	if f := df.Col(ColFlags).Elem(1).String(); f != "" {
		t.Errorf("managed flags %q", f)
	}
	if v := df.Col(ColOversubPct).Elem(1).Float(); v != 50 {
		t.Errorf("oversub_pct %v", v)
	}
	if v := df.Col(ColOversubPct).Elem(0).Float(); !math.IsNaN(v) {
		t.Errorf("oversub_pct of hbm %v, want NaN", v)
	}
	// cv_pct falls back to total_ms when no bandwidth is measured.
	nb := []Row{cfg("handoff", "", math.NaN(), 1), cfg("handoff", "", math.NaN(), 3)}
	nf := SummaryFrame(Summarize(nb, SummaryOptions{}))
	if v := nf.Col(ColCVPct).Elem(0).Float(); !near(v, 100*math.Sqrt2/2) {
		t.Errorf("cv_pct from total_ms = %v", v)
	}
	if e := SummaryFrame(nil); e.Err != nil || e.Nrow() != 0 || e.Ncol() != len(want) {
		t.Errorf("SummaryFrame(nil): %d×%d, %v", e.Nrow(), e.Ncol(), e.Err)
	}
}

// TestSummaryIntervals: the summary's medians carry bootstrap intervals
// that contain them, narrow for steady trials and wide for scattered ones.
func TestSummaryIntervals(t *testing.T) {
	var rows []Row
	for i := 0; i < 25; i++ {
		steady, scattered := NewRow(), NewRow()
		steady.Group, steady.Benchmark, steady.SizeBytes = "hbm", "triad", 1<<20
		scattered.Group, scattered.Benchmark, scattered.SizeBytes = "hbm", "triad", 1<<30
		steady.GBps, steady.TotalMs = 1000+float64(i%3), 1
		scattered.GBps, scattered.TotalMs = 500+40*float64(i), 1
		rows = append(rows, steady, scattered)
	}
	sum := Summarize(rows, SummaryOptions{})
	for _, s := range sum {
		ci := s.GBpsCI
		if !(ci.Lo <= s.GBps.Median && s.GBps.Median <= ci.Hi) {
			t.Errorf("%d: median %v outside %v", s.Config.SizeBytes, s.GBps.Median, ci)
		}
		w := ci.Hi - ci.Lo
		if s.Config.SizeBytes == 1<<20 && w > 2 || s.Config.SizeBytes == 1<<30 && w < 100 {
			t.Errorf("%d: interval width %v", s.Config.SizeBytes, w)
		}
	}
}
