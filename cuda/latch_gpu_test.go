package cuda

import (
	"testing"
	"time"
)

// TestGPULatchKeepsHostDelaysOutOfTimings delays the host for 20 ms between
// recording the start event and launching a kernel: unheld, the event time
// counts the delay; held behind a latch, it does not, and the kernel still
// runs and computes the right result.
func TestGPULatchKeepsHostDelaysOutOfTimings(t *testing.T) {
	c := gpuContext(t)
	const n = 8 << 20 // 64 MiB: a kernel of a few tens of µs on a data-centre GPU
	const delay = 20 * time.Millisecond
	b, err := c.AllocDevice(n * 8)
	must(t, err)
	defer b.Free()
	s := newStream(t, c)
	e1, e2 := newEvents(t, c)
	l, err := c.NewLatch()
	must(t, err)
	defer l.Free()
	seed := freshSeed()
	must(t, c.Fill(b, n, seed, s))

	timeOnce := func(hold bool) float64 {
		t.Helper()
		if hold {
			must(t, l.Hold(s, time.Second))
		}
		must(t, e1.Record(s))
		time.Sleep(delay) // a descheduled host thread
		must(t, c.RMW(b, 1, 1, n, s))
		must(t, e2.Record(s))
		l.Release()
		ms, err := ElapsedMs(e1, e2)
		must(t, err)
		if l.TimedOut() {
			t.Fatal("the hold timed out although it was released")
		}
		return ms
	}
	unheld, held := timeOnce(false), timeOnce(true)
	t.Logf("RMW of 64 MiB with a %v host delay after the start event: %.3f ms unheld, %.3f ms held", delay, unheld, held)
	if unheld < 0.9*float64(delay.Milliseconds()) {
		t.Errorf("unheld timing %.3f ms does not include the %v delay: the test proves nothing", unheld, delay)
	}
	if held > 2 {
		t.Errorf("held timing %.3f ms: the host delay leaked into it", held)
	}
	m, err := c.CheckAffine(b, n, seed, 1, 2, 1, n, s)
	must(t, err)
	if !m.OK() {
		t.Fatalf("after two held/unheld passes: %v", m)
	}
}

// TestGPULatchTimesOut never releases a hold: the GPU gives up after the
// timeout, says so, and the latch works again afterwards.
func TestGPULatchTimesOut(t *testing.T) {
	c := gpuContext(t)
	s := newStream(t, c)
	l, err := c.NewLatch()
	must(t, err)
	defer l.Free()
	t0 := time.Now()
	must(t, l.Hold(s, 50*time.Millisecond))
	l.held = false // forget the hold without releasing it
	must(t, c.SyncStream(s))
	if waited := time.Since(t0); waited < 40*time.Millisecond || !l.TimedOut() {
		t.Fatalf("waited %v, timed out %t: want about 50 ms and true", waited, l.TimedOut())
	}
	must(t, l.Hold(s, time.Second))
	l.Release()
	must(t, c.SyncStream(s))
	if l.TimedOut() {
		t.Error("a released hold reported a timeout")
	}
	if err := l.Hold(s, 0); err == nil {
		t.Error("a zero timeout was accepted")
	}
}
