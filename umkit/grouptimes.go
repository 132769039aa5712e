package umkit

import (
	"sync"
	"time"

	"github.com/umlab/umlab/results"
)

// groupClock records the wall-clock span of each group a run's process goes
// through, for meta.json's group_times. It is safe for concurrent use: a
// declared hang leaves the run goroutine inside a group while Run reads the
// spans.
type groupClock struct {
	mu      sync.Mutex
	segment string
	spans   []results.GroupTime
	open    bool // the last span has not ended
	parts   results.GroupParts
	inPart  bool // a part is being timed: parts inside it belong to it
}

// Parts of a group's wall time (results.GroupParts).
type part int

const (
	partTimed part = iota
	partRewrite
	partSettle
	partVerify
)

// spend starts timing p in the open span and returns the function that
// stops it. A part started inside another counts as the outer one (the CPU
// write that a rewrite times is rewrite, not a timed region), so the parts
// never overlap.
func (c *groupClock) spend(p part) func() {
	if c == nil {
		return func() {}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.inPart || !c.open {
		return func() {}
	}
	c.inPart = true
	t0 := time.Now()
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.inPart = false
		s := time.Since(t0).Seconds()
		switch p {
		case partTimed:
			c.parts.TimedS += s
		case partRewrite:
			c.parts.RewriteS += s
		case partSettle:
			c.parts.SettleS += s
		case partVerify:
			c.parts.VerifyS += s
		}
	}
}

// start opens the span of group (runPlan ends each span before the next).
func (c *groupClock) start(group string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.spans = append(c.spans, results.GroupTime{Group: group, Segment: c.segment, Start: time.Now().UTC()})
	c.open, c.parts, c.inPart = true, results.GroupParts{}, false
}

// end closes the open span.
func (c *groupClock) end() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.open {
		last := &c.spans[len(c.spans)-1]
		last.End = time.Now().UTC()
		p := c.parts
		last.Parts = &p
		c.open = false
	}
}

// snapshot returns the spans so far; one still open ends at now, marked
// Stopped.
func (c *groupClock) snapshot(now time.Time) []results.GroupTime {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	out := append([]results.GroupTime(nil), c.spans...)
	if c.open {
		p := c.parts
		out[len(out)-1].End, out[len(out)-1].Stopped, out[len(out)-1].Parts = now, true, &p
	}
	return out
}
