package cupti

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/umlab/umlab/cuda"
	"github.com/umlab/umlab/results"
)

var (
	gpuOnce sync.Once
	gpuCol  *Collector
	gpuCtx  *cuda.Context
	gpuErr  error
)

// gpu opens the collector, then a context on device 0 (the order Open
// documents), or skips the test with the reason: no driver, no GPU or no
// usable libcupti. With UMLAB_REQUIRE_GPU=1 the skip becomes a failure.
func gpu(t *testing.T) (*Collector, *cuda.Context) {
	t.Helper()
	gpuOnce.Do(func() {
		n, err := cuda.DeviceCount()
		if err == nil && n == 0 {
			err = cuda.ErrNoDevice
		}
		if err != nil {
			gpuErr = fmt.Errorf("no GPU: %w", err)
			return
		}
		if us, err := strconv.Atoi(os.Getenv("UMLAB_CUPTI_DRAIN_US")); err == nil && us > 0 {
			drainInterval = time.Duration(us) * time.Microsecond // diagnostic
		}
		kinds, err := envKinds()
		if err != nil {
			gpuErr = err
			return
		}
		if gpuCol, gpuErr = OpenKinds(kinds...); gpuErr != nil {
			return
		}
		var d cuda.Device
		if d, gpuErr = cuda.GetDevice(0); gpuErr == nil {
			gpuCtx, gpuErr = cuda.NewContext(d)
		}
		if gpuErr == nil && os.Getenv("UMLAB_CUPTI_PRIME") != "0" {
			gpuErr = prime(gpuCol, gpuCtx)
		}
	})
	if gpuErr != nil {
		if os.Getenv("UMLAB_REQUIRE_GPU") == "1" {
			t.Fatalf("UMLAB_REQUIRE_GPU=1 but the counters cannot run: %v", gpuErr)
		}
		t.Skipf("skipped: %v", gpuErr)
	}
	return gpuCol, gpuCtx
}

// prime counts a cold migration of B and throws the counts away before
// the tests, as umkit does before a run's counter passes: the first
// collection of a process can lose records (drainInterval).
// UMLAB_CUPTI_PRIME=0 skips it, to see that.
func prime(col *Collector, c *cuda.Context) error {
	const n = B / 8
	x, err := c.AllocManaged(n * 8)
	if err != nil {
		return err
	}
	defer x.Free()
	if err := cuda.FillHost(x, n, 1); err != nil {
		return err
	}
	if err := col.Start(); err != nil {
		return err
	}
	err = errors.Join(c.RMW(x, 1, 1, n, nil), c.Synchronize())
	_, serr := col.Stop()
	return errors.Join(err, serr)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// B is the managed buffer of the GPU tests.
const B = 256 << 20

func managed(t *testing.T, c *cuda.Context) *cuda.Buffer {
	t.Helper()
	x, err := c.AllocManaged(B)
	must(t, err)
	t.Cleanup(func() { x.Free() })
	return x
}

// counted runs work between Start and Stop, synchronising before Stop.
func counted(t *testing.T, col *Collector, c *cuda.Context, work func() error) Counts {
	t.Helper()
	must(t, col.Start())
	err := work()
	if err == nil {
		err = c.Synchronize()
	}
	counts, serr := col.Stop()
	must(t, errors.Join(err, serr))
	return counts
}

func logCounts(t *testing.T, what string, c Counts, ms float64) {
	t.Helper()
	t.Logf("%s (%.2f ms): %v; migrated %.1f MiB (%.3f of B); transfer records %d, record size %d, buffers %d, other %d",
		what, ms, c, float64(c.MigratedBytes())/(1<<20), float64(c.MigratedBytes())/B, c.TransferRecords, c.RecordSize, c.Buffers, c.OtherRecords)
}

// layoutFits checks that the records CUPTI wrote are as far apart as the
// layout chosen for its version says.
func layoutFits(t *testing.T, col *Collector, c Counts) {
	t.Helper()
	if c.SpacingErrors != 0 || (c.RecordSize != 0 && c.RecordSize != col.Library().Layout.Size) {
		t.Errorf("records are %d bytes apart (%d spacing errors), but %s says %d: the layout table is wrong for CUPTI API %d",
			c.RecordSize, c.SpacingErrors, col.Library().Layout.Name, col.Library().Layout.Size, col.Library().APIVersion)
	}
	if !c.Complete() {
		t.Errorf("records lost or unreadable: %+v", c)
	}
}

func TestGPULibrary(t *testing.T) {
	col, c := gpu(t)
	t.Logf("libcupti: %v", col.Library())
	t.Logf("counter kinds: %v; device %s", col.Kinds(), c.Attributes().Name)
	if _, err := Open(); !errors.Is(err, ErrBusy) {
		t.Errorf("a second Open: %v, want ErrBusy", err)
	}
	if _, err := col.Snapshot(); !errors.Is(err, ErrState) {
		t.Errorf("Snapshot before Start: %v", err)
	}
}

// TestGPUColdRMW: CPU-initialised managed memory, one read-modify-write
// kernel. Every page migrates host to device once, on GPU faults.
func TestGPUColdRMW(t *testing.T) {
	col, c := gpu(t)
	x := managed(t, c)
	const n = B / 8
	seed := rand.Uint64()
	must(t, cuda.FillHost(x, n, seed))
	t0 := time.Now()
	counts := counted(t, col, c, func() error { return c.RMW(x, 1, 1, n, nil) })
	logCounts(t, "cold RMW of 256 MiB", counts, float64(time.Since(t0).Microseconds())/1000)
	m, err := c.CheckAffine(x, n, seed, 1, 1, 1, n, nil)
	must(t, err)
	if !m.OK() {
		t.Fatalf("RMW result: %v", m)
	}
	if d := float64(counts.BytesHtoD) - B; d > B/10 || d < -B/10 {
		t.Errorf("host to device %d bytes, want B = %d within 10%%", counts.BytesHtoD, B)
	}
	if counts.GPUPageFaultGroups == 0 || counts.GPUPageFaults == 0 {
		t.Errorf("no GPU page faults recorded for a cold kernel: %+v", counts)
	}
	layoutFits(t, col, counts)
}

// TestGPUPrefetched: the prefetch migrates (counted in a snapshot), and the
// kernel after it faults on nothing.
func TestGPUPrefetched(t *testing.T) {
	col, c := gpu(t)
	x := managed(t, c)
	const n = B / 8
	seed := rand.Uint64()
	must(t, cuda.FillHost(x, n, seed))
	must(t, col.Start())
	must(t, c.Prefetch(x, cuda.GPU(0), nil))
	must(t, c.Synchronize())
	pre, err := col.Snapshot()
	must(t, err)
	must(t, c.RMW(x, 1, 1, n, nil))
	must(t, c.Synchronize())
	all, err := col.Stop()
	must(t, err)
	kernel := all.Sub(pre)
	logCounts(t, "prefetch of 256 MiB", pre, 0)
	logCounts(t, "RMW after the prefetch", kernel, 0)
	if kernel.GPUPageFaults != 0 || kernel.GPUPageFaultGroups != 0 {
		t.Errorf("the kernel after a prefetch faulted: %+v", kernel)
	}
	if kernel.BytesHtoD > B/100 {
		t.Errorf("the kernel after a prefetch migrated %d bytes host to device", kernel.BytesHtoD)
	}
	if d := float64(pre.BytesHtoD) - B; d > B/10 || d < -B/10 {
		t.Errorf("the prefetch moved %d bytes host to device by CUPTI's count, want B = %d within 10%% "+
			"(if 0: CUPTI does not report prefetches as migrations, and managed_prefetch rows undercount)", pre.BytesHtoD, B)
	}
	m, err := c.CheckAffine(x, n, seed, 1, 1, 1, n, nil)
	must(t, err)
	if !m.OK() {
		t.Fatalf("RMW result: %v", m)
	}
	layoutFits(t, col, all)
}

// TestGPUPageTouchAmplification: touching one float64 per 4 KiB moves about
// the whole buffer; touching one per 2 MiB still moves at least a 64 KiB big
// page per touch, so migrated bytes per useful byte grow with the interval.
func TestGPUPageTouchAmplification(t *testing.T) {
	col, c := gpu(t)
	x := managed(t, c)
	const n = B / 8
	ratio := map[uint64]float64{}
	for _, interval := range []uint64{4 << 10, 2 << 20} {
		seed := rand.Uint64()
		must(t, cuda.FillHost(x, n, seed))
		active := uint64(B) / interval
		t0 := time.Now()
		counts := counted(t, col, c, func() error { return c.PageTouch(x, 1, 1, interval, active, nil) })
		useful := active * 16
		ratio[interval] = float64(counts.MigratedBytes()) / float64(useful)
		logCounts(t, fmt.Sprintf("page touch every %s (%d touches, %d useful bytes)", results.FormatBytes(int64(interval)), active, useful),
			counts, float64(time.Since(t0).Microseconds())/1000)
		t.Logf("  migrated bytes per useful byte: %.1f; GPU fault groups per touch: %.2f",
			ratio[interval], float64(counts.GPUPageFaultGroups)/float64(active))
		m, err := c.CheckAffine(x, n, seed, 1, 1, interval/8, active, nil)
		must(t, err)
		if !m.OK() {
			t.Fatalf("page touch result: %v", m)
		}
		if counts.MigratedBytes() < useful {
			t.Errorf("every %d bytes: %d bytes migrated for %d useful", interval, counts.MigratedBytes(), useful)
		}
		layoutFits(t, col, counts)
	}
	if !(ratio[2<<20] > ratio[4<<10]) {
		t.Errorf("migrated per useful byte: %.1f every 2 MiB, %.1f every 4 KiB; want growth with the interval", ratio[2<<20], ratio[4<<10])
	}
}

// envKinds returns the counter kinds UMLAB_CUPTI_KINDS lists (numbers,
// comma-separated), or AllKinds when it is unset.
func envKinds() ([]CounterKind, error) {
	v := os.Getenv("UMLAB_CUPTI_KINDS")
	if v == "" {
		return AllKinds, nil
	}
	var kinds []CounterKind
	for _, f := range strings.Split(v, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("UMLAB_CUPTI_KINDS=%q: %q is not a counter kind number (allowed: %v)", v, f, AllKinds)
		}
		kinds = append(kinds, CounterKind(k))
	}
	return kinds, nil
}

// MigratedBytes is host-to-device plus device-to-host plus device-to-device.
func (c Counts) MigratedBytes() uint64 { return c.BytesHtoD + c.BytesDtoH + c.BytesDtoD }

// Reconfigure replaces the counter kinds collected, between windows (not
// while collecting): the kinds no longer wanted are switched off first.
func (c *Collector) Reconfigure(want ...CounterKind) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.usable("Reconfigure"); err != nil {
		return err
	}
	if c.running {
		return fmt.Errorf("%w: Reconfigure while collecting", ErrState)
	}
	if len(want) == 0 {
		return fmt.Errorf("cupti: Reconfigure: no counter kinds given; allowed: %v", AllKinds)
	}
	if err := check("cuptiActivityConfigureUnifiedMemoryCounter(off)", cConfigure(c.kinds, false)); err != nil {
		return err
	}
	if err := check("cuptiActivityConfigureUnifiedMemoryCounter", cConfigure(want, true)); err != nil {
		return errors.Join(err, check("cuptiActivityConfigureUnifiedMemoryCounter(restore)", cConfigure(c.kinds, true)))
	}
	c.kinds = append([]CounterKind(nil), want...)
	return nil
}

// Kinds returns the counter kinds configured.
func (c *Collector) Kinds() []CounterKind { return append([]CounterKind(nil), c.kinds...) }
