package umkit

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/umlab/umlab/results"
)

// HandoffConfig configures the CPU–GPU handoff group, handoff and reuse
// (paper VII-B): the same data alternately updated by the CPU (x = x + 1,
// a C loop on a thread pinned near the GPU) and read-modified-written by R
// GPU passes, under four policies:
//
//	managed           the CPU and GPU touch managed memory; pages fault back and forth
//	managed_prefetch  the same, with a prefetch to the CPU before the update and to the GPU after it
//	host_mapped       pinned host memory the GPU accesses in place through its device pointer
//	explicit_copy     a pinned host array and a device array, copied each way around the GPU passes
//
// Three phases are timed separately: cpu_only (one CPU update, wall time),
// gpu_only (one GPU pass on data placed as the policy places it, event
// time) and alternating (CPU update + handoff + R GPU passes, wall time).
// Defaults: 5 warm-ups, then 3 repetitions of 20 trials.
//
// Order: interleaved by default. Each repetition runs, per policy and
// size, a CPU-only, a GPU-only and an alternating-sweep block, in an order
// shuffled with OrderSeed, so host drift (the CPU update's speed moves by
// tens of percent over minutes on shared x86 hosts) lands on all policies
// alike. A sweep runs one trial of every R per round, in a shuffled order
// (roundOrder, recorded as round_position), so the R = 1 point the model
// calibrates on and the R > 1 points it is validated on share the host's
// state second by second. A unit's first block starts with the warm-ups; a
// later block whose buffers another phase used since starts with one
// untimed settling iteration (needsSettling). Sequential order runs each
// configuration's repetitions back to back.
//
// Parts of an alternating trial: cpu_ms, the CPU update (wall; for managed
// memory with the CPU page faults); prefetch_ms (managed_prefetch: to the
// CPU, wall, plus to the GPU, event time) or transfer_ms (explicit_copy:
// both copies, event time); kernel_ms, the R GPU passes; sync_ms, the rest
// of total_ms. The parts are timed with events queued without
// synchronizing (Marker); without them the GPU parts are NaN.
//
// Verification is cumulative: every iteration adds exactly 1 + R to every
// element, so one check at the end of each block covers all its
// iterations, and a block that fails it writes no rows. The CPU-only
// phase is checked on the CPU, because a device check would move managed
// pages. (One check per block instead of per trial cut the suite's
// verification from 16 s to 1.4 s on the H200; datasets/README.md.)
type HandoffConfig struct {
	Common              // Trials default 20 per repetition
	Repetitions int     // default 3
	Sizes       []int64 // default 64 KiB, 2 MiB, 16 MiB, 64 MiB, 256 MiB, 1 GiB
	Reuse       []int   // GPU passes per CPU update; default 1, 2, 4, 8, 16, 32
	Policies    []string
	// CPU is the host thread's core; -1 (default): the last core of the
	// GPU's NUMA-local set (pinThread); -2: unpinned.
	CPU int
	// Order is "interleaved" (default) or "sequential".
	Order string
	// OrderSeed seeds the interleaved order; default 1 (row: order_seed).
	OrderSeed uint64
	// CPUThreads run the CPU update; default 1, the paper's. Threads after
	// the first are pinned to further NUMA-local cores (row: cpu_threads).
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
	c.Repetitions = cmp.Or(c.Repetitions, DefaultHandoffReps)
	c.Sizes = orElse(c.Sizes, []int64{64 * KiB, 2 * MiB, 16 * MiB, 64 * MiB, 256 * MiB, GiB})
	c.Reuse = orElse(c.Reuse, []int{1, 2, 4, 8, 16, 32})
	c.Policies = orElse(c.Policies, HandoffPolicies)
	c.CPU = cmp.Or(c.CPU, -1)
	c.Order = cmp.Or(c.Order, "interleaved")
	c.OrderSeed = cmp.Or(c.OrderSeed, 1)
	c.CPUThreads = cmp.Or(c.CPUThreads, 1)
	return c
}

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

// Configs lists one entry per configuration (policy, size, phase and R)
// and repetition, in the measurement order (a sweep's in ascending R).
// One run measures the whole group (the phases share buffers and the
// cumulative check), so every entry but the first follows it.
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

// config is the configuration of one policy, size, phase and R.
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

func (c HandoffConfig) measure(ctx context.Context, r *runner, _ Config, _ results.Row) error {
	return r.handoff(ctx, c)
}

// handoffUnit is one unit of the group's layout (HandoffConfig.units), and
// what one block of trials measures: one configuration, or in interleaved
// order a sweep of every R of one policy and size, run in rounds
// (HandoffConfig's doc says why).
type handoffUnit struct {
	policy string
	size   int64
	phase  string
	reuse  []int // the R of each configuration; 0 for cpu_only and gpu_only
	sweep  bool
	confs  []*handoffConf // once measured: one per R, ascending for a sweep
}

// units lists the group's units in sequential layout: per policy and size,
// cpu_only, gpu_only, then the alternating phase as one sweep of every R
// (interleaved) or one unit per R (sequential). Configs and the
// measurement both derive their order from it.
func (c HandoffConfig) units() []handoffUnit {
	c = c.Defaults()
	var out []handoffUnit
	for _, policy := range c.Policies {
		for _, size := range c.Sizes {
			out = append(out, handoffUnit{policy: policy, size: size, phase: results.PhaseCPUOnly, reuse: []int{0}},
				handoffUnit{policy: policy, size: size, phase: results.PhaseGPUOnly, reuse: []int{0}})
			rs := slices.Sorted(slices.Values(c.Reuse))
			if c.Order == "interleaved" {
				out = append(out, handoffUnit{policy: policy, size: size, phase: results.PhaseAlternating, reuse: rs, sweep: true})
				continue
			}
			for _, reuse := range c.Reuse {
				out = append(out, handoffUnit{policy: policy, size: size, phase: results.PhaseAlternating, reuse: []int{reuse}})
			}
		}
	}
	return out
}
