package umkit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/go-gota/gota/dataframe"
	"github.com/umlab/umlab/results"
	"golang.org/x/sys/unix"
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
// Order (HandoffConfig.Order): interleaved by default. Every configuration
// (policy × size × phase × R) is measured in blocks of Trials trials, one
// block per repetition; within a repetition the blocks run in an order
// shuffled with OrderSeed, so host drift (the CPU update's speed moves by
// tens of percent over minutes on shared x86 hosts) lands on all policies
// alike, and each repetition's CPU-only baseline is measured among the
// alternating runs it is compared with. A configuration's first block
// starts with the warm-ups; a later block whose buffers another phase
// used in between starts with one untimed settling iteration that
// re-establishes the phase's state (pages where the phase leaves them;
// needsSettling). Sequential order runs all repetitions of a configuration back to
// back, policy by policy and size by size.
//
// Parts of an alternating trial (as far as the policy allows): cpu_ms is
// the CPU update (wall; for managed memory it includes the CPU-side page
// faults that bring the data back); prefetch_ms (managed_prefetch: the
// prefetch to the CPU, wall with its synchronization, plus the prefetch to
// the GPU, event time) or transfer_ms (explicit_copy: both copies, event
// time); kernel_ms, the R GPU passes (event time, GPU-side faults and
// remote accesses included); sync_ms, the rest of total_ms (launches,
// queueing, the final synchronization). The events are queued on the
// stream without synchronizing; on a device without them (Marker) the GPU
// parts are NaN.
//
// Verification is cumulative: every iteration adds exactly 1 (CPU) and R
// (GPU) to every element, and the device checks the data after every GPU
// trial, where it already is; the CPU-only phase is checked on the CPU at
// the end of each block, because a device check would move managed pages
// and change the state being measured.
func Handoff(ctx context.Context, dev Device, cfg HandoffConfig) (dataframe.DataFrame, error) {
	if err := cfg.Validate(); err != nil {
		return dataframe.DataFrame{}, err
	}
	return collect(dev, func(r *runner) error { return r.handoff(ctx, cfg) })
}

// handoffData holds one policy's buffers at one size and how many times 1
// was added to every element. For explicit_copy the host array holds the
// data between blocks.
type handoffData struct {
	r      *runner
	policy string
	size   int64
	n      uint64
	seed   uint64
	host   Buffer // what the CPU updates
	gpu    Buffer // what the GPU passes use
	adds   float64
	last   *handoffConf // the configuration that used the buffers last
	base   results.Row
	label  string
}

func (h *handoffData) kernel() Kernel { return Kernel{Kind: KRMW, X: h.gpu, N: h.n, Mul: 1, Add: 1} }

func (h *handoffData) gpuPass() error { return h.r.dev.Launch(h.kernel()) }

func (h *handoffData) want() Expect { return AllOf(h.n, h.seed, 1, h.adds) }

// handoffConf is one configuration: a policy and size's data, a phase and,
// for the alternating phase, R.
type handoffConf struct {
	h      *handoffData
	phase  string
	reuse  int
	base   results.Row
	label  string
	warmed bool // its warm-ups ran in this process
	blocks int  // blocks measured or skipped
	iter   int  // iterations run, warm-ups included
}

func (r *runner) handoff(ctx context.Context, cfg HandoffConfig) error {
	cfg = cfg.Defaults()
	var allowed unix.CPUSet
	allowedErr := unix.SchedGetaffinity(0, &allowed)
	cpu, unpin, err := pinThread(cfg.CPU, r.info.UUID)
	if err != nil {
		r.warn(err.Error())
	}
	defer unpin()
	if cfg.CPUThreads > 1 {
		t, ok := optional[UpdateThreader](r.dev)
		if !ok {
			return fmt.Errorf("umkit: handoff: %d CPU-update threads: this device runs the update on one thread only", cfg.CPUThreads)
		}
		if allowedErr != nil && cpu >= 0 {
			return fmt.Errorf("umkit: handoff: reading CPU affinity: %w", allowedErr)
		}
		cpus, err := updateCPUs(cpu, cfg.CPUThreads, r.info.UUID, allowed)
		if err != nil {
			return err
		}
		if err := t.SetUpdateCPUs(cpus); err != nil {
			return err
		}
		defer t.SetUpdateCPUs(nil)
	}
	if err := r.handoffFits(cfg); err != nil {
		return err
	}
	var data []*handoffData
	defer func() {
		for _, h := range data {
			h.free()
		}
	}()
	var confs []*handoffConf
	for _, policy := range cfg.Policies {
		for _, size := range cfg.Sizes {
			h, waived, err := r.handoffSetup(cfg, policy, size, cpu)
			if err != nil {
				return err
			}
			if waived {
				continue
			}
			data = append(data, h)
			confs = append(confs, h.conf("cpu_only", 0), h.conf("gpu_only", 0))
			for _, reuse := range cfg.Reuse {
				confs = append(confs, h.conf("alternating", reuse))
			}
		}
	}
	for _, b := range handoffOrder(len(confs), cfg.Repetitions, cfg.Order, cfg.OrderSeed) {
		if err := r.handoffBlock(ctx, cfg, confs[b.conf], b); err != nil {
			return err
		}
	}
	return nil
}

// handoffFits checks, before anything is allocated, that every policy's
// buffers at every size fit in free device memory at once, as the group
// keeps them (the interleaved order needs them all; the sequential order
// shares the code): the managed policies' arrays end up resident on the
// GPU, explicit_copy has a device array; host_mapped lives in host memory.
func (r *runner) handoffFits(cfg HandoffConfig) error {
	free, _, err := r.dev.MemInfo()
	if err != nil {
		return nil // unknown: the allocations will say
	}
	var per uint64
	for _, p := range cfg.Policies {
		if p != "host_mapped" {
			per++
		}
	}
	var need uint64
	for _, s := range cfg.Sizes {
		need += per * uint64(s)
	}
	if margin := r.dev.MemoryMargin(); need+margin > free {
		return fmt.Errorf("umkit: handoff: the group keeps every policy's buffers at every size allocated "+
			"(%s of device memory for %d policies × sizes %v) but %s is free (less a %s margin): measure fewer or smaller sizes (--sizes) or fewer policies",
			fmtBytes(int64(need)), len(cfg.Policies), fmtSizes(cfg.Sizes), fmtBytes(int64(free)), fmtBytes(int64(margin)))
	}
	return nil
}

func fmtSizes(s []int64) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = fmtBytes(v)
	}
	return out
}

// handoffBlock is one block of the measurement order: configuration conf
// (an index into the configurations in sequential order) in repetition rep,
// at position index within its repetition.
type handoffBlock struct{ conf, rep, index int }

// handoffOrder returns the blocks of n configurations × reps repetitions.
// Sequential: each configuration's repetitions back to back, configurations
// in order. Interleaved: repetition by repetition, each a permutation of
// the configurations drawn from a PCG seeded with (seed, repetition), so a
// repetition's order does not depend on how many came before it.
func handoffOrder(n, reps int, order string, seed uint64) []handoffBlock {
	var out []handoffBlock
	if order == "sequential" {
		for c := 0; c < n; c++ {
			for rep := 0; rep < reps; rep++ {
				out = append(out, handoffBlock{conf: c, rep: rep, index: c})
			}
		}
		return out
	}
	for rep := 0; rep < reps; rep++ {
		rng := rand.New(rand.NewPCG(seed, uint64(rep)))
		for i, c := range rng.Perm(n) {
			out = append(out, handoffBlock{conf: c, rep: rep, index: i})
		}
	}
	return out
}

// handoffSetup allocates and fills one policy's buffers at one size, or
// writes a waived row when the device cannot run the policy.
func (r *runner) handoffSetup(cfg HandoffConfig, policy string, size int64, cpu int) (*handoffData, bool, error) {
	n := uint64(size / 8)
	h := &handoffData{r: r, policy: policy, size: size, n: n, seed: cfg.Seed}
	h.label = fmt.Sprintf("handoff %s %s", policy, fmtBytes(size))
	base := r.row("handoff", "handoff", "")
	base.Policy, base.SizeBytes, base.FootprintBytes = policy, size, size
	base.ActiveElements, base.StrideElements = int64(n), 1
	base.CPUThreads, base.Order, base.OrderSeed = int64(cfg.CPUThreads), cfg.Order, int64(cfg.OrderSeed)
	if cpu >= 0 {
		base.Note = fmt.Sprintf("host thread on cpu %d", cpu)
	}
	if policy == "managed_prefetch" && !r.info.ConcurrentManagedAccess {
		return nil, true, r.waive(base, h.label, "prefetch needs concurrent managed access, which the device does not report")
	}
	var err error
	switch policy {
	case "managed", "managed_prefetch":
		if h.host, err = r.dev.Alloc(ManagedMem, uint64(size)); err != nil {
			return nil, false, fmt.Errorf("umkit: %s: %w", h.label, err)
		}
		h.gpu = h.host
	case "host_mapped":
		if h.host, err = r.dev.Alloc(MappedMem, uint64(size)); err != nil {
			return nil, false, fmt.Errorf("umkit: %s: %w", h.label, err)
		}
		h.gpu = h.host
	case "explicit_copy":
		if h.host, err = r.dev.Alloc(PinnedMem, uint64(size)); err != nil {
			return nil, false, fmt.Errorf("umkit: %s: %w", h.label, err)
		}
		if h.gpu, err = r.dev.Alloc(DeviceMem, uint64(size)); err != nil {
			r.dev.Free(h.host)
			return nil, false, fmt.Errorf("umkit: %s: %w", h.label, err)
		}
		base.FootprintBytes = 2 * size
	}
	h.base = base
	if err := r.dev.FillHost(h.host, n, h.seed); err != nil {
		h.free()
		return nil, false, err
	}
	return h, false, nil
}

func (h *handoffData) free() {
	if h.host != nil {
		h.r.dev.Free(h.host)
	}
	if h.gpu != nil && h.gpu != h.host {
		h.r.dev.Free(h.gpu)
	}
	h.host, h.gpu = nil, nil
}

// conf returns a configuration of h.
func (h *handoffData) conf(phase string, reuse int) *handoffConf {
	c := &handoffConf{h: h, phase: phase, reuse: reuse, base: h.base, label: h.label + " " + phase}
	c.base.Phase, c.base.UsefulBytes = phase, 2*h.size
	switch phase {
	case "gpu_only":
		c.base.ReusePasses = 1
	case "alternating":
		c.base.ReusePasses = int64(reuse)
		c.base.UsefulBytes = 2 * h.size * int64(1+reuse)
		c.label = fmt.Sprintf("%s alternating R=%d", h.label, reuse)
	}
	return c
}

// trial returns the configuration's timed iteration.
func (c *handoffConf) trial() trial {
	h, r := c.h, c.h.r
	switch c.phase {
	case "cpu_only":
		return func(_ int, row *results.Row) error {
			ms, err := r.cpuTimed(func() error { return r.dev.UpdateHost(h.host, h.n, 1, 1) })
			h.adds++
			row.CPUMs, row.TotalMs = ms, ms
			row.GBps = gbps(row.UsefulBytes, ms)
			return err
		}
	case "gpu_only":
		return func(_ int, row *results.Row) error {
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
		}
	}
	return func(_ int, row *results.Row) error { return h.alternate(c.reuse, row) }
}

// enter puts the data where the phase starts from: for gpu_only the policy's
// GPU placement (prefetched, or copied to the device array). The CPU-only
// and alternating phases start from the data where the previous iteration
// left it, as in the paper's loop.
func (c *handoffConf) enter() error {
	h, d := c.h, c.h.r.dev
	if c.phase != "gpu_only" {
		return nil
	}
	switch h.policy {
	case "managed_prefetch":
		return d.Prefetch(h.gpu, ToGPU)
	case "explicit_copy":
		return d.Copy(h.gpu, h.host, h.n*8)
	}
	return nil
}

// leave restores the invariant between blocks (for explicit_copy the host
// array holds the data) and checks the CPU-only phase's result on the CPU.
func (c *handoffConf) leave() error {
	h, r := c.h, c.h.r
	switch c.phase {
	case "gpu_only":
		if h.policy == "explicit_copy" {
			if err := r.dev.Copy(h.host, h.gpu, h.n*8); err != nil {
				return err
			}
			return r.dev.Sync()
		}
	case "cpu_only":
		return r.checkHost(h.host, h.want(), "handoff cpu_only")
	}
	return nil
}

// handoffBlock measures one block: the warm-ups (first block of the
// configuration) or a settling iteration (when another configuration used
// the buffers since), then cfg.Trials trials of repetition b.rep, emitted
// as they finish; after the configuration's last block, its counter pass.
// Each block is one progress step (HandoffConfig.Configs lists the blocks).
func (r *runner) handoffBlock(ctx context.Context, cfg HandoffConfig, c *handoffConf, b handoffBlock) error {
	base := c.base
	base.Warmups, base.Repetition, base.OrderIndex = int64(cfg.Warmups.Int()), int64(b.rep), int64(b.index)
	last := c.blocks+1 == cfg.Repetitions
	label := fmt.Sprintf("%s (repetition %d)", c.label, b.rep)
	if r.skipRep(base) {
		c.blocks++
		r.step(label + " (done earlier)")
		return nil
	}
	if err := c.enter(); err != nil {
		return fmt.Errorf("umkit: %s: %w", label, err)
	}
	t := c.trial()
	warm := 0
	switch {
	case !c.warmed:
		warm, c.warmed = cfg.Warmups.Int(), true
	case needsSettling(c.h.last, c) && cfg.Warmups.Int() > 0:
		warm = 1
	}
	c.h.last = c
	for w := 0; w < warm; w++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		row := base
		if err := t(c.iter, &row); err != nil {
			return fmt.Errorf("umkit: %s: warm-up %d: %w", label, w, err)
		}
		c.iter++
	}
	rows := make([]results.Row, 0, cfg.Trials.Int())
	for i := 0; i < cfg.Trials.Int(); i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		row := base
		if err := t(c.iter, &row); err != nil {
			return fmt.Errorf("umkit: %s: trial %d: %w", label, i, err)
		}
		row.Trial, row.Verified = int64(i), true
		rows = append(rows, row)
		c.iter++
	}
	if err := c.leave(); err != nil {
		return fmt.Errorf("umkit: %s: %w", label, err)
	}
	if err := r.emit(rows); err != nil {
		return err
	}
	c.blocks++
	if !last {
		r.step(label)
		return nil
	}
	if r.counters != nil {
		if err := c.enter(); err != nil {
			return err
		}
		if err := r.counterPass(ctx, r.counters, base, c.label, c.iter, t); err != nil {
			return err
		}
		c.iter++
		if err := c.leave(); err != nil {
			return err
		}
	}
	r.step(label)
	return nil
}

// needsSettling reports whether a block of c must start with a settling
// iteration because prev, the configuration that used the same buffers
// last, left them in another state. Alternating iterations leave the data
// where the next one starts from (on the GPU after its passes, or in the
// host array for explicit_copy) whatever R, so an alternating block after
// another R's needs none; after a CPU-only or GPU-only block it does.
func needsSettling(prev, c *handoffConf) bool {
	return prev != nil && prev != c && !(prev.phase == "alternating" && c.phase == "alternating")
}

// Marks of an alternating trial (Marker).
const (
	markMoveIn   = 0 // before the prefetch to the GPU or the copy to the device
	markPasses   = 1 // before the R GPU passes
	markPassesOK = 2 // after them
	markMovedOut = 3 // after the copy back (explicit_copy)
)

// alternate runs and times one iteration of the alternating phase, then
// checks the data on the device.
func (h *handoffData) alternate(reuse int, row *results.Row) error {
	d := h.r.dev
	mk, _ := optional[Marker](d)
	mark := func(i int) error {
		if mk == nil {
			return nil
		}
		return mk.Mark(i)
	}
	t0 := d.Now()
	var cpuMs, toCPUMs float64
	err := func() error {
		if h.policy == "managed_prefetch" {
			if err := d.Prefetch(h.host, ToCPU); err != nil {
				return err
			}
			if err := d.Sync(); err != nil {
				return err
			}
			toCPUMs = ms(d.Now() - t0)
		}
		c0 := d.Now()
		if err := d.UpdateHost(h.host, h.n, 1, 1); err != nil {
			return err
		}
		cpuMs = ms(d.Now() - c0)
		if err := mark(markMoveIn); err != nil {
			return err
		}
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
		if err := mark(markPasses); err != nil {
			return err
		}
		for i := 0; i < reuse; i++ {
			if err := h.gpuPass(); err != nil {
				return err
			}
		}
		if err := mark(markPassesOK); err != nil {
			return err
		}
		if h.policy == "explicit_copy" {
			if err := d.Copy(h.host, h.gpu, h.n*8); err != nil {
				return err
			}
		}
		if err := mark(markMovedOut); err != nil {
			return err
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
	if mk != nil {
		if err := h.parts(mk, toCPUMs, row); err != nil {
			return err
		}
	}
	if err := h.r.placement(h.gpu, row); err != nil {
		return err
	}
	return h.r.check(h.gpu, h.want(), fmt.Sprintf("handoff alternating R=%d", reuse))
}

// parts fills an alternating row's GPU-side parts from the marks, after the
// trial's final synchronization, and sync_ms as the remainder.
func (h *handoffData) parts(mk Marker, toCPUMs float64, row *results.Row) error {
	between := func(i, j int) (float64, error) { return mk.MarkedMs(i, j) }
	kernel, err := between(markPasses, markPassesOK)
	if err != nil {
		return err
	}
	row.KernelMs = kernel
	moved := 0.0
	switch h.policy {
	case "managed_prefetch":
		in, err := between(markMoveIn, markPasses)
		if err != nil {
			return err
		}
		row.PrefetchMs = toCPUMs + in
		moved = row.PrefetchMs
	case "explicit_copy":
		in, err := between(markMoveIn, markPasses)
		if err != nil {
			return err
		}
		out, err := between(markPassesOK, markMovedOut)
		if err != nil {
			return err
		}
		row.TransferMs = in + out
		moved = row.TransferMs
	}
	// The rest of the wall-clock iteration; the GPU's event clock and the
	// host's clock can put the parts a hair above the total (rounding, a
	// few µs), which reads as no time left, never as a negative duration.
	row.SyncMs = max(0, row.TotalMs-row.CPUMs-moved-kernel)
	return nil
}

func ms(d time.Duration) float64 {
	if d < 0 {
		return math.NaN()
	}
	return float64(d) / float64(time.Millisecond)
}
