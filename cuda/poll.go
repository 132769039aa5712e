package cuda

import (
	"errors"
	"runtime"
	"time"
)

// ErrWaitAborted is returned by the polling waits when their stop function
// asked them to give up (a watchdog declared the GPU hung).
var ErrWaitAborted = errors.New("cuda: wait abandoned (the GPU was declared hung)")

// spinFor is how long a polling wait spins (yielding between queries, as
// the driver's own spin-wait does) before it sleeps between queries.
const spinFor = 100 * time.Millisecond

// pollSleep is the pause between queries after spinFor: a wait longer than
// 100 ms is lengthened by at most this much (under 0.05 %).
const pollSleep = 50 * time.Microsecond

// poll queries until ready, an error, or stop.
func poll(call string, query func() Result, stop func() bool) error {
	start := time.Now()
	for i := 0; ; i++ {
		switch r := query(); r {
		case Success:
			return nil
		case ErrorNotReady:
		default:
			return check(call, r)
		}
		if stop != nil && stop() {
			return ErrWaitAborted
		}
		if i < 64 || time.Since(start) < spinFor {
			runtime.Gosched()
		} else {
			time.Sleep(pollSleep)
		}
	}
}

// Poll waits for the event by querying it (cuEventQuery) rather than
// blocking in cuEventSynchronize, so the calling goroutine never sits in
// one long driver call: stop (may be nil) is checked between queries, and
// when it returns true the wait ends with ErrWaitAborted.
func (e *Event) Poll(stop func() bool) error {
	return poll("cuEventQuery", func() Result { return do(opEventQuery, e.c.h, e.h) }, stop)
}

// PollStream is SyncStream by polling (cuStreamQuery), with stop as in
// Event.Poll.
func (c *Context) PollStream(s *Stream, stop func() bool) error {
	return poll("cuStreamQuery", func() Result { return do(opStreamQuery, c.h, s.handle()) }, stop)
}

// ElapsedMsPoll is ElapsedMs waiting for end with Event.Poll.
func ElapsedMsPoll(start, end *Event, stop func() bool) (float64, error) {
	if err := end.Poll(stop); err != nil {
		return 0, err
	}
	ms, r := cEventElapsed(start.c.h, start.h, end.h)
	return float64(ms), check("cuEventElapsedTime", r)
}
