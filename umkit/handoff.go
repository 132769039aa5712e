package umkit

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/go-gota/gota/dataframe"
	"github.com/umlab/umlab/results"
)

// Handoff measures CPU–GPU handoff and reuse (paper VII-B): the same data
// alternately updated by the CPU (x = x + 1, a C loop on a thread pinned
// near the GPU) and read-modified-written by R GPU passes, under four
// policies:
//
//	managed           the CPU and GPU touch managed memory; pages fault back and forth
//	managed_prefetch  the same, with a prefetch to the CPU before the update and to the GPU after it
//	host_mapped       pinned host memory the GPU accesses in place through its device pointer
//	explicit_copy     a pinned host array and a device array, copied each way around the GPU passes
//
// Three phases are measured separately: cpu_only (one CPU update, wall
// time), gpu_only (one GPU pass on data placed as the policy places it,
// event time) and alternating (CPU update + handoff + R GPU passes, wall
// time from the start of the update until the GPU work is done). Defaults:
// 5 warm-ups, then 3 repetitions of 20 trials.
//
// Verification is cumulative: every iteration adds exactly 1 (CPU) and R
// (GPU) to every element, and the device checks the data after every GPU
// trial, where it already is; the CPU-only phase is checked on the CPU at
// its end, because a device check would move managed pages and change the
// state being measured.
func Handoff(ctx context.Context, dev Device, cfg HandoffConfig) (dataframe.DataFrame, error) {
	if err := cfg.Validate(); err != nil {
		return dataframe.DataFrame{}, err
	}
	return collect(dev, func(r *runner) error { return r.handoff(ctx, cfg) })
}

func (r *runner) handoff(ctx context.Context, cfg HandoffConfig) error {
	cfg = cfg.Defaults()
	cpu, unpin, err := pinThread(cfg.CPU, r.info.UUID)
	if err != nil {
		r.warn(err.Error())
	}
	defer unpin()
	for _, policy := range cfg.Policies {
		for _, size := range cfg.Sizes {
			if err := r.handoffOne(ctx, cfg, policy, size, cpu); err != nil {
				return err
			}
		}
	}
	return nil
}

// handoffData holds one policy's buffers and how many times 1 was added.
type handoffData struct {
	r      *runner
	policy string
	n      uint64
	seed   uint64
	host   Buffer // what the CPU updates
	gpu    Buffer // what the GPU passes use
	adds   float64
}

func (h *handoffData) kernel() Kernel { return Kernel{Kind: KRMW, X: h.gpu, N: h.n, Mul: 1, Add: 1} }

func (h *handoffData) gpuPass() error { return h.r.dev.Launch(h.kernel()) }

func (h *handoffData) want() Expect { return AllOf(h.n, h.seed, 1, h.adds) }

func (r *runner) handoffOne(ctx context.Context, cfg HandoffConfig, policy string, size int64, cpu int) error {
	n := uint64(size / 8)
	h := &handoffData{r: r, policy: policy, n: n, seed: cfg.Seed}
	label := fmt.Sprintf("handoff %s %s", policy, fmtBytes(size))
	base := r.row("handoff", "handoff", "")
	base.Policy, base.SizeBytes, base.FootprintBytes = policy, size, size
	base.ActiveElements, base.StrideElements = int64(n), 1
	if cpu >= 0 {
		base.Note = fmt.Sprintf("host thread on cpu %d", cpu)
	}
	if policy == "managed_prefetch" && !r.info.ConcurrentManagedAccess {
		return r.waive(base, label, "prefetch needs concurrent managed access, which the device does not report")
	}
	var err error
	switch policy {
	case "managed", "managed_prefetch":
		if h.host, err = r.dev.Alloc(ManagedMem, uint64(size)); err != nil {
			return fmt.Errorf("umkit: %s: %w", label, err)
		}
		h.gpu = h.host
	case "host_mapped":
		if h.host, err = r.dev.Alloc(MappedMem, uint64(size)); err != nil {
			return fmt.Errorf("umkit: %s: %w", label, err)
		}
		h.gpu = h.host
		base.FootprintBytes = size
	case "explicit_copy":
		if h.host, err = r.dev.Alloc(PinnedMem, uint64(size)); err != nil {
			return fmt.Errorf("umkit: %s: %w", label, err)
		}
		if h.gpu, err = r.dev.Alloc(DeviceMem, uint64(size)); err != nil {
			r.dev.Free(h.host)
			return fmt.Errorf("umkit: %s: %w", label, err)
		}
		base.FootprintBytes = 2 * size
	}
	defer func() {
		r.dev.Free(h.host)
		if h.gpu != h.host {
			r.dev.Free(h.gpu)
		}
	}()
	if err := r.dev.FillHost(h.host, n, h.seed); err != nil {
		return err
	}

	// CPU only: the update alone, data where the CPU has it.
	cpuRow := base
	cpuRow.Phase, cpuRow.UsefulBytes = "cpu_only", 2*size
	if err := r.measureReps(ctx, cpuRow, label+" cpu_only", cfg.Warmups.Int(), cfg.Trials.Int(), cfg.Repetitions, 0,
		func(_ int, row *results.Row) error {
			ms, err := r.cpuTimed(func() error { return r.dev.UpdateHost(h.host, n, 1, 1) })
			h.adds++
			row.CPUMs, row.TotalMs = ms, ms
			row.GBps = gbps(row.UsefulBytes, ms)
			return err
		}); err != nil {
		return err
	}
	if err := r.checkHost(h.host, h.want(), "handoff cpu_only"); err != nil {
		return fmt.Errorf("umkit: %s cpu_only: %w", label, err)
	}

	// GPU only: one pass on data placed as the policy places it.
	switch policy {
	case "managed_prefetch":
		err = r.dev.Prefetch(h.gpu, ToGPU)
	case "explicit_copy":
		err = r.dev.Copy(h.gpu, h.host, uint64(size))
	}
	if err != nil {
		return err
	}
	gpuRow := base
	gpuRow.Phase, gpuRow.ReusePasses, gpuRow.UsefulBytes = "gpu_only", 1, 2*size
	if err := r.measureReps(ctx, gpuRow, label+" gpu_only", cfg.Warmups.Int(), cfg.Trials.Int(), cfg.Repetitions, 0,
		func(_ int, row *results.Row) error {
			ms, err := r.dev.TimeKernel(h.kernel())
			if err != nil {
				return err
			}
			h.adds++
			row.KernelMs, row.TotalMs, row.GBps = ms, ms, gbps(row.UsefulBytes, ms)
			if err := r.placement(h.gpu, row); err != nil {
				return err
			}
			return r.check(h.gpu, h.want(), "handoff gpu_only")
		}); err != nil {
		return err
	}
	if policy == "explicit_copy" { // bring the host copy up to date
		if err := r.dev.Copy(h.host, h.gpu, uint64(size)); err != nil {
			return err
		}
		if err := r.dev.Sync(); err != nil {
			return err
		}
	}

	// Alternating: CPU update, handoff, R GPU passes.
	for _, reuse := range cfg.Reuse {
		row0 := base
		row0.Phase, row0.ReusePasses = "alternating", int64(reuse)
		row0.UsefulBytes = 2 * size * int64(1+reuse)
		l := fmt.Sprintf("%s alternating R=%d", label, reuse)
		if err := r.measureReps(ctx, row0, l, cfg.Warmups.Int(), cfg.Trials.Int(), cfg.Repetitions, 0,
			func(_ int, row *results.Row) error { return h.alternate(reuse, row) }); err != nil {
			return err
		}
	}
	return nil
}

// alternate runs and times one iteration of the alternating phase, then
// checks the data on the device.
func (h *handoffData) alternate(reuse int, row *results.Row) error {
	d := h.r.dev
	t0 := d.Now()
	var cpuMs float64
	err := func() error {
		if h.policy == "managed_prefetch" {
			if err := d.Prefetch(h.host, ToCPU); err != nil {
				return err
			}
			if err := d.Sync(); err != nil {
				return err
			}
		}
		c0 := d.Now()
		if err := d.UpdateHost(h.host, h.n, 1, 1); err != nil {
			return err
		}
		cpuMs = ms(d.Now() - c0)
		switch h.policy {
		case "managed_prefetch":
			if err := d.Prefetch(h.gpu, ToGPU); err != nil {
				return err
			}
		case "explicit_copy":
			if err := d.Copy(h.gpu, h.host, h.n*8); err != nil {
				return err
			}
		}
		for i := 0; i < reuse; i++ {
			if err := h.gpuPass(); err != nil {
				return err
			}
		}
		if h.policy == "explicit_copy" {
			if err := d.Copy(h.host, h.gpu, h.n*8); err != nil {
				return err
			}
		}
		return d.Sync()
	}()
	if err != nil {
		return err
	}
	total := ms(d.Now() - t0)
	h.adds += float64(1 + reuse)
	row.TotalMs, row.CPUMs = total, cpuMs
	row.GBps = gbps(row.UsefulBytes, total)
	if err := h.r.placement(h.gpu, row); err != nil {
		return err
	}
	return h.r.check(h.gpu, h.want(), fmt.Sprintf("handoff alternating R=%d", reuse))
}

func ms(d time.Duration) float64 {
	if d < 0 {
		return math.NaN()
	}
	return float64(d) / float64(time.Millisecond)
}
