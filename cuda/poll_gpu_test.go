package cuda

import (
	"errors"
	"math"
	"testing"
	"time"
)

// A wait on a stream that does not move (held by a latch: a GPU that
// stopped responding, as far as the host can tell) is abandoned by its stop
// function instead of blocking; released, the same wait completes, and the
// polled event time agrees with the blocking one.
func TestGPUPollingWaits(t *testing.T) {
	c := gpuContext(t)
	s := newStream(t, c)
	start, end := newEvents(t, c)
	l, err := c.NewLatch()
	must(t, err)
	defer l.Free()

	must(t, l.Hold(s, 10*time.Second))
	must(t, end.Record(s))
	t0 := time.Now()
	stop := func() bool { return time.Since(t0) > 200*time.Millisecond }
	if err := end.Poll(stop); !errors.Is(err, ErrWaitAborted) {
		t.Fatalf("Poll on a held stream: %v, want ErrWaitAborted", err)
	}
	if err := c.PollStream(s, stop); !errors.Is(err, ErrWaitAborted) {
		t.Fatalf("PollStream on a held stream: %v, want ErrWaitAborted", err)
	}
	if d := time.Since(t0); d > 2*time.Second {
		t.Errorf("abandoning took %s", d)
	}
	l.Release()
	must(t, c.PollStream(s, nil))
	must(t, end.Poll(nil))
	if l.TimedOut() {
		t.Error("the hold timed out")
	}

	// The same kernel timed by a polled and by a blocking wait.
	const n = 64 << 20 // 512 MiB
	x, err := c.AllocDevice(8 * n)
	must(t, err)
	defer x.Free()
	must(t, c.Fill(x, n, 1, s))
	timeOnce := func(poll bool) float64 {
		must(t, start.Record(s))
		must(t, c.RMW(x, 1, 0.5, n, s))
		must(t, end.Record(s))
		var ms float64
		var err error
		if poll {
			ms, err = ElapsedMsPoll(start, end, nil)
		} else {
			ms, err = ElapsedMs(start, end)
		}
		must(t, err)
		return ms
	}
	var polled, blocked []float64
	for i := 0; i < 10; i++ {
		polled, blocked = append(polled, timeOnce(true)), append(blocked, timeOnce(false))
	}
	mp, mb := medianOf(polled), medianOf(blocked)
	t.Logf("RMW of 512 MiB: median %.4f ms polled, %.4f ms blocking", mp, mb)
	if math.Abs(mp-mb)/mb > 0.05 {
		t.Errorf("polled %.4f ms vs blocking %.4f ms: more than 5 %% apart", mp, mb)
	}
}

func medianOf(x []float64) float64 {
	y := append([]float64(nil), x...)
	for i := range y {
		for j := i + 1; j < len(y); j++ {
			if y[j] < y[i] {
				y[i], y[j] = y[j], y[i]
			}
		}
	}
	return y[len(y)/2]
}
