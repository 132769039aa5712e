package umkit

import (
	"context"

	"github.com/umlab/umlab/results"
)

// HostCopyConfig configures host.mapped_copy: the STREAM copy a = b in
// mapped pinned host memory. The triad reads two arrays for each it
// writes; the copy moves the same bytes each way, and so tells whether
// mapped access is bound by the link's reads, its writes, or their sum.
type HostCopyConfig struct {
	Common
	Sizes []int64 // bytes per array; default 64 KiB to 1 GiB in steps of 4
}

var _ = register(HostCopyConfig{})

// Name identifies the definition: an extra benchmark of the host group.
func (HostCopyConfig) Name() string { return "host.copy" }

// Entries are its registry entries.
func (HostCopyConfig) Entries() []Benchmark {
	return []Benchmark{entry("host.mapped_copy", "2 × size (read b, write a)", needsMapping,
		"STREAM copy a = b with the arrays in pinned host memory mapped into the device: as many bytes cross the link each way, "+
			"where the triad (host.mapped_triad) reads two for each one it writes.")}
}

// Defaults returns c with every zero field set to its default.
func (c HostCopyConfig) Defaults() HostCopyConfig {
	c.Common = c.Common.withDefaults(DefaultTrials)
	c.Sizes = orElse(c.Sizes, pow4(64*KiB, GiB))
	return c
}

// Validate checks c before anything touches the GPU.
func (c HostCopyConfig) Validate() error {
	c = c.Defaults()
	return firstError(c.Common.validate("host.copy"), validateSizes("host.copy", "size", c.Sizes, 16, 16*GiB))
}

func (c HostCopyConfig) configure(s Selection) Definition {
	c.Common, c.Sizes = s.Common, s.sizesOr([]int64{MiB, 256 * MiB})
	return c
}

// Configs lists the configurations: one per size (three arrays: the copy
// alternates its source).
func (c HostCopyConfig) Configs() []Config {
	c = c.Defaults()
	var out []Config
	for _, size := range c.Sizes {
		out = append(out, Config{Entry: "host.mapped_copy", Benchmark: results.BenchCopy, Mode: results.ModeHostMapped,
			Label: label("host copy", results.ModeHostMapped, size), SizeBytes: size, FootprintBytes: 3 * size,
			BytesPerIteration: 2 * size, Bound: results.BoundHostLink})
	}
	return configs(c, out, c.Trials.Int())
}

func (c HostCopyConfig) measure(ctx context.Context, r *runner, k Config, base results.Row) error {
	return r.hostStream(ctx, c.Common, k, base)
}
