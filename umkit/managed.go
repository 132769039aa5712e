package umkit

import (
	"context"

	"github.com/umlab/umlab/results"
)

// ManagedConfig configures the managed-memory group: one streaming
// read-modify-write kernel (x = x + 1) under each memory state of the paper
// (IV-C): explicit, cold, prefetched, reused (stateTrial) and advised
// preferred-GPU, accessed-by-GPU and preferred-CPU.
type ManagedConfig struct {
	Common
	StateSetup
	Sizes []int64 // default 64 KiB to 1 GiB in steps of 4
	Modes []string
}

var _ = register(ManagedConfig{})

// ManagedModes are the memory states of the managed group (paper IV-C).
var ManagedModes = []string{
	results.ModeExplicit, results.ModeManagedCold, results.ModeManagedPrefetch, results.ModeManagedReuse,
	results.ModeAdvisePreferredGPU, results.ModeAdviseAccessedBy, results.ModeAdvisePreferredCPU,
}

// Name is the group's name.
func (ManagedConfig) Name() string { return results.GroupManaged }

// Entries are the group's registry entries.
func (ManagedConfig) Entries() []Benchmark {
	return []Benchmark{entry("managed.stream", "2 × size (read and write x)", needsManaged,
		"One streaming read-modify-write kernel under explicit, cold (CPU-initialised before every trial), prefetched, reused and advised managed memory (V-C, VI-A).")}
}

// Defaults returns c with every zero field set to its default.
func (c ManagedConfig) Defaults() ManagedConfig {
	c.Common = c.Common.withDefaults(DefaultTrials)
	c.StateSetup = c.StateSetup.withDefaults()
	c.Sizes = orElse(c.Sizes, pow4(64*KiB, GiB))
	c.Modes = orElse(c.Modes, ManagedModes)
	return c
}

// Validate checks c before anything touches the GPU.
func (c ManagedConfig) Validate() error {
	c = c.Defaults()
	return firstError(c.Common.validate("managed"), c.StateSetup.validate("managed"),
		validateSizes("managed", "size", c.Sizes, 16, 64*GiB), validateChoice("managed", "mode", c.Modes, ManagedModes))
}

func (c ManagedConfig) configure(s Selection) Definition {
	c.Common, c.StateSetup, c.Sizes = s.Common, s.StateSetup(), s.sizesOr([]int64{MiB, 256 * MiB})
	return c
}

// Configs lists the configurations: each mode at each size.
func (c ManagedConfig) Configs() []Config {
	c = c.Defaults()
	var out []Config
	for _, mode := range c.Modes {
		for _, size := range c.Sizes {
			out = append(out, Config{Benchmark: results.BenchStream, Mode: mode, Label: label("managed", mode, size),
				SizeBytes: size, FootprintBytes: size, BytesPerIteration: 2 * size, Bound: stateBound(mode, 2*size)})
		}
	}
	return configs(c, out, c.Trials.Int())
}

func (c ManagedConfig) measure(ctx context.Context, r *runner, k Config, base results.Row) error {
	n := uint64(k.SizeBytes / 8)
	base.ActiveElements, base.StrideElements = int64(n), 1
	w := workload{n: n, kernel: Kernel{Kind: KRMW, N: n, Mul: 1, Add: 1}, stride: 1, active: n}
	return r.runState(ctx, c, k, base, w)
}
