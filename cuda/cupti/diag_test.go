package cupti

import (
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/umlab/umlab/cuda"
	"github.com/umlab/umlab/results"
)

// TestDiagColdMigration looks for where CUPTI loses fault-driven
// migrations: cold kernels of several sizes with the counter kinds of
// UMLAB_CUPTI_KINDS, then the CPU pulling the data back, then (with
// UMLAB_CUPTI_RECONF=1) the same after reconfiguring to the byte counters
// alone. UMLAB_PERF=2 only; it logs, it asserts nothing.
func TestDiagColdMigration(t *testing.T) {
	if os.Getenv("UMLAB_PERF") != "2" {
		t.Skip("set UMLAB_PERF=2 (GPU node)")
	}
	col, c := gpu(t)
	t.Logf("kinds %v, %v", col.Kinds(), col.Library())
	run := func(tag string, bytes uint64) {
		x, err := c.AllocManaged(bytes)
		must(t, err)
		defer x.Free()
		n := bytes / 8
		seed := rand.Uint64()
		must(t, cuda.FillHost(x, n, seed))
		t0 := time.Now()
		k := counted(t, col, c, func() error { return c.RMW(x, 1, 1, n, nil) })
		t.Logf("DIAG %s cold RMW %s: %.1f ms with the collector's flush, htod %.3f of B, gpu fault records %d groups %d, dropped %d, records %d, incomplete %d",
			tag, results.FormatBytes(int64(bytes)), float64(time.Since(t0).Microseconds())/1e3, float64(k.BytesHtoD)/float64(bytes),
			k.GPUPageFaults, k.GPUPageFaultGroups, k.Dropped, k.Records, k.Incomplete)
		t0 = time.Now()
		back := counted(t, col, c, func() error { return cuda.FillHost(x, n, seed) })
		t.Logf("DIAG %s CPU rewrite %s: %.1f ms with the collector's flush, dtoh %.3f of B, cpu faults %d, records %d, dropped %d",
			tag, results.FormatBytes(int64(bytes)), float64(time.Since(t0).Microseconds())/1e3, float64(back.BytesDtoH)/float64(bytes),
			back.CPUPageFaults, back.Records, back.Dropped)
		pf := counted(t, col, c, func() error { return c.Prefetch(x, cuda.GPU(0), nil) })
		t.Logf("DIAG %s prefetch %s: htod %.3f of B, records %d", tag, results.FormatBytes(int64(bytes)), float64(pf.BytesHtoD)/float64(bytes), pf.Records)
		t0 = time.Now()
		must(t, c.Prefetch(x, cuda.CPU, nil))
		must(t, c.Synchronize())
		t1 := time.Now()
		must(t, cuda.FillHost(x, n, seed))
		t.Logf("DIAG %s re-init by prefetch to CPU %.1f ms + CPU write %.1f ms", tag,
			float64(t1.Sub(t0).Microseconds())/1e3, float64(time.Since(t1).Microseconds())/1e3)
	}
	for _, b := range []uint64{16 << 20, 64 << 20, 256 << 20, 1 << 30} {
		run("first", b)
	}
	run("again", 256<<20)
	if os.Getenv("UMLAB_CUPTI_RECONF") == "1" {
		if err := col.Reconfigure(KindBytesHtoD, KindBytesDtoH); err != nil {
			t.Logf("DIAG reconfigure: %v", err)
			return
		}
		t.Logf("DIAG reconfigured to %v", col.Kinds())
		for _, b := range []uint64{64 << 20, 256 << 20} {
			run("reconf", b)
		}
	}
}
