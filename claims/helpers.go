package claims

import (
	"fmt"
	"math"
	"strings"

	"github.com/umlab/umlab/results"
)

const (
	kib = int64(1) << 10
	mib = int64(1) << 20
	gib = int64(1) << 30
)

var noPct = math.NaN()

// Selectors of the configurations the claims read.

func triad(size int64) sel {
	return sel{group: results.GroupHBM, bench: results.BenchTriad, mode: results.ModeExplicit, size: size, near: true, pct: noPct}
}
func hbmCopy(size int64) sel {
	return sel{group: results.GroupHBM, bench: results.BenchCopy, mode: results.ModeExplicit, size: size, near: true, pct: noPct}
}
func hostTriad(size int64) sel {
	return sel{group: results.GroupHost, bench: results.BenchTriad, mode: results.ModeHostMapped, size: size, near: true, pct: noPct}
}
func copyDir(dir string) sel {
	return sel{group: results.GroupTransfer, bench: results.BenchCopy, mode: results.ModePinned, dir: dir, size: gib, near: true, pct: noPct}
}
func prefetchDir(dir string) sel {
	return sel{group: results.GroupTransfer, bench: results.BenchPrefetch, mode: results.ModeManaged, dir: dir, size: gib, near: true, pct: noPct}
}
func stream(mode string, size int64) sel {
	return sel{group: results.GroupManaged, bench: results.BenchStream, mode: mode, size: size, near: true, pct: noPct}
}

// adviseRef is the prefetch or reuse reference of the paper's separate
// advice-mode run, or, where a run has none, the size sweep's figure.
func adviseRef(mode string) []sel {
	a := stream(mode, 256*mib)
	a.bench = "advise"
	return []sel{a, stream(mode, 256*mib)}
}
func strided(mode string, stride int64) sel {
	return sel{group: results.GroupPattern, bench: results.BenchStrided, mode: mode, pattern: results.PatternStrided, size: 256 * mib, stride: stride, near: true, pct: noPct}
}
func random(mode string) sel {
	return sel{group: results.GroupPattern, bench: results.BenchRandom, mode: mode, pattern: results.PatternRandom, size: 256 * mib, near: true, pct: noPct}
}

// sparseRandom selects pattern.sparse_random at density 1/k (its
// stride_elements is k).
func sparseRandom(mode string, k int64) sel {
	return sel{group: results.GroupPattern, bench: results.BenchSparse, mode: mode, pattern: results.PatternSparse, size: 256 * mib, stride: k, near: true, pct: noPct}
}

// randomRatio divides two random-access figures of the same benchmark:
// the sparse random benchmark when the run has it (the paper's "sparse
// random"; density 1/16, else 1/256), else the dense one.
func randomRatio(numMode, denMode, unit string) func(a, b *Run) (Quantity, error) {
	return func(a, _ *Run) (Quantity, error) {
		for _, pick := range []func(string) sel{
			func(m string) sel { return sparseRandom(m, 16) },
			func(m string) sel { return sparseRandom(m, 256) },
			random,
		} {
			n, err1 := get(a, pick(numMode))
			d, err2 := get(a, pick(denMode))
			if err1 != nil || err2 != nil {
				continue
			}
			q := ratioOf(n, d, unit)
			if s := pick(numMode); s.bench == results.BenchSparse {
				q.Text += fmt.Sprintf(" (sparse random, density 1/%d)", s.stride)
			}
			return q, nil
		}
		return Quantity{}, notMeasured("no random-access %s and %s figures in this run", numMode, denMode)
	}
}

// pageTouch selects the page-touch benchmark; the paper's rows have mode
// "managed" (it does not name the state), ours name it.
func pageTouch(mode string, interval int64) []sel {
	s := sel{group: results.GroupPattern, bench: results.BenchPageTouch, mode: mode, pattern: results.PatternPageTouch, size: 256 * mib, interval: interval, near: true, pct: noPct}
	p := s
	p.mode = results.ModeManaged
	return []sel{s, p}
}
func oversub(mode string, pct float64) sel {
	return sel{group: results.GroupOversub, bench: results.BenchStream, mode: mode, pattern: results.PatternStreaming, pct: pct}
}
func handoff(policy, phase string, r int64) sel {
	return sel{group: results.GroupHandoff, bench: results.BenchHandoff, policy: policy, phase: phase, size: gib, r: r, near: true, pct: noPct}
}

// describe names a configuration for "not measured" reasons.
func (s sel) describe() string {
	var parts []string
	for _, p := range []string{s.group, s.bench, s.mode, s.policy, s.phase, s.dir} {
		if p != "" && !contains(parts, p) {
			parts = append(parts, p)
		}
	}
	if s.stride > 0 {
		parts = append(parts, fmt.Sprintf("stride %d", s.stride))
	}
	if s.interval > 0 {
		parts = append(parts, "every "+bytesText(s.interval))
	}
	if s.group == results.GroupOversub {
		parts = append(parts, fmt.Sprintf("at %g %%", s.pct))
	} else if s.size > 0 {
		parts = append(parts, bytesText(s.size))
	}
	if s.phase == results.PhaseAlternating {
		parts = append(parts, fmt.Sprintf("R = %d", s.r))
	}
	return strings.Join(parts, " ")
}

// fig is one figure read from a run.
type fig struct {
	v    float64
	unit string
	at   int64 // size found, when it differs from the one asked for
	s    sel
}

func (f fig) String() string {
	t := formatValue(f.v, f.unit)
	if f.at != 0 {
		t += " (at " + bytesText(f.at) + ")"
	}
	return t
}

// get reads the median bandwidth (or, for handoff rows, the median time of
// one iteration) of the first of the selectors the run measured.
func get(run *Run, ss ...sel) (fig, error) {
	for _, s := range ss {
		v, at, ok := run.find(s)
		if !ok {
			continue
		}
		f := fig{s: s}
		if s.group == results.GroupHandoff {
			f.v, f.unit = v.total, "ms"
		} else {
			f.v, f.unit = v.gbps, "GB/s"
		}
		if math.IsNaN(f.v) {
			continue
		}
		if at != s.size && s.size != 0 {
			f.at = at
		}
		return f, nil
	}
	return fig{}, notMeasured("no %s in this run", ss[0].describe())
}

// ratioOf divides two figures: in percent when unit is "%", else as a factor.
func ratioOf(n, d fig, unit string) Quantity {
	v := n.v / d.v
	if unit == "%" {
		v *= 100
	}
	return Quantity{Value: v, Unit: unit, Text: n.String() + " / " + d.String()}
}

// ratio is a Measure dividing the figure of num by that of den.
func ratio(num, den sel, unit string) func(a, b *Run) (Quantity, error) {
	return ratioAny([]sel{num}, []sel{den}, unit)
}

func ratioAny(num, den []sel, unit string) func(a, b *Run) (Quantity, error) {
	return func(a, _ *Run) (Quantity, error) {
		n, err := get(a, num...)
		if err != nil {
			return Quantity{}, err
		}
		d, err := get(a, den...)
		if err != nil {
			return Quantity{}, err
		}
		return ratioOf(n, d, unit), nil
	}
}

// value is a Measure returning one figure.
func value(ss ...sel) func(a, b *Run) (Quantity, error) {
	return func(a, _ *Run) (Quantity, error) {
		f, err := get(a, ss...)
		if err != nil {
			return Quantity{}, err
		}
		return Quantity{Value: f.v, Unit: f.unit, Text: f.String()}, nil
	}
}

// cross is a Measure dividing a's figure by b's (cross-platform claims).
func cross(s sel, unit string) func(a, b *Run) (Quantity, error) {
	return func(a, b *Run) (Quantity, error) {
		n, err := get(a, s)
		if err != nil {
			return Quantity{}, err
		}
		d, err := get(b, s)
		if err != nil {
			return Quantity{}, err
		}
		q := ratioOf(n, d, unit)
		q.Text = fmt.Sprintf("%s %s / %s %s", a.Meta.Platform, n, b.Meta.Platform, d)
		return q, nil
	}
}

// truth is a Quantity for an ordering or a yes/no finding: 1 or 0.
func truth(ok bool, text string) Quantity {
	v := 0.0
	if ok {
		v = 1
	}
	return Quantity{Value: v, Unit: "yes/no", Text: text}
}

func below(x float64) func(float64) bool { return func(q float64) bool { return q < x } }
func above(x float64) func(float64) bool { return func(q float64) bool { return q > x } }

// within holds strictly between lo and hi.
func within(lo, hi float64) func(float64) bool {
	return func(q float64) bool { return q > lo && q < hi }
}

// Reasons shared by several claims.

// otherGPU explains an absolute figure of a different GPU.
func otherGPU(x *Check) string {
	f := x.Run.Facts
	if x.Run.Meta.Platform == x.Ref.Meta.Platform {
		return ""
	}
	s := fmt.Sprintf("a different GPU: %s", orDash(f.Device))
	if f.PeakMemoryGBps > 0 {
		s += fmt.Sprintf(" (HBM peak %.0f GB/s)", f.PeakMemoryGBps)
	}
	return s + fmt.Sprintf(", against the paper's %s; absolute bandwidths are the device's, the claim's ratios are checked separately", x.Ref.Meta.Platform)
}

// link explains a figure bounded by the path to CPU memory.
func link(x *Check) string {
	f := x.Run.Facts
	switch f.Link {
	case LinkPCIe:
		s := "the GPU reaches CPU memory over " + f.LinkText
		if f.HostLinkGBps > 0 {
			s += fmt.Sprintf(" (%.0f GB/s per direction raw)", f.HostLinkGBps)
		}
		return s + fmt.Sprintf(" here, over %s in the paper's %s", x.Ref.Facts.LinkText, x.Ref.Meta.Platform)
	case LinkIntegrated:
		return "CPU and GPU share one memory pool here (" + f.LinkText + ")"
	}
	return ""
}

// join concatenates the reasons that apply.
func join(fs ...func(*Check) string) func(*Check) string {
	return func(x *Check) string {
		var out []string
		for _, f := range fs {
			if s := f(x); s != "" {
				out = append(out, s)
			}
		}
		return strings.Join(out, "; ")
	}
}

// first returns the first reason that applies.
func firstOf(fs ...func(*Check) string) func(*Check) string {
	return func(x *Check) string {
		for _, f := range fs {
			if s := f(x); s != "" {
				return s
			}
		}
		return ""
	}
}
