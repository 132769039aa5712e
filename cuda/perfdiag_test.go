package cuda

import (
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"sync"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestTriadBetweenTrials measures the 1 GiB triad with different work
// between timed trials, to find what makes a trial slower than in a
// back-to-back loop. UMLAB_PERF=2 only.
func TestTriadBetweenTrials(t *testing.T) {
	if os.Getenv("UMLAB_PERF") != "2" {
		t.Skip("set UMLAB_PERF=2 (GPU node)")
	}
	c := gpuContext(t)
	const n = 1 << 27
	s := newStream(t, c)
	e1, e2 := newEvents(t, c)
	bufs := make([]*Buffer, 3)
	for i := range bufs {
		b, err := c.AllocDevice(n * 8)
		must(t, err)
		defer b.Free()
		bufs[i] = b
	}
	a, b, cc := bufs[0], bufs[1], bufs[2]
	must(t, c.Fill(b, n, 1, s))
	must(t, c.Fill(cc, n, 2, s))
	tiny, _ := c.AllocDevice(16)
	defer tiny.Free()
	between := map[string]func(i int){
		"1 back-to-back":     func(int) {},
		"2 check_combo":      func(i int) { c.CheckCombo(a, b, cc, 3, n, s) },
		"3 check_triad":      func(i int) { c.CheckTriad(a, n, 1, 2, 3, s) },
		"4 host sleep 2ms":   func(int) { time.Sleep(2 * time.Millisecond) },
		"5 tiny kernel":      func(int) { c.Launch(KernelCheckInit, Dim{1, 1, 1}, Dim{1, 1, 1}, s, tiny.DevicePtr()); c.SyncStream(s) },
		"6 16-byte readback": func(int) { c.runCheck(s, func(uint64) error { return nil }) },
	}
	var keys []string
	for k := range between {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var ms []float64
		for i := 0; i < 30; i++ {
			e1.Record(s)
			c.StreamTriad(a, b, cc, 3, n, s)
			e2.Record(s)
			m, err := ElapsedMs(e1, e2)
			must(t, err)
			if i >= 5 {
				ms = append(ms, m)
			}
			between[k](i)
		}
		sort.Float64s(ms)
		fmt.Printf("DIAG %-20s triad %.0f GB/s\n", k, 3*float64(n*8)/(ms[len(ms)/2]*1e6))
	}
}

// TestResidentBetweenStates measures the read-modify-write kernel on
// resident data after each way umkit's memory states re-establish it, to
// find why resident managed trials run slower and vary more than
// back-to-back ones. UMLAB_PERF=2 only; it prints, it asserts nothing.
func TestResidentBetweenStates(t *testing.T) {
	if os.Getenv("UMLAB_PERF") != "2" {
		t.Skip("set UMLAB_PERF=2 (GPU node)")
	}
	c := gpuContext(t)
	s := newStream(t, c)
	e1, e2 := newEvents(t, c)
	for _, bytes := range []uint64{256 << 20, 1 << 30} {
		n := bytes / 8
		dev, err := c.AllocDevice(bytes)
		must(t, err)
		scratch, err := c.AllocDevice(bytes)
		must(t, err)
		man, err := c.AllocManaged(bytes)
		must(t, err)
		pinned, err := c.AllocHost(bytes, false)
		must(t, err)
		must(t, FillHost(pinned, n, 7))
		must(t, c.Fill(scratch, n, 3, s))
		must(t, FillHost(man, n, 5))
		must(t, c.Prefetch(man, GPU(0), s))
		must(t, c.SyncStream(s))
		rmw := func(b *Buffer) { must(t, c.RMW(b, 1, 1, n, s)) }
		settle := func(b *Buffer) func() { return func() { rmw(b); must(t, c.SyncStream(s)) } }
		copyIn := func() { must(t, c.CopyAsync(dev, pinned, bytes, s)); must(t, c.SyncStream(s)) }
		fillPrefetch := func() {
			must(t, FillHost(man, n, 5))
			must(t, c.Prefetch(man, GPU(0), s))
			must(t, c.SyncStream(s))
		}
		fillPass := func() { must(t, FillHost(man, n, 5)); settle(man)() }
		seq := func(fs ...func()) func() {
			return func() {
				for _, f := range fs {
					f()
				}
			}
		}
		type variant struct {
			name   string
			target *Buffer
			before func()
		}
		variants := []variant{
			{"a dev back-to-back", dev, func() {}},
			{"b dev copy", dev, copyIn},
			{"c dev copy+scratch", dev, seq(copyIn, settle(scratch))},
			{"d dev copy+self", dev, seq(copyIn, settle(dev))},
			{"e dev sleep50ms", dev, func() { time.Sleep(50 * time.Millisecond) }},
			{"f dev sleep50ms+scratch", dev, seq(func() { time.Sleep(50 * time.Millisecond) }, settle(scratch))},
			{"g man back-to-back", man, func() {}},
			{"h man fill+prefetch", man, fillPrefetch},
			{"i man fill+prefetch+scratch", man, seq(fillPrefetch, settle(scratch))},
			{"j man fill+prefetch+self", man, seq(fillPrefetch, settle(man))},
			{"k man fill+pass (reuse)", man, fillPass},
			{"l man fill+pass+scratch", man, seq(fillPass, settle(scratch))},
			{"m man fill+pass+self", man, seq(fillPass, settle(man))},
		}
		for _, v := range variants {
			var ms []float64
			for i := 0; i < 25; i++ {
				v.before()
				must(t, e1.Record(s))
				rmw(v.target)
				must(t, e2.Record(s))
				m, err := ElapsedMs(e1, e2)
				must(t, err)
				if i >= 5 {
					ms = append(ms, m)
				}
			}
			sort.Float64s(ms)
			mean, sd := 0.0, 0.0
			for _, m := range ms {
				mean += m
			}
			mean /= float64(len(ms))
			for _, m := range ms {
				sd += (m - mean) * (m - mean)
			}
			sd = math.Sqrt(sd / float64(len(ms)-1))
			fmt.Printf("DIAG %s %-30s %.0f GB/s (min %.0f max %.0f) cv %.2f%%\n", byteSize(int64(bytes)), v.name,
				2*float64(bytes)/(ms[len(ms)/2]*1e6), 2*float64(bytes)/(ms[len(ms)-1]*1e6), 2*float64(bytes)/(ms[0]*1e6), 100*sd/mean)
		}
		pinned.Free()
		man.Free()
		scratch.Free()
		dev.Free()
	}
}

// coldWay is one way of reaching the cold state for the diagnostics below:
// it returns the set-up's wall ms.
type coldWay struct {
	name string
	cold func(seed uint64) float64
}

// wallMs runs f and returns its wall time in ms.
func wallMs(t *testing.T, f func() error) float64 {
	t0 := time.Now()
	must(t, f())
	return float64(time.Since(t0)) / float64(time.Millisecond)
}

// compareCold interleaves ways trial by trial on the managed 1 GiB buffer
// *man (GPU-resident at the start; a way may replace it), times the cold
// kernel after each way's set-up (behind settling passes on a scratch
// buffer), checks the data the kernel leaves and prints, per way, the
// set-up and cold-kernel medians under tag.
func compareCold(t *testing.T, c *Context, s *Stream, man **Buffer, tag string, ways []coldWay) {
	e1, e2 := newEvents(t, c)
	n := (*man).Bytes() / 8
	scratch, err := c.AllocDevice(256 << 20)
	must(t, err)
	defer scratch.Free()
	must(t, FillHost(*man, n, 1))
	must(t, c.RMW(*man, 1, 1, n, s)) // GPU-resident from here on
	must(t, c.SyncStream(s))
	kept := interleaved(25, 3, len(ways), func(i, w int) []float64 {
		way := ways[w]
		seed := uint64(100*i + w)
		ms := way.cold(seed)
		for k := 0; k < 8; k++ {
			must(t, c.RMW(scratch, 1, 0, 256<<20/8, s))
		}
		must(t, e1.Record(s))
		must(t, c.RMW(*man, 1, 1, n, s))
		must(t, e2.Record(s))
		k, err := ElapsedMs(e1, e2)
		must(t, err)
		if m, err := c.CheckAffine(*man, n, seed, 1, 1, 1, n, s); err != nil || !m.OK() {
			t.Fatalf("%s: data after the cold kernel: %v %v", way.name, m, err)
		}
		return []float64{ms, k}
	})
	q := quantile
	for w, way := range ways {
		fmt.Printf("%s %-30s set-up median %.1f ms; cold kernel median %.2f ms (10th–90th %.2f–%.2f), %.1f GB/s\n",
			tag, way.name, q(kept[w][0], 0.5), q(kept[w][1], 0.5), q(kept[w][1], 0.1), q(kept[w][1], 0.9), 16*float64(n)/q(kept[w][1], 0.5)/1e6)
	}
}

// interleaved runs warmup rounds and then trials rounds of every way: in
// round i the j-th to run is way (i+j) mod ways, so each way follows each
// other equally often. measure runs one way once and returns its parts;
// the result holds, per way and part, the values of the trial rounds.
func interleaved(trials, warmup, ways int, measure func(round, way int) []float64) [][][]float64 {
	kept := make([][][]float64, ways)
	for i := 0; i < warmup+trials; i++ {
		for j := 0; j < ways; j++ {
			w := (i + j) % ways
			parts := measure(i, w)
			if i < warmup {
				continue
			}
			if kept[w] == nil {
				kept[w] = make([][]float64, len(parts))
			}
			for k, v := range parts {
				kept[w][k] = append(kept[w][k], v)
			}
		}
	}
	return kept
}

// quantile is the p-quantile of x (the nearest rank below).
func quantile(x []float64, p float64) float64 {
	y := append([]float64(nil), x...)
	sort.Float64s(y)
	return y[int(p*float64(len(y)-1))]
}

// coldContext opens the GPU for the cold-state diagnostics (UMLAB_PERF=2
// only) with a stream and a managed 1 GiB buffer that the caller frees.
func coldContext(t *testing.T) (*Context, *Stream, *Buffer) {
	if os.Getenv("UMLAB_PERF") != "2" {
		t.Skip("set UMLAB_PERF=2 (GPU node)")
	}
	c := gpuContext(t)
	if !c.Attributes().ConcurrentManagedAccess {
		t.Skip("no concurrent managed access")
	}
	s := newStream(t, c)
	man, err := c.AllocManaged(1 << 30)
	must(t, err)
	return c, s, man
}

// TestDiagHomeFillCold compares, on one machine, the two ways of bringing
// GPU-resident managed data home before a cold trial: a whole-buffer
// prefetch to the CPU followed by FillHost, and HomeFillHost's overlapped
// pieces, so that a difference in the measured cold state shows beside the
// host's noise. UMLAB_PERF=2 only.
func TestDiagHomeFillCold(t *testing.T) {
	c, s, man := coldContext(t)
	defer man.Free()
	n := man.Bytes() / 8
	compareCold(t, c, s, &man, "HOMEFILL", []coldWay{
		{"prefetch home, then FillHost", func(seed uint64) float64 {
			return wallMs(t, func() error {
				if err := c.Prefetch(man, CPU, s); err != nil {
					return err
				}
				if err := c.SyncStream(s); err != nil {
					return err
				}
				return FillHost(man, n, seed)
			})
		}},
		{"HomeFillHost, overlapped", func(seed uint64) float64 {
			return wallMs(t, func() error { _, err := c.HomeFillHost(man, n, seed, s, nil); return err })
		}},
	})
}

// TestDiagColdRealloc measures, on one machine, a cheaper way to reach the
// cold state than bringing GPU-resident data home: free the managed buffer,
// allocate it again and write it on the CPU (first touch, nothing to
// migrate back), interleaved with HomeFillHost, so that a later change of
// umkit's set-up rests on a measured equal cold state. UMLAB_PERF=2 only.
func TestDiagColdRealloc(t *testing.T) {
	c, s, man := coldContext(t)
	defer func() { man.Free() }() // the second way replaces man
	n := man.Bytes() / 8
	compareCold(t, c, s, &man, "REALLOC", []coldWay{
		{"HomeFillHost", func(seed uint64) float64 {
			return wallMs(t, func() error { _, err := c.HomeFillHost(man, n, seed, s, nil); return err })
		}},
		{"free, allocate, FillHost", func(seed uint64) float64 {
			return wallMs(t, func() error {
				if err := man.Free(); err != nil {
					return err
				}
				var err error
				if man, err = c.AllocManaged(n * 8); err != nil {
					return err
				}
				return FillHost(man, n, seed)
			})
		}},
	})
}

// TestDiagFirstTouch measures, on one machine, ways of writing a freshly
// allocated managed buffer on the CPU before a cold trial, interleaved:
// first-touch writes (every page faults into the driver), a prefetch to
// the CPU first (the driver populates the pages in bulk), and
// MADV_POPULATE_WRITE first (the kernel pre-faults them without the
// writes' traps). The write is the largest cost of the memory-state groups
// outside their measurements; a faster way is worth taking only where the
// cold kernel after it is the same. It compares a plain buffer (1 GiB) and
// ones with preferred location CPU, accessed-by the GPU and preferred
// location GPU (256 MiB each): under preferred CPU the cold kernel maps the
// pages through GPU faults, under accessed-by they are mapped for the GPU
// as they become resident. One way prefetches the fresh buffer to the CPU
// range by range, each range on a stream of its own from a thread of its
// own, and writes each range after its prefetch (parallelPrefetchFill).
// UMLAB_PERF=2 only.
func TestDiagFirstTouch(t *testing.T) {
	c, s, man := coldContext(t)
	defer func() { man.Free() }() // every way replaces man
	compareCold(t, c, s, &man, "FIRSTTOUCH", freshWays(t, c, s, &man, nil))
	gpu := GPU(c.Device().Ordinal)
	for _, a := range []struct {
		tag    string
		advice Advice
		loc    Location
	}{{"PREFERCPU", SetPreferredLocation, CPU}, {"ACCESSEDBY", SetAccessedBy, gpu}, {"PREFERGPU", SetPreferredLocation, gpu}} {
		must(t, man.Free())
		var err error
		man, err = c.AllocManaged(256 << 20)
		must(t, err)
		advise := func(b *Buffer) error { return c.Advise(b, a.advice, a.loc) }
		must(t, advise(man))
		compareCold(t, c, s, &man, "FIRSTTOUCH-"+a.tag, freshWays(t, c, s, &man, advise))
	}
}

// freshWays are TestDiagFirstTouch's ways: each frees *man, allocates it
// again (applying advise when set) and writes it on the CPU, after a
// prefetch to the CPU or MADV_POPULATE_WRITE or neither, or range by range
// after each range's prefetch (parallelPrefetchFill). The madvise way is
// left out, with a line saying why, where the kernel refuses it.
func freshWays(t *testing.T, c *Context, s *Stream, man **Buffer, advise func(*Buffer) error) []coldWay {
	n := (*man).Bytes() / 8
	// fresh frees *man, allocates it again with the advice and writes it
	// with write.
	fresh := func(write func(b *Buffer, seed uint64) error) func(seed uint64) float64 {
		return func(seed uint64) float64 {
			return wallMs(t, func() error {
				if err := (*man).Free(); err != nil {
					return err
				}
				b, err := c.AllocManaged(n * 8)
				if err != nil {
					return err
				}
				*man = b
				if advise != nil {
					if err := advise(b); err != nil {
						return err
					}
				}
				return write(b, seed)
			})
		}
	}
	// after writes with FillHost after before.
	after := func(before func(b *Buffer) error) func(b *Buffer, seed uint64) error {
		return func(b *Buffer, seed uint64) error {
			if before != nil {
				if err := before(b); err != nil {
					return err
				}
			}
			return FillHost(b, n, seed)
		}
	}
	prefetch := func(b *Buffer) error {
		if err := c.Prefetch(b, CPU, s); err != nil {
			return err
		}
		return c.SyncStream(s)
	}
	populate := func(b *Buffer) error {
		var errs []error
		var mu sync.Mutex
		parallel(0, b.Bytes()/8, func(lo, hi uint64) { // b's own size: the probe is smaller than man
			p := unsafe.Slice((*byte)(unsafe.Add(b.host, lo*8)), (hi-lo)*8)
			if err := unix.Madvise(p, unix.MADV_POPULATE_WRITE); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		})
		return errors.Join(errs...)
	}
	ways := []coldWay{
		{"allocate, FillHost", fresh(after(nil))},
		{"allocate, prefetch CPU, FillHost", fresh(after(prefetch))},
		{"allocate, parallel prefetch CPU, FillHost", fresh(func(b *Buffer, seed uint64) error { return parallelPrefetchFill(c, b, n, seed) })},
	}
	probe, err := c.AllocManaged(4 << 20)
	must(t, err)
	perr := populate(probe)
	must(t, probe.Free())
	if perr != nil {
		fmt.Printf("FIRSTTOUCH MADV_POPULATE_WRITE refused on managed memory: %v\n", perr)
		return ways
	}
	return append(ways, coldWay{"allocate, populate, FillHost", fresh(after(populate))})
}

// TestDiagPrefetchToCPUSource measures whether the way GPU-written managed
// data became GPU-resident changes the timed prefetch back to the CPU
// (transfer's prefetch d2h): the GPU's fill faulting the CPU-resident pages
// over, against a prefetch to the GPU first and the fill after it. 1 GiB,
// 25 interleaved trials each. UMLAB_PERF=2 only.
func TestDiagPrefetchToCPUSource(t *testing.T) {
	c, s, man := coldContext(t)
	defer man.Free()
	n := man.Bytes() / 8
	e1, e2 := newEvents(t, c)
	must(t, FillHost(man, n, 1))
	ways := []struct {
		name string
		prep func(seed uint64) error
	}{
		{"GPU fill faults the pages over", func(seed uint64) error { return c.Fill(man, n, seed, s) }},
		{"prefetch to GPU, then GPU fill", func(seed uint64) error {
			if err := c.Prefetch(man, GPU(c.Device().Ordinal), s); err != nil {
				return err
			}
			return c.Fill(man, n, seed, s)
		}},
	}
	kept := interleaved(25, 3, len(ways), func(i, w int) []float64 {
		seed := uint64(100*i + w)
		ms := wallMs(t, func() error {
			if err := ways[w].prep(seed); err != nil {
				return err
			}
			return c.SyncStream(s)
		})
		must(t, e1.Record(s))
		must(t, c.Prefetch(man, CPU, s))
		must(t, e2.Record(s))
		k, err := ElapsedMs(e1, e2)
		must(t, err)
		if m, err := CheckAffineHost(man, n, seed, 1, 0, 1, n); err != nil || !m.OK() {
			t.Fatalf("%s: data after the prefetch: %v %v", ways[w].name, m, err)
		}
		return []float64{ms, k}
	})
	for w, way := range ways {
		fmt.Printf("PREFETCHD2H %-30s set-up median %.1f ms; prefetch to CPU median %.2f ms (10th–90th %.2f–%.2f), %.1f GB/s\n",
			way.name, quantile(kept[w][0], 0.5), quantile(kept[w][1], 0.5), quantile(kept[w][1], 0.1), quantile(kept[w][1], 0.9),
			8*float64(n)/quantile(kept[w][1], 0.5)/1e6)
	}
}

// TestDiagRewriteParts splits a cold trial's reallocation (the largest
// cost of the memory-state groups outside their measurements) into the
// free of the GPU-resident buffer, the allocation and the first-touch
// write, the write on 4, 8, 16 and 32 threads interleaved trial by trial,
// to show whether more threads, or which part, could make it cheaper.
// 1 GiB, 25 trials of each. UMLAB_PERF=2 only; it prints, it asserts
// nothing but the data.
func TestDiagRewriteParts(t *testing.T) {
	c, s, man := coldContext(t)
	defer func() { man.Free() }() // every trial replaces man
	n := man.Bytes() / 8
	saved := HostThreads
	defer func() { HostThreads = saved }()
	threads := []int{4, 8, 16, 32}
	parts := interleaved(25, 2, len(threads), func(i, w int) []float64 {
		seed := uint64(100*i + w)
		must(t, FillHost(man, n, seed))
		must(t, c.RMW(man, 1, 1, n, s)) // GPU-resident, as after a cold kernel
		must(t, c.SyncStream(s))
		fr := wallMs(t, man.Free)
		al := wallMs(t, func() error {
			var err error
			man, err = c.AllocManaged(n * 8)
			return err
		})
		HostThreads = threads[w]
		wr := wallMs(t, func() error { return FillHost(man, n, seed) })
		HostThreads = saved
		if m, err := CheckAffineHost(man, n, seed, 1, 0, 1, n); err != nil || !m.OK() {
			t.Fatalf("%d threads: data after the write: %v %v", threads[w], m, err)
		}
		return []float64{fr, al, wr}
	})
	q := quantile
	for w, th := range threads {
		p := parts[w]
		fmt.Printf("REWRITEPARTS 1 GiB %2d threads: free %.1f ms, allocate %.2f ms, write median %.1f ms (10th–90th %.1f–%.1f)\n",
			th, q(p[0], 0.5), q(p[1], 0.5), q(p[2], 0.5), q(p[2], 0.1), q(p[2], 0.9))
	}
}

// parallelPrefetchFill prefetches fresh managed buffer b to the CPU in
// FillHost's ranges, all at once, each on its own stream and OS thread (a
// cgo call holds one), and writes each range after its prefetch: whether
// the driver populates ranges in parallel. On the H200 it did not
// (TestDiagFirstTouch, 2026-12-02: 384.2 ms for 1 GiB against 120.7 ms of
// first-touch writes and 402.2 ms with one whole-buffer prefetch).
func parallelPrefetchFill(c *Context, b *Buffer, n, seed uint64) error {
	parts := splitRange(0, b.bytes/8)
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, p := range parts {
		wg.Add(1)
		go func(i int, lo, hi uint64) {
			defer wg.Done()
			s, err := c.NewStream()
			if err != nil {
				errs[i] = err
				return
			}
			defer s.Destroy()
			end := hi * 8
			if i == len(parts)-1 {
				end = b.bytes
			}
			if err := c.prefetchRange(b, lo*8, end-lo*8, CPU, s); err != nil {
				errs[i] = err
				return
			}
			if err := c.SyncStream(s); err != nil {
				errs[i] = err
				return
			}
			if hi = min(hi, n); lo < hi {
				cFillHost(b.host, lo, hi, seed)
			}
		}(i, p[0], p[1])
	}
	wg.Wait()
	return errors.Join(errs...)
}
