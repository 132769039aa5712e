package cuda

import (
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	ctxOnce sync.Once
	testCtx *Context
	ctxErr  error
)

// gpuContext returns a context on device 0, or skips the test with the
// reason when there is no usable driver or GPU. With UMLAB_REQUIRE_GPU=1 the
// skip becomes a failure.
func gpuContext(t *testing.T) *Context {
	t.Helper()
	ctxOnce.Do(func() {
		var d Device
		if d, ctxErr = GetDevice(0); ctxErr == nil {
			testCtx, ctxErr = NewContext(d)
		}
	})
	if ctxErr != nil {
		if os.Getenv("UMLAB_REQUIRE_GPU") == "1" {
			t.Fatalf("UMLAB_REQUIRE_GPU=1 but no GPU: %v", ctxErr)
		}
		t.Skipf("no GPU: %v", ctxErr)
	}
	return testCtx
}

// freshSeed draws a new seed per run, so kernels are checked on new data.
func freshSeed() uint64 { return rand.Uint64() }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// newStream returns a stream of c, destroyed when the test ends.
func newStream(t *testing.T, c *Context) *Stream {
	t.Helper()
	s, err := c.NewStream()
	must(t, err)
	t.Cleanup(func() { s.Destroy() })
	return s
}

// newEvents returns a start and an end event of c, destroyed when the test
// ends.
func newEvents(t *testing.T, c *Context) (start, end *Event) {
	t.Helper()
	start, err := c.NewEvent()
	must(t, err)
	t.Cleanup(func() { start.Destroy() })
	end, err = c.NewEvent()
	must(t, err)
	t.Cleanup(func() { end.Destroy() })
	return start, end
}

func TestGPUDeviceAndAttributes(t *testing.T) {
	c := gpuContext(t)
	a := c.Attributes()
	t.Logf("%s cc %s, %d SMs, %s, bus %d bits, memclk %d kHz (peak %.0f GB/s), UUID %s, PCI %s",
		a.Name, a.ComputeCapability(), a.Multiprocessors, byteSize(int64(a.TotalMemory)), a.MemoryBusWidthBits,
		a.MemoryClockKHz, a.PeakMemoryGBps(), a.UUID, a.PCIBusID)
	t.Logf("managed=%t concurrent=%t pageable=%t hostPT=%t atomics=%t directHost=%t mapHost=%t numa=%d",
		a.ManagedMemory, a.ConcurrentManagedAccess, a.PageableMemoryAccess, a.PageableUsesHostPageTables,
		a.HostNativeAtomics, a.DirectManagedAccessFromHost, a.CanMapHostMemory, a.HostNUMAID)
	if a.Name == "" || a.Multiprocessors <= 0 || a.TotalMemory == 0 || a.ComputeMajor < 7 {
		t.Fatalf("implausible attributes: %+v", a)
	}
	if !strings.HasPrefix(a.UUID, "GPU-") || len(a.UUID) != 40 {
		t.Errorf("UUID %q", a.UUID)
	}
	v, err := DriverVersion()
	must(t, err)
	v2, _ := UsesV2MemoryAPI()
	t.Logf("driver CUDA %s, v2 memory API %t", versionString(v), v2)
	if v2 != (v >= 12020) {
		t.Errorf("v2 API use %t for driver %d", v2, v)
	}
	load, jit := c.ModuleLoadTime()
	t.Logf("module load %v, JIT %v", load, jit)
	if load <= 0 {
		t.Error("module load time not recorded")
	}
	free, total, err := c.MemInfo()
	must(t, err)
	if free == 0 || free > total {
		t.Errorf("MemInfo free %d total %d", free, total)
	}
	if _, err := GetDevice(1 << 20); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("GetDevice(huge): %v", err)
	}
	must(t, Init()) // idempotent
}

func TestGPUKernelsAgainstCPUReference(t *testing.T) {
	c := gpuContext(t)
	s := newStream(t, c)
	// An odd size exercises the vector kernels' tail; it spans many blocks.
	const n = 3<<20 + 5
	alloc := func() *Buffer {
		b, err := c.AllocDevice(n * 8)
		must(t, err)
		t.Cleanup(func() { b.Free() })
		return b
	}
	a, b, cc := alloc(), alloc(), alloc()
	host, err := c.AllocHost(n*8, false)
	must(t, err)
	defer host.Free()
	sa, sb, sc := freshSeed(), freshSeed(), freshSeed()
	fill := func(x *Buffer, seed uint64) { must(t, c.Fill(x, n, seed, s)) }
	// toHost copies x back and checks it with the CPU loop.
	expectAffine := func(what string, x *Buffer, seed uint64, mul, add float64, stride, active uint64) {
		t.Helper()
		must(t, c.CopyAsync(host, x, n*8, s))
		must(t, c.SyncStream(s))
		m, err := CheckAffineHost(host, n, seed, mul, add, stride, active)
		must(t, err)
		if !m.OK() {
			t.Errorf("%s: CPU reference: %v", what, m)
		}
		dm, err := c.CheckAffine(x, n, seed, mul, add, stride, active, s)
		must(t, err)
		if dm != m {
			t.Errorf("%s: device check %v, CPU check %v", what, dm, m)
		}
	}

	fill(a, sa)
	expectAffine("fill", a, sa, 1, 0, 1, n)
	// The fill agrees with the CPU's formula element by element.
	xs, _ := host.Float64s()
	for _, i := range []int{0, 1, n / 3, n - 1} {
		if xs[i] != seedValueGo(sa, uint64(i)) {
			t.Fatalf("device fill x[%d]=%v, CPU formula %v", i, xs[i], seedValueGo(sa, uint64(i)))
		}
	}

	must(t, c.StreamCopy(cc, a, n, s))
	expectAffine("copy", cc, sa, 1, 0, 1, n)

	must(t, c.StreamScale(b, a, 4, n, s))
	expectAffine("scale", b, sa, 4, 0, 1, n)

	fill(b, sb)
	fill(cc, sc)
	must(t, c.StreamAdd(b, cc, a, n, s)) // a = b + c
	must(t, c.CopyAsync(host, a, n*8, s))
	must(t, c.SyncStream(s))
	if m, _ := CheckTriadHost(host, n, sb, sc, 1); !m.OK() {
		t.Errorf("add: %v", m)
	}

	for _, triad := range []func(a, b, cc *Buffer, s float64, n uint64, st *Stream) error{c.StreamTriad, c.TriadNaive} {
		fill(a, sa) // poison: a holds unrelated values before the triad
		must(t, triad(a, b, cc, 3, n, s))
		must(t, c.CopyAsync(host, a, n*8, s))
		must(t, c.SyncStream(s))
		m, _ := CheckTriadHost(host, n, sb, sc, 3)
		dm, err := c.CheckTriad(a, n, sb, sc, 3, s)
		must(t, err)
		if !m.OK() || dm != m {
			t.Errorf("triad: CPU %v, device %v", m, dm)
		}
	}

	// The input-reading check agrees with the seeded one, and finds corruption.
	must(t, c.StreamTriad(a, b, cc, 5, n, s))
	if m, err := c.CheckCombo(a, b, cc, 5, n, s); err != nil || !m.OK() {
		t.Errorf("CheckCombo on a correct triad: %v %v", m, err)
	}
	if m, _ := c.CheckCombo(a, b, cc, 4, n, s); m.Count != n {
		t.Errorf("CheckCombo with the wrong scalar: %v, want all %d wrong", m, n)
	}
	must(t, c.StreamCopy(a, b, n, s))
	if m, err := c.CheckCombo(a, b, nil, 0, n, s); err != nil || !m.OK() {
		t.Errorf("CheckCombo on a copy: %v %v", m, err)
	}
	if m, _ := c.CheckCombo(a, cc, nil, 0, n, s); m.OK() {
		t.Error("CheckCombo of a copy against the wrong source passed")
	}

	fill(a, sa)
	must(t, c.RMW(a, 2, 1, n, s))
	expectAffine("rmw", a, sa, 2, 1, 1, n)

	for _, stride := range []uint64{1, 2, 7, 64, 1024} {
		fill(a, sa)
		active := (n-1)/stride + 1
		must(t, c.Strided(a, 1, 5, stride, active, s))
		expectAffine("strided", a, sa, 1, 5, stride, active)
	}

	for _, interval := range []uint64{4096, 65536, 2 << 20} {
		fill(a, sa)
		step := interval / 8
		active := (n-1)/step + 1
		must(t, c.PageTouch(a, 1, 9, interval, active, s))
		expectAffine("page_touch", a, sa, 1, 9, step, active)
	}

	idx, err := c.AllocDevice(n * 8)
	must(t, err)
	defer idx.Free()
	must(t, c.PermFill(idx, n, freshSeed(), s))
	pm, err := c.CheckPerm(idx, n, s)
	must(t, err)
	if !pm.OK() {
		t.Fatalf("PermFill is not a permutation: %v", pm)
	}
	// The permutation is a shuffle, not the identity.
	ih, err := c.AllocHost(n*8, false)
	must(t, err)
	defer ih.Free()
	must(t, c.Copy(ih, idx, n*8))
	iv, _ := ih.Uint64s()
	fixed := 0
	for i, v := range iv {
		if uint64(i) == v {
			fixed++
		}
	}
	if fixed > n/100 {
		t.Errorf("%d fixed points in %d: not shuffled", fixed, n)
	}
	// Corrupt the permutation: the check must see a duplicate.
	iv[10] = iv[11]
	must(t, c.Copy(idx, ih, n*8))
	if pm, _ := c.CheckPerm(idx, n, s); pm.Count != 1 {
		t.Errorf("duplicate index not found: %v", pm)
	}
	must(t, c.PermFill(idx, n, freshSeed(), s))
	fill(a, sa)
	must(t, c.Random(a, idx, 2, 3, n, s))
	expectAffine("random", a, sa, 2, 3, 1, n)

	// The device check finds corruption.
	fill(a, sa)
	must(t, c.Copy(host, a, n*8))
	xs[12345] = -1
	must(t, c.Copy(a, host, n*8))
	if m, _ := c.CheckAffine(a, n, sa, 1, 0, 1, n, s); m.Count != 1 || m.First != 12345 {
		t.Errorf("device check on corrupted data: %v", m)
	}
}

func TestGPUCopiesEveryDirection(t *testing.T) {
	c := gpuContext(t)
	const n = 1<<20 + 3
	seed := freshSeed()
	dev1, err := c.AllocDevice(n * 8)
	must(t, err)
	defer dev1.Free()
	dev2, err := c.AllocDevice(n * 8)
	must(t, err)
	defer dev2.Free()
	man, err := c.AllocManaged(n * 8)
	must(t, err)
	defer man.Free()
	kinds := map[string]func() (*Buffer, error){
		"pinned":   func() (*Buffer, error) { return c.AllocHost(n*8, false) },
		"mapped":   func() (*Buffer, error) { return c.AllocHost(n*8, true) },
		"pageable": func() (*Buffer, error) { return c.AllocPageable(n * 8) },
	}
	s := newStream(t, c)
	for name, alloc := range kinds {
		src, err := alloc()
		must(t, err)
		dst, err := alloc()
		must(t, err)
		must(t, FillHost(src, n, seed))
		// host → device → device → managed → device → host, synchronous and on a stream.
		must(t, c.Copy(dev1, src, n*8))
		must(t, c.CopyAsync(dev2, dev1, n*8, s))
		must(t, c.CopyAsync(man, dev2, n*8, s))
		must(t, c.SyncStream(s))
		if m, _ := CheckAffineHost(man, n, seed, 1, 0, 1, n); !m.OK() {
			t.Errorf("%s: managed copy read on the CPU: %v", name, m)
		}
		must(t, c.Copy(dev1, man, n*8))
		must(t, c.CopyAsync(dst, dev1, n*8, s))
		must(t, c.SyncStream(s))
		if m, _ := CheckAffineHost(dst, n, seed, 1, 0, 1, n); !m.OK() {
			t.Errorf("%s: round trip: %v", name, m)
		}
		must(t, src.Free())
		must(t, dst.Free())
	}
	if err := c.CopyAsync(dev1, dev2, n*8+8, s); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("oversized copy: %v", err)
	}
}

func TestGPUMappedHostIsReadByKernels(t *testing.T) {
	c := gpuContext(t)
	const n = 1 << 20
	h, err := c.AllocHost(n*8, true)
	must(t, err)
	defer h.Free()
	if h.DevicePtr() == 0 {
		t.Fatal("mapped memory has no device pointer")
	}
	seed := freshSeed()
	must(t, FillHost(h, n, seed))
	must(t, c.RMW(h, 1, 7, n, nil)) // the GPU reads and writes host memory in place
	must(t, c.Synchronize())
	if m, _ := CheckAffineHost(h, n, seed, 1, 7, 1, n); !m.OK() {
		t.Errorf("mapped rmw: %v", m)
	}
}

func TestGPUManagedPlacementIsObservable(t *testing.T) {
	c := gpuContext(t)
	a := c.Attributes()
	if !a.ConcurrentManagedAccess {
		t.Skip("no concurrent managed access: prefetch is unsupported")
	}
	const n = 8 << 20 // 64 MiB
	m, err := c.AllocManaged(n * 8)
	must(t, err)
	defer m.Free()
	gpu := GPU(c.Device().Ordinal)
	ra, err := c.RangeAttributes(m)
	must(t, err)
	t.Logf("fresh: %v", ra)
	if ra.PreferredLocation != NoLocation || ra.LastPrefetch != NoLocation || len(ra.AccessedBy) != 0 {
		t.Errorf("fresh allocation has attributes: %v", ra)
	}
	seed := freshSeed()
	must(t, FillHost(m, n, seed))
	must(t, c.Prefetch(m, gpu, nil))
	must(t, c.Synchronize())
	ra, _ = c.RangeAttributes(m)
	if ra.LastPrefetch != gpu {
		t.Errorf("after prefetch to the GPU: %v", ra)
	}
	must(t, c.RMW(m, 1, 1, n, nil))
	must(t, c.Prefetch(m, CPU, nil))
	must(t, c.Synchronize())
	ra, _ = c.RangeAttributes(m)
	if ra.LastPrefetch != CPU {
		t.Errorf("after prefetch to the CPU: %v", ra)
	}
	if mm, _ := CheckAffineHost(m, n, seed, 1, 1, 1, n); !mm.OK() {
		t.Errorf("managed data after GPU pass and migration back: %v", mm)
	}
	must(t, c.Advise(m, SetPreferredLocation, gpu))
	must(t, c.Advise(m, SetAccessedBy, gpu))
	must(t, c.Advise(m, SetReadMostly, NoLocation))
	ra, _ = c.RangeAttributes(m)
	t.Logf("advised: %v", ra)
	if ra.PreferredLocation != gpu || !ra.ReadMostly || len(ra.AccessedBy) != 1 || ra.AccessedBy[0] != gpu {
		t.Errorf("advice not visible: %v", ra)
	}
	must(t, c.Advise(m, UnsetReadMostly, NoLocation))
	must(t, c.Advise(m, UnsetAccessedBy, gpu))
	must(t, c.Advise(m, SetPreferredLocation, CPU))
	ra, _ = c.RangeAttributes(m)
	if ra.PreferredLocation != CPU || ra.ReadMostly || len(ra.AccessedBy) != 0 {
		t.Errorf("after unsets and preferred CPU: %v", ra)
	}
	must(t, c.Advise(m, UnsetPreferredLocation, CPU))
	ra, _ = c.RangeAttributes(m)
	if ra.PreferredLocation != NoLocation {
		t.Errorf("after unset preferred: %v", ra)
	}
	dev, err := c.AllocDevice(1024)
	must(t, err)
	defer dev.Free()
	if err := c.Prefetch(dev, gpu, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("prefetch of device memory: %v", err)
	}
	if err := c.Advise(m, SetPreferredLocation, NoLocation); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("advice without location: %v", err)
	}
}

func TestGPUEventsTime(t *testing.T) {
	c := gpuContext(t)
	const n = 32 << 20
	b, err := c.AllocDevice(n * 8)
	must(t, err)
	defer b.Free()
	s := newStream(t, c)
	e1, e2 := newEvents(t, c)
	must(t, e1.Record(s))
	must(t, c.RMW(b, 1, 1, n, s))
	must(t, e2.Record(s))
	ms, err := ElapsedMs(e1, e2)
	must(t, err)
	gbps := 2 * n * 8 / (ms * 1e6)
	t.Logf("rmw of 256 MiB: %.3f ms, %.0f GB/s", ms, gbps)
	if ms <= 0 || gbps > 20000 {
		t.Errorf("implausible time %v ms", ms)
	}
}

func TestGPUGuardsAndArguments(t *testing.T) {
	c := gpuContext(t)
	free, _, err := c.MemInfo()
	must(t, err)
	// Asking for all free memory leaves no margin: refused before any driver call.
	_, err = c.AllocManaged(free)
	var oe *OversubscribeError
	if !errors.As(err, &oe) || !errors.Is(err, ErrWouldOversubscribe) || oe.Free == 0 {
		t.Fatalf("managed allocation of all free memory: %v", err)
	}
	if _, err := c.AllocDevice(free); !errors.Is(err, ErrWouldOversubscribe) {
		t.Fatalf("device allocation of all free memory: %v", err)
	}
	if _, err := c.AllocDevice(0); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("zero allocation: %v", err)
	}
	b, err := c.AllocDevice(4096)
	must(t, err)
	defer b.Free()
	if err := c.RMW(b, 1, 1, 513, nil); !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), KernelRMW) {
		t.Errorf("kernel past the buffer: %v", err)
	}
	if err := c.Strided(b, 1, 1, 0, 1, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("stride 0: %v", err)
	}
	if err := c.PageTouch(b, 1, 1, 12, 1, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("page interval 12: %v", err)
	}
	if err := c.Launch(KernelRMW, Dim{0, 1, 1}, Dim{256, 1, 1}, nil, b.DevicePtr(), 0, 0, 8); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("empty grid: %v", err)
	}
	if err := c.Launch(KernelRMW, Dim{1, 1, 1}, Dim{2048, 1, 1}, nil, b.DevicePtr(), 0, 0, 8); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("2048-thread block: %v", err)
	}
	if err := c.Launch("no_such_kernel", Dim{1, 1, 1}, Dim{1, 1, 1}, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("unknown kernel: %v", err)
	}
	if _, err := b.Float64s(); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("CPU view of device memory: %v", err)
	}
	if err := FillHost(b, 8, 1); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("CPU fill of device memory: %v", err)
	}
}

// HomeFillHost leaves the data as a prefetch home and FillHost would: on
// the CPU, holding the seed values (beyond n: what the GPU left), and the
// write time it reports is at most the call's own.
func TestGPUHomeFillHost(t *testing.T) {
	c := gpuContext(t)
	if !c.Attributes().ConcurrentManagedAccess {
		t.Skip("no concurrent managed access: prefetch is unsupported")
	}
	const total = 100<<20/8 + 3 // 100 MiB and a bit: four pieces, the last one short
	m, err := c.AllocManaged(total * 8)
	must(t, err)
	defer m.Free()
	s := newStream(t, c)
	old, seed := freshSeed(), freshSeed()
	for _, n := range []uint64{total, total - 5<<20} {
		must(t, FillHost(m, total, old))
		must(t, c.Prefetch(m, GPU(c.Device().Ordinal), s))
		must(t, c.RMW(m, 1, 1, total, s)) // resident on the GPU, old + 1
		must(t, c.SyncStream(s))
		t0 := time.Now()
		ms, err := c.HomeFillHost(m, n, seed, s, nil)
		must(t, err)
		wall := time.Since(t0)
		if ms <= 0 || ms > float64(wall)/float64(time.Millisecond) {
			t.Errorf("n = %d: write time %.3f ms, call %v", n, ms, wall)
		}
		ra, err := c.RangeAttributes(m)
		must(t, err)
		if ra.LastPrefetch != CPU {
			t.Errorf("n = %d: after HomeFillHost: %v", n, ra)
		}
		x, err := m.Float64s()
		must(t, err)
		for _, i := range []uint64{0, 1, n / 2, n - 1, n, total - 1} {
			want := SeedValue(seed, i)
			if i >= n {
				want = SeedValue(old, i) + 1
			}
			if i < total && x[i] != want {
				t.Errorf("n = %d: x[%d] = %v, want %v", n, i, x[i], want)
			}
		}
		if mm, _ := CheckAffineHost(m, n, seed, 1, 0, 1, n); !mm.OK() {
			t.Errorf("n = %d: %v", n, mm)
		}
	}
	if _, err := c.HomeFillHost(m, total+1, seed, s, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("n beyond the buffer: %v", err)
	}
}

// TestReallocManaged: the replacement has the old buffer's size and is
// usable, the old one is freed, and anything but this context's managed
// memory is refused before anything is freed.
func TestReallocManaged(t *testing.T) {
	c := gpuContext(t)
	const bytes = 4 << 20
	old, err := c.AllocManaged(bytes)
	must(t, err)
	must(t, FillHost(old, bytes/8, 1))
	b, err := c.ReallocManaged(old)
	must(t, err)
	defer b.Free()
	if b.Bytes() != bytes || b.Kind() != ManagedMemory {
		t.Errorf("replacement: %d bytes of %s memory, want %d managed", b.Bytes(), b.Kind(), bytes)
	}
	if err := old.Free(); err == nil {
		t.Error("the replaced buffer could be freed again")
	}
	must(t, FillHost(b, bytes/8, 2))
	if m, err := CheckAffineHost(b, bytes/8, 2, 1, 0, 1, bytes/8); err != nil || !m.OK() {
		t.Errorf("replacement's data: %v %v", m, err)
	}
	d, err := c.AllocDevice(bytes)
	must(t, err)
	defer d.Free()
	if _, err := c.ReallocManaged(d); err == nil {
		t.Error("device memory reallocated as managed")
	}
	if _, err := c.ReallocManaged(old); err == nil {
		t.Error("a freed buffer reallocated")
	}
}
