package umkit

import (
	"context"
	"fmt"
	"slices"

	"github.com/umlab/umlab/results"
)

// HandoffConfig configures the CPU–GPU handoff group, handoff and reuse
// (paper VII-B): the same data
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
// Order (the Order field): interleaved by default. Each repetition
// runs, per policy and size, three blocks of Trials trials: CPU-only,
// GPU-only and the alternating sweep; within the repetition the blocks run
// in an order shuffled with OrderSeed, so host drift (the CPU update's
// speed moves by tens of percent over minutes on shared x86 hosts) lands
// on all policies alike, and each repetition's CPU-only baseline is
// measured among the alternating runs it is compared with. A sweep runs
// its trials in rounds, one trial of every R per round in a shuffled
// order (roundOrder, recorded as round_position), so the R = 1 point the
// model calibrates on and the R > 1 points it is validated on share the
// host's state second by second: on the H200 the managed CPU update sat
// 20–30 % slower for stretches of several trials, which whole blocks of
// one R caught and others missed. A unit's first block starts with the
// warm-ups (a sweep's: warm-up rounds); a later block whose buffers
// another phase used in between starts with one untimed settling
// iteration that re-establishes the phase's state (pages where the phase
// leaves them; needsSettling). Sequential order runs all repetitions of a
// configuration back to back, policy by policy, size by size and R by R.
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
// (GPU) to every element, so one check at the end of each block covers
// every iteration of it (warm-ups, settling, trials): a trial that skipped
// or repeated any part leaves every element off by a whole number, and the
// block's rows are then never written. GPU-only and alternating blocks are
// checked on the device, where their last iteration leaves the data; the
// CPU-only phase on the CPU, because a device check would move managed
// pages and change the state being measured. Checks after every trial
// took 16 s of the default suite on an H200 (h200-2026-12-02-rerun, in git history), one
// per block 1.4 s on another (h200-2026-12-02-blockcheck).
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

var _ = register(HandoffConfig{})

// HandoffPolicies are the CPU–GPU handoff policies (paper VII-B).
var HandoffPolicies = []string{results.PolicyManaged, results.PolicyManagedPrefetch, results.PolicyHostMapped, results.PolicyExplicitCopy}

// HandoffOrders are the measurement orders of the handoff group.
var HandoffOrders = []string{"interleaved", "sequential"}

// Name is the group's name.
func (HandoffConfig) Name() string { return results.GroupHandoff }

// Entries are the group's registry entries.
func (HandoffConfig) Entries() []Benchmark {
	return []Benchmark{entry("handoff", "one CPU pass and R GPU passes, 16 bytes per element each", needsManaged,
		"CPU update then R GPU passes over the same data, under managed, managed-prefetch, host-mapped and explicit-copy policies; CPU-only, GPU-only and alternating timed separately (VII-B).")}
}

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

func (c HandoffConfig) defaults() Definition { return c.Defaults() }

// Validate checks c before anything touches the GPU.
func (c HandoffConfig) Validate() error {
	c = c.Defaults()
	return firstError(c.Common.validate("handoff"),
		failIf(c.Repetitions < 1 || c.Repetitions > 100, "handoff: repetitions %d: allowed 1 to 100", c.Repetitions),
		validateSizes("handoff", "size", c.Sizes, 16, 64*GiB),
		each(c.Reuse, func(r int) error {
			return failIf(r < 1 || r > 4096, "handoff: reuse %d GPU passes: allowed 1 to 4096", r)
		}),
		failIf(!slices.Contains(c.Reuse, 1), "handoff: reuse %v lacks R = 1, which the model calibrates on", c.Reuse),
		failIf(c.CPU < -2, "handoff: CPU %d: allowed -2 (unpinned), -1 (near the GPU) or a core number", c.CPU),
		failIf(c.CPUThreads < 1 || c.CPUThreads > 256, "handoff: CPU threads %d: allowed 1 (default) to 256", c.CPUThreads),
		validateChoice("handoff", "order", []string{c.Order}, HandoffOrders), validateChoice("handoff", "policy", c.Policies, HandoffPolicies))
}

func (c HandoffConfig) configure(s Selection) Definition {
	c.Common, c.Sizes = s.Common, s.sizesOr([]int64{16 * MiB, 256 * MiB})
	c.Order, c.OrderSeed, c.CPUThreads = s.HandoffOrder, s.OrderSeed, s.CPUThreads
	if s.Quick {
		c.Repetitions, c.Reuse = quickHandoffRepeats, []int{1, 4, 32}
	}
	return c
}

// Configs lists what the group measures, in run order: one entry per
// configuration (policy and size; the CPU-only and GPU-only phases and the
// alternating phase at each reuse count) and repetition, labelled "…
// (repetition N)". Sequential order runs a configuration's repetitions
// back to back; interleaved order (the default) shuffles, within each
// repetition, the blocks of every policy and size (CPU-only, GPU-only and
// the sweep of every R, whose trials alternate R round by round) and lists
// a sweep's configurations together, in ascending R (see
// HandoffConfig.Order). The group is measured by one run (r.handoff: the
// phases share buffers and the cumulative check), so every entry but the
// first follows it.
func (c HandoffConfig) Configs() []Config {
	c = c.Defaults()
	specs := c.units()
	var out []Config
	for _, b := range handoffOrder(len(specs), c.Repetitions, c.Order, c.OrderSeed) {
		u := specs[b.conf]
		for _, reuse := range u.reuse {
			k := c.config(u.policy, u.size, u.phase, reuse)
			k.Label, k.Follows = fmt.Sprintf("%s (repetition %d)", k.Label, b.rep), true
			out = append(out, k)
		}
	}
	if len(out) > 0 {
		out[0].Follows = false
	}
	return configs(c, out, c.Trials.Int())
}

// config is the configuration of one policy, size and phase (and R, for
// the alternating phase): its rows' identity, label, useful bytes (one
// CPU pass and R GPU passes, 16 bytes per element each) and bound.
func (c HandoffConfig) config(policy string, size int64, phase string, reuse int) Config {
	k := Config{Entry: results.BenchHandoff, Benchmark: results.BenchHandoff, SizeBytes: size, FootprintBytes: size,
		Label: fmt.Sprintf("handoff %s %s %s", policy, fmtBytes(size), phase), BytesPerIteration: 2 * size}
	if policy == results.PolicyExplicitCopy {
		k.FootprintBytes = 2 * size // a host and a device array
	}
	switch {
	case phase == results.PhaseCPUOnly:
		k.Bound = results.BoundHostCPU
	case phase == results.PhaseAlternating:
		k.Label, k.BytesPerIteration = fmt.Sprintf("%s R=%d", k.Label, reuse), 2*size*int64(1+reuse)
		k.Bound = results.BoundMixed // the CPU update, the handoff and the GPU passes in turn
	case policy == results.PolicyHostMapped:
		k.Bound = results.BoundHostLink // the GPU pass reads and writes host memory
	default:
		k.Bound = results.KernelBound(2 * size)
	}
	return k
}

// measure runs the whole group: its phases share buffers and a cumulative
// check (handoffrun.go), and it pins its host thread itself.
func (c HandoffConfig) measure(ctx context.Context, r *runner, _ Config, _ results.Row) error {
	return r.handoff(ctx, c)
}

// unitSpec is one unit of the group's layout (HandoffConfig.units).
type unitSpec struct {
	policy string
	size   int64
	phase  string
	reuse  []int // the R of each configuration; 0 for cpu_only and gpu_only
	sweep  bool
}

// units lists the group's units in sequential layout: per policy and size,
// cpu_only, gpu_only, then the alternating phase as one sweep of every R
// (interleaved order) or one unit per R (sequential order). Configs and
// the measurement derive their order from this one list.
func (c HandoffConfig) units() []unitSpec {
	c = c.Defaults()
	var out []unitSpec
	for _, policy := range c.Policies {
		for _, size := range c.Sizes {
			out = append(out, unitSpec{policy, size, results.PhaseCPUOnly, []int{0}, false}, unitSpec{policy, size, results.PhaseGPUOnly, []int{0}, false})
			rs := slices.Sorted(slices.Values(c.Reuse))
			if c.Order == "interleaved" {
				out = append(out, unitSpec{policy, size, results.PhaseAlternating, rs, true})
				continue
			}
			for _, reuse := range c.Reuse {
				out = append(out, unitSpec{policy, size, results.PhaseAlternating, []int{reuse}, false})
			}
		}
	}
	return out
}
