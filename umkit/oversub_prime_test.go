package umkit_test

import (
	"testing"

	"github.com/umlab/umlab/internal/fakegpu"
	"github.com/umlab/umlab/umkit"
)

// Found live on an H200 (notebook 04, 2026-12-01): the driver takes about
// 100 MiB of device memory at a process's first managed prefetch. When
// oversub was the first group of its process, that happened after free
// memory was shrunk to the capacity, and the 90 % prefetched footprint was
// refused by the allocation guard. Oversub now primes the driver first.
func TestOversubFirstInProcessFitsAfterDriverGrowth(t *testing.T) {
	dev := fakegpu.New()
	dev.DriverManagedBytes = 160 << 20 // what the H200 run implies: 3.69 GiB free after a 1 GiB capacity above a 2.80 GiB margin
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
