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
}

// start opens the span of group (runPlan ends each span before the next).
func (c *groupClock) start(group string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.spans = append(c.spans, results.GroupTime{Group: group, Segment: c.segment, Start: time.Now().UTC()})
	c.open = true
}

// end closes the open span.
func (c *groupClock) end() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.open {
		c.spans[len(c.spans)-1].End = time.Now().UTC()
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
		out[len(out)-1].End, out[len(out)-1].Stopped = now, true
	}
	return out
}
