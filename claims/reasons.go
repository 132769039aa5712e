package claims

import (
	"fmt"
	"math"
	"strings"

	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// The mechanisms below explain differences from the paper, each from the
// run's device facts (meta.json) and its own data; explain (claims.go)
// decides where one applies.

// pcieLink returns the run's PCIe link bandwidth per direction and how it
// is known.
func pcieLink(run *Run) (float64, string, bool) {
	f := run.Facts
	if f.Link != LinkPCIe || f.HostLinkGBps <= 0 {
		return 0, "", false
	}
	return f.HostLinkGBps, fmt.Sprintf("%s (%s GB/s per direction, meta.json)", f.LinkText, num(f.HostLinkGBps)), true
}

func inf(sign int) float64 { return math.Inf(sign) }

// Shapes of the host-link bound in a claim's figure.
const (
	linkValue    = iota // the host-mapped triad itself
	linkFraction        // host-mapped over the HBM triad, %
	linkInverse         // the HBM triad over host-mapped, ×
)

// hostTriadLink: the host-mapped triad reads two arrays from CPU memory and
// writes one over a full-duplex link, so its useful bandwidth is at most
// 1.5 times the link's per-direction peak.
func hostTriadLink(shape int) Mechanism {
	return Mechanism{Name: "the PCIe link", Factor: 2, Predict: func(x *Check) (Prediction, bool) {
		l, how, ok := pcieLink(x.Run)
		if !ok {
			return Prediction{}, false
		}
		c := 1.5 * l
		text := fmt.Sprintf("the host-mapped triad reads two arrays from CPU memory and writes one over %s, so its useful bandwidth is at most 1.5 × %s = %s GB/s", how, num(l), num(c))
		if shape == linkValue {
			return Prediction{inf(-1), c, text}, true
		}
		t, err := get(x.Run, triad(gib))
		if err != nil {
			return Prediction{}, false
		}
		text += fmt.Sprintf(", against this run's HBM triad of %s", t)
		if shape == linkFraction {
			return Prediction{inf(-1), 100 * c / t.v, text}, true
		}
		return Prediction{t.v / c, inf(1), text}, true
	}}
}

// linkCeiling: a copy in one direction runs at most at the link's peak.
func linkCeiling(s sel) Mechanism {
	return Mechanism{Name: "the PCIe link", Factor: 1.25, Predict: func(x *Check) (Prediction, bool) {
		l, how, ok := pcieLink(x.Run)
		if !ok {
			return Prediction{}, false
		}
		return Prediction{inf(-1), l, fmt.Sprintf("the %s crosses %s in one direction", s.describe(), how)}, true
	}}
}

// linkBoth: two transfers that each run within 20 % of the link's peak are
// both set by the link, so their ratio is about 1.
func linkBoth(a, b sel) Mechanism {
	return Mechanism{Name: "the PCIe link", Factor: 1.25, Predict: func(x *Check) (Prediction, bool) {
		l, how, ok := pcieLink(x.Run)
		fa, err1 := get(x.Run, a)
		fb, err2 := get(x.Run, b)
		if !ok || err1 != nil || err2 != nil || fa.v < 0.8*l || fb.v < 0.8*l {
			return Prediction{}, false
		}
		return Prediction{1, 1, fmt.Sprintf("both transfers are set by %s: %s reaches %s %% and %s %s %% of its peak",
			how, a.describe(), num(100*fa.v/l), b.describe(), num(100*fb.v/l))}, true
	}}
}

// remoteMapping says whether the GPU can reach managed pages in CPU memory
// without migrating them (concurrent managed access, or ATS/HMM) over PCIe.
func remoteMapping(run *Run) (float64, string, bool) {
	l, how, ok := pcieLink(run)
	f := run.Facts
	if !ok || !f.Known || !f.ConcurrentManagedAccess && !f.PageableMemoryAccess {
		return 0, "", false
	}
	by := "concurrent managed access"
	if !f.ConcurrentManagedAccess {
		by = "pageable memory access (ATS/HMM)"
	}
	return l, how + "; " + by + ": yes (meta.json), so the GPU can map pages that stay in CPU memory", true
}

// remoteStreamLink: accessed-by pages stay in CPU memory and the streaming
// kernel reads and writes them over the link, both directions at once: at
// most twice the per-direction peak.
var remoteStreamLink = Mechanism{Name: "remote access over PCIe", Factor: 2, Predict: func(x *Check) (Prediction, bool) {
	l, how, ok := remoteMapping(x.Run)
	p, err := get(x.Run, adviseRef(results.ModeManagedPrefetch)...)
	if !ok || err != nil {
		return Prediction{}, false
	}
	return Prediction{inf(-1), 100 * 2 * l / p.v, fmt.Sprintf("accessed-by pages are read and written over %s: at most 2 × %s GB/s, against prefetch's %s", how, num(l), p)}, true
}}

// remoteAccess: preferred-CPU pages stay in CPU memory, reached remotely
// as accessed-by's are, so the two run alike.
var remoteAccess = Mechanism{Name: "remote access over PCIe", Factor: 1.25, Predict: func(x *Check) (Prediction, bool) {
	_, how, ok := remoteMapping(x.Run)
	ab, err1 := get(x.Run, stream(results.ModeAdviseAccessedBy, 256*mib))
	c, err2 := get(x.Run, stream(results.ModeManagedCold, 256*mib))
	if !ok || err1 != nil || err2 != nil {
		return Prediction{}, false
	}
	v := ab.v / c.v
	return Prediction{v, v, fmt.Sprintf("preferred-CPU pages stay in CPU memory and are reached remotely over %s, as accessed-by's are (%s), against cold's %s", how, ab, c)}, true
}}

// Shapes of a handoff prediction that rests on the GPU pass over the link.
const (
	linkPass  = iota // G of host-mapped over explicit copy's
	linkOrder        // the order at R = 32
)

// hostPassLink: a host-mapped GPU pass reads and writes the whole array
// over the link, at least size / (per-direction peak) per pass.
func hostPassLink(shape int) Mechanism {
	return Mechanism{Name: "the PCIe link", Factor: 2, Predict: func(x *Check) (Prediction, bool) {
		l, how, ok := pcieLink(x.Run)
		if !ok {
			return Prediction{}, false
		}
		pass := float64(gib) / l / 1e6 // ms
		text := fmt.Sprintf("a host-mapped pass reads and writes the 1 GiB array over %s, at least %s ms per pass", how, num(pass))
		ps, err := params(x.Run, model.ExplicitCopy, model.HostMapped)
		if err != nil {
			return Prediction{}, false
		}
		if shape == linkPass {
			return Prediction{pass / ps[0].G, inf(1), text + fmt.Sprintf(", against explicit copy's G of %s ms", num(ps[0].G))}, true
		}
		m, err := get(x.Run, handoff(model.Managed, results.PhaseAlternating, 32))
		least := ps[1].F + 32*pass
		if err != nil || least <= m.v {
			return Prediction{}, false
		}
		return Prediction{0, 0, text + fmt.Sprintf(": at R = 32 host-mapped takes at least F + 32 × %s = %s ms, more than managed's %s, so it cannot order before managed", num(pass), num(least), m)}, true
	}}
}

// Shapes of the explicit copies' prediction.
const (
	copiesExtra     = iota // explicit copy's extra over its baseline, %
	copiesCrossover        // R* of host-mapped and explicit copy
	copiesR2               // explicit over host-mapped at R = 2
)

// copiesOverLink: explicit copy moves the array over the link both ways
// every iteration, which host-mapped does not pay; the rest costs the same.
func copiesOverLink(shape int) Mechanism {
	return Mechanism{Name: "the copies over PCIe", Factor: 1.25, Predict: func(x *Check) (Prediction, bool) {
		ms, how, ok := loopCopies(x.Run)
		if !ok {
			return Prediction{}, false
		}
		text := "explicit copy moves the 1 GiB array to the GPU and back in every iteration: " + how
		switch shape {
		case copiesExtra:
			b, err := baseline(x.Run, model.ExplicitCopy)
			if err != nil {
				return Prediction{}, false
			}
			return Prediction{100 * ms / b.v, 100 * ms / b.v, text + fmt.Sprintf(", over its baseline of %s", b)}, true
		}
		ps, err := params(x.Run, model.ExplicitCopy, model.HostMapped)
		if err != nil {
			return Prediction{}, false
		}
		e, h := ps[0], ps[1]
		text += fmt.Sprintf("; with host-mapped's F = %s ms and the fitted G of %s and %s ms/pass", num(h.F), num(e.G), num(h.G))
		v := ms / (h.G - e.G)
		if shape == copiesR2 {
			v = (h.F + ms + 2*e.G) / (h.F + 2*h.G)
		}
		return Prediction{v, v, text}, true
	}}
}

// loopCopies is the time of explicit copy's two copies at 1 GiB over PCIe:
// the loop's transfer_ms at R = 1, else at the run's pinned copy rates.
func loopCopies(run *Run) (float64, string, bool) {
	_, how, ok := pcieLink(run)
	if !ok {
		return 0, "", false
	}
	if v, _, found := run.find(handoff(model.ExplicitCopy, results.PhaseAlternating, 1)); found && !math.IsNaN(v.transfer) {
		return v.transfer, fmt.Sprintf("the two copies take %s ms in the loop (transfer_ms at R = 1) over %s", num(v.transfer), how), true
	}
	h2d, err1 := get(run, copyDir(results.DirectionH2D))
	d2h, err2 := get(run, copyDir(results.DirectionD2H))
	if err1 != nil || err2 != nil {
		return 0, "", false
	}
	ms := float64(gib)/h2d.v/1e6 + float64(gib)/d2h.v/1e6
	return ms, fmt.Sprintf("the two copies take %s ms at this run's pinned copy rates over %s (%s to the GPU, %s back)", num(ms), how, h2d, d2h), true
}

// migrationBothWays: without direct host access to GPU-resident managed
// memory, prefetching moves the array both ways every iteration, which
// bounds how much of demand paging's extra cost it can remove.
var migrationBothWays = Mechanism{Name: "the prefetches both ways", Factor: 2, Predict: func(x *Check) (Prediction, bool) {
	run := x.Run
	h2d, err1 := get(run, prefetchDir(results.DirectionH2D))
	d2h, err2 := get(run, prefetchDir(results.DirectionD2H))
	m, err3 := extra(run, model.Managed)
	if !run.Facts.Known || run.Facts.DirectManagedFromHost || err1 != nil || err2 != nil || err3 != nil || m.v <= 0 {
		return Prediction{}, false
	}
	ms := float64(gib)/h2d.v/1e6 + float64(gib)/d2h.v/1e6
	text := fmt.Sprintf("without direct managed access from the host (meta.json) prefetch moves the array to the GPU and back in every iteration: at this run's prefetch rates (%s and %s) %s ms, so of managed memory's %s extra at most %s %% can go",
		h2d, d2h, num(ms), m, num(100*(1-ms/m.v)))
	for _, c := range run.Counters {
		if c.Config.Group == results.GroupHandoff && c.Config.Policy == model.ManagedPrefetch && c.Config.Phase == results.PhaseAlternating && c.HtoDBytes > 0 {
			text += fmt.Sprintf(" (a counter pass at %s, R = %d, counts %s to the GPU and %s back per iteration)", bytesText(c.Config.SizeBytes), c.Config.ReusePasses, bytesText(int64(c.HtoDBytes)), bytesText(int64(c.DtoHBytes)))
			break
		}
	}
	return Prediction{inf(-1), 100 * (1 - ms/m.v), text}, true
}}

// cpuThreads says the handoff's CPU threads as meta.json gives them.
func cpuThreads(run *Run) string {
	if run.Facts.CPUThreads > 0 {
		return fmt.Sprintf(" with %d CPU thread(s) (meta.json)", run.Facts.CPUThreads)
	}
	return ""
}

// slowerBaseline: the same extra cost in milliseconds as the paper's over
// a slower CPU-only plus GPU-only baseline is a smaller multiple of it.
var slowerBaseline = Mechanism{Name: "a slower baseline", Factor: 1.25, Predict: func(x *Check) (Prediction, bool) {
	b, err1 := baseline(x.Run, model.Managed)
	pb, err2 := baseline(x.Ref, model.Managed)
	pe, err3 := extra(x.Ref, model.Managed)
	if err1 != nil || err2 != nil || err3 != nil || b.v < 1.5*pb.v {
		return Prediction{}, false
	}
	v := pe.v / b.v
	return Prediction{v, v, fmt.Sprintf("the CPU update alone takes longer here: the baseline is %s%s against %s on %s, and %s's extra of %s over it is %s×",
		b, cpuThreads(x.Run), pb, x.Ref.Meta.Platform, x.Ref.Meta.Platform, pe, num(v))}, true
}}

// slowerF: the same difference of fixed costs as Table III's over a larger
// explicit-copy F.
var slowerF = Mechanism{Name: "a slower CPU update", Factor: 1.25, Predict: func(x *Check) (Prediction, bool) {
	ps, err1 := params(x.Run, model.ExplicitCopy)
	t, err2 := tableIII(x.Ref, model.ExplicitCopy, model.Managed)
	if err1 != nil || err2 != nil || ps[0].F < 1.5*t[0].F {
		return Prediction{}, false
	}
	v := 1 + (t[1].F-t[0].F)/ps[0].F
	return Prediction{v, v, fmt.Sprintf("explicit copy's F, mostly the CPU update%s, is %s ms here against %s in Table III; Table III's difference of %s ms over it is %s×",
		cpuThreads(x.Run), num(ps[0].F), num(t[0].F), num(t[1].F-t[0].F), num(v))}, true
}}

// cpuVariation: with each trial's measured CPU time taken out the figure
// agrees with the paper's, so the difference is the CPU update's variation.
var cpuVariation = Mechanism{Name: "the CPU update's variation", Factor: 1.25, Predict: func(x *Check) (Prediction, bool) {
	x.Run.altOnce.Do(func() { x.Run.alt = x.Run.withoutCPU() })
	alt := x.Run.alt
	if alt == nil || x.Run.Meta.Kind == "published" {
		return Prediction{}, false
	}
	q, err := x.Claim.Measure(alt, nil)
	if err != nil || !x.Claim.Relation.Band(x.Paper.Value).holds(q.Value, q.Value) {
		return Prediction{}, false
	}
	v := x.Paper.Value + x.Measured.Value - q.Value
	return Prediction{v, v, fmt.Sprintf("the CPU update%s takes different times in configurations doing the same work; with each trial's measured CPU time taken out (umbench model --without-cpu) the figure is %s (%s), within the paper's tolerance, and the CPU update adds %s",
		cpuThreads(x.Run), q, q.Text, formatValue(x.Measured.Value-q.Value, q.Unit))}, true
}}

// withoutCPU is the run without the alternating trials' CPU update
// (model.WithoutCPU), fitted without intervals; nil without handoff rows.
func (run *Run) withoutCPU() *Run {
	rows := model.HandoffPhases(run.Rows)
	if len(rows) == 0 {
		return nil
	}
	alt, err := NewRun(run.Name+" without CPU time", model.WithoutCPU(rows), run.Meta)
	if err != nil {
		return nil
	}
	alt.noCI = true
	return alt
}

// Shapes of the shared pool's prediction.
const (
	poolUnity    = iota // prefetched over cold: 1
	poolFraction        // cold over explicit: as prefetched over explicit, %
	poolValue           // cold: as prefetched
)

// integratedPool: where CPU and GPU share one memory pool, CPU-initialised
// pages need no migration, so first touch runs like the resident states.
func integratedPool(shape int) Mechanism {
	return Mechanism{Name: "the shared memory pool", Factor: 1.25, Predict: func(x *Check) (Prediction, bool) {
		if x.Run.Facts.Link != LinkIntegrated {
			return Prediction{}, false
		}
		p, err1 := get(x.Run, stream(results.ModeManagedPrefetch, 256*mib))
		e, err2 := get(x.Run, stream(results.ModeExplicit, 256*mib))
		if err1 != nil || err2 != nil {
			return Prediction{}, false
		}
		text := fmt.Sprintf("CPU and GPU share one memory pool here (%s, meta.json): CPU-initialised pages need no migration, so first touch runs like prefetched memory (%s)", x.Run.Facts.LinkText, p)
		v := [...]float64{poolUnity: 1, poolFraction: 100 * p.v / e.v, poolValue: p.v}[shape]
		return Prediction{v, v, text}, true
	}}
}

// separatePool: where the GPU has its own memory, first touch runs at most
// at the bulk prefetch rate: the direction only.
var separatePool = Mechanism{Name: "migration to the GPU's own memory", Predict: func(x *Check) (Prediction, bool) {
	f := x.Run.Facts
	p, err1 := get(x.Run, prefetchDir(results.DirectionH2D))
	e, err2 := get(x.Run, stream(results.ModeExplicit, 256*mib))
	if f.Link != LinkPCIe && f.Link != LinkC2C || err1 != nil || err2 != nil {
		return Prediction{}, false
	}
	return Prediction{inf(-1), 100 * p.v / e.v, fmt.Sprintf("this GPU has its own memory, reached from CPU memory over %s, so CPU-initialised pages must migrate, at most at the bulk prefetch rate (%s) against explicit's %s", f.LinkText, p, e)}, true
}}

// streamTraffic: umlab's streaming kernel moves the copy kernel's traffic,
// so it runs at the copy figure; the paper's exceeds its own copy and
// triad, which no kernel moving that traffic can.
var streamTraffic = Mechanism{Name: "the kernels' traffic", Factor: 1.1, Predict: func(x *Check) (Prediction, bool) {
	if x.Run.Meta.Kind == "published" {
		return Prediction{}, false
	}
	f, err1 := gets(x.Run, hbmCopy(256*mib), triad(gib))
	pf, err2 := gets(x.Ref, stream(results.ModeExplicit, 256*mib), hbmCopy(gib), triad(gib))
	if err1 != nil || err2 != nil || pf[0].v <= pf[1].v || pf[0].v <= pf[2].v {
		return Prediction{}, false
	}
	c, t, ps, pc, pt := f[0], f[1], pf[0], pf[1], pf[2]
	v := c.v / t.v
	return Prediction{v, v, fmt.Sprintf("umlab's streaming kernel reads and writes one array in place, the copy kernel's traffic, so it runs at this run's copy figure (%s at 256 MiB; triad %s); the paper's streaming figure (%s) exceeds its own copy (%s) and triad (%s), which no kernel moving that traffic can, so its kernel counts differently",
		c, t, ps, pc, pt)}, true
}}

// launchFloor: a kernel touching a few elements takes the run's shortest
// kernel time, so its useful bandwidth stops falling with sparser touches.
var launchFloor = Mechanism{Name: "the launch floor", Factor: 1.25, Predict: func(x *Check) (Prediction, bool) {
	run := x.Run
	var k2 string
	for _, s := range pageTouch(results.ModeManagedReuse, 2*mib) {
		if _, _, ok := run.find(s); ok {
			k2 = s.key(s.size)
			break
		}
	}
	dense, err := get(run, pageTouch(results.ModeManagedReuse, 4*kib)...)
	floor, at := math.Inf(1), ""
	for k, v := range run.sum {
		if v.kernel > 0 && v.kernel < floor {
			floor, at = v.kernel, k
		}
	}
	if k2 == "" || err != nil || run.cfg[k2].UsefulBytes <= 0 || run.sum[k2].kernel > 1.5*floor {
		return Prediction{}, false
	}
	useful := float64(run.cfg[k2].UsefulBytes)
	v := dense.v / (useful / floor / 1e6)
	c := run.cfg[at]
	return Prediction{v, v, fmt.Sprintf("at 2 MiB the kernel touches %s of useful bytes in %s µs, within 1.5× of this run's shortest kernel (%s µs, %s %s at %s), a fixed per-launch cost: at that floor the fall from 4 KiB (%s) is %s×",
		bytesText(int64(useful)), num(1000*run.sum[k2].kernel), num(1000*floor), c.Group, strings.Trim(c.Benchmark+" "+c.Mode, " "), bytesText(c.SizeBytes), dense, num(v))}, true
}}

// denseRandom: umlab's dense random benchmark uses every migrated page
// fully, so the ratio of two states is the streaming kernel's.
func denseRandom(numMode, denMode string) Mechanism {
	return Mechanism{Name: "a dense random benchmark", Factor: 2, Predict: func(x *Check) (Prediction, bool) {
		c, ok := x.Run.cfg[random(results.ModeExplicit).key(256*mib)]
		if strings.Contains(x.Measured.Text, "sparse random") || !ok || c.ActiveElements <= 0 || c.ActiveElements*8 < c.SizeBytes {
			return Prediction{}, false
		}
		q, err := ratio(stream(numMode, 256*mib), stream(denMode, 256*mib), x.Measured.Unit)(x.Run, nil)
		if err != nil {
			return Prediction{}, false
		}
		return Prediction{q.Value, q.Value, fmt.Sprintf("this run's random benchmark is dense: it touches all %d elements of the %s array through a shuffled index, so every migrated page is fully used, as the streaming kernel's are (%s, %s)",
			c.ActiveElements, bytesText(c.SizeBytes), q, q.Text)}, true
	}}
}
