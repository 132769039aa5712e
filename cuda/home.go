package cuda

import (
	"fmt"
	"time"
)

// HomeFillHost splits a buffer into at most homeChunks pieces of whole
// homeChunkBytes (a multiple of the 2 MiB blocks the driver migrates).
const (
	homeChunkBytes = 32 << 20
	homeChunks     = 64
)

// HomeFillHost brings managed buffer x back to the CPU with prefetches on s
// and rewrites its first n elements there with FillHost's values, piece by
// piece: while the driver migrates piece k+1, the CPU threads write piece
// k. The data end as after a whole-buffer prefetch to the CPU and FillHost,
// in the time of the slower of the two rather than their sum (H200,
// 2026-12-01: 1 GiB took 61–83 ms to bring home and 39–46 ms to write).
//
// It returns the CPU's write time: the sum of the pieces' writes, without
// the waits for pieces still in flight. stop (may be nil) ends a wait with
// ErrWaitAborted, as in Event.Poll. It needs concurrent managed access, like
// Prefetch.
func (c *Context) HomeFillHost(x *Buffer, n, seed uint64, s *Stream, stop func() bool) (writeMs float64, err error) {
	if err := c.managedOnly("HomeFillHost", x); err != nil {
		return 0, err
	}
	if err := hostNeed("HomeFillHost", x, n); err != nil {
		return 0, err
	}
	if !c.attrs.ConcurrentManagedAccess {
		return 0, fmt.Errorf("%w: HomeFillHost prefetches, which needs concurrent managed access; %s does not report it", ErrUnsupported, c.attrs.Name)
	}
	pieces := homePieces(x.bytes)
	events := make([]*Event, 0, len(pieces))
	destroy := func() {
		for _, e := range events {
			e.Destroy()
		}
	}
	for range pieces {
		e, err := c.NewEvent()
		if err != nil {
			destroy()
			return 0, err
		}
		events = append(events, e)
	}
	// The prefetches are queued from their own goroutine, one result per
	// piece until the first error: queuing one can take as long as its
	// migration (the driver allocates the CPU pages in the call).
	queued := make(chan error, len(pieces))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i, p := range pieces {
			err := c.prefetchRange(x, p.off, p.bytes, CPU, s)
			if err == nil {
				err = events[i].Record(s)
			}
			queued <- err
			if err != nil {
				return
			}
		}
	}()
	// The events go once the goroutine is done with them: after an abandoned
	// wait (a hung GPU) maybe never, so the caller does not wait for it.
	defer func() { go func() { <-done; destroy() }() }()
	var write time.Duration
	for i, p := range pieces {
		if err := <-queued; err != nil {
			return 0, err
		}
		if err := events[i].Poll(stop); err != nil {
			return 0, err
		}
		lo, hi := p.off/8, min((p.off+p.bytes)/8, n)
		if lo >= hi {
			continue // beyond the n elements to write: brought home only
		}
		t0 := time.Now()
		fillRange(x, lo, hi, seed)
		write += time.Since(t0)
	}
	return float64(write) / float64(time.Millisecond), nil
}

// piece is a byte range of a buffer.
type piece struct{ off, bytes uint64 }

// homePieces splits bytes into HomeFillHost's pieces (the last one shorter).
func homePieces(bytes uint64) []piece {
	size := max(homeChunkBytes, (bytes+homeChunks-1)/homeChunks)
	size = (size + homeChunkBytes - 1) / homeChunkBytes * homeChunkBytes
	var out []piece
	for off := uint64(0); off < bytes; off += size {
		out = append(out, piece{off, min(size, bytes-off)})
	}
	return out
}
