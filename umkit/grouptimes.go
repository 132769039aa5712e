package umkit

import (
	"sync"
	"time"

	"github.com/umlab/umlab/results"
)

// groupClock records the wall-clock span of each group a run's process goes
// through, for meta.json's group_times, and what each was spent on. It is
// safe for concurrent use: a declared hang leaves the run goroutine inside
// a group while Run reads the spans.
type groupClock struct {
	mu      sync.Mutex
	segment string
	spans   []results.GroupTime
	open    bool      // the last span has not ended
	base    time.Time // the first start: span times are it plus monotonic time since
	gen     int       // counts spans, so that a part's stop knows its own
	parts   results.GroupParts
	// The part being timed, if any: parts inside it belong to it.
	inPart    bool
	partKind  part
	partStart time.Time
}

// Parts of a group's wall time (results.GroupParts).
type part int

const (
	partTimed part = iota
	partRewrite
	partSettle
	partVerify
)

func add(parts *results.GroupParts, p part, s float64) {
	*[...]*float64{&parts.TimedS, &parts.RewriteS, &parts.SettleS, &parts.VerifyS}[p] += s
}

// spend starts timing p in the open span and returns the function that
// stops it. A part started inside another counts as the outer one (the CPU
// write that a rewrite times is rewrite, not a timed region), so the parts
// never overlap; a stop after its span ended counts nothing.
func (c *groupClock) spend(p part) func() {
	if c == nil {
		return func() {}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.inPart || !c.open {
		return func() {}
	}
	c.inPart, c.partKind, c.partStart = true, p, time.Now()
	gen := c.gen
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.gen != gen || !c.inPart {
			return
		}
		c.inPart = false
		add(&c.parts, p, time.Since(c.partStart).Seconds())
	}
}

// start opens the span of group (runPlan ends each span before the next).
func (c *groupClock) start(group string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.spans = append(c.spans, results.GroupTime{Group: group, Segment: c.segment, Start: c.wall(time.Now())})
	c.gen++
	c.open, c.parts, c.inPart = true, results.GroupParts{}, false
}

func (c *groupClock) end() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.open {
		last := &c.spans[len(c.spans)-1]
		last.End, last.Parts = c.close(time.Now())
		c.open = false
		c.gen++
	}
}

// wall returns t as the first start's wall time plus the monotonic time
// since, so that a step of the system clock can neither reorder spans nor
// make parts exceed their span.
func (c *groupClock) wall(t time.Time) time.Time {
	if c.base.IsZero() {
		c.base = t
	}
	return c.base.UTC().Add(t.Sub(c.base))
}

// close returns the open span's end and parts at now, a part still being
// timed (a call that never returned) counted up to now.
func (c *groupClock) close(now time.Time) (time.Time, *results.GroupParts) {
	p := c.parts
	if c.inPart {
		add(&p, c.partKind, now.Sub(c.partStart).Seconds())
	}
	return c.wall(now), &p
}

// snapshot returns the spans so far; one still open ends now, marked
// Stopped.
func (c *groupClock) snapshot() []results.GroupTime {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	out := append([]results.GroupTime(nil), c.spans...)
	if c.open {
		last := &out[len(out)-1]
		last.End, last.Parts = c.close(time.Now())
		last.Stopped = true
	}
	return out
}
