package umkit

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/umlab/umlab/cuda"
)

// A part started inside another counts as the outer one, so the parts of a
// span never overlap and never add up to more than it.
func TestGroupPartsNest(t *testing.T) {
	c := &groupClock{segment: "s"}
	c.spend(partTimed)() // no open span: nothing to count in
	c.start("managed")
	stopRewrite := c.spend(partRewrite)
	stopInner := c.spend(partTimed) // the CPU write a rewrite times: rewrite
	time.Sleep(20 * time.Millisecond)
	stopInner()
	time.Sleep(10 * time.Millisecond)
	stopRewrite()
	stop := c.spend(partSettle)
	time.Sleep(10 * time.Millisecond)
	stop()
	c.end()
	p := c.snapshot()[0].Parts
	if p == nil {
		t.Fatal("ended span has no parts")
	}
	if p.TimedS != 0 || p.VerifyS != 0 {
		t.Errorf("timed %g s, verify %g s inside rewrite: want 0", p.TimedS, p.VerifyS)
	}
	if p.RewriteS < 0.030 || p.SettleS < 0.010 {
		t.Errorf("rewrite %g s (slept 30 ms), settle %g s (slept 10 ms)", p.RewriteS, p.SettleS)
	}
	g := c.snapshot()[0]
	if o := p.Other(g.End.Sub(g.Start).Seconds()); o < 0 {
		t.Errorf("parts %+v add up to more than the span's %s", p, g.End.Sub(g.Start))
	}
}

// A part that never ends (a hung call) counts up to the snapshot of a
// stopped span, once; a stop arriving after its span ended counts nowhere.
func TestGroupPartsOpenAndLate(t *testing.T) {
	c := &groupClock{segment: "s"}
	c.start("managed")
	hung := c.spend(partRewrite)
	time.Sleep(10 * time.Millisecond)
	snap := c.snapshot()
	if g := snap[0]; !g.Stopped || g.Parts == nil || g.Parts.RewriteS < 0.010 {
		t.Fatalf("stopped span %+v parts %+v: want the open rewrite counted, ≥ 10 ms", g, g.Parts)
	}
	if g := snap[0]; g.Parts.Other(g.End.Sub(g.Start).Seconds()) < 0 {
		t.Errorf("parts %+v exceed the span %s", g.Parts, g.End.Sub(g.Start))
	}
	c.end()
	c.start("handoff")
	inner := c.spend(partVerify)
	hung() // the abandoned call returns at last, in the next span
	if nested := c.spend(partTimed); nested == nil {
		t.Fatal("nil stop")
	} else {
		nested() // inside verify: counts nothing, and must not end verify
	}
	time.Sleep(5 * time.Millisecond)
	inner()
	c.end()
	s := c.snapshot()
	if p := s[1].Parts; p.RewriteS != 0 || p.TimedS != 0 || p.VerifyS < 0.005 {
		t.Errorf("handoff parts %+v: want only its verify, ≥ 5 ms", p)
	}
	if !s[1].Start.After(s[0].End) && !s[1].Start.Equal(s[0].End) {
		t.Errorf("spans out of order: %v then %v", s[0].End, s[1].Start)
	}
}

// TestHostCPUNote: a run's notes name the host CPU, its logical CPUs and
// the build of the set-up loops it ran, so that set-up times (rewrites,
// checks) can be told apart across hosts.
func TestHostCPUNote(t *testing.T) {
	note := hostCPUNote()
	for _, want := range []string{"host CPU: ", fmt.Sprintf("%d logical CPUs", runtime.NumCPU()), cuda.SetupLoops() + " build"} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q lacks %q", note, want)
		}
	}
	if m := cuda.CPUModel(); m != "" && !strings.Contains(note, m) {
		t.Errorf("note %q lacks the CPU model %q", note, m)
	}
}
