package claims

import (
	"fmt"
	"math"
	"strings"

	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// The reasons below explain differences from a run's device facts and its
// own data. Each returns "" when its explanation does not apply, so that an
// unexplained difference stays "differs, unexplained".

// coldRate: cold first touch is bounded by fault servicing, not the link.
func coldRate(x *Check) string {
	run := x.Run
	if run.Meta.Platform == x.Ref.Meta.Platform || run.Facts.Link == LinkIntegrated {
		return ""
	}
	s, at, ok := run.find(stream(results.ModeManagedCold, 256*mib))
	if !ok || math.IsNaN(s.kernel) || s.kernel <= 0 {
		return ""
	}
	migrated := float64(at)
	src := "one migration of the array, as a cold kernel makes"
	if c, ok := run.counter(results.GroupManaged, results.BenchStream, results.ModeManagedCold, at, 0, 0); ok && c.HtoDBytes > 0 {
		migrated = c.HtoDBytes
		src = "counted in the counter pass"
	}
	rate := migrated / s.kernel / 1e6
	out := fmt.Sprintf("cold first touch is bounded by the driver's fault servicing, not by the link: the cold %s kernel moves %s host→device (%s) in %s ms, %s GB/s",
		bytesText(at), bytesText(int64(migrated)), src, num(s.kernel), num(rate))
	if p, err := get(run, prefetchDir(results.DirectionH2D)); err == nil {
		out += fmt.Sprintf(", %s %% of this machine's own prefetch rate (%s)", num(100*rate/p.v), p)
	}
	if pp, err := get(x.Ref, prefetchDir(results.DirectionH2D)); err == nil {
		if c, err := get(x.Ref, stream(results.ModeManagedCold, 256*mib)); err == nil {
			out += fmt.Sprintf("; on %s the cold kernel's %s is at most %s %% of its %s prefetch rate", x.Ref.Meta.Platform, c, num(100*c.v/pp.v), pp)
		}
	}
	return out + "; faults are serviced by the host CPU and driver (x86 and 4 KiB pages here, Grace in the paper), and the paper's figure is not decomposed, so which of them makes faults slower there is not isolated"
}

// preferredCPU: on a PCIe device preferred-CPU pages are accessed remotely.
func preferredCPU(x *Check) string {
	run := x.Run
	pc, err1 := get(run, stream(results.ModeAdvisePreferredCPU, 256*mib))
	ab, err2 := get(run, stream(results.ModeAdviseAccessedBy, 256*mib))
	if err1 != nil || err2 != nil || run.Facts.Link == LinkC2C {
		return ""
	}
	if math.Abs(pc.v/ab.v-1) > 0.25 {
		return ""
	}
	out := fmt.Sprintf("on this device (%s) preferred-CPU pages stay in CPU memory and the kernel reads and writes them remotely: %s, as fast as accessed-by (%s)",
		run.Facts.LinkText, pc, ab)
	if h, err := get(run, hostTriad(256*mib)); err == nil {
		out += fmt.Sprintf(" and the host-mapped triad (%s)", h)
	}
	for _, c := range run.Counters {
		if c.Config.Group == results.GroupManaged && c.Config.Mode == results.ModeAdvisePreferredCPU && c.Config.Benchmark == results.BenchStream && c.Config.SizeBytes >= 64*mib {
			out += fmt.Sprintf("; the counter pass at %s counts %s bytes migrated and %s GPU page faults, with %s MB crossing PCIe",
				bytesText(c.Config.SizeBytes), num(c.HtoDBytes+c.DtoHBytes), num(c.GPUPageFaults), num((c.PCIeTXBytes+c.PCIeRXBytes)/1e6))
			break
		}
	}
	if h, err := get(x.Ref, hostTriad(gib)); err == nil {
		out += fmt.Sprintf(". The paper's %s figure (%s, below cold) is far below its own remote-access rate (host-mapped %s), so there the hint led to a slower path than remote access, which the paper does not analyse", x.Ref.Meta.Platform, x.Paper.Text, h)
	}
	return out
}

// denseRandom: our random benchmark touches every element.
func denseRandom(x *Check) string {
	if strings.Contains(x.Measured.Text, "sparse random") {
		return ""
	}
	for _, r := range x.Run.Rows {
		if r.Group == results.GroupPattern && r.Benchmark == results.BenchRandom && r.Mode == results.ModeExplicit && r.SizeBytes > 0 && r.ActiveElements > 0 {
			if r.ActiveElements*8 < r.SizeBytes {
				return ""
			}
			out := fmt.Sprintf("this run's random benchmark is dense: it touches all %d elements of the %s array through a shuffled index, so every migrated page is fully used, while the paper's is \"sparse random\" (the paper does not say how sparse); sparse access is what makes cold pages expensive (see VI-B.cold-stride-collapse)",
				r.ActiveElements, bytesText(r.SizeBytes))
			for _, c := range x.Run.Counters {
				if c.Config.Group == results.GroupPattern && c.Config.Benchmark == results.BenchRandom && c.Config.Mode == results.ModeManagedCold && c.Config.UsefulBytes > 0 {
					out += fmt.Sprintf("; the counter pass at %s migrates %s for %s of useful bytes (%s per useful byte, as a streaming kernel)",
						bytesText(c.Config.SizeBytes), bytesText(int64(c.HtoDBytes)), bytesText(c.Config.UsefulBytes), num(c.HtoDBytes/float64(c.Config.UsefulBytes)))
					break
				}
			}
			return out + "; umbench run --bench pattern.sparse_random measures the sparse variant"
		}
	}
	return ""
}

// slowCPU: the handoff's fixed costs scale with a slower CPU update.
func slowCPU(x *Check) string {
	lo, hi, ok := cpuSpread(x.Run)
	if !ok {
		return ""
	}
	b, err := baseline(x.Ref, model.Managed)
	if err != nil || lo < 1.5*b.v {
		return ""
	}
	return fmt.Sprintf("the CPU update alone takes %s–%s ms per 1 GiB exchange here (one host thread) against a %s CPU-only plus GPU-only baseline on %s, so every fixed cost is diluted by a larger CPU term",
		num(lo), num(hi), b, x.Ref.Meta.Platform)
}

// returnLeg: managed prefetch moves the array both ways in every
// iteration, so its extra cost is bounded below by two prefetches at the
// machine's own prefetch rates; a slow GPU→CPU prefetch leaves little for
// prefetching to save over demand paging.
func returnLeg(x *Check) string {
	run := x.Run
	e, at, ok := extraAt(run, model.ManagedPrefetch)
	if !ok {
		return ""
	}
	size := float64(at)
	move := func(r *Run) (h2d, d2h fig, ms float64, ok bool) {
		var err1, err2 error
		h2d, err1 = get(r, prefetchDir(results.DirectionH2D))
		d2h, err2 = get(r, prefetchDir(results.DirectionD2H))
		if err1 != nil || err2 != nil {
			return h2d, d2h, 0, false
		}
		return h2d, d2h, size/h2d.v/1e6 + size/d2h.v/1e6, true
	}
	h2d, d2h, ms, ok := move(run)
	if !ok {
		return ""
	}
	out := "managed prefetch moves the whole array to the GPU and back in every iteration"
	for _, c := range run.Counters {
		if c.Config.Group == results.GroupHandoff && c.Config.Policy == model.ManagedPrefetch && c.Config.Phase == results.PhaseAlternating && c.HtoDBytes > 0 {
			out += fmt.Sprintf(" (counted at %s, R = %d: %s host→device and %s device→host per iteration, %s CPU and %s GPU page faults",
				bytesText(c.Config.SizeBytes), c.Config.ReusePasses, bytesText(int64(c.HtoDBytes)), bytesText(int64(c.DtoHBytes)), num(c.CPUPageFaults), num(c.GPUPageFaults))
			for _, m := range run.Counters {
				if m.Config.Group == results.GroupHandoff && m.Config.Policy == model.Managed && m.Config.Phase == results.PhaseAlternating && m.Config.SizeBytes == c.Config.SizeBytes && m.Config.ReusePasses == c.Config.ReusePasses {
					out += fmt.Sprintf("; managed moves the same through %s CPU page faults and %s GPU page faults", num(m.CPUPageFaults), num(m.GPUPageFaults))
					break
				}
			}
			out += ")"
			break
		}
	}
	out += fmt.Sprintf(", so its extra cost is at least two prefetches at this machine's rates: %s at %s CPU→GPU plus %s GPU→CPU = %s ms, %s %% of its %s extra",
		bytesText(int64(size)), h2d, d2h, num(ms), num(100*ms/e.v), e)
	if rh, rd, rms, ok := move(x.Ref); ok {
		if re, err := extra(x.Ref, model.ManagedPrefetch); err == nil {
			out += fmt.Sprintf("; on %s the same two prefetches at %s and %s take %s ms, %s %% of its %s extra",
				x.Ref.Meta.Platform, rh, rd, num(rms), num(100*rms/re.v), re)
		}
		out += fmt.Sprintf(". The GPU→CPU prefetch runs at %s %% of the CPU→GPU rate here (%s %% on %s)", num(100*d2h.v/h2d.v), num(100*rd.v/rh.v), x.Ref.Meta.Platform)
		m, err1 := extra(run, model.Managed)
		rm, err2 := extra(x.Ref, model.Managed)
		if err1 == nil && err2 == nil {
			out += fmt.Sprintf(", so the transfers, which prefetching cannot avoid, are %s %% of demand paging's extra cost here (%s ms of %s) against %s %% on %s (%s ms of %s): prefetch can save only what the faults cost beyond them",
				num(100*ms/m.v), num(ms), m, num(100*rms/rm.v), x.Ref.Meta.Platform, num(rms), rm)
		}
	}
	return out
}

// extraAt is a policy's extra cost of alternating execution at R = 1 and
// the size it was found at (1 GiB, or the nearest measured); false when
// there is none or it is not positive.
func extraAt(run *Run, policy string) (fig, int64, bool) {
	e, err := extra(run, policy)
	if err != nil || e.v <= 0 {
		return fig{}, 0, false
	}
	if e.at != 0 {
		return e, e.at, true
	}
	return e, gib, true
}

// explicitLoop is what a run measured of explicit copy's extra cost at
// R = 1: the extra, the size it was found at, and the alternating trials'
// own copy times (transfer_ms) and CPU updates (cpu_ms), empty in runs
// that did not record them.
func explicitLoop(run *Run) (e fig, size int64, copies, cpu []float64, err error) {
	if e, err = extra(run, model.ExplicitCopy); err != nil {
		return e, 0, nil, nil, err
	}
	size = e.at
	if size == 0 {
		size = gib
	}
	for _, r := range run.Rows {
		if r.Group == results.GroupHandoff && r.Policy == model.ExplicitCopy && r.Phase == results.PhaseAlternating && r.ReusePasses == 1 && r.SizeBytes == size {
			if !math.IsNaN(r.TransferMs) {
				copies = append(copies, r.TransferMs)
			}
			if !math.IsNaN(r.CPUMs) {
				cpu = append(cpu, r.CPUMs)
			}
		}
	}
	return e, size, copies, cpu, nil
}

// copiesExceedExtra (the Unresolved of explicit copy's extra cost): the
// extra over the CPU-only plus GPU-only baseline contains the two copies,
// so an extra smaller than the copies the loop measured itself cannot
// measure the handoff's cost; the rest of the loop took less than the
// baseline's phases alone. The reason compares the CPU update inside the
// loop with the same update alone, at the same size, and names the CPU
// update's variation only where the update was faster inside the loop.
func copiesExceedExtra(x *Check) string {
	e, size, copies, cpu, err := explicitLoop(x.Run)
	if err != nil || len(copies) == 0 {
		return ""
	}
	ms := results.Describe(copies).Median
	if e.v >= ms {
		return ""
	}
	out := fmt.Sprintf("explicit copy moves the whole array to the GPU and back in every iteration, and the two copies of %s take %s ms in the loop (transfer_ms, the median at R = 1), more than the whole extra (%s), so the rest of the loop took less time than the baseline's phases alone",
		bytesText(size), num(ms), e)
	alone := handoff(model.ExplicitCopy, results.PhaseCPUOnly, 0)
	alone.size, alone.near = size, false // the CPU update alone at the extra's size
	if by, err := get(x.Run, alone); err == nil && len(cpu) > 0 {
		in := results.Describe(cpu).Median
		out += fmt.Sprintf(": the CPU update's median is %s ms inside the loop (cpu_ms) against %s alone", num(in), by)
		if in < by.v {
			out += ", within the CPU update's variation"
		}
	}
	return out + "; this extra does not measure the handoff's cost"
}

// copyLeg: explicit copy moves the whole array to the GPU and back in
// every iteration, so its extra cost over the CPU-only plus GPU-only
// baseline is at least the two copies; over a PCIe link they are most of
// it. The copies are the loop's own (transfer_ms) where the run recorded
// them, else estimated from the run's pinned copy rates; an estimate above
// the extra is said to be one. Empty when the copies are less than half the
// extra, or when the loop's own copies exceed it (copiesExceedExtra).
func copyLeg(x *Check) string {
	run := x.Run
	e, size, copies, _, err := explicitLoop(run)
	if err != nil || e.v <= 0 {
		return ""
	}
	var ms float64
	var how string
	if len(copies) > 0 {
		ms, how = results.Describe(copies).Median, "in the loop (transfer_ms, the median at R = 1)"
		if ms > e.v {
			return ""
		}
	} else {
		h2d, err1 := get(run, copyDir(results.DirectionH2D))
		d2h, err2 := get(run, copyDir(results.DirectionD2H))
		if err1 != nil || err2 != nil {
			return ""
		}
		ms = float64(size)/h2d.v/1e6 + float64(size)/d2h.v/1e6
		how = fmt.Sprintf("at this machine's pinned copy rates (%s to the GPU, %s back)", h2d, d2h)
	}
	if ms < 0.5*e.v {
		return ""
	}
	var out string
	if ms > e.v {
		out = fmt.Sprintf("explicit copy moves the whole array to the GPU and back in every iteration: the two copies of %s would take an estimated %s ms %s, more than the whole %s extra; the loop's own copies were not recorded in this run (no transfer_ms)",
			bytesText(size), num(ms), how, e)
	} else {
		out = fmt.Sprintf("explicit copy moves the whole array to the GPU and back in every iteration: the two copies of %s take %s ms %s, %s %% of its %s extra",
			bytesText(size), num(ms), how, num(100*ms/e.v), e)
	}
	if l := link(x); l != "" {
		out += "; " + l
	}
	return out
}

// hostVsExplicit: explicit and host-mapped fixed costs within the CPU
// update's variation, or a host link that makes every pass dear.
func hostVsExplicit(x *Check) string {
	ps, err := params(x.Run, model.ExplicitCopy, model.HostMapped)
	if err != nil {
		return ""
	}
	e, h := ps[0], ps[1]
	var parts []string
	if lo, hi, ok := cpuSpread(x.Run); ok && math.Abs(e.F-h.F) < hi-lo {
		parts = append(parts, fmt.Sprintf("the fixed costs of explicit copy (F = %s ms) and host-mapped (F = %s ms) differ by %s ms, less than the spread of the CPU-only update between policies on this machine (%s–%s ms), so which of them wins at one pass is decided by the CPU update's variation, not by placement",
			num(e.F), num(h.F), num(math.Abs(e.F-h.F)), num(lo), num(hi)))
	}
	if rep, err := x.Run.fit(); err == nil {
		// Other sizes: a crossover only where the model states one (inside
		// the measured R range, beyond noise) in the paper's direction
		// (host-mapped faster below R*); lines that meet below the first
		// pass mean explicit copy wins at every measured R there.
		var crosses, below []string
		for _, c := range rep.Crossovers {
			if c.SizeBytes == e.SizeBytes || c.A != model.ExplicitCopy || c.B != model.HostMapped || c.SizeBytes < 16*mib {
				continue
			}
			at := fmt.Sprintf("R* = %s at %s", num(c.R), bytesText(c.SizeBytes))
			switch {
			case c.Stated && c.Below == model.HostMapped:
				crosses = append(crosses, at)
			case c.Kind == model.Crosses && c.R < float64(rep.RMin) && c.Throughout == model.ExplicitCopy:
				below = append(below, at)
			}
		}
		if len(crosses) > 0 {
			parts = append(parts, "at smaller working sets the crossover does appear within the measured reuse counts ("+strings.Join(crosses, ", ")+")")
		}
		if len(below) > 0 {
			also := ""
			if e.G != h.G && crossHostExplicit(e.F, h.F, e.G, h.G) < float64(rep.RMin) {
				also = " as well"
			}
			parts = append(parts, fmt.Sprintf("at smaller working sets the lines meet below R = %d%s (%s), so explicit copy is faster at every measured R there", rep.RMin, also, strings.Join(below, ", ")))
		}
	}
	if h.G > 0 && e.G > 0 && x.Run.Facts.Link == LinkPCIe {
		parts = append(parts, fmt.Sprintf("each host-mapped pass costs %s ms over %s, %s× explicit's %s ms (12× in Table III), so explicit placement pays off from the first extra pass",
			num(h.G), x.Run.Facts.LinkText, num(h.G/e.G), num(e.G)))
	}
	return strings.Join(parts, "; ")
}

// cpuNoise: the model's errors come from the CPU update's variation; the
// same check with each trial's measured CPU time taken out says so.
func cpuNoise(x *Check) string {
	rows := handoffRows(x.Run.Rows)
	if len(rows) == 0 || x.Run.Meta.Kind == "published" {
		return ""
	}
	alt, err := NewRun(x.Run.Name+" without CPU time", model.WithoutCPU(rows), x.Run.Meta)
	if err != nil {
		return ""
	}
	q, err := x.Claim.Measure(alt, nil)
	if err != nil || math.IsNaN(q.Value) || q.Value >= 0.6*x.Measured.Value {
		return ""
	}
	return fmt.Sprintf("the single-thread CPU update varies from trial to trial on this machine: with each trial's measured CPU time taken out (umbench model --without-cpu) the same figure is %s (%s)", q, q.Text)
}

// cpuUpdateSpread is the spread of the median CPU-update time over the
// phases whose update does the same work and migrates nothing: CPU-only of
// every policy, and the update inside alternating execution of explicit
// copy and host-mapped at every R.
func cpuUpdateSpread(run *Run) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range run.sum {
		c := v.cfg
		if c.Group != results.GroupHandoff || c.SizeBytes != gib {
			continue
		}
		x := math.NaN()
		switch {
		case c.Phase == results.PhaseCPUOnly:
			x = v.total
		case c.Phase == results.PhaseAlternating && (c.Policy == model.ExplicitCopy || c.Policy == model.HostMapped):
			x = v.cpu
		}
		if !math.IsNaN(x) {
			lo, hi, ok = math.Min(lo, x), math.Max(hi, x), true
		}
	}
	return lo, hi, ok
}

// modelNoise: the worst validation error is smaller than the CPU update's
// own variation on this machine.
func modelNoise(policies ...string) func(x *Check) string {
	return func(x *Check) string {
		if x.Run.Meta.Kind == "published" {
			return ""
		}
		rep, err := x.Run.fit()
		if err != nil {
			return ""
		}
		var worst model.Point
		for _, p := range rep.Points {
			if p.SizeBytes == gib && contains(policies, p.Policy) && p.APE > worst.APE {
				worst = p
			}
		}
		lo, hi, ok := cpuUpdateSpread(x.Run)
		diff := math.Abs(worst.PredictedMs - worst.MeasuredMs)
		if worst.Policy == "" {
			return ""
		}
		if !ok || diff > hi-lo {
			return movementNoise(x.Run, rep, worst)
		}
		out := fmt.Sprintf("the worst point (%s, R = %d: %s ms measured, %s predicted) misses by %s ms, less than the spread of the CPU update itself on this machine (%s–%s ms over the CPU-only phases and the explicit and host-mapped updates at every R, the same work each time)",
			worst.Policy, worst.R, num(worst.MeasuredMs), num(worst.PredictedMs), num(diff), num(lo), num(hi))
		var plain []string
		for _, p := range policies {
			if p == model.ExplicitCopy || p == model.HostMapped {
				plain = append(plain, p)
			}
		}
		if len(plain) > 0 {
			if alt, err := NewRun(x.Run.Name+" without CPU time", model.WithoutCPU(handoffRows(x.Run.Rows)), x.Run.Meta); err == nil {
				if q, err := maxAPE(plain...)(alt, nil); err == nil {
					out += fmt.Sprintf("; with each trial's CPU time taken out (umbench model --without-cpu) %s fit within %s", strings.Join(plain, " and "), q)
				}
			}
		}
		if contains(policies, model.Managed) || contains(policies, model.ManagedPrefetch) {
			out += "; the managed policies' CPU-side phase also moves the pages back (see VII-B.prefetch-removes-extra), so their CPU time cannot be taken out"
		}
		return out
	}
}

// impliedF is a policy's fixed cost as each alternating configuration
// implies it, T(R) − R·G, at one size: its spread over R is what a
// constant F cannot follow.
func impliedF(run *Run, rep *model.Report, policy string, size int64) (lo, hi float64, n int) {
	var g float64
	found := false
	for _, c := range rep.Calibration {
		if c.Policy == policy && c.SizeBytes == size {
			g, found = c.G, true
		}
	}
	if !found {
		return 0, 0, 0
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range run.sum {
		c := v.cfg
		if c.Group == results.GroupHandoff && c.Phase == results.PhaseAlternating && c.Policy == policy && c.SizeBytes == size && !math.IsNaN(v.total) {
			f := v.total - float64(c.ReusePasses)*g
			lo, hi, n = math.Min(lo, f), math.Max(hi, f), n+1
		}
	}
	return lo, hi, n
}

// movementNoise: a managed policy's fixed cost varies from one R to the
// next far more than explicit copy's, which does the same CPU work; the
// difference is the pages' movement, which a constant F cannot follow.
func movementNoise(run *Run, rep *model.Report, worst model.Point) string {
	if worst.Policy != model.Managed && worst.Policy != model.ManagedPrefetch {
		return ""
	}
	lo, hi, n := impliedF(run, rep, worst.Policy, worst.SizeBytes)
	elo, ehi, en := impliedF(run, rep, model.ExplicitCopy, worst.SizeBytes)
	if n < 3 || en < 3 || hi-lo < 3*(ehi-elo) {
		return ""
	}
	return fmt.Sprintf("the worst point (%s, R = %d: %s ms measured, %s predicted) lies within the spread of %s's own fixed cost: T(R) − R·G ranges over %s–%s ms across R at %s (%s ms), against %s ms for explicit copy, which does the same CPU work; the difference is the pages' movement in both directions every iteration (see VII-B.prefetch-removes-extra), which varies from one configuration to the next and which a constant F cannot follow",
		worst.Policy, worst.R, num(worst.MeasuredMs), num(worst.PredictedMs), worst.Policy, num(lo), num(hi), bytesText(worst.SizeBytes), num(hi-lo), num(ehi-elo))
}

// fastestMiss: the model's misses are explained by the CPU update's
// variation, or lie between policies whose measured times are close.
func fastestMiss(x *Check) string {
	if s := cpuNoise(x); s != "" {
		return s
	}
	rep, err := x.Run.fit()
	if err != nil {
		return ""
	}
	meas := map[string]float64{}
	for _, p := range rep.Points {
		meas[fmt.Sprintf("%s|%d|%d", p.Policy, p.SizeBytes, p.R)] = p.MeasuredMs
	}
	var parts []string
	for _, f := range rep.Fastest {
		if !f.Included || f.Match {
			continue
		}
		a := meas[fmt.Sprintf("%s|%d|%d", f.Predicted, f.SizeBytes, f.R)]
		b := meas[fmt.Sprintf("%s|%d|%d", f.Measured, f.SizeBytes, f.R)]
		if a == 0 || b == 0 || math.Abs(a/b-1) > 0.05 {
			return ""
		}
		parts = append(parts, fmt.Sprintf("%s R = %d: predicted %s (%s ms), measured %s (%s ms)", bytesText(f.SizeBytes), f.R, f.Predicted, num(a), f.Measured, num(b)))
	}
	if len(parts) == 0 {
		return ""
	}
	return "every miss is between policies whose measured times lie within 5 % of each other: " + strings.Join(parts, "; ")
}
