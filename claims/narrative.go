package claims

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// This file holds what the notebooks and the report say in words: every
// figure, ordering and trend in these sentences is computed from the run
// they describe, so they are true on any machine.

// Open loads a run from a source name as the notebook layer writes it:
// datasets or results directories joined with " + ".
func Open(source string) (*Run, error) {
	var names []string
	for _, n := range strings.Split(source, " + ") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return Load(names...)
}

// CheckIDs checks the claims with the given ids on a run; a nil run checks
// them on the paper's GB200 dataset.
func CheckIDs(run *Run, ids ...string) ([]Check, error) {
	var cs []*Claim
	for _, id := range ids {
		c := ByID(id)
		if c == nil {
			return nil, fmt.Errorf("claims: no claim %q", id)
		}
		cs = append(cs, c)
	}
	return checkOn(run, cs)
}

func checkOn(run *Run, cs []*Claim) ([]Check, error) {
	if run == nil {
		var err error
		if run, err = reference(GB200); err != nil {
			return nil, err
		}
	}
	return EvaluateClaims(cs, run, Options{})
}

// Says returns the checks as Markdown bullets, one Sentence each.
func Says(xs []Check) string {
	var b strings.Builder
	for _, x := range xs {
		b.WriteString("- " + x.Sentence() + "\n")
	}
	return b.String()
}

// Describe says which machine a run is, for sentences: the device and its link.
func (run *Run) Describe() string {
	f := run.Facts
	d := f.Device
	if d == "" {
		d = run.Meta.Platform
	}
	if f.Link != LinkUnknown {
		return d + ", " + f.LinkText
	}
	return d
}

// PctBasis says what a run's oversubscription percentages are of.
func (run *Run) PctBasis() string {
	f := run.Facts
	switch {
	case f.Published:
		return "% of CUDA-visible memory (the paper's definition)"
	case f.OversubCapacityBytes > 0:
		return "% of a free capacity shrunk to " + bytesText(f.OversubCapacityBytes) + " by a plain device allocation"
	}
	return "% of the free device memory at the start of the sweep"
}

// point is one (label, value) of a series.
type point struct {
	label string
	v     float64
}

// trend describes a series in words. A series whose largest value is within
// 10 % of its smallest "stays within" their range. Otherwise it rises or
// falls from its first point to where it levels off (the longest tail whose
// largest value is within 10 % of its smallest), or to its last point when it
// does not; where that point is itself within 10 % of the first, the series
// only "varies within" its range, and the sentence gives every point.
func trend(what string, pts []point, unit string) string {
	if len(pts) == 0 {
		return ""
	}
	if len(pts) == 1 {
		return fmt.Sprintf("%s is %s at %s", what, formatValue(pts[0].v, unit), pts[0].label)
	}
	first, last := pts[0], pts[len(pts)-1]
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		lo, hi = math.Min(lo, p.v), math.Max(hi, p.v)
	}
	if hi <= lo*1.10 {
		return fmt.Sprintf("%s stays within %s from %s to %s", what, rangeText(lo, hi, unit), first.label, last.label)
	}
	// The plateau: the longest tail whose largest value is within 10 % of
	// its smallest.
	k := len(pts) - 1
	for k > 0 {
		tail := pts[k-1:]
		tlo, thi := math.Inf(1), math.Inf(-1)
		for _, p := range tail {
			tlo, thi = math.Min(tlo, p.v), math.Max(thi, p.v)
		}
		if thi > tlo*1.10 {
			break
		}
		k--
	}
	if k > 0 && math.Max(first.v, pts[k].v) <= 1.10*math.Min(first.v, pts[k].v) {
		// The plateau's start (or, without a plateau, the last point) is
		// within the same tolerance of the first point: no rise or fall
		// to speak of, only variation.
		return fmt.Sprintf("%s varies within %s from %s to %s (%s)", what, rangeText(lo, hi, unit), first.label, last.label, seriesText(pts, unit))
	}
	verb := "rises"
	if pts[k].v < first.v {
		verb = "falls"
	}
	if k == len(pts)-1 {
		// No plateau: say the ends and whether it is monotonic.
		mono := true
		for i := 1; i < len(pts); i++ {
			if reverses(pts[i-1].v, pts[i].v, last.v-first.v) {
				mono = false
			}
		}
		s := fmt.Sprintf("%s %s from %s at %s to %s at %s", what, verb, formatValue(first.v, unit), first.label, formatValue(last.v, unit), last.label)
		if !mono {
			s += " (not monotonically: " + seriesText(pts, unit) + ")"
		}
		return s
	}
	tlo, thi := math.Inf(1), math.Inf(-1)
	for _, p := range pts[k:] {
		tlo, thi = math.Min(tlo, p.v), math.Max(thi, p.v)
	}
	if k == 0 {
		return fmt.Sprintf("%s stays within %s from %s to %s", what, rangeText(tlo, thi, unit), first.label, last.label)
	}
	s := fmt.Sprintf("%s %s from %s at %s to %s at %s, then stays within %s up to %s",
		what, verb, formatValue(first.v, unit), first.label, formatValue(pts[k].v, unit), pts[k].label, rangeText(tlo, thi, unit), last.label)
	for i := 1; i <= k; i++ {
		if reverses(pts[i-1].v, pts[i].v, pts[k].v-first.v) {
			return s + " (not monotonically: " + seriesText(pts, unit) + ")"
		}
	}
	return s
}

// reverses reports a step from a to b against the overall direction dir by
// more than 5 % (smaller wiggles are trial noise, not a trend).
func reverses(a, b, dir float64) bool {
	return (b-a)*dir < 0 && math.Abs(b/a-1) > 0.05
}

// rangeText writes lo–hi with the unit, or one value when they agree.
func rangeText(lo, hi float64, unit string) string {
	if num(lo) == num(hi) {
		return "about " + formatValue(hi, unit)
	}
	return num(lo) + "–" + formatValue(hi, unit)
}

func seriesText(pts []point, unit string) string {
	var parts []string
	for _, p := range pts {
		parts = append(parts, fmt.Sprintf("%s at %s", num(p.v), p.label))
	}
	return strings.TrimSpace(strings.Join(parts, ", ") + " " + unit)
}

// SizeTrend describes how a streaming configuration's bandwidth changes
// with size on a run, e.g. SizeTrend("managed", "stream", "managed_cold").
func (run *Run) SizeTrend(group, bench, mode string) string {
	s := sel{group: group, bench: bench, mode: mode, pct: noPct}
	var pts []point
	for _, size := range run.sizes(s) {
		s.size = size
		if v, _, ok := run.find(s); ok && !math.IsNaN(v.gbps) {
			pts = append(pts, point{bytesText(size), v.gbps})
		}
	}
	if len(pts) == 0 {
		return ""
	}
	return trend(fmt.Sprintf("On %s, %s %s", run.Describe(), mode, bench), pts, "GB/s")
}

// PageTouchTrend says how page-touch bandwidth falls with the interval
// against how much sparser the touch gets, for each state the run measured.
func (run *Run) PageTouchTrend() string {
	var out []string
	for _, mode := range []string{results.ModeManaged, results.ModeExplicit, results.ModeManagedCold, results.ModeManagedPrefetch, results.ModeManagedReuse} {
		var pts []point
		var ivs []int64
		for _, iv := range []int64{4 * kib, 64 * kib, 2 * mib} {
			f, err := get(run, pageTouch(mode, iv)[0])
			if err != nil {
				continue
			}
			pts, ivs = append(pts, point{bytesText(iv), f.v}), append(ivs, iv)
		}
		if len(pts) < 2 {
			continue
		}
		var steps []string
		for i := 1; i < len(pts); i++ {
			steps = append(steps, fmt.Sprintf("%s→%s: %s× sparser, %s× slower", pts[i-1].label, pts[i].label,
				num(float64(ivs[i])/float64(ivs[i-1])), num(pts[i-1].v/pts[i].v)))
		}
		out = append(out, fmt.Sprintf("%s %s–%s GB/s (%s)", mode, num(pts[0].v), num(pts[len(pts)-1].v), strings.Join(steps, "; ")))
	}
	if len(out) == 0 {
		return ""
	}
	return "On " + run.Describe() + ", page touch: " + strings.Join(out, "; ") + "."
}

// Amplification says how many bytes a cold page-touch kernel migrated per
// useful byte at each interval, from the run's counter passes.
func (run *Run) Amplification() string {
	var pts []point
	for _, iv := range []int64{4 * kib, 64 * kib, 2 * mib} {
		for _, c := range run.Counters {
			if c.Config.Group == results.GroupPattern && c.Config.Benchmark == results.BenchPageTouch && c.Config.Mode == results.ModeManagedCold && c.Config.PageIntervalBytes == iv && c.Config.UsefulBytes > 0 {
				pts = append(pts, point{bytesText(iv), c.HtoDBytes / float64(c.Config.UsefulBytes)})
				break
			}
		}
	}
	if len(pts) == 0 {
		return ""
	}
	return trend("bytes migrated per useful byte of the cold page-touch kernel", pts, "") + " (" + seriesText(pts, "") + ")"
}

// HandoffStory says, for a run's handoff sweep at the size nearest 1 GiB,
// which policy is fastest at the smallest and largest R, how the CPU-only
// update compares between policies, and how each policy's time changes
// with R.
func (run *Run) HandoffStory() string {
	var rs []int64
	for _, c := range run.cfg {
		if c.Group == results.GroupHandoff && c.Phase == results.PhaseAlternating && c.SizeBytes == gib && !containsInt(rs, c.ReusePasses) {
			rs = append(rs, c.ReusePasses)
		}
	}
	if len(rs) == 0 {
		return ""
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i] < rs[j] })
	var out []string
	for _, r := range []int64{rs[0], rs[len(rs)-1]} {
		if ps, vs, err := order(run, r); err == nil {
			out = append(out, fmt.Sprintf("at R = %d the policies order %s", r, orderText(ps, vs)))
		}
		if len(rs) == 1 {
			break
		}
	}
	if lo, hi, ok := cpuSpread(run); ok && hi > lo {
		out = append(out, fmt.Sprintf("the CPU-only update, the same work under every policy, takes %s–%s ms depending on the policy (a %s %% spread)", num(lo), num(hi), num(100*(hi/lo-1))))
	}
	for _, p := range policies {
		var pts []point
		for _, r := range rs {
			if f, err := get(run, handoff(p, results.PhaseAlternating, r)); err == nil {
				pts = append(pts, point{fmt.Sprintf("R = %d", r), f.v})
			}
		}
		if len(pts) > 2 {
			out = append(out, trend(p, pts, "ms"))
		}
	}
	if len(out) == 0 {
		return ""
	}
	return "On " + run.Describe() + " at 1 GiB: " + strings.Join(out, "; ") + "."
}

func containsInt(s []int64, v int64) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// ModelStory says how well the reuse model fits a run, in one sentence.
func (run *Run) ModelStory() string {
	rep, err := run.fit()
	if err != nil {
		return ""
	}
	s := fmt.Sprintf("On %s the reuse model's median APE over sizes of 16 MiB and up is %s %%", run.Describe(), num(rep.MedianAPE))
	if ci := rep.MedianAPECI; !math.IsNaN(ci.Lo) {
		s += fmt.Sprintf(" (95 %% CI %s–%s %%)", num(ci.Lo), num(ci.Hi))
	}
	s += fmt.Sprintf(" and it names the measured fastest policy in %d of %d size–reuse cases, where always naming %s scores %d", rep.Matches, rep.Compared, rep.BestConstant, rep.BestConstantMatches)
	if alt, err := NewRun(run.Name, model.WithoutCPU(handoffRows(run.Rows)), run.Meta); err == nil {
		if r2, err := alt.fit(); err == nil && !math.IsNaN(r2.MedianAPE) {
			s += fmt.Sprintf(" (with each trial's measured CPU time taken out: %s %%, %d of %d)", num(r2.MedianAPE), r2.Matches, r2.Compared)
		}
	}
	return s + "."
}
