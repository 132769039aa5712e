package umkit

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/umlab/umlab/cuda/cupti"
	"github.com/umlab/umlab/results"
)

// fakeCounts is a CounterSource whose counts the stub device drives: what
// the device "migrates" is added while collection is on.
type fakeCounts struct {
	on       bool
	c        cupti.Counts
	startErr error
	snaps    int
}

func (f *fakeCounts) Start() error {
	if f.startErr != nil {
		return f.startErr
	}
	if f.on {
		return errors.New("fake: Start twice")
	}
	f.on, f.c = true, cupti.Counts{}
	return nil
}

func (f *fakeCounts) Snapshot() (cupti.Counts, error) {
	if !f.on {
		return cupti.Counts{}, errors.New("fake: Snapshot while off")
	}
	f.snaps++
	return f.c, nil
}

func (f *fakeCounts) Stop() (cupti.Counts, error) {
	if !f.on {
		return cupti.Counts{}, errors.New("fake: Stop while off")
	}
	f.on = false
	return f.c, nil
}

func (f *fakeCounts) add(c cupti.Counts) {
	if f.on {
		f.c = f.c.Add(c)
	}
}

// fakePCIe counts every byte the stub moves, whatever the counters do.
type fakePCIe struct{ s PCIeSample }

func (p *fakePCIe) ReadPCIe() (PCIeSample, error) { return p.s, nil }

// stubDevice implements what the trials below use; any other Device method
// panics (the embedded interface is nil).
type stubDevice struct {
	Device
	src     *fakeCounts
	pcie    *fakePCIe
	timerOn bool
	log     []string
}

func (d *stubDevice) move(htod, dtoh, gpuFaults, cpuFaults uint64) {
	d.src.add(cupti.Counts{BytesHtoD: htod, BytesDtoH: dtoh, GPUPageFaults: gpuFaults, GPUPageFaultGroups: gpuFaults,
		CPUPageFaults: cpuFaults, Records: 1})
	d.pcie.s.RX += htod
	d.pcie.s.TX += dtoh
}

func (d *stubDevice) Info() DeviceInfo { return DeviceInfo{Name: "stub", UUID: "GPU-stub"} }
func (d *stubDevice) Sync() error      { d.log = append(d.log, "Sync"); return nil }
func (d *stubDevice) Now() time.Duration {
	return 0
}
func (d *stubDevice) StartTimer() error {
	d.timerOn = true
	d.log = append(d.log, "StartTimer")
	return nil
}
func (d *stubDevice) StopTimer() (float64, error) {
	d.timerOn = false
	d.log = append(d.log, "StopTimer")
	return 1.5, nil
}

func (d *stubDevice) TimeKernel(k Kernel) (float64, error) {
	d.StartTimer()
	d.Launch(k)
	return d.StopTimer()
}

// FillHost pulls 100 bytes back to the CPU: state re-establishment.
func (d *stubDevice) FillHost(Buffer, uint64, uint64) error { d.move(0, 100, 0, 1); return nil }

// stubBuf is a device buffer of the stub: the settling scratch.
type stubBuf uint64

func (b stubBuf) Kind() MemKind         { return DeviceMem }
func (b stubBuf) Bytes() uint64         { return uint64(b) }
func (d *stubDevice) Free(Buffer) error { return nil }
func (d *stubDevice) Alloc(_ MemKind, bytes uint64) (Buffer, error) {
	return stubBuf(bytes), nil
}

// Launch migrates 1000 bytes on 3 faults: the measured kernel. A kernel on
// device memory (the settling scratch) moves nothing.
func (d *stubDevice) Launch(k Kernel) error {
	d.log = append(d.log, "Launch")
	if _, scratch := k.X.(stubBuf); !scratch {
		d.move(1000, 0, 3, 0)
	}
	return nil
}

// UpdateHost is CPU work that faults 7 times and pulls 700 bytes back.
func (d *stubDevice) UpdateHost(Buffer, uint64, float64, float64) error {
	d.move(0, 700, 0, 7)
	return nil
}

func (d *stubDevice) Placement(Buffer) (string, error) {
	return "pref=gpu0;last=none;by=none;read_mostly=false", nil
}

// Check reads the result on the device (a little traffic, outside the timed region).
func (d *stubDevice) Check(Buffer, Expect) (Mismatch, error) {
	d.move(10, 0, 1, 0)
	return Mismatch{}, nil
}

func stubRunner(t *testing.T) (*runner, *stubDevice, *Counters) {
	t.Helper()
	dev := &stubDevice{src: &fakeCounts{}, pcie: &fakePCIe{}}
	r := newRunner(dev, "run-1")
	c := NewCounters(dev.src, dev.pcie)
	if err := c.attach("", false, "GPU-stub", func(string) {}); err != nil {
		t.Fatal(err)
	}
	return r, dev, c
}

func configRow(r *runner) results.Row {
	row := r.row("managed", "stream", "managed_cold")
	row.SizeBytes, row.FootprintBytes, row.UsefulBytes, row.ActiveElements, row.StrideElements = 1000, 1000, 2000, 125, 1
	return row
}

// coldTrial is shaped like stateTrial's managed_cold: CPU fill, settling
// passes, timed kernel, device check.
func coldTrial(r *runner) trial {
	return func(it int, row *results.Row) error {
		var err error
		if row.CPUMs, err = r.cpuTimed(func() error { return r.dev.FillHost(nil, 0, 0) }); err != nil {
			return err
		}
		if err := r.placement(nil, row); err != nil {
			return err
		}
		if _, err := r.settle(); err != nil {
			return err
		}
		ms, err := r.timeKernel(Kernel{})
		row.KernelMs, row.TotalMs = ms, ms
		if err != nil {
			return err
		}
		return r.check(nil, Expect{}, "stub")
	}
}

func TestCounterPassCountsTheTimedRegions(t *testing.T) {
	r, dev, c := stubRunner(t)
	base := configRow(r)
	if err := r.counterPass(context.Background(), c, base, "managed cold", 7, coldTrial(r)); err != nil {
		t.Fatal(err)
	}
	if r.dev != Device(dev) {
		t.Fatal("the runner's device was not restored")
	}
	rows := c.Rows()
	if len(rows) != 1 {
		t.Fatalf("%d counter rows", len(rows))
	}
	got := rows[0]
	if !got.Collected || got.Scope != results.ScopeTimed || got.Windows != 1 || got.Pass != results.PassCounters {
		t.Errorf("collected %t scope %q windows %d pass %q", got.Collected, got.Scope, got.Windows, got.Pass)
	}
	// The kernel's migration only: the CPU fill before and the check after are outside.
	if got.HtoDBytes != 1000 || got.DtoHBytes != 0 || got.GPUPageFaults != 3 || got.CPUPageFaults != 0 {
		t.Errorf("counts %+v", got)
	}
	if got.PCIeRXBytes != 1000 || got.PCIeTXBytes != 0 {
		t.Errorf("PCIe rx %v tx %v", got.PCIeRXBytes, got.PCIeTXBytes)
	}
	if got.PassKernelMs != 1.5 || got.Config.Placement == "" || got.Config.Note != "" {
		t.Errorf("pass kernel %v placement %q note %q", got.PassKernelMs, got.Config.Placement, got.Config.Note)
	}
	if results.ConfigKey(got.Config) != results.ConfigKey(base) || got.Config.RunID != "run-1" {
		t.Error("the counter row does not carry the configuration")
	}
	if got.MigratedPerUseful() != 0.5 {
		t.Errorf("migrated per useful byte %v, want 1000/2000", got.MigratedPerUseful())
	}
	// The settling passes ran, untimed by the counters: one window only.
	if n := strings.Count(strings.Join(dev.log, ","), "Launch"); n != settleMinPasses+1 {
		t.Errorf("%d launches, want %d settling passes and the kernel: %v", n, settleMinPasses, dev.log)
	}
	// Queued work is finished before a window opens.
	if i := strings.Index(strings.Join(dev.log, ","), "Sync,StartTimer"); i < 0 {
		t.Errorf("no Sync before StartTimer: %v", dev.log)
	}
}

func TestCounterPassWithoutTimedRegionCountsTheTrial(t *testing.T) {
	r, _, c := stubRunner(t)
	base := configRow(r)
	base.Group, base.Phase = "handoff", "cpu_only"
	cpuOnly := func(_ int, row *results.Row) error {
		ms, err := r.cpuTimed(func() error { return r.dev.UpdateHost(nil, 0, 1, 1) })
		row.CPUMs, row.TotalMs = ms, ms
		return err
	}
	if err := r.counterPass(context.Background(), c, base, "handoff cpu_only", 0, cpuOnly); err != nil {
		t.Fatal(err)
	}
	got := c.Rows()[0]
	if got.Scope != results.ScopeTrial || got.Windows != 0 || got.CPUPageFaults != 7 || got.DtoHBytes != 700 || got.PCIeTXBytes != 700 {
		t.Errorf("scope %q windows %d counts %+v", got.Scope, got.Windows, got)
	}
	if !math.IsNaN(got.PassKernelMs) {
		t.Errorf("pass kernel ms %v for a CPU-only trial", got.PassKernelMs)
	}
}

func TestCounterPassFailures(t *testing.T) {
	// Counters that cannot start: a row saying so, and a warning, once.
	r, dev, c := stubRunner(t)
	var warnings []string
	c.warn = func(s string) { warnings = append(warnings, s) }
	dev.src.startErr = errors.New("CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED")
	for i := 0; i < 2; i++ {
		if err := r.counterPass(context.Background(), c, configRow(r), "x", 0, coldTrial(r)); err != nil {
			t.Fatal(err)
		}
	}
	got := c.Rows()[1]
	if got.Collected || !math.IsNaN(got.HtoDBytes) || !math.IsNaN(got.PCIeRXBytes) ||
		!strings.Contains(got.Config.Note, "VIRTUALIZED") || len(warnings) != 1 {
		t.Errorf("collected %t htod %v note %q warnings %q", got.Collected, got.HtoDBytes, got.Config.Note, warnings)
	}

	// A trial that fails is an error, and the device is restored.
	r, dev, c = stubRunner(t)
	bad := func(int, *results.Row) error { return errors.New("verification failed") }
	if err := r.counterPass(context.Background(), c, configRow(r), "x", 0, bad); err == nil || !strings.Contains(err.Error(), "counter pass") {
		t.Errorf("failing trial: %v", err)
	}
	if r.dev != Device(dev) || dev.src.on {
		t.Error("device not restored or counters left on after a failing trial")
	}

	// A cancelled run does no pass.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := r.counterPass(ctx, c, configRow(r), "x", 0, coldTrial(r)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestPCIeSampleWraps(t *testing.T) {
	a := PCIeSample{TX: math.MaxUint32 - 10, RX: 5, Bits: 32}
	b := PCIeSample{TX: 20, RX: 105, Bits: 32}
	if tx, rx := b.Since(a); tx != 31 || rx != 100 {
		t.Errorf("32-bit wrap: tx %d rx %d", tx, rx)
	}
	a64 := PCIeSample{TX: math.MaxUint64 - 1, RX: 0}
	if tx, _ := (PCIeSample{TX: 3}).Since(a64); tx != 5 {
		t.Errorf("64-bit wrap: %d", tx)
	}
}
