package cuda

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// PopulateFillHost writes the first n elements of managed buffer x, just
// allocated (nothing of it resident anywhere), on the CPU with FillHost's
// values, after making its pages resident on the CPU with prefetches: the
// buffer is split as FillHost splits it (HostThreads ranges of whole 2 MiB
// blocks), and each range is prefetched to the CPU on a stream of its own
// and then written, all ranges at once. The data end as FillHost's
// first-touch writes leave them (resident on the CPU, not mapped for any
// GPU); the driver populates each range in bulk instead of page by page
// through CPU page faults. It returns the wall time in ms. stop (may be
// nil) ends a wait with ErrWaitAborted, as in Event.Poll. It needs
// concurrent managed access, like Prefetch.
func (c *Context) PopulateFillHost(x *Buffer, n, seed uint64, stop func() bool) (ms float64, err error) {
	if err := c.managedOnly("PopulateFillHost", x); err != nil {
		return 0, err
	}
	if err := hostNeed("PopulateFillHost", x, n); err != nil {
		return 0, err
	}
	if !c.attrs.ConcurrentManagedAccess {
		return 0, fmt.Errorf("%w: PopulateFillHost prefetches, which needs concurrent managed access; %s does not report it", ErrUnsupported, c.attrs.Name)
	}
	parts := splitRange(0, x.bytes/8)
	streams := make([]*Stream, 0, len(parts))
	events := make([]*Event, 0, len(parts))
	defer func() {
		for _, e := range events {
			err = errors.Join(err, e.Destroy())
		}
		for _, s := range streams {
			err = errors.Join(err, s.Destroy())
		}
	}()
	for range parts {
		s, err := c.NewStream()
		if err != nil {
			return 0, err
		}
		streams = append(streams, s)
		e, err := c.NewEvent()
		if err != nil {
			return 0, err
		}
		events = append(events, e)
	}
	t0 := time.Now()
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, p := range parts {
		wg.Add(1)
		go func(i int, lo, hi uint64) { // a cgo call holds an OS thread: the ranges populate in parallel
			defer wg.Done()
			hiBytes := hi * 8
			if i == len(parts)-1 {
				hiBytes = x.bytes // a tail shorter than an element
			}
			if err := c.prefetchRange(x, lo*8, hiBytes-lo*8, CPU, streams[i]); err != nil {
				errs[i] = err
				return
			}
			if err := events[i].Record(streams[i]); err != nil {
				errs[i] = err
				return
			}
			if err := events[i].Poll(stop); err != nil {
				errs[i] = err
				return
			}
			if hi = min(hi, n); lo < hi {
				cFillHost(x.host, lo, hi, seed)
			}
		}(i, p[0], p[1])
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return 0, err
	}
	return float64(time.Since(t0)) / float64(time.Millisecond), nil
}
