package cuda

import (
	"sync/atomic"
	"time"
	"unsafe"
)

// A Latch holds a stream while the host queues the work to be timed, then
// lets it all run back to back on the GPU (start event, kernel, stop event),
// so neither launch latency nor a host thread delayed between recording the
// start event and launching the kernel is counted, as in NVIDIA's
// nvbandwidth. The hold kernel gives up by itself after its timeout, so a
// process that never releases cannot leave the GPU spinning; the timing is
// then void and TimedOut says so.
//
// Queue behind a hold only what the driver enqueues without waiting for the
// stream (kernels, event records): a call that blocks the host until the
// stream reaches it (a pageable copy) would wait for the hold's timeout.
type Latch struct {
	mem  *Buffer // word 0: the release counter; word 1: set by a hold that timed out
	next uint64
	held bool
}

// NewLatch allocates a latch: 16 bytes of pinned host memory mapped into
// the device's address space.
func (c *Context) NewLatch() (*Latch, error) {
	b, err := c.AllocHost(16, true)
	if err != nil {
		return nil, err
	}
	l := &Latch{mem: b}
	atomic.StoreUint64(l.word(0), 0)
	atomic.StoreUint64(l.word(1), 0)
	return l, nil
}

func (l *Latch) word(i uintptr) *uint64 { return (*uint64)(unsafe.Add(l.mem.host, 8*i)) }

// Hold queues a hold on s that lasts until Release or until timeout of GPU
// time has passed (at least 1 µs).
func (l *Latch) Hold(s *Stream, timeout time.Duration) error {
	if l == nil || l.mem == nil || l.mem.freed {
		return argError("Latch.Hold", "latch not allocated or freed")
	}
	if l.held {
		return argError("Latch.Hold", "already held: Release first")
	}
	if timeout < time.Microsecond {
		return argError("Latch.Hold", "timeout %v: at least 1µs", timeout)
	}
	l.next++
	err := l.mem.c.Launch(KernelHold, Dim{1, 1, 1}, Dim{32, 1, 1}, s,
		l.mem.dptr, l.next, uint64(timeout.Nanoseconds()), l.mem.dptr+8)
	l.held = err == nil
	return err
}

// Release lets the held stream go on. Releasing a latch not held does
// nothing.
func (l *Latch) Release() {
	if l == nil || !l.held {
		return
	}
	atomic.StoreUint64(l.word(0), l.next)
	l.held = false
}

// TimedOut reports (and clears) whether a hold gave up before it was
// released. Read it after the held work has finished.
func (l *Latch) TimedOut() bool {
	return atomic.SwapUint64(l.word(1), 0) != 0
}

// Free releases the latch (if held) and its memory.
func (l *Latch) Free() error {
	if l == nil || l.mem == nil {
		return nil
	}
	l.Release()
	return l.mem.Free()
}
