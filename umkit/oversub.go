package umkit

import (
	"cmp"
	"context"
	"fmt"

	"github.com/umlab/umlab/results"
)

// OversubConfig configures the oversubscription group, capacity pressure
// (paper VII-A): a managed footprint of a percentage of free device memory
// (first shrunk to CapacityBytes, so the sweep is fast), for streaming,
// strided and random access under cold, prefetched and reused states.
type OversubConfig struct {
	Common
	StateSetup
	Percents []float64 // of free device memory; default 25, 50, 75, 90
	// CapacityBytes shrinks free device memory to this much (plus the
	// margin) first, so that a sweep takes seconds, not hours; default
	// 2 GiB; -1: all free memory.
	CapacityBytes int64
	Patterns      []string
	Modes         []string
	Stride        int64 // elements, for the strided pattern; default 16
	// AllowOversubscription permits percentages above 90 (OversubWarning).
	AllowOversubscription bool

	capacity uint64 // the bytes the percentages refer to, once prepared
}

var _ = register(OversubConfig{})

// OversubModes are the memory states of the oversubscription group.
var OversubModes = []string{results.ModeManagedCold, results.ModeManagedPrefetch, results.ModeManagedReuse}

// OversubPatterns are its access patterns.
var OversubPatterns = []string{results.PatternStreaming, results.PatternStrided, results.PatternRandom}

// Defaults returns c with every zero field set to its default.
func (c OversubConfig) Defaults() OversubConfig {
	c.Common = c.Common.withDefaults(DefaultTrials)
	c.StateSetup = c.StateSetup.withDefaults()
	c.Percents = orElse(c.Percents, []float64{25, 50, 75, 90})
	c.CapacityBytes = cmp.Or(c.CapacityBytes, 2*GiB)
	c.Patterns = orElse(c.Patterns, OversubPatterns)
	c.Modes = orElse(c.Modes, OversubModes)
	c.Stride = cmp.Or(c.Stride, 16)
	return c
}

// Validate checks c before anything touches the GPU.
func (c OversubConfig) Validate() error {
	c = c.Defaults()
	return firstError(c.Common.validate("oversub"), c.StateSetup.validate("oversub"),
		each(c.Percents, func(p float64) error {
			return firstError(failIf(p <= 0 || p > 200, "oversub: %v %%: allowed above 0 up to 90 (up to 200 with AllowOversubscription)", p),
				failIf(p > 90 && !c.AllowOversubscription, "oversub: %v %% of free device memory needs AllowOversubscription "+
					"(--allow-oversubscription): beyond 90 %% pages are evicted and reloaded, and drivers have hung doing so", p))
		}),
		failIf(c.CapacityBytes != -1 && (c.CapacityBytes < 64*MiB || c.CapacityBytes%(2*MiB) != 0),
			"oversub: capacity %d bytes: allowed -1 (all free memory) or a multiple of 2 MiB from 64 MiB", c.CapacityBytes),
		failIf(c.Stride < 1, "oversub: stride %d: must be at least 1", c.Stride),
		validateChoice("oversub", "pattern", c.Patterns, OversubPatterns), validateChoice("oversub", "mode", c.Modes, OversubModes))
}

// Name is the group's name.
func (OversubConfig) Name() string { return results.GroupOversub }

// Entries are the group's registry entries.
func (OversubConfig) Entries() []Benchmark {
	return []Benchmark{
		entry("oversub.streaming", "16 bytes per element", needsManaged,
			"The streaming kernel on a managed footprint of 25–90 % of free device memory (beyond with an explicit opt-in) (VII-A)."),
		entry("oversub.strided", "16 bytes per touched element", needsManaged, "The strided kernel under capacity pressure."),
		entry("oversub.random", "16 bytes per element", needsManaged,
			"Random access under capacity pressure; the index array adds to the footprint."),
	}
}

func (c OversubConfig) configure(s Selection) Definition {
	c.Common, c.StateSetup, c.Patterns, c.Percents, c.AllowOversubscription = s.Common, s.StateSetup(), s.Benchmarks, s.OversubPercents, s.AllowOversubscription
	// Quick runs keep the default 2 GiB capacity: at 1 GiB the 10 % left
	// above a 90 % footprint is less than the free memory an H200 loses
	// once a prefetched footprint is freed.
	if s.Quick && c.Percents == nil {
		c.Percents = []float64{25, 90}
	}
	return c
}

// oversubArg is what one oversub configuration needs.
type oversubArg struct {
	pattern string
	pct     float64
}

// Configs lists the configurations: each pattern, mode and percentage.
// Sizes and bytes per iteration are 0 until prepared (they depend on free
// memory); beyond 100 % (eviction) every mode is bound by faults.
func (c OversubConfig) Configs() []Config {
	c = c.Defaults()
	var out []Config
	for _, pattern := range c.Patterns {
		for _, mode := range c.Modes {
			for _, pct := range c.Percents {
				k := Config{Entry: "oversub." + pattern, Benchmark: results.BenchStream, Mode: mode,
					Label: fmt.Sprintf("oversub %s %s %g%%", pattern, mode, pct), arg: oversubArg{pattern, pct}}
				// Unprepared, the bound takes the capacity asked for.
				n, perElement := c.elements(pattern, pct, cmp.Or(c.capacity, uint64(max(c.CapacityBytes, 0))))
				useful := int64(stateWorkload(pattern, n, uint64(c.Stride)).active * 16)
				if k.Bound = results.BoundFaults; pct <= 100 {
					k.Bound = stateBound(mode, useful)
				}
				if c.capacity > 0 {
					k.SizeBytes, k.FootprintBytes, k.BytesPerIteration = int64(n*8), int64(n*perElement), useful
				}
				out = append(out, k)
			}
		}
	}
	return configs(c, out, c.Trials.Int())
}

// elements is the data elements of a footprint of pct % of capacity (whole
// 2 MiB), and the bytes each takes (random's index array doubles it).
func (c OversubConfig) elements(pattern string, pct float64, capacity uint64) (n, perElement uint64) {
	footprint := uint64(pct / 100 * float64(capacity))
	footprint -= footprint % (2 << 20)
	perElement = 8
	if pattern == results.PatternRandom {
		perElement = 16
	}
	return footprint / perElement, perElement
}

// prepare shrinks free device memory to the capacity (and warns above
// 90 %) for the configurations; done releases the reservation.
func (c OversubConfig) prepare(r *runner) (Definition, func(), error) {
	r.scratch() // before shrinking, so that the capacity is all the footprint's
	r.primeManaged()
	capacity, release, err := r.shrink(c.CapacityBytes)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range c.Percents {
		if p > 90 {
			r.warn(OversubWarning)
			break
		}
	}
	c.capacity = capacity
	return c, release, nil
}

func (c OversubConfig) measure(ctx context.Context, r *runner, k Config, base results.Row) error {
	a := k.arg.(oversubArg)
	w := stateWorkload(a.pattern, uint64(k.SizeBytes/8), uint64(c.Stride))
	base.Pattern, base.OversubPct = a.pattern, a.pct
	base.ActiveElements, base.StrideElements = int64(w.active), int64(w.stride)
	base.Note = fmt.Sprintf("capacity %s", fmtBytes(int64(c.capacity)))
	if a.pct > 100 {
		r.dev.AllowOversubscription(true)
		defer r.dev.AllowOversubscription(false)
	}
	return r.runState(ctx, c, k, base, w)
}

// OversubWarning is printed before any run above 90 % of free memory.
const OversubWarning = "oversubscribing managed memory: beyond the GPU's capacity pages are evicted and " +
	"reloaded; drivers have been reported to hang the GPU or the whole host doing so (unkillable processes, " +
	"a reboot to recover). Do not do this on a shared machine."

// primeManaged makes the driver set up its managed-memory machinery before
// free memory is read: it takes 100-odd MiB at a process's first managed
// prefetch (an H200), after which a 90 % footprint would no longer fit.
// Best effort: a failure shows up in the measurements that follow.
func (r *runner) primeManaged() {
	const n = 1 << 18 // 2 MiB of float64
	b, err := r.dev.Alloc(ManagedMem, n*8)
	if err != nil {
		return
	}
	defer r.dev.Free(b)
	if r.dev.Info().ConcurrentManagedAccess {
		_ = r.dev.Prefetch(b, ToGPU)
	}
	if r.dev.Launch(Kernel{Kind: KRMW, X: b, N: n, Mul: 1, Add: 1}) == nil {
		_ = r.dev.Sync()
	}
}

// shrink reserves device memory so that capacity bytes stay free beyond the
// allocation margin, and returns the capacity the percentages refer to.
func (r *runner) shrink(capacity int64) (uint64, func(), error) {
	free, _, err := r.dev.MemInfo()
	if err != nil {
		return 0, nil, err
	}
	margin := r.dev.MemoryMargin()
	if free <= margin {
		return 0, nil, fmt.Errorf("umkit: oversub: only %s free, less than the %s margin", fmtBytes(int64(free)), fmtBytes(int64(margin)))
	}
	usable := free - margin
	if capacity < 0 || uint64(capacity) >= usable {
		return usable, func() {}, nil
	}
	reserve, err := r.dev.Alloc(DeviceMem, usable-uint64(capacity))
	if err != nil {
		return 0, nil, fmt.Errorf("umkit: oversub: reserving device memory to shrink capacity: %w", err)
	}
	free, _, err = r.dev.MemInfo()
	if err != nil || free <= margin {
		r.dev.Free(reserve)
		return 0, nil, fmt.Errorf("umkit: oversub: free memory after the reservation: %v", err)
	}
	return free - margin, func() { r.dev.Free(reserve) }, nil
}
