package umkit

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/umlab/umlab/results"
	"golang.org/x/sys/unix"
)

// handoffData holds one policy's buffers at one size and how many times 1
// was added to every element (explicit_copy: the host array holds the data
// between blocks).
type handoffData struct {
	r      *runner
	cfg    HandoffConfig
	policy string
	size   int64
	n      uint64
	host   Buffer // what the CPU updates
	gpu    Buffer // what the GPU passes use
	adds   float64
	last   *handoffConf // the configuration that used the buffers last
	base   results.Row
	label  string
}

func (h *handoffData) kernel() Kernel { return Kernel{Kind: KRMW, X: h.gpu, N: h.n, Mul: 1, Add: 1} }

func (h *handoffData) want() Expect { return AllOf(h.n, h.cfg.Seed, 1, h.adds) }

// handoffConf is one configuration: a policy and size's data, a phase and R.
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
	cpu, undo, err := r.handoffThreads(cfg)
	defer undo()
	if err != nil {
		return err
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
	// The units in the order Configs lists them; a waived policy's units
	// stay empty (handoffSetup wrote its waived row).
	units := cfg.units()
	var h *handoffData
	for i, u := range units {
		if i == 0 || units[i-1].policy != u.policy || units[i-1].size != u.size {
			if h, err = r.handoffSetup(cfg, u.policy, u.size, cpu); err != nil {
				return err
			}
			if h != nil {
				data = append(data, h)
			}
		}
		if h == nil {
			continue
		}
		for _, reuse := range u.reuse {
			units[i].confs = append(units[i].confs, h.conf(u.phase, reuse))
		}
	}
	for _, b := range handoffOrder(len(units), cfg.Repetitions, cfg.Order, cfg.OrderSeed) {
		if len(units[b.conf].confs) == 0 {
			continue
		}
		if err := r.handoffBlock(ctx, cfg, units[b.conf], b); err != nil {
			return err
		}
	}
	return nil
}

// handoffThreads pins the host thread (a failure is a warning) and sets up
// the CPU update's threads; undo restores both.
func (r *runner) handoffThreads(cfg HandoffConfig) (cpu int, undo func(), err error) {
	var allowed unix.CPUSet
	allowedErr := unix.SchedGetaffinity(0, &allowed)
	cpu, unpin, err := pinThread(cfg.CPU, r.info.UUID)
	if err != nil {
		r.warn(err.Error())
	}
	if cfg.CPUThreads <= 1 {
		return cpu, unpin, nil
	}
	t, ok := optional[UpdateThreader](r.dev)
	if !ok {
		return cpu, unpin, fmt.Errorf("umkit: handoff: %d CPU-update threads: this device runs the update on one thread only", cfg.CPUThreads)
	}
	if allowedErr != nil && cpu >= 0 {
		return cpu, unpin, fmt.Errorf("umkit: handoff: reading CPU affinity: %w", allowedErr)
	}
	cpus, err := updateCPUs(cpu, cfg.CPUThreads, r.info.UUID, allowed)
	if err == nil {
		err = t.SetUpdateCPUs(cpus)
	}
	if err != nil {
		return cpu, unpin, err
	}
	return cpu, func() {
		t.SetUpdateCPUs(nil)
		unpin()
	}, nil
}

// roundOrder is the order of round i of unit u's sweep of k configurations
// in repetition rep, drawn from (seed, rep, u, i) alone, so a resumed run
// measures a unit in the same order.
func roundOrder(seed uint64, rep, u, i, k int) []int {
	return rand.New(rand.NewPCG(seed, uint64(rep)<<40|uint64(u)<<20|uint64(i))).Perm(k)
}

// handoffFits checks, before anything is allocated, that every policy's
// device-side buffers at every size fit in free device memory at once, as
// the group keeps them (the interleaved order needs them all).
func (r *runner) handoffFits(cfg HandoffConfig) error {
	free, _, err := r.dev.MemInfo()
	if err != nil {
		return nil // unknown: the allocations will say
	}
	var per uint64
	for _, p := range cfg.Policies {
		if p != results.PolicyHostMapped {
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

// handoffBlock is one block of the measurement order: unit conf in
// repetition rep, at position index within its repetition.
type handoffBlock struct{ conf, rep, index int }

// handoffOrder returns the blocks of n units × reps repetitions.
// Sequential: each unit's repetitions back to back. Interleaved: each
// repetition a permutation drawn from (seed, repetition) alone.
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
// writes a waived row and returns nil when the device cannot run the policy.
func (r *runner) handoffSetup(cfg HandoffConfig, policy string, size int64, cpu int) (*handoffData, error) {
	n := uint64(size / 8)
	h := &handoffData{r: r, cfg: cfg, policy: policy, size: size, n: n}
	h.label = fmt.Sprintf("handoff %s %s", policy, fmtBytes(size))
	base := r.row(results.GroupHandoff, results.BenchHandoff, "")
	base.Policy, base.SizeBytes, base.FootprintBytes = policy, size, size
	base.ActiveElements, base.StrideElements = int64(n), 1
	base.CPUThreads, base.Order, base.OrderSeed = int64(cfg.CPUThreads), cfg.Order, int64(cfg.OrderSeed)
	if cpu >= 0 {
		base.Note = fmt.Sprintf("host thread on cpu %d", cpu)
	}
	if policy == results.PolicyManagedPrefetch && !r.info.ConcurrentManagedAccess {
		return nil, r.waive(base, h.label, "prefetch needs concurrent managed access, which the device does not report")
	}
	// What the CPU updates; the GPU passes use it too, except explicit_copy's.
	hostKind := map[string]MemKind{results.PolicyManaged: ManagedMem, results.PolicyManagedPrefetch: ManagedMem,
		results.PolicyHostMapped: MappedMem, results.PolicyExplicitCopy: PinnedMem}[policy]
	var err error
	if h.host, err = r.dev.Alloc(hostKind, uint64(size)); err != nil {
		return nil, fmt.Errorf("umkit: %s: %w", h.label, err)
	}
	h.gpu = h.host
	if policy == results.PolicyExplicitCopy {
		if h.gpu, err = r.dev.Alloc(DeviceMem, uint64(size)); err != nil {
			r.dev.Free(h.host)
			return nil, fmt.Errorf("umkit: %s: %w", h.label, err)
		}
		base.FootprintBytes = 2 * size
	}
	h.base = base
	if err := r.dev.FillHost(h.host, n, cfg.Seed); err != nil {
		h.free()
		return nil, err
	}
	return h, nil
}

func (h *handoffData) free() {
	freeAll(h.r.dev, h.host, h.gpu)
	h.host, h.gpu = nil, nil
}

func (h *handoffData) conf(phase string, reuse int) *handoffConf {
	k := h.cfg.config(h.policy, h.size, phase, reuse)
	c := &handoffConf{h: h, phase: phase, reuse: reuse, base: h.base, label: k.Label}
	k.stamp(&c.base)
	c.base.Phase = phase
	switch phase {
	case results.PhaseGPUOnly:
		c.base.ReusePasses = 1
	case results.PhaseAlternating:
		c.base.ReusePasses = int64(reuse)
	}
	return c
}

func (c *handoffConf) trial() trial {
	h, r := c.h, c.h.r
	switch c.phase {
	case results.PhaseCPUOnly:
		return func(_ int, row *results.Row) error {
			defer r.groups.spend(partTimed)()
			ms, err := r.cpuTimed(func() error { return r.dev.UpdateHost(h.host, h.n, 1, 1) })
			h.adds++
			row.CPUMs, row.TotalMs = ms, ms
			row.GBps = gbps(row.UsefulBytes, ms)
			return err
		}
	case results.PhaseGPUOnly:
		return func(_ int, row *results.Row) error {
			ms, err := r.timeKernel(h.kernel())
			if err != nil {
				return err
			}
			h.adds++
			row.KernelMs, row.TotalMs, row.GBps = ms, ms, gbps(row.UsefulBytes, ms)
			return r.placement(h.gpu, row)
		}
	}
	return func(_ int, row *results.Row) error { return h.alternate(c.reuse, row) }
}

// enter puts the data where the phase starts from: for gpu_only the policy's
// GPU placement. The CPU-only and alternating phases start from the data
// where the previous iteration left it, as in the paper's loop.
func (c *handoffConf) enter() error {
	if c.phase != results.PhaseGPUOnly {
		return nil
	}
	return c.h.toGPU()
}

// toGPU queues the policy's move to the GPU: a prefetch, or the copy to the
// device array.
func (h *handoffData) toGPU() error {
	switch h.policy {
	case results.PolicyManagedPrefetch:
		return h.r.dev.Prefetch(h.gpu, ToGPU)
	case results.PolicyExplicitCopy:
		return h.r.dev.Copy(h.gpu, h.host, h.n*8)
	}
	return nil
}

// leave checks the block's accumulated result where the phase left it and
// restores the invariant between blocks (explicit_copy: the host array
// holds the data).
func (c *handoffConf) leave(what string) error {
	h, r := c.h, c.h.r
	if c.phase == results.PhaseCPUOnly {
		return r.checkHost(h.host, h.want(), what)
	}
	if err := r.check(h.gpu, h.want(), what); err != nil {
		return err
	}
	if c.phase == results.PhaseGPUOnly && h.policy == results.PolicyExplicitCopy {
		if err := r.dev.Copy(h.host, h.gpu, h.n*8); err != nil {
			return err
		}
		return r.dev.Sync()
	}
	return nil
}

// Marks of an alternating trial (Marker).
const (
	markMoveIn   = 0 // before the prefetch to the GPU or the copy to the device
	markPasses   = 1 // before the R GPU passes
	markPassesOK = 2 // after them
	markMovedOut = 3 // after the copy back (explicit_copy)
)

// alternate runs and times one iteration of the alternating phase.
func (h *handoffData) alternate(reuse int, row *results.Row) error {
	d := h.r.dev
	mark := func(int) error { return nil }
	mk, ok := optional[Marker](d)
	ok = ok && h.r.counting == nil // a counter pass times no parts: its pass_kernel_ms stays empty
	if ok {
		mark = mk.Mark
	}
	stop := h.r.groups.spend(partTimed)
	t0 := d.Now()
	var cpuMs, toCPUMs float64
	err := func() error {
		if h.policy == results.PolicyManagedPrefetch {
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
		if err := h.toGPU(); err != nil {
			return err
		}
		if err := mark(markPasses); err != nil {
			return err
		}
		for i := 0; i < reuse; i++ {
			if err := d.Launch(h.kernel()); err != nil {
				return err
			}
		}
		if err := mark(markPassesOK); err != nil {
			return err
		}
		if h.policy == results.PolicyExplicitCopy {
			if err := d.Copy(h.host, h.gpu, h.n*8); err != nil {
				return err
			}
		}
		if err := mark(markMovedOut); err != nil {
			return err
		}
		return d.Sync()
	}()
	total := ms(d.Now() - t0)
	stop()
	if err != nil {
		return err
	}
	h.adds += float64(1 + reuse)
	row.TotalMs, row.CPUMs = total, cpuMs
	row.GBps = gbps(row.UsefulBytes, total)
	if ok {
		if err := h.parts(mk, toCPUMs, row); err != nil {
			return err
		}
	}
	return h.r.placement(h.gpu, row)
}

// parts fills an alternating row's GPU-side parts from the marks, and
// sync_ms as the remainder.
func (h *handoffData) parts(mk Marker, toCPUMs float64, row *results.Row) error {
	kernel, err := mk.MarkedMs(markPasses, markPassesOK)
	if err != nil {
		return err
	}
	row.KernelMs = kernel
	moved := 0.0
	if h.policy == results.PolicyManagedPrefetch || h.policy == results.PolicyExplicitCopy {
		if moved, err = mk.MarkedMs(markMoveIn, markPasses); err != nil {
			return err
		}
	}
	switch h.policy {
	case results.PolicyManagedPrefetch:
		moved += toCPUMs
		row.PrefetchMs = moved
	case results.PolicyExplicitCopy:
		out, err := mk.MarkedMs(markPassesOK, markMovedOut)
		if err != nil {
			return err
		}
		moved += out
		row.TransferMs = moved
	}
	// The event and host clocks can put the parts a few µs above the total:
	// that is no time left, never a negative duration.
	row.SyncMs = max(0, row.TotalMs-row.CPUMs-moved-kernel)
	return nil
}

func ms(d time.Duration) float64 {
	if d < 0 {
		return math.NaN()
	}
	return float64(d) / float64(time.Millisecond)
}
