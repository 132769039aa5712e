package model

import (
	"cmp"
	"fmt"

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

	// What a counter pass counted (DecomposeCounted); NaN without one.
	CountedHtoDBytes, CountedGPUFaultGroups float64
	Dominant                                string // the largest term, by name (TermCompute, ...)
	// Measured names the terms taken from a measured time; the others are
	// inferred from reference bandwidths or differences of states or phases.
	Measured []string
	Notes    []string
}

// AccessMs is T_access, the sum of the HBM and CPU-memory parts.
func (d Decomposition) AccessMs() float64 { return d.AccessHBMMs + d.AccessCPUMs }

// Label names the configuration, e.g. "managed/stream managed_cold 256 MiB".
func (d Decomposition) Label() string {
	s := fmt.Sprintf("%s/%s %s", d.Group, d.Benchmark, cmp.Or(d.Policy, d.Mode))
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

// Terms are d's terms in ms, in TermNames' order.
func (d *Decomposition) Terms() []float64 { return append(d.terms(), d.ResidualMs) }

// TermNames name the terms, in the order Terms gives them.
var TermNames = []string{TermCompute, TermAccessHBM, TermAccessCPU, TermFault, TermMigration, TermEviction, TermSync, TermResidual}

func (d *Decomposition) note(format string, a ...any) {
	d.Notes = appendOnce(d.Notes, fmt.Sprintf(format, a...))
}

// finish computes the residual and the dominant term.
func (d *Decomposition) finish() {
	d.ResidualMs = d.TotalMs
	for _, t := range d.terms() {
		d.ResidualMs -= nz(t) // an unknown term explains nothing
	}
	best := 0.0
	for i, t := range d.Terms() {
		if t > best {
			best, d.Dominant = t, TermNames[i]
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
	sync                                         float64 // handoff alternating: the measured remainder (sync_ms)
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

// Counted is what the counter pass of one configuration (Config) measured.
type Counted struct {
	Config         results.Row
	HtoDBytes      float64 // Unified Memory bytes migrated host to device
	DtoHBytes      float64 // and device to host
	CPUPageFaults  float64 // CPU page faults on managed memory
	GPUFaultGroups float64 // GPU page fault groups
	Source         string  // where the passes come from, when not the measured rows' own run
}

// CountedOf returns what a collected counter pass counted.
func CountedOf(c results.CounterRow) Counted {
	return Counted{Config: c.Config, HtoDBytes: c.HtoDBytes, DtoHBytes: c.DtoHBytes, CPUPageFaults: c.CPUPageFaults, GPUFaultGroups: c.GPUFaultGroups}
}

// DecomposeCounted is Decompose with counter passes: a cold (or advised)
// configuration's migration term is its counted host-to-device bytes at
// the prefetch's rate, not the whole allocation (a strided or page-touch
// kernel migrates only the pages it touches).
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
