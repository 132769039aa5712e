package umkit

import (
	"testing"
	"time"
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
	c.start("handoff")
	stop = c.spend(partVerify)
	time.Sleep(5 * time.Millisecond)
	snap := c.snapshot(time.Now().UTC()) // a part still open is not counted yet
	stop()
	if p := snap[1].Parts; p == nil || p.VerifyS != 0 {
		t.Errorf("open verify counted in the snapshot: %+v", p)
	}
	p := c.snapshot(time.Now().UTC())[0].Parts
	if p == nil {
		t.Fatal("ended span has no parts")
	}
	if p.TimedS != 0 || p.VerifyS != 0 {
		t.Errorf("timed %g s, verify %g s inside rewrite or after the span: want 0", p.TimedS, p.VerifyS)
	}
	if p.RewriteS < 0.030 || p.SettleS < 0.010 {
		t.Errorf("rewrite %g s (slept 30 ms), settle %g s (slept 10 ms)", p.RewriteS, p.SettleS)
	}
	wall := c.spans[0].End.Sub(c.spans[0].Start).Seconds()
	if o := p.Other(wall); o < 0 {
		t.Errorf("parts %+v add up to more than the span's %g s", p, wall)
	}
	if v := c.snapshot(time.Now().UTC())[1].Parts.VerifyS; v < 0.005 {
		t.Errorf("handoff verify %g s after it stopped, want ≥ 5 ms", v)
	}
}
