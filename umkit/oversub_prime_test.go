package umkit_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/umlab/umlab/cuda"
	"github.com/umlab/umlab/umkit"
	"github.com/umlab/umlab/umkit/simgpu"
)

// Found live on an H200 (notebook 04, 2026-12-01): the driver takes about
// 100 MiB of device memory at a process's first managed prefetch. When
// oversub was the first group of its process, that happened after free
// memory was shrunk to the capacity, and the 90 % prefetched footprint was
// refused by the allocation guard. Oversub now primes the driver first.
func TestOversubFirstInProcessFitsAfterDriverGrowth(t *testing.T) {
	dev := simgpu.New()
	// The H200 run implied about 160 MiB (3.69 GiB free after a 1 GiB
	// capacity above a 2.80 GiB margin); 300 MiB is more than the 10 % a
	// 90 % footprint leaves of the 2 GiB capacity, so without the priming
	// this run is refused.
	dev.DriverManagedBytes = 300 << 20
	dir := t.TempDir()
	_, err := umkit.Run(ctx, umkit.Options{Device: dev, Out: dir, Groups: []string{"oversub"}, Quick: true, Trials: umkit.N(1), Warmups: umkit.N(1),
		Warn: func(string) {}})
	if err != nil {
		t.Fatalf("quick oversub, first group of the process, with driver growth: %v", err)
	}
	if dev.Live() != 0 {
		t.Errorf("%d buffers leaked", dev.Live())
	}
}

// noRealloc is a device without the optional Reallocator.
type noRealloc struct{ umkit.Device }

// Found on an H200 (umbench run --quick, 2026-12-02): after the first
// prefetch of a 918 MiB (90 %) footprint to the GPU and its free, free
// memory had dropped about 105 MiB since the 1021 MiB capacity was set, and
// the guard refused the same-size reallocation of the next trial, about
// 4 MiB short. Reallocate may use a quarter of the margin: the prefetched
// 90 % configuration runs
// to the end reallocated before every trial (and brought home, which never
// reallocates); a device that cannot reallocate shows the refusal.
func TestOversubReallocatesAfterDriverKeepsMemory(t *testing.T) {
	run := func(dev umkit.Device, rewrite string) error {
		cfg := umkit.OversubConfig{Common: umkit.Common{Warmups: umkit.N(1), Trials: umkit.N(3)}, StateSetup: umkit.StateSetup{Rewrite: rewrite},
			CapacityBytes: 1 << 30, Percents: []float64{90}, Patterns: []string{"streaming"}, Modes: []string{"managed_prefetch"}}
		df, err := umkit.Measure(ctx, dev, cfg)
		if err == nil && df.Nrow() != 3 {
			t.Errorf("--rewrite %s: %d rows, want 3", rewrite, df.Nrow())
		}
		return err
	}
	keeps := func() *simgpu.Device {
		dev := simgpu.New()
		dev.KeptAfterFree, dev.KeptAfterFreeFrom = 110<<20, 512<<20
		return dev
	}
	for _, rewrite := range []string{umkit.RewriteReallocate, umkit.RewriteHome} {
		dev := keeps()
		if err := run(dev, rewrite); err != nil {
			t.Errorf("prefetched 90 %% footprint, --rewrite %s, with memory the driver keeps: %v", rewrite, err)
		}
		if dev.Live() != 0 {
			t.Errorf("--rewrite %s: %d buffers leaked", rewrite, dev.Live())
		}
	}
	dev := keeps()
	err := run(noRealloc{dev}, umkit.RewriteReallocate)
	if !errors.Is(err, cuda.ErrWouldOversubscribe) || !strings.Contains(err.Error(), "managed_prefetch 90%") {
		t.Errorf("without Reallocate: %v, want the 90 %% prefetched footprint refused by the guard", err)
	}
	if dev.Live() != 0 {
		t.Errorf("without Reallocate: %d buffers leaked", dev.Live())
	}
}
