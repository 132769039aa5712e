package umkit

import (
	"context"
	"math"
	"os"
	"testing"

	"github.com/umlab/umlab/results"
)

// TestGPUCounterPass runs the counter pass of three managed-group
// configurations on GPU 0 (CUPTI opened before the context, as Run's callers
// must) and checks the counts against what each memory state moves. It
// skips without a GPU or libcupti; UMLAB_REQUIRE_GPU=1 makes that a failure.
func TestGPUCounterPass(t *testing.T) {
	skip := func(format string, a ...any) {
		t.Helper()
		if os.Getenv("UMLAB_REQUIRE_GPU") == "1" {
			t.Fatalf("UMLAB_REQUIRE_GPU=1: "+format, a...)
		}
		t.Skipf(format, a...)
	}
	if ok, why := Available(); !ok {
		skip("no GPU: %s", why)
	}
	c, err := OpenCounters()
	if err != nil {
		skip("no Unified Memory counters: %v", err)
	}
	defer c.Close()
	dev, err := Open(0)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	if err := c.attach(t.TempDir(), false, dev.Info().UUID, func(s string) { t.Log("warning: ", s) }); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", c)
	if err := c.prime(dev); err != nil {
		t.Fatal(err)
	}
	r := newRunner(dev, "")
	const size = 256 << 20
	n := uint64(size / 8)
	modes := []string{"managed_cold", "managed_prefetch", "explicit"}
	for _, mode := range modes {
		base := r.row("managed", "stream", mode)
		base.SizeBytes, base.FootprintBytes, base.UsefulBytes = size, size, 2*size
		base.ActiveElements, base.StrideElements = int64(n), 1
		w := workload{n: n, kernel: Kernel{Kind: KRMW, N: n, Mul: 1, Add: 1}, stride: 1, active: n}
		b, err := r.modeBuffers(mode, w, 42)
		if err != nil {
			t.Fatal(err)
		}
		tr := r.stateTrial(mode, w, b, 42, StateSetup{})
		row := base
		if err := tr(0, &row); err != nil { // a timed trial first, as in a run
			t.Fatal(err)
		}
		if err := r.counterPass(context.Background(), c, base, mode, 1, tr); err != nil {
			t.Fatal(err)
		}
		if err := b.free(r.dev); err != nil {
			t.Fatal(err)
		}
	}
	rows := c.Rows()
	if len(rows) != len(modes) {
		t.Fatalf("%d counter rows", len(rows))
	}
	near := func(v float64) bool { return math.Abs(v-size) <= size/10 }
	for i, cr := range rows {
		t.Logf("%-16s collected=%t scope=%s windows=%d htod=%.0f dtoh=%.0f gpu_faults=%.0f groups=%.0f cpu_faults=%.0f "+
			"records=%.0f dropped=%.0f pcie_rx=%.0f pcie_tx=%.0f kernel=%.2f ms migrated/useful=%.3f note=%q",
			modes[i], cr.Collected, cr.Scope, cr.Windows, cr.HtoDBytes, cr.DtoHBytes, cr.GPUPageFaults, cr.GPUFaultGroups,
			cr.CPUPageFaults, cr.Records, cr.Dropped, cr.PCIeRXBytes, cr.PCIeTXBytes, cr.PassKernelMs, cr.MigratedPerUseful(), cr.Config.Note)
		if !cr.Collected || cr.Scope != results.ScopeTimed {
			t.Errorf("%s: collected %t, scope %q", modes[i], cr.Collected, cr.Scope)
		}
		pcie := !math.IsNaN(cr.PCIeRXBytes)
		switch modes[i] {
		case "managed_cold": // the kernel faults every page in
			if cr.Windows != 1 || !near(cr.HtoDBytes) || cr.GPUPageFaults == 0 {
				t.Errorf("cold: windows %d, htod %.0f (want %d ±10%%), GPU faults %.0f", cr.Windows, cr.HtoDBytes, size, cr.GPUPageFaults)
			}
			if pcie && cr.PCIeRXBytes < 0.9*size {
				t.Errorf("cold: NVML saw %.0f bytes received, CUPTI %.0f migrated", cr.PCIeRXBytes, cr.HtoDBytes)
			}
		case "managed_prefetch": // the prefetch moves everything, the kernel faults on nothing
			if cr.Windows != 2 || !near(cr.HtoDBytes) || cr.GPUPageFaults != 0 {
				t.Errorf("prefetch: windows %d, htod %.0f (want %d ±10%%), GPU faults %.0f", cr.Windows, cr.HtoDBytes, size, cr.GPUPageFaults)
			}
		case "explicit": // a copy, not a migration: PCIe sees it, the UM counters do not
			if cr.Windows != 2 || cr.HtoDBytes != 0 || cr.GPUPageFaults != 0 {
				t.Errorf("explicit: windows %d, UM htod %.0f, GPU faults %.0f", cr.Windows, cr.HtoDBytes, cr.GPUPageFaults)
			}
			if pcie && cr.PCIeRXBytes < 0.9*size {
				t.Errorf("explicit: NVML saw %.0f bytes received for a %d-byte copy", cr.PCIeRXBytes, size)
			}
		}
	}
}
