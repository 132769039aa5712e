package model

import (
	"fmt"
	"math"
	"strings"
)

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

// sib is c's configuration in another mode.
func (x *decomposer) sib(c *conf, mode string) *conf {
	k := c.ckey
	k.mode = mode
	return x.index[k]
}

// split divides a first-touch excess time into migration and fault
// servicing (the rest). The migration is at most the prefetch time of the
// same allocation, or, with a count of the bytes migrated (htod not NaN),
// those bytes at the prefetch's rate.
func (x *decomposer) split(d *Decomposition, c *conf, excess, htod float64) {
	d.FaultMs, d.MigrationMs = math.NaN(), math.NaN()
	p := math.NaN()
	if s := x.sib(c, "managed_prefetch"); s != nil {
		p = s.prefetch
	}
	switch {
	case math.IsNaN(excess):
		return
	case math.IsNaN(p):
		d.FaultMs = excess
		d.note("no managed_prefetch prefetch time: fault includes migration")
		return
	}
	moved := p
	if !math.IsNaN(htod) && c.size > 0 {
		moved = htod * p / float64(c.size)
		d.note("migration: %s counted host to device, at the prefetch rate", formatSize(int64(math.Round(htod))))
	}
	d.MigrationMs = math.Min(moved, math.Max(excess, 0))
	d.FaultMs = excess - d.MigrationMs
}

// moved sets the migration term to a measured prefetch or copy time.
func (d *Decomposition) moved(ms float64) {
	d.MigrationMs = nz(ms)
	d.Measured = append(d.Measured, TermMigration)
}

// unmodelled marks fault and migration unknown for a mode.
func (d *Decomposition) unmodelled(mode string) {
	d.FaultMs, d.MigrationMs = math.NaN(), math.NaN()
	d.note("mode %q: fault and migration not modelled", mode)
}

func (x *decomposer) managed(c *conf) Decomposition {
	d := newDecomposition(c)
	d.TotalMs = c.kernel + nz(c.prefetch) + nz(c.transfer)
	x.refs(&d, c.size)
	ref := x.resident(c, &d)
	htod := x.count(c, &d)
	remote := c.mode == "host_mapped"
	if remoteAdvice(c.mode) {
		// Accessed-by and preferred-CPU map the pages for the GPU where they
		// are: nothing migrates (the H200 counter passes, of data brought
		// home, count 0 bytes host to device), unless a counter pass saw it.
		if !math.IsNaN(htod) && htod > 0.01*float64(c.size) {
			d.note("%s: the counter pass saw %s migrate host to device: treated as first touch", c.mode, formatSize(int64(htod)))
		} else {
			remote = true
		}
	}
	d.serve(c.useful, remote)
	if c.useful > 0 {
		d.ComputeMs = ref - access(c.useful, d.HBMGBps)
	}
	d.FaultMs, d.MigrationMs, d.EvictionMs, d.SyncMs = 0, 0, 0, 0
	switch {
	case c.mode == "explicit":
		d.moved(c.transfer)
	case c.mode == "managed_prefetch":
		d.moved(c.prefetch)
	case remote && remoteAdvice(c.mode):
		d.FaultMs = x.mapping(c, &d, htod)
	case c.mode == "managed_reuse" || remote:
	case c.mode == "managed_cold" || strings.HasPrefix(c.mode, "advise_"):
		if c.mode != "managed_cold" {
			d.note("advice mode treated like first touch")
		}
		x.split(&d, c, c.kernel-ref, htod)
	default:
		d.unmodelled(c.mode)
	}
	return d
}

// resident returns the resident reference kernel time of c's benchmark and
// size: explicit, else prefetched, else reused.
func (x *decomposer) resident(c *conf, d *Decomposition) float64 {
	for _, m := range []string{"explicit", "managed_prefetch", "managed_reuse"} {
		if s := x.sib(c, m); s != nil && finite(s.kernel) {
			if m != "explicit" {
				d.note("resident reference: %s kernel (no explicit rows)", m)
			}
			return s.kernel
		}
	}
	d.note("no explicit, prefetched or reused rows of this benchmark and size: compute and fault unknown")
	return math.NaN()
}

// mapping is the fault term of a remote-access advice mode: a kernel that
// takes longer than twice its access spends the rest mapping pages, as a
// fresh allocation's CPU pages are mapped for the GPU through faults at
// its first touch (the H200 with --rewrite reallocate: preferred CPU at
// 2.9 GB/s, host triad 74).
func (x *decomposer) mapping(c *conf, d *Decomposition, htod float64) float64 {
	what := "no counter pass: no migration assumed"
	if !math.IsNaN(htod) {
		what = fmt.Sprintf("counter pass: %s migrated", formatSize(int64(htod)))
		if g := d.CountedGPUFaultGroups; g > 0 {
			what += fmt.Sprintf(", %.0f GPU fault groups", g) // the mapping faults, counted
		}
	}
	faulted := !(d.CountedGPUFaultGroups == 0) // NaN without a pass: not ruled out
	excess := c.kernel - d.ComputeMs - d.AccessCPUMs
	switch {
	case math.IsNaN(excess):
		d.note("%s is remote access (%s); without CPU-memory bandwidth or a reference kernel, fault is not separated from access", c.mode, what)
		return math.NaN()
	case excess > d.AccessCPUMs && faulted:
		d.note("%s is remote access but took %.3g× as long as CPU memory's bandwidth allows: fault inferred as the rest, "+
			"the GPU mapping CPU pages at its first touch (%s); access_cpu inferred from the host triad bandwidth",
			c.mode, c.kernel/d.AccessCPUMs, what)
		return excess
	}
	d.note("%s is remote access: the GPU reads CPU memory in place, no fault or migration (%s); access_cpu inferred from the host triad bandwidth", c.mode, what)
	return 0
}

// remoteAdvice reports whether an advice mode leaves the data in CPU memory
// for the GPU to access remotely.
func remoteAdvice(mode string) bool {
	return mode == "advise_accessed_by" || mode == "advise_preferred_cpu"
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
		d.moved(c.prefetch)
	case "managed_reuse":
	case "managed_cold":
		x.split(&d, c, access(u, own)-access(u, res), x.count(c, &d))
	default:
		d.unmodelled(c.mode)
	}
	return d
}

func (x *decomposer) handoff(c *conf) Decomposition {
	d := newDecomposition(c)
	d.TotalMs = c.total
	x.refs(&d, c.size)
	// phase returns the total and useful bytes of another phase of c.
	phase := func(phase string, r int64, missing string) (float64, int64) {
		k := c.ckey
		k.phase, k.r = phase, r
		if s := x.index[k]; s != nil {
			return s.total, s.useful
		}
		d.note("%s", missing)
		return math.NaN(), 0
	}
	g, u := phase(phaseGPU, 0, "no gpu_only rows: G unknown")
	t1, _ := phase(phaseAlt, 1, "no alternating R = 1 rows: F unknown")
	cpu, _ := phase(phaseCPU, 0, "no cpu_only rows: CPU update and sync unknown")
	r := float64(c.r)
	d.serve(u, c.policy == HostMapped)
	pass := d.AccessHBMMs + d.AccessCPUMs
	d.AccessHBMMs *= r
	d.AccessCPUMs *= r
	d.ComputeMs = cpu + r*(g-pass)
	if htod := x.count(c, &d); !math.IsNaN(htod) {
		d.note("counter pass: %s migrated host to device, %.0f GPU fault groups in one iteration", formatSize(int64(htod)), d.CountedGPUFaultGroups)
	}
	if !finite(c.kernel) || !finite(c.cpu) || !finite(c.sync) {
		// Rows without the measured parts (before interleaving): one
		// difference of phases holds all of the handoff.
		d.SyncMs = t1 - g - cpu
		d.note("compute includes the CPU update; sync includes fault, migration and eviction (no measured parts in these rows)")
		return d
	}
	// From the trial's measured parts: what the update and the passes take
	// beyond the CPU-only and GPU-only phases is fault servicing and the
	// migration it triggers (managed memory).
	d.SyncMs = c.sync
	d.Measured = append(d.Measured, TermSync)
	cpuExtra, gpuExtra := c.cpu-cpu, c.kernel-r*g
	d.FaultMs, d.MigrationMs = 0, 0
	switch c.policy {
	case Managed:
		d.FaultMs = cpuExtra + gpuExtra
		d.note("fault (inferred: update and passes less the CPU-only and GPU-only phases) includes the migration the faults trigger")
	case ManagedPrefetch:
		d.moved(c.prefetch)
		d.FaultMs = cpuExtra + gpuExtra
	case ExplicitCopy:
		d.moved(c.transfer)
		d.ComputeMs += cpuExtra + gpuExtra // no faults: differences from the phases are the update's and passes' own variation
	case HostMapped:
		d.ComputeMs += cpuExtra + gpuExtra // remote access, in the passes
		d.note("host_mapped is remote access: no fault or migration")
	}
	return d
}
