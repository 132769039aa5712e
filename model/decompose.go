package model

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/umlab/umlab/results"
)

// Term names, the values of Decomposition.Dominant.
const (
	TermCompute   = "compute"
	TermAccessHBM = "access_hbm"
	TermAccessCPU = "access_cpu"
	TermFault     = "fault"
	TermMigration = "migration"
	TermEviction  = "eviction"
	TermSync      = "sync"
	TermResidual  = "residual"
)

// Decomposition splits the measured time of one configuration into the terms
// of Section VIII-A:
//
//	T_total = T_compute + T_access + T_management
//	T_access = B_HBM/BW_HBM + B_CPU/BW_CPU
//	T_management = T_fault + T_migration + T_eviction + T_sync
//
// plus a residual, what the terms leave unexplained. Times are medians in ms.
// A term that cannot be estimated from the rows given is NaN and a note says
// why; the residual is the total less every term that is not NaN.
type Decomposition struct {
	Group, Benchmark, Mode, Pattern, Policy string
	SizeBytes                               int64
	StrideElements, PageIntervalBytes       int64
	OversubPct                              float64
	ReusePasses                             int64 // handoff: GPU passes per CPU update
	UsefulBytes                             int64 // per kernel, or per GPU pass for handoff

	TotalMs float64 // what was measured, including prefetch or copy-in time where the mode has one

	// Reference bandwidths used for the access terms (GB/s).
	HBMGBps, CPUGBps float64

	ComputeMs, AccessHBMMs, AccessCPUMs      float64
	FaultMs, MigrationMs, EvictionMs, SyncMs float64
	ResidualMs                               float64

	// What a counter pass counted for this configuration (DecomposeCounted);
	// NaN without one.
	CountedHtoDBytes, CountedGPUFaultGroups float64
	Dominant                                string // the largest term, by name (TermCompute, ...)
	Notes                                   []string
}

// AccessMs is T_access, the sum of the HBM and CPU-memory parts.
func (d Decomposition) AccessMs() float64 { return d.AccessHBMMs + d.AccessCPUMs }

// Label names the configuration, e.g. "managed/stream managed_cold 256 MiB".
func (d Decomposition) Label() string {
	what := d.Policy
	if what == "" {
		what = d.Mode
	}
	s := fmt.Sprintf("%s/%s %s", d.Group, d.Benchmark, what)
	if d.StrideElements > 0 {
		s += fmt.Sprintf(" stride %d", d.StrideElements)
	}
	if d.PageIntervalBytes > 0 {
		s += " every " + formatSize(d.PageIntervalBytes)
	}
	if d.Group == "oversub" {
		return s + fmt.Sprintf(" %g%%", d.OversubPct)
	}
	s += " " + formatSize(d.SizeBytes)
	if d.Group == groupHandoff {
		s += fmt.Sprintf(" R=%d", d.ReusePasses)
	}
	return s
}

func (d *Decomposition) terms() []float64 {
	return []float64{d.ComputeMs, d.AccessHBMMs, d.AccessCPUMs, d.FaultMs, d.MigrationMs, d.EvictionMs, d.SyncMs}
}

var termNames = []string{TermCompute, TermAccessHBM, TermAccessCPU, TermFault, TermMigration, TermEviction, TermSync, TermResidual}

func (d *Decomposition) note(format string, a ...any) {
	d.Notes = appendOnce(d.Notes, fmt.Sprintf(format, a...))
}

// finish computes the residual and the dominant term.
func (d *Decomposition) finish() {
	d.ResidualMs = d.TotalMs
	for _, t := range d.terms() {
		if !math.IsNaN(t) {
			d.ResidualMs -= t
		}
	}
	best := 0.0
	for i, t := range append(d.terms(), d.ResidualMs) {
		if t > best {
			best, d.Dominant = t, termNames[i]
		}
	}
}

// ckey identifies a configuration for the decomposition (trials, runs and
// GPUs of one platform pooled).
type ckey struct {
	group, benchmark, mode, pattern, policy, phase string
	size, stride, interval, r                      int64
	pct                                            float64
}

// conf holds a configuration's medians.
type conf struct {
	ckey
	kernel, prefetch, transfer, cpu, total, gbps float64
	useful                                       int64
}

// Decompose estimates the cost terms of every managed, pattern, oversub and
// alternating handoff configuration in rows, from the differences between
// memory states measured in the same rows:
//
//   - access: useful bytes over the reference bandwidth of the memory that
//     serves them: the hbm group's triad (explicit) for HBM, falling back to
//     the managed group's explicit stream, and the host group's triad
//     (host_mapped) for CPU memory, each at the nearest measured size;
//     host_mapped data is served by CPU memory, everything else by HBM.
//   - compute: the resident kernel time (explicit mode of the same benchmark
//     and size, or prefetched, or reused) less its HBM access time. It is
//     negative when that kernel streams faster than the reference bandwidth.
//   - fault and migration: cold (and advised) managed kernel time less the
//     resident kernel time; the migration part is the managed_prefetch
//     prefetch time of the same allocation, the fault part the rest. For
//     managed_prefetch the prefetch time is migration, for explicit the
//     copy-in time (both are in its total).
//   - eviction: oversubscribed kernel time less the time the same bytes take
//     at the same mode's bandwidth below capacity (largest oversub_pct < 100).
//   - sync: the alternating handoff iteration at R = 1 less the CPU-only and
//     GPU-only times (F − T_cpu); compute then holds the CPU update.
//
// Rows with negative or infinite times, or from several platforms, are an
// error; missing reference measurements are not: those terms are NaN with a
// note.
func Decompose(rows []results.Row) ([]Decomposition, error) { return DecomposeCounted(rows, nil) }

// Counted is what the counter pass of one configuration measured
// (`umbench run --counters`, umkit.CounterRow): Config holds its
// configuration columns.
type Counted struct {
	Config         results.Row
	HtoDBytes      float64 // Unified Memory bytes migrated host to device
	GPUFaultGroups float64 // GPU page fault groups
}

// DecomposeCounted is Decompose with counter passes. Where a cold (or
// advised) managed or oversubscribed configuration has one, its migration
// term is the counted host-to-device bytes at the rate the same
// allocation's prefetch moved them, and the fault term the rest of the
// excess, instead of assuming the whole allocation moved: a strided or
// page-touch kernel migrates only the pages it touches. Counts that are
// NaN or absent leave the estimate of Decompose.
func DecomposeCounted(rows []results.Row, counted []Counted) ([]Decomposition, error) {
	confs, err := aggregate(rows)
	if err != nil {
		return nil, err
	}
	x := &decomposer{confs: confs, index: map[ckey]*conf{}, counted: map[ckey]Counted{}}
	for _, c := range counted {
		x.counted[keyOf(c.Config)] = c
	}
	for i := range confs {
		x.index[confs[i].ckey] = &confs[i]
	}
	var out []Decomposition
	for i := range confs {
		c := &confs[i]
		var d Decomposition
		switch {
		case c.group == "managed" || c.group == "pattern":
			d = x.managed(c)
		case c.group == "oversub":
			d = x.oversub(c)
		case c.group == groupHandoff && c.phase == phaseAlt:
			d = x.handoff(c)
		default:
			continue
		}
		d.finish()
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil, badInput("no managed, pattern, oversub or alternating handoff rows to decompose")
	}
	return out, nil
}

func aggregate(rows []results.Row) ([]conf, error) {
	type acc struct {
		k, p, t, c, tot, g []float64
		useful             int64
	}
	accs := map[ckey]*acc{}
	var order []ckey
	var platforms []string
	for _, r := range rows {
		if r.Waived {
			continue
		}
		for _, v := range []struct {
			name string
			x    float64
		}{{results.ColKernelMs, r.KernelMs}, {results.ColPrefetchMs, r.PrefetchMs}, {results.ColTransferMs, r.TransferMs},
			{results.ColCPUMs, r.CPUMs}, {results.ColTotalMs, r.TotalMs}, {results.ColGBps, r.GBps}} {
			if v.x < 0 || math.IsInf(v.x, 0) {
				return nil, badInput("%s row (benchmark %q, mode %q, policy %q, size %d, trial %d): %s = %g is not valid",
					r.Group, r.Benchmark, r.Mode, r.Policy, r.SizeBytes, r.Trial, v.name, v.x)
			}
		}
		if r.Platform != "" && !slices.Contains(platforms, r.Platform) {
			platforms = append(platforms, r.Platform)
		}
		k := keyOf(r)
		a, ok := accs[k]
		if !ok {
			a = &acc{}
			accs[k] = a
			order = append(order, k)
		}
		a.k, a.p, a.t = append(a.k, r.KernelMs), append(a.p, r.PrefetchMs), append(a.t, r.TransferMs)
		a.c, a.tot, a.g = append(a.c, r.CPUMs), append(a.tot, r.TotalMs), append(a.g, r.GBps)
		if r.UsefulBytes > 0 {
			a.useful = r.UsefulBytes
		}
	}
	if len(platforms) > 1 {
		slices.Sort(platforms)
		return nil, badInput("rows come from several platforms (%s): decompose one at a time", strings.Join(platforms, ", "))
	}
	med := func(x []float64) float64 { return results.Describe(x).Median }
	out := make([]conf, len(order))
	for i, k := range order {
		a := accs[k]
		out[i] = conf{ckey: k, kernel: med(a.k), prefetch: med(a.p), transfer: med(a.t), cpu: med(a.c),
			total: med(a.tot), gbps: med(a.g), useful: a.useful}
		if out[i].useful == 0 && finite(out[i].gbps) && finite(out[i].kernel) {
			out[i].useful = int64(math.Round(out[i].gbps * 1e6 * out[i].kernel))
		}
	}
	return out, nil
}

// keyOf returns the decomposition key of a row's configuration.
func keyOf(r results.Row) ckey {
	k := ckey{r.Group, r.Benchmark, r.Mode, r.Pattern, r.Policy, r.Phase, r.SizeBytes, r.StrideElements, r.PageIntervalBytes, 0, 0}
	if r.Group == "oversub" && !math.IsNaN(r.OversubPct) {
		k.pct = r.OversubPct
	}
	if r.Group == groupHandoff {
		// A handoff configuration is its policy, phase, size and R.
		k.mode, k.pattern = "", ""
		if r.Phase == phaseAlt {
			k.r = r.ReusePasses
		}
	}
	return k
}

type decomposer struct {
	confs   []conf
	index   map[ckey]*conf
	counted map[ckey]Counted
}

// count records c's counter pass in d and returns its host-to-device bytes
// (NaN without a pass).
func (x *decomposer) count(c *conf, d *Decomposition) float64 {
	k, ok := x.counted[c.ckey]
	if !ok {
		return math.NaN()
	}
	d.CountedHtoDBytes, d.CountedGPUFaultGroups = k.HtoDBytes, k.GPUFaultGroups
	return k.HtoDBytes
}

// bandwidth returns the median gbps of the first matching source at the
// measured size nearest to size (in ratio), with where it came from.
func (x *decomposer) bandwidth(size int64, sources ...[3]string) (float64, string) {
	for _, s := range sources {
		best, bw := math.Inf(1), math.NaN()
		var at int64
		for _, c := range x.confs {
			if c.group != s[0] || c.benchmark != s[1] || c.mode != s[2] || !(c.gbps > 0) {
				continue
			}
			if dist := math.Abs(math.Log(float64(c.size) / float64(size))); dist < best {
				best, bw, at = dist, c.gbps, c.size
			}
		}
		if !math.IsNaN(bw) {
			return bw, fmt.Sprintf("%s %s (%s) at %s", s[0], s[1], s[2], formatSize(at))
		}
	}
	return math.NaN(), ""
}

var (
	hbmSources = [][3]string{{"hbm", "triad", "explicit"}, {"managed", "stream", "explicit"}}
	cpuSources = [][3]string{{"host", "triad", "host_mapped"}}
)

// refs sets the reference bandwidths of d.
func (x *decomposer) refs(d *Decomposition, size int64) {
	var src string
	d.HBMGBps, src = x.bandwidth(size, hbmSources...)
	if math.IsNaN(d.HBMGBps) {
		d.note("no hbm triad or explicit stream rows: HBM bandwidth unknown")
	} else if !strings.HasPrefix(src, "hbm triad") {
		d.note("HBM bandwidth from %s", src)
	}
	d.CPUGBps, _ = x.bandwidth(size, cpuSources...)
}

// access returns the time to move bytes at gbps, in ms.
func access(bytes int64, gbps float64) float64 {
	if bytes <= 0 {
		return math.NaN()
	}
	return float64(bytes) / (gbps * 1e6)
}

func nz(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return x
}

func newDecomposition(c *conf) Decomposition {
	nan := math.NaN()
	return Decomposition{Group: c.group, Benchmark: c.benchmark, Mode: c.mode, Pattern: c.pattern, Policy: c.policy,
		SizeBytes: c.size, StrideElements: c.stride, PageIntervalBytes: c.interval, OversubPct: nan, ReusePasses: c.r,
		UsefulBytes: c.useful, ComputeMs: nan, AccessHBMMs: nan, AccessCPUMs: nan, FaultMs: nan, MigrationMs: nan,
		EvictionMs: nan, SyncMs: nan, CountedHtoDBytes: nan, CountedGPUFaultGroups: nan}
}

// serve sets the access terms for bytes served by CPU memory or HBM.
func (d *Decomposition) serve(bytes int64, cpu bool) {
	if bytes <= 0 {
		d.note("no useful_bytes: access and compute not separated")
		return
	}
	if cpu {
		d.AccessHBMMs, d.AccessCPUMs = 0, access(bytes, d.CPUGBps)
		if math.IsNaN(d.CPUGBps) {
			d.note("no host triad rows: CPU-memory bandwidth unknown")
		}
		return
	}
	d.AccessHBMMs, d.AccessCPUMs = access(bytes, d.HBMGBps), 0
}

// split divides an excess time into migration and fault servicing (the
// rest). p is the prefetch time of the whole allocation of size bytes; the
// migration is at most p, or, with a count of the bytes migrated (htod not
// NaN), those bytes at the prefetch's rate.
func (d *Decomposition) split(excess, p float64, size int64, htod float64) {
	switch {
	case math.IsNaN(excess):
		return
	case math.IsNaN(p):
		d.FaultMs = excess
		d.note("no managed_prefetch prefetch time: fault includes migration")
		return
	}
	moved := p
	if !math.IsNaN(htod) && size > 0 {
		moved = htod * p / float64(size)
		d.note("migration: %s counted host to device, at the prefetch rate", formatSize(int64(math.Round(htod))))
	}
	d.MigrationMs = math.Min(moved, math.Max(excess, 0))
	d.FaultMs = excess - d.MigrationMs
}

func (x *decomposer) managed(c *conf) Decomposition {
	d := newDecomposition(c)
	d.TotalMs = c.kernel + nz(c.prefetch) + nz(c.transfer)
	x.refs(&d, c.size)
	sib := func(mode string) *conf {
		k := c.ckey
		k.mode = mode
		return x.index[k]
	}
	ref := math.NaN()
	for _, m := range []string{"explicit", "managed_prefetch", "managed_reuse"} {
		if s := sib(m); s != nil && finite(s.kernel) {
			ref = s.kernel
			if m != "explicit" {
				d.note("resident reference: %s kernel (no explicit rows)", m)
			}
			break
		}
	}
	if math.IsNaN(ref) {
		d.note("no explicit, prefetched or reused rows of this benchmark and size: compute and fault unknown")
	}
	d.serve(c.useful, c.mode == "host_mapped")
	if c.useful > 0 {
		d.ComputeMs = ref - access(c.useful, d.HBMGBps)
	}
	d.FaultMs, d.MigrationMs, d.EvictionMs, d.SyncMs = 0, 0, 0, 0
	switch {
	case c.mode == "explicit":
		d.MigrationMs = nz(c.transfer)
	case c.mode == "managed_prefetch":
		d.MigrationMs = nz(c.prefetch)
	case c.mode == "managed_reuse" || c.mode == "host_mapped":
	case c.mode == "managed_cold" || strings.HasPrefix(c.mode, "advise_"):
		if c.mode != "managed_cold" {
			d.note("advice mode treated like first touch")
		}
		d.FaultMs, d.MigrationMs = math.NaN(), math.NaN()
		p := math.NaN()
		if s := sib("managed_prefetch"); s != nil {
			p = s.prefetch
		}
		d.split(c.kernel-ref, p, c.size, x.count(c, &d))
	default:
		d.FaultMs, d.MigrationMs = math.NaN(), math.NaN()
		d.note("mode %q: fault and migration not modelled", c.mode)
	}
	return d
}

func (x *decomposer) oversub(c *conf) Decomposition {
	d := newDecomposition(c)
	d.OversubPct = c.pct
	d.TotalMs = c.kernel + nz(c.prefetch)
	x.refs(&d, c.size)
	// below returns the bandwidth of a mode at the largest oversub_pct < 100.
	below := func(mode string) float64 {
		bw, at := math.NaN(), math.Inf(-1)
		for _, o := range x.confs {
			if o.group == c.group && o.benchmark == c.benchmark && o.pattern == c.pattern && o.mode == mode &&
				o.pct < 100 && o.pct > at && o.gbps > 0 {
				bw, at = o.gbps, o.pct
			}
		}
		return bw
	}
	own, res := below(c.mode), below("managed_prefetch")
	if math.IsNaN(res) {
		res = below("managed_reuse")
	}
	u := c.useful
	d.serve(u, false)
	if u > 0 {
		d.ComputeMs = access(u, res) - access(u, d.HBMGBps)
		if math.IsNaN(res) {
			d.note("no prefetched or reused rows below capacity: compute unknown")
		}
	}
	d.FaultMs, d.MigrationMs, d.SyncMs, d.EvictionMs = 0, 0, 0, 0
	if c.pct > 100 {
		d.EvictionMs = c.kernel - access(u, own)
		if math.IsNaN(own) {
			d.note("no %s rows below capacity: eviction unknown", c.mode)
		}
	}
	switch c.mode {
	case "managed_prefetch":
		d.MigrationMs = nz(c.prefetch)
	case "managed_reuse":
	case "managed_cold":
		d.FaultMs, d.MigrationMs = math.NaN(), math.NaN()
		p := math.NaN()
		k := c.ckey
		k.mode = "managed_prefetch"
		if s := x.index[k]; s != nil {
			p = s.prefetch
		}
		d.split(access(u, own)-access(u, res), p, c.size, x.count(c, &d))
	default:
		d.FaultMs, d.MigrationMs = math.NaN(), math.NaN()
		d.note("mode %q: fault and migration not modelled", c.mode)
	}
	return d
}

func (x *decomposer) handoff(c *conf) Decomposition {
	d := newDecomposition(c)
	d.TotalMs = c.total
	x.refs(&d, c.size)
	get := func(phase string, r int64) *conf {
		k := c.ckey
		k.phase, k.r = phase, r
		return x.index[k]
	}
	g, t1, cpu := math.NaN(), math.NaN(), math.NaN()
	var u int64
	if s := get(phaseGPU, 0); s != nil {
		g, u = s.total, s.useful
	} else {
		d.note("no gpu_only rows: G unknown")
	}
	if s := get(phaseAlt, 1); s != nil {
		t1 = s.total
	} else {
		d.note("no alternating R = 1 rows: F unknown")
	}
	if s := get(phaseCPU, 0); s != nil {
		cpu = s.total
	} else {
		d.note("no cpu_only rows: CPU update and sync unknown")
	}
	r := float64(c.r)
	d.serve(u, c.policy == HostMapped)
	pass := d.AccessHBMMs + d.AccessCPUMs
	d.AccessHBMMs *= r
	d.AccessCPUMs *= r
	d.ComputeMs = cpu + r*(g-pass)
	d.SyncMs = t1 - g - cpu
	d.note("compute includes the CPU update; sync includes fault, migration and eviction")
	return d
}

// DecompositionFrame returns decompositions as a DataFrame: the
// configuration columns of the results schema (group, benchmark, mode,
// pattern, policy, size_bytes, stride_elements, page_interval_bytes,
// oversub_pct, reuse_passes, useful_bytes, total_ms), then hbm_gbps,
// cpu_gbps, compute_ms, access_hbm_ms, access_cpu_ms, access_ms, fault_ms,
// migration_ms, eviction_ms, sync_ms, residual_ms, counted_htod_bytes,
// counted_gpu_fault_groups, dominant and note.
func DecompositionFrame(ds []Decomposition) dataframe.DataFrame {
	n := len(ds)
	var cols []series.Series
	str := func(name string, f func(d *Decomposition) string) {
		v := make([]string, n)
		for i := range ds {
			v[i] = f(&ds[i])
		}
		cols = append(cols, series.New(v, series.String, name))
	}
	integer := func(name string, f func(d *Decomposition) int64) {
		v := make([]int, n)
		for i := range ds {
			v[i] = int(f(&ds[i]))
		}
		cols = append(cols, series.New(v, series.Int, name))
	}
	float := func(name string, f func(d *Decomposition) float64) {
		v := make([]float64, n)
		for i := range ds {
			v[i] = f(&ds[i])
		}
		cols = append(cols, series.New(v, series.Float, name))
	}
	str(results.ColGroup, func(d *Decomposition) string { return d.Group })
	str(results.ColBenchmark, func(d *Decomposition) string { return d.Benchmark })
	str(results.ColMode, func(d *Decomposition) string { return d.Mode })
	str(results.ColPattern, func(d *Decomposition) string { return d.Pattern })
	str(results.ColPolicy, func(d *Decomposition) string { return d.Policy })
	integer(results.ColSizeBytes, func(d *Decomposition) int64 { return d.SizeBytes })
	integer(results.ColStrideElements, func(d *Decomposition) int64 { return d.StrideElements })
	integer(results.ColPageIntervalBytes, func(d *Decomposition) int64 { return d.PageIntervalBytes })
	float(results.ColOversubPct, func(d *Decomposition) float64 { return d.OversubPct })
	integer(results.ColReusePasses, func(d *Decomposition) int64 { return d.ReusePasses })
	integer(results.ColUsefulBytes, func(d *Decomposition) int64 { return d.UsefulBytes })
	float(results.ColTotalMs, func(d *Decomposition) float64 { return d.TotalMs })
	float(ColHBMGBps, func(d *Decomposition) float64 { return d.HBMGBps })
	float(ColCPUGBps, func(d *Decomposition) float64 { return d.CPUGBps })
	float(ColComputeMs, func(d *Decomposition) float64 { return d.ComputeMs })
	float(ColAccessHBMMs, func(d *Decomposition) float64 { return d.AccessHBMMs })
	float(ColAccessCPUMs, func(d *Decomposition) float64 { return d.AccessCPUMs })
	float(ColAccessMs, func(d *Decomposition) float64 { return d.AccessMs() })
	float(ColFaultMs, func(d *Decomposition) float64 { return d.FaultMs })
	float(ColMigrationMs, func(d *Decomposition) float64 { return d.MigrationMs })
	float(ColEvictionMs, func(d *Decomposition) float64 { return d.EvictionMs })
	float(ColSyncMs, func(d *Decomposition) float64 { return d.SyncMs })
	float(ColResidualMs, func(d *Decomposition) float64 { return d.ResidualMs })
	float(ColCountedHtoDBytes, func(d *Decomposition) float64 { return d.CountedHtoDBytes })
	float(ColCountedFaultGroups, func(d *Decomposition) float64 { return d.CountedGPUFaultGroups })
	str(ColDominant, func(d *Decomposition) string { return d.Dominant })
	str(results.ColNote, func(d *Decomposition) string { return strings.Join(d.Notes, "; ") })
	return dataframe.New(cols...)
}

// Column names of the decomposition table.
const (
	ColHBMGBps     = "hbm_gbps" // reference HBM bandwidth used
	ColCPUGBps     = "cpu_gbps" // reference CPU-memory bandwidth used
	ColComputeMs   = "compute_ms"
	ColAccessHBMMs = "access_hbm_ms"
	ColAccessCPUMs = "access_cpu_ms"
	ColAccessMs    = "access_ms"
	ColFaultMs     = "fault_ms"
	ColMigrationMs = "migration_ms"
	ColEvictionMs  = "eviction_ms"
	ColSyncMs      = "sync_ms"
	ColResidualMs  = "residual_ms"
	ColDominant    = "dominant"

	ColCountedHtoDBytes   = "counted_htod_bytes"       // counter pass: bytes migrated host to device
	ColCountedFaultGroups = "counted_gpu_fault_groups" // counter pass: GPU page fault groups
)

// WriteDecomposition writes decompositions as a plain-text table, one
// configuration a line, times in ms ("-" for NaN).
func WriteDecomposition(w io.Writer, ds []Decomposition) error {
	ew := &errWriter{w: w}
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "configuration\ttotal\tcompute\taccess HBM\taccess CPU\tfault\tmigration\teviction\tsync\tresidual\tdominant")
	ms := func(x float64) string {
		if math.IsNaN(x) {
			return "-"
		}
		return fmt.Sprintf("%.4g", x)
	}
	for _, d := range ds {
		fmt.Fprintf(tw, "%s\t", d.Label())
		for _, t := range append([]float64{d.TotalMs}, append(d.terms(), d.ResidualMs)...) {
			fmt.Fprintf(tw, "%s\t", ms(t))
		}
		fmt.Fprintf(tw, "%s\n", d.Dominant)
	}
	tw.Flush()
	return ew.err
}
