package umkit

import (
	"context"

	"github.com/go-gota/gota/dataframe"
)

// Managed runs one streaming read-modify-write kernel (x = x + 1, 16 bytes
// moved per element) under each memory state of the paper (Section IV-C):
// explicit device memory, managed memory initialised by the CPU before every
// trial (cold), prefetched, reused after an untimed GPU pass (the data
// migrated once, then rewritten in place: stateTrial), and with the
// advice preferred-GPU, accessed-by-GPU and preferred-CPU. The observed
// range attributes are recorded with every trial.
func Managed(ctx context.Context, dev Device, cfg ManagedConfig) (dataframe.DataFrame, error) {
	if err := cfg.Validate(); err != nil {
		return dataframe.DataFrame{}, err
	}
	return collect(dev, func(r *runner) error { return r.runDefinition(ctx, cfg) })
}

// Name is the group's name.
func (ManagedConfig) Name() string { return "managed" }

// Entries are the group's registry entries.
func (ManagedConfig) Entries() []Benchmark {
	return []Benchmark{entry("managed.stream", "2 × size (read and write x)", needsManaged,
		"One streaming read-modify-write kernel under explicit, cold (CPU-initialised before every trial), prefetched, reused and advised managed memory (V-C, VI-A).")}
}

func (c ManagedConfig) configure(s Selection) Definition {
	c.Common, c.StateSetup, c.Sizes = s.Common, s.StateSetup(), s.sizesOr([]int64{MiB, 256 * MiB})
	return c
}

func (c ManagedConfig) defaults() Definition { return c.Defaults() }

// Configs lists the configurations: each mode at each size.
func (c ManagedConfig) Configs() []Config {
	c = c.Defaults()
	var out []Config
	for _, mode := range c.Modes {
		for _, size := range c.Sizes {
			out = append(out, Config{Definition: "managed", Entry: "managed.stream", Group: "managed", Benchmark: "stream", Mode: mode,
				Label: label("managed", mode, size), SizeBytes: size, BytesPerIteration: 2 * size})
		}
	}
	return withRows(out, c.Trials.Int())
}

func (c ManagedConfig) start(r *runner) (func(context.Context, Config) error, func(), error) {
	return noStart(func(ctx context.Context, k Config) error { return r.managedOne(ctx, c, k.Mode, k.SizeBytes, k.Label) })
}

func (r *runner) managedOne(ctx context.Context, cfg ManagedConfig, mode string, size int64, label string) error {
	n := uint64(size / 8)
	base := r.row("managed", "stream", mode)
	base.SizeBytes, base.FootprintBytes, base.UsefulBytes = size, size, 2*size
	base.ActiveElements, base.StrideElements = int64(n), 1
	w := workload{n: n, kernel: Kernel{Kind: KRMW, N: n, Mul: 1, Add: 1}, stride: 1, active: n}
	return r.runState(ctx, base, label, mode, w, cfg.Common, cfg.StateSetup)
}
