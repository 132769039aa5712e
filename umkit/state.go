package umkit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/umlab/umlab/results"
)

// workload is one kernel over one data buffer, with what the kernel touches.
type workload struct {
	n      uint64 // elements in the data buffer
	kernel Kernel // X and Idx are set by the state machine
	stride uint64 // touched elements: i%stride == 0 && i/stride < active
	active uint64
	random bool // needs a permutation index array of n entries
	// ref, when set, is the data's expected content after a trial, for a
	// workload whose touched elements are not a stride (a random subset).
	ref Buffer
	// reference, when set, makes ref once the index array exists.
	reference func(idx Buffer) (Buffer, error)
}

// stateWorkload is the workload of an access pattern over n elements
// (page_touch: stride is the page interval in elements).
func stateWorkload(pattern string, n, stride uint64) workload {
	w := workload{n: n, stride: 1, active: n}
	switch pattern {
	case results.PatternStreaming:
		w.kernel = Kernel{Kind: KRMW, N: n, Mul: 1, Add: 1}
	case results.PatternStrided:
		w.stride, w.active = stride, (n-1)/stride+1
		w.kernel = Kernel{Kind: KStrided, Mul: 1, Add: 1, Stride: stride, Active: w.active}
	case results.PatternPageTouch:
		w.stride, w.active = stride, (n-1)/stride+1
		w.kernel = Kernel{Kind: KPageTouch, Mul: 1, Add: 1, IntervalBytes: stride * 8, Active: w.active}
	case results.PatternRandom:
		w.random = true
		w.kernel = Kernel{Kind: KRandom, Mul: 1, Add: 1, Active: n}
	}
	return w
}

// reuseOnGPU reports whether the reused state may be re-established on the
// GPU (stateTrial): the kernel touches every 4 KiB page, affinely.
func (w workload) reuseOnGPU() bool {
	const page = 4096 / 8 // elements per 4 KiB page
	return w.ref == nil && w.stride >= 1 && w.stride <= page && w.active*w.stride >= w.n
}

// stateBuffers are the buffers of one memory-state configuration: data,
// a random workload's index array, and explicit mode's pinned staging copy.
type stateBuffers struct {
	x, idx, staging Buffer
	advice          []Advice // the mode's advice on x, applied again when x is reallocated
}

func (r *runner) modeBuffers(mode string, w workload, seed uint64) (b *stateBuffers, err error) {
	kind := ManagedMem
	if mode == results.ModeExplicit {
		kind = DeviceMem
	}
	b = &stateBuffers{}
	fail := func(e error) (*stateBuffers, error) {
		return nil, errors.Join(e, b.free(r.dev))
	}
	if b.x, err = r.dev.Alloc(kind, w.n*8); err != nil {
		return fail(err)
	}
	if w.random {
		if b.idx, err = r.dev.Alloc(kind, w.n*8); err != nil {
			return fail(err)
		}
		// The permutation is made on the device once; it stays GPU-resident.
		if err = r.dev.PermFill(b.idx, w.n, seed^0x5eed); err != nil {
			return fail(err)
		}
	}
	if mode == results.ModeExplicit {
		// The explicit state is re-established by a copy from pinned memory.
		if b.staging, err = r.dev.Alloc(PinnedMem, w.n*8); err != nil {
			return fail(err)
		}
		if err = r.dev.FillHost(b.staging, w.n, seed); err != nil {
			return fail(err)
		}
	}
	b.advice = modeAdvice[mode]
	for _, a := range b.advice {
		if err = r.dev.Advise(b.x, a); err != nil {
			return fail(err)
		}
	}
	if err = r.dev.Sync(); err != nil {
		return fail(err)
	}
	return b, nil
}

// modeAdvice is the advice each advised mode sets on its data.
var modeAdvice = map[string][]Advice{results.ModeAdvisePreferredGPU: {PreferGPU},
	results.ModeAdvisePreferredCPU: {PreferCPU}, results.ModeAdviseAccessedBy: {AccessedBy}}

func (b *stateBuffers) free(dev Device) error {
	err := freeAll(dev, b.x, b.idx, b.staging)
	b.x, b.idx, b.staging = nil, nil, nil
	return err
}

// freeAll frees each buffer once, skipping nil ones and repeats.
func freeAll(dev Device, bufs ...Buffer) error {
	var errs []error
	for i, b := range bufs {
		if b != nil && !slices.Contains(bufs[:i], b) {
			errs = append(errs, dev.Free(b))
		}
	}
	return errors.Join(errs...)
}

// reallocate replaces the managed data b.x, of n elements, with a fresh
// allocation carrying the mode's advice: nothing of it is resident until
// written, and the CPU's first-touch write that follows is the cheapest way
// found to that state (datasets/diag/h200-2026-12-02-firsttouch.log). A
// Reallocator may use part of the margin, so that a footprint admitted once
// is not refused later for memory the driver has yet to give back.
func (r *runner) reallocate(b *stateBuffers, n uint64) error {
	old := b.x
	b.x = nil // managed, so freed whatever happens; a failed free is not tried again
	var x Buffer
	var err error
	if re, ok := optional[Reallocator](r.dev); ok {
		x, err = re.Reallocate(old)
	} else {
		if err := r.dev.Free(old); err != nil {
			return err
		}
		x, err = r.dev.Alloc(ManagedMem, n*8)
	}
	if err != nil {
		return err
	}
	b.x = x
	for _, a := range b.advice {
		if err := r.dev.Advise(x, a); err != nil {
			return err
		}
	}
	return nil
}

// Ways of re-establishing the CPU-written state before a cold, prefetched
// or advised trial (StateSetup.Rewrite).
const (
	// RewriteHome brings the data home to the CPU (a prefetch, overlapped
	// with the write where the device can) and rewrites it there.
	RewriteHome = "home"
	// RewriteReallocate frees the data, allocates it again and writes it
	// on the CPU: the paper's cold start before every trial.
	RewriteReallocate = "reallocate"
)

// Rewrites are the allowed StateSetup.Rewrite values, the default first.
var Rewrites = []string{RewriteReallocate, RewriteHome}

// StateSetup says how the memory-state groups (managed, pattern, oversub)
// re-establish a CPU-written state before each trial. Both ways end with
// the data written by the CPU and resident there, and time the same
// regions. They differ under preferred location CPU: data brought home stay
// mapped for the GPU, while a fresh allocation is mapped through GPU
// faults, as in the paper's cold start (H200: 79 GB/s brought home, 2.9
// GB/s reallocated; the paper's GB200 10.6). Reallocating is the default:
// the paper's method, and faster to set up with the same cold kernel
// (datasets/README.md, h200-2026-12-01-reallocate).
type StateSetup struct {
	Rewrite string // RewriteReallocate (default) or RewriteHome
}

func (s StateSetup) withDefaults() StateSetup {
	s.Rewrite = cmp.Or(s.Rewrite, RewriteReallocate)
	return s
}

func (s StateSetup) validate(group string) error {
	return validateChoice(group, "rewrite", []string{s.withDefaults().Rewrite}, Rewrites)
}

// rewrite re-establishes the CPU-written state of b's data as setup says
// and returns the CPU's write time in ms.
func (r *runner) rewrite(setup StateSetup, b *stateBuffers, n, seed uint64) (float64, error) {
	if setup.withDefaults().Rewrite == RewriteReallocate && b.x.Kind() == ManagedMem {
		defer r.groups.spend(partRewrite)()
		if err := r.reallocate(b, n); err != nil {
			return 0, err
		}
		return r.cpuTimed(func() error { return r.dev.FillHost(b.x, n, seed) })
	}
	return r.homeFill(b.x, n, seed)
}

// homeFill brings managed data home to the CPU with a prefetch, so that
// every cold trial starts from data that left the GPU the same way, and
// rewrites it there, returning the write time in ms. A HomeFiller overlaps
// the two, which on the H200 saves most of the oversubscription group's
// set-up time. Without concurrent managed access the CPU write's faults
// bring the pages home.
func (r *runner) homeFill(x Buffer, n, seed uint64) (float64, error) {
	defer r.groups.spend(partRewrite)()
	if h, ok := optional[HomeFiller](r.dev); ok && r.info.ConcurrentManagedAccess && x.Kind() == ManagedMem {
		return h.HomeFillHost(x, n, seed)
	}
	if r.info.ConcurrentManagedAccess {
		if err := r.dev.Prefetch(x, ToCPU); err != nil {
			return 0, err
		}
		if err := r.dev.Sync(); err != nil {
			return 0, err
		}
	}
	return r.cpuTimed(func() error { return r.dev.FillHost(x, n, seed) })
}

// stateTrial re-establishes mode's memory state before every trial, settles
// the GPU's clocks (settle.go), times the kernel, and verifies the data:
//
//	explicit          copy the data in (transfer_ms), time the kernel
//	managed_cold      CPU writes (cpu_ms, as setup says), time the kernel: faults and migration included
//	managed_prefetch  CPU writes, prefetch to the GPU (prefetch_ms), time the kernel
//	managed_reuse     data written, one untimed GPU pass, time the next pass
//	advise_*          (advice set at allocation) CPU writes, time the kernel
//
// Reuse: when the kernel touches every 4 KiB page (reuseOnGPU), only the
// first iteration writes on the CPU and migrates; later ones rewrite the
// data on the GPU where it stays resident, two migrations and a CPU write
// less per trial. (Data first written by the GPU, never migrated, ran a
// 128-byte stride 2–3 % slower on the H200.) Sparser kernels keep the CPU
// write, so that only the pages they touch are resident.
func (r *runner) stateTrial(mode string, w workload, b *stateBuffers, seed uint64, setup StateSetup) trial {
	k := w.kernel
	k.Idx = b.idx
	passes := 1.0
	if mode == results.ModeManagedReuse {
		passes = 2
	}
	want := Expect{N: w.n, Seed: seed, Mul: 1, Add: passes * k.Add, Stride: w.stride, Active: w.active}
	if w.ref != nil {
		want = Expect{N: w.n, Y: w.ref}
	}
	return func(it int, row *results.Row) error {
		var err error
		switch {
		case mode == results.ModeExplicit:
			if row.TransferMs, err = r.timed(func() error { return r.dev.Copy(b.x, b.staging, w.n*8) }); err != nil {
				return err
			}
		case mode == results.ModeManagedReuse && w.reuseOnGPU() && it > 0:
			if err := r.dev.Fill(b.x, w.n, seed); err != nil {
				return err
			}
		default:
			if row.CPUMs, err = r.rewrite(setup, b, w.n, seed); err != nil {
				return err
			}
		}
		x := b.x // after a reallocation, the new buffer
		k.X = x
		switch mode {
		case results.ModeManagedPrefetch:
			if row.PrefetchMs, err = r.timed(func() error { return r.dev.Prefetch(x, ToGPU) }); err != nil {
				return err
			}
		case results.ModeManagedReuse:
			if err := r.dev.Launch(k); err != nil {
				return err
			}
			if err := r.dev.Sync(); err != nil {
				return err
			}
		}
		if err := r.placement(x, row); err != nil {
			return err
		}
		if _, err := r.settle(); err != nil {
			return err
		}
		ms, err := r.timeKernel(k)
		if err != nil {
			return err
		}
		row.KernelMs, row.GBps = ms, gbps(row.UsefulBytes, ms)
		row.TotalMs = ms
		if !math.IsNaN(row.PrefetchMs) {
			row.TotalMs += row.PrefetchMs
		}
		return r.check(x, want, fmt.Sprintf("%s %s", mode, k.Kind))
	}
}

// stateBound is the resource a kernel under memory state mode is bound by:
// resident data by the GPU; CPU-written data, cold or advised, by the
// driver's fault servicing and mapping (even accessed-by, which reads over
// the link but varies with the driver's mapping between trials).
func stateBound(mode string, useful int64) string {
	switch mode {
	case results.ModeExplicit, results.ModeManagedPrefetch, results.ModeManagedReuse:
		return results.KernelBound(useful)
	}
	return results.BoundFaults
}

// stateful is a definition measured by runState; embedding Common and
// StateSetup gives it both methods. Describe records its rewrite setting.
type stateful interface {
	common() Common
	setup() StateSetup
}

func (c Common) common() Common { return c }

func (s StateSetup) setup() StateSetup { return s.withDefaults() }

// runState measures one workload under configuration k's memory mode.
func (r *runner) runState(ctx context.Context, d stateful, k Config, base results.Row, w workload) (err error) {
	label, mode, c := k.Label, k.Mode, d.common()
	if r.doneEarlier(base, label) {
		return nil
	}
	if mode == results.ModeManagedPrefetch && !r.info.ConcurrentManagedAccess {
		return r.waive(base, label, "prefetch needs concurrent managed access, which the device does not report")
	}
	b, err := r.modeBuffers(mode, w, c.Seed)
	if err != nil {
		return fmt.Errorf("umkit: %s: %w", label, err)
	}
	defer func() {
		if ferr := b.free(r.dev); ferr != nil {
			err = errors.Join(err, fmt.Errorf("umkit: %s: freeing its buffers: %w", label, ferr))
		}
	}()
	if w.reference != nil {
		ref, err := w.reference(b.idx)
		if err != nil {
			return fmt.Errorf("umkit: %s: %w", label, err)
		}
		defer r.dev.Free(ref)
		w.ref = ref
	}
	return r.measure(ctx, base, label, c, 0, r.stateTrial(mode, w, b, c.Seed, d.setup()))
}
