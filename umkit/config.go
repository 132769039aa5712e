package umkit

import (
	"fmt"
	"slices"

	"github.com/umlab/umlab/results"
)

// Sizes in bytes.
const (
	KiB int64 = 1 << 10
	MiB int64 = 1 << 20
	GiB int64 = 1 << 30
)

// Common holds the settings every group shares. Unset counts take the
// defaults in iters.go (the paper's 5 warm-ups and 25 trials; handoff 20 per
// repetition); N(0) warm-ups is an explicit zero and runs none.
type Common struct {
	Warmups Count  // untimed iterations before the trials; unset: DefaultWarmups
	Trials  Count  // measured iterations; unset: DefaultTrials (handoff: HandoffTrials per repetition)
	Seed    uint64 // data seed; default 1, so runs are reproducible
}

func validateSizes(group, what string, sizes []int64, lo, hi int64) error {
	for _, s := range sizes {
		if s < lo || s > hi || s%16 != 0 {
			return fmt.Errorf("umkit: %s: %s %d bytes: allowed multiples of 16 bytes from %d to %d (%s to %s)",
				group, what, s, lo, hi, fmtBytes(lo), fmtBytes(hi))
		}
	}
	return nil
}

func validateChoice(group, what string, got, allowed []string) error {
	for _, g := range got {
		if !slices.Contains(allowed, g) {
			return fmt.Errorf("umkit: %s: unknown %s %q: allowed %v", group, what, g, allowed)
		}
	}
	return nil
}

// pow4 returns lo, 4lo, 16lo, ... up to hi.
func pow4(lo, hi int64) []int64 {
	var s []int64
	for v := lo; v <= hi; v *= 4 {
		s = append(s, v)
	}
	return s
}

// HBMConfig configures the HBM bandwidth group (paper Table II: local
// GPU-resident bandwidth): STREAM copy and triad on device memory.
type HBMConfig struct {
	Common
	Sizes      []int64  // bytes per array; default 64 KiB to 4 GiB in steps of 4
	Benchmarks []string // copy, triad; default both
	// MinWarmupMs keeps warming up until this much GPU time has passed, so
	// clocks have left idle before the trials; default 100 ms (0 with N(0) warm-ups).
	MinWarmupMs float64
}

// Defaults returns c with every zero field set to its default.
func (c HBMConfig) Defaults() HBMConfig {
	c.Common = c.Common.withDefaults(DefaultTrials)
	if c.Sizes == nil {
		c.Sizes = pow4(64*KiB, 4*GiB)
	}
	if c.Benchmarks == nil {
		c.Benchmarks = []string{"copy", "triad"}
	}
	if c.MinWarmupMs == 0 && c.Warmups.Int() > 0 { // N(0) warm-ups: none at all
		c.MinWarmupMs = 100
	}
	return c
}

// Validate checks c, defaults applied, before anything touches the GPU.
func (c HBMConfig) Validate() error {
	c = c.Defaults()
	if err := c.Common.validate("hbm"); err != nil {
		return err
	}
	if c.MinWarmupMs < 0 {
		return fmt.Errorf("umkit: hbm: MinWarmupMs %v: must not be negative", c.MinWarmupMs)
	}
	if err := validateSizes("hbm", "size", c.Sizes, 16, 64*GiB); err != nil {
		return err
	}
	return validateChoice("hbm", "benchmark", c.Benchmarks, []string{"copy", "triad"})
}

// HostConfig configures the host/system-memory group: the triad on pinned
// mapped host memory read and written by the GPU, and on malloc'd memory
// where the device can access pageable memory.
type HostConfig struct {
	Common
	Sizes []int64 // bytes per array; default 64 KiB to 1 GiB in steps of 4
	Modes []string
}

// HostModes are the host group's modes.
var HostModes = []string{"host_mapped", "system"}

// Defaults returns c with every zero field set to its default.
func (c HostConfig) Defaults() HostConfig {
	c.Common = c.Common.withDefaults(DefaultTrials)
	if c.Sizes == nil {
		c.Sizes = pow4(64*KiB, GiB)
	}
	if c.Modes == nil {
		c.Modes = HostModes
	}
	return c
}

// Validate checks c before anything touches the GPU.
func (c HostConfig) Validate() error {
	c = c.Defaults()
	if err := c.Common.validate("host"); err != nil {
		return err
	}
	if err := validateSizes("host", "size", c.Sizes, 16, 16*GiB); err != nil {
		return err
	}
	return validateChoice("host", "mode", c.Modes, HostModes)
}

// TransferConfig configures the transfer/prefetch group: explicit copies
// host→device and device→host from pinned and pageable memory, and managed
// prefetch CPU→GPU and GPU→CPU.
type TransferConfig struct {
	Common
	Sizes []int64 // default 64 KiB to 1 GiB in steps of 4
	Modes []string
}

// TransferModes are the transfer group's modes: copies from pinned or
// pageable host memory, and managed prefetch.
var TransferModes = []string{"pinned", "pageable", "managed"}

// Defaults returns c with every zero field set to its default.
func (c TransferConfig) Defaults() TransferConfig {
	c.Common = c.Common.withDefaults(DefaultTrials)
	if c.Sizes == nil {
		c.Sizes = pow4(64*KiB, GiB)
	}
	if c.Modes == nil {
		c.Modes = TransferModes
	}
	return c
}

// Validate checks c before anything touches the GPU.
func (c TransferConfig) Validate() error {
	c = c.Defaults()
	if err := c.Common.validate("transfer"); err != nil {
		return err
	}
	if err := validateSizes("transfer", "size", c.Sizes, 16, 64*GiB); err != nil {
		return err
	}
	return validateChoice("transfer", "mode", c.Modes, TransferModes)
}

// ManagedModes are the memory states of the managed group (paper IV-C).
var ManagedModes = []string{
	"explicit", "managed_cold", "managed_prefetch", "managed_reuse",
	"advise_preferred_gpu", "advise_accessed_by", "advise_preferred_cpu",
}

// ManagedConfig configures the managed-memory group: one streaming
// read-modify-write kernel under each memory state.
type ManagedConfig struct {
	Common
	StateSetup
	Sizes []int64 // default 64 KiB to 1 GiB in steps of 4
	Modes []string
}

// Defaults returns c with every zero field set to its default.
func (c ManagedConfig) Defaults() ManagedConfig {
	c.Common = c.Common.withDefaults(DefaultTrials)
	c.StateSetup = c.StateSetup.withDefaults()
	if c.Sizes == nil {
		c.Sizes = pow4(64*KiB, GiB)
	}
	if c.Modes == nil {
		c.Modes = ManagedModes
	}
	return c
}

// Validate checks c before anything touches the GPU.
func (c ManagedConfig) Validate() error {
	c = c.Defaults()
	if err := c.Common.validate("managed"); err != nil {
		return err
	}
	if err := c.StateSetup.validate("managed"); err != nil {
		return err
	}
	if err := validateSizes("managed", "size", c.Sizes, 16, 64*GiB); err != nil {
		return err
	}
	return validateChoice("managed", "mode", c.Modes, ManagedModes)
}

// PatternModes are the memory states of the access-pattern group.
var PatternModes = []string{"explicit", "managed_cold", "managed_prefetch", "managed_reuse"}

// PatternBenchmarks are the access patterns.
var PatternBenchmarks = []string{"streaming", "strided", "random", "page_touch"}

// PatternConfig configures the access-pattern group over a fixed footprint.
type PatternConfig struct {
	Common
	StateSetup
	FootprintBytes int64    // data allocation; default 256 MiB (paper VI-B)
	Strides        []int64  // elements; default 1, 2, 4, ..., 1024
	PageIntervals  []int64  // bytes; default 4 KiB, 64 KiB, 2 MiB
	Benchmarks     []string // default all four patterns
	Modes          []string // default explicit, cold, prefetch, reuse
}

// Defaults returns c with every zero field set to its default.
func (c PatternConfig) Defaults() PatternConfig {
	c.Common = c.Common.withDefaults(DefaultTrials)
	c.StateSetup = c.StateSetup.withDefaults()
	if c.FootprintBytes == 0 {
		c.FootprintBytes = 256 * MiB
	}
	if c.Strides == nil {
		for s := int64(1); s <= 1024; s *= 2 {
			c.Strides = append(c.Strides, s)
		}
	}
	if c.PageIntervals == nil {
		c.PageIntervals = []int64{4 * KiB, 64 * KiB, 2 * MiB}
	}
	if c.Benchmarks == nil {
		c.Benchmarks = PatternBenchmarks
	}
	if c.Modes == nil {
		c.Modes = PatternModes
	}
	return c
}

// Validate checks c before anything touches the GPU.
func (c PatternConfig) Validate() error {
	c = c.Defaults()
	if err := c.Common.validate("pattern"); err != nil {
		return err
	}
	if err := c.StateSetup.validate("pattern"); err != nil {
		return err
	}
	if err := validateSizes("pattern", "footprint", []int64{c.FootprintBytes}, 64*KiB, 64*GiB); err != nil {
		return err
	}
	for _, s := range c.Strides {
		if s < 1 || s*8 > c.FootprintBytes {
			return fmt.Errorf("umkit: pattern: stride %d elements: allowed 1 to footprint/8 (%d)", s, c.FootprintBytes/8)
		}
	}
	for _, p := range c.PageIntervals {
		if p < 8 || p%8 != 0 || p > c.FootprintBytes {
			return fmt.Errorf("umkit: pattern: page interval %d bytes: allowed multiples of 8 up to the footprint (%d)", p, c.FootprintBytes)
		}
	}
	if err := validateChoice("pattern", "benchmark", c.Benchmarks, PatternBenchmarks); err != nil {
		return err
	}
	return validateChoice("pattern", "mode", c.Modes, PatternModes)
}

// OversubModes are the memory states of the oversubscription group.
var OversubModes = []string{"managed_cold", "managed_prefetch", "managed_reuse"}

// OversubPatterns are its access patterns.
var OversubPatterns = []string{"streaming", "strided", "random"}

// OversubConfig configures the oversubscription group: a managed footprint
// as a percentage of free device memory.
type OversubConfig struct {
	Common
	StateSetup
	Percents []float64 // of free device memory; default 25, 50, 75, 90
	// CapacityBytes shrinks free device memory to this much (plus the safety
	// margin) with a plain device allocation first, so that a sweep takes
	// seconds, not hours; default 2 GiB. -1 measures against all free memory.
	CapacityBytes int64
	Patterns      []string
	Modes         []string
	Stride        int64 // elements, for the strided pattern; default 16
	// AllowOversubscription permits percentages above 90. Above 100 the
	// working set exceeds GPU memory: pages are evicted and reloaded, and
	// some drivers have hung the GPU doing so. Off by default.
	AllowOversubscription bool
}

// Defaults returns c with every zero field set to its default.
func (c OversubConfig) Defaults() OversubConfig {
	c.Common = c.Common.withDefaults(DefaultTrials)
	c.StateSetup = c.StateSetup.withDefaults()
	if c.Percents == nil {
		c.Percents = []float64{25, 50, 75, 90}
	}
	if c.CapacityBytes == 0 {
		c.CapacityBytes = 2 * GiB
	}
	if c.Patterns == nil {
		c.Patterns = OversubPatterns
	}
	if c.Modes == nil {
		c.Modes = OversubModes
	}
	if c.Stride == 0 {
		c.Stride = 16
	}
	return c
}

// Validate checks c before anything touches the GPU.
func (c OversubConfig) Validate() error {
	c = c.Defaults()
	if err := c.Common.validate("oversub"); err != nil {
		return err
	}
	if err := c.StateSetup.validate("oversub"); err != nil {
		return err
	}
	for _, p := range c.Percents {
		if p <= 0 || p > 200 {
			return fmt.Errorf("umkit: oversub: %v %%: allowed above 0 up to 90 (up to 200 with AllowOversubscription)", p)
		}
		if p > 90 && !c.AllowOversubscription {
			return fmt.Errorf("umkit: oversub: %v %% of free device memory needs AllowOversubscription "+
				"(--allow-oversubscription): beyond 90 %% pages are evicted and reloaded, and drivers have hung doing so", p)
		}
	}
	if c.CapacityBytes != -1 && (c.CapacityBytes < 64*MiB || c.CapacityBytes%(2*MiB) != 0) {
		return fmt.Errorf("umkit: oversub: capacity %d bytes: allowed -1 (all free memory) or a multiple of 2 MiB from 64 MiB", c.CapacityBytes)
	}
	if c.Stride < 1 {
		return fmt.Errorf("umkit: oversub: stride %d: must be at least 1", c.Stride)
	}
	if err := validateChoice("oversub", "pattern", c.Patterns, OversubPatterns); err != nil {
		return err
	}
	return validateChoice("oversub", "mode", c.Modes, OversubModes)
}

// HandoffPolicies are the CPU–GPU handoff policies (paper VII-B).
var HandoffPolicies = []string{"managed", "managed_prefetch", "host_mapped", "explicit_copy"}

// HandoffConfig configures the CPU–GPU handoff group: a CPU update followed
// by R GPU passes over the same data, per policy.
type HandoffConfig struct {
	Common              // Trials default 20 per repetition
	Repetitions int     // default 3
	Sizes       []int64 // default 64 KiB, 2 MiB, 16 MiB, 64 MiB, 256 MiB, 1 GiB
	Reuse       []int   // GPU passes per CPU update; default 1, 2, 4, 8, 16, 32
	Policies    []string
	// CPU is the core the host thread is pinned to; -1 (default) picks the
	// first core of the GPU's NUMA-local set, -2 leaves the thread unpinned.
	CPU int
	// Order is the measurement order: "interleaved" (default) runs, within
	// each repetition, the blocks of every policy and size (CPU-only,
	// GPU-only, and the alternating sweep, whose trials alternate every R
	// round by round in a shuffled order) in an order shuffled with
	// OrderSeed, so that slow drift of the host falls on all policies and
	// every R alike and each CPU-only baseline is measured among the
	// alternating runs it is compared with; "sequential" runs policy by
	// policy, size by size, R by R, all repetitions of a configuration back
	// to back (the layout before interleaving).
	Order string
	// OrderSeed seeds the interleaved order; default 1. It is recorded in
	// every row (order_seed) with the block's position (order_index) and,
	// for sweep trials, the place in the round (round_position).
	OrderSeed uint64
	// CPUThreads is how many threads run the CPU update; default 1, the
	// paper's single-threaded update. Threads after the first are pinned to
	// further cores of the GPU's NUMA-local set (when the host thread is
	// pinned). Recorded in every row (cpu_threads).
	CPUThreads int
}

// HandoffOrders are the measurement orders of the handoff group.
var HandoffOrders = []string{"interleaved", "sequential"}

// Defaults returns c with every zero field set to its default.
func (c HandoffConfig) Defaults() HandoffConfig {
	c.Common = c.Common.withDefaults(HandoffTrials)
	if c.Repetitions == 0 {
		c.Repetitions = DefaultHandoffReps
	}
	if c.Sizes == nil {
		c.Sizes = []int64{64 * KiB, 2 * MiB, 16 * MiB, 64 * MiB, 256 * MiB, GiB}
	}
	if c.Reuse == nil {
		c.Reuse = []int{1, 2, 4, 8, 16, 32}
	}
	if c.Policies == nil {
		c.Policies = HandoffPolicies
	}
	if c.CPU == 0 {
		c.CPU = -1
	}
	if c.Order == "" {
		c.Order = "interleaved"
	}
	if c.OrderSeed == 0 {
		c.OrderSeed = 1
	}
	if c.CPUThreads == 0 {
		c.CPUThreads = 1
	}
	return c
}

// Validate checks c before anything touches the GPU.
func (c HandoffConfig) Validate() error {
	c = c.Defaults()
	if err := c.Common.validate("handoff"); err != nil {
		return err
	}
	if c.Repetitions < 1 || c.Repetitions > 100 {
		return fmt.Errorf("umkit: handoff: repetitions %d: allowed 1 to 100", c.Repetitions)
	}
	if err := validateSizes("handoff", "size", c.Sizes, 16, 64*GiB); err != nil {
		return err
	}
	for _, r := range c.Reuse {
		if r < 1 || r > 4096 {
			return fmt.Errorf("umkit: handoff: reuse %d GPU passes: allowed 1 to 4096", r)
		}
	}
	if !slices.Contains(c.Reuse, 1) {
		return fmt.Errorf("umkit: handoff: reuse %v lacks R = 1, which the model calibrates on", c.Reuse)
	}
	if c.CPU < -2 {
		return fmt.Errorf("umkit: handoff: CPU %d: allowed -2 (unpinned), -1 (near the GPU) or a core number", c.CPU)
	}
	if c.CPUThreads < 1 || c.CPUThreads > 256 {
		return fmt.Errorf("umkit: handoff: CPU threads %d: allowed 1 (default) to 256", c.CPUThreads)
	}
	if err := validateChoice("handoff", "order", []string{c.Order}, HandoffOrders); err != nil {
		return err
	}
	return validateChoice("handoff", "policy", c.Policies, HandoffPolicies)
}

// fmtBytes is the one byte formatter, results.FormatBytes.
var fmtBytes = results.FormatBytes
