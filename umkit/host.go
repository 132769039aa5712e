package umkit

import (
	"context"

	"github.com/umlab/umlab/results"
)

// HostConfig configures the host/system-memory group: the STREAM triad
// with its arrays in pinned host memory mapped into the device
// (host_mapped), and in malloc'd memory (system; waived where the device
// lacks pageable memory access: HMM or ATS).
type HostConfig struct {
	Common
	Sizes []int64 // bytes per array; default 64 KiB to 1 GiB in steps of 4
	Modes []string
}

var _ = register(HostConfig{})

// HostModes are the host group's modes.
var HostModes = []string{results.ModeHostMapped, results.ModeSystem}

// hostEntries are the registry entries of the host modes.
var hostEntries = map[string]string{results.ModeHostMapped: "host.mapped_triad", results.ModeSystem: "host.system_triad"}

// hostBounds: mapped memory is read and written over the CPU–GPU link,
// malloc'd memory through the host's pageable path.
var hostBounds = map[string]string{results.ModeHostMapped: results.BoundHostLink, results.ModeSystem: results.BoundHostPageable}

// Name is the group's name.
func (HostConfig) Name() string { return results.GroupHost }

// Entries are the group's registry entries.
func (HostConfig) Entries() []Benchmark {
	return []Benchmark{
		entry(hostEntries[results.ModeHostMapped], "3 × size", needsMapping,
			"The triad with all arrays in pinned host memory mapped into the device: GPU loads and stores cross the CPU–GPU link on every access (V-A)."),
		entry(hostEntries[results.ModeSystem], "3 × size", needsPageable,
			"The triad on malloc'd (system-allocated) memory, which the GPU can dereference only with HMM or ATS (Grace)."),
	}
}

// Defaults returns c with every zero field set to its default.
func (c HostConfig) Defaults() HostConfig {
	c.Common = c.Common.withDefaults(DefaultTrials)
	c.Sizes = orElse(c.Sizes, pow4(64*KiB, GiB))
	c.Modes = orElse(c.Modes, HostModes)
	return c
}

// Validate checks c before anything touches the GPU.
func (c HostConfig) Validate() error {
	c = c.Defaults()
	return firstError(c.Common.validate("host"), validateSizes("host", "size", c.Sizes, 16, 16*GiB),
		validateChoice("host", "mode", c.Modes, HostModes))
}

func (c HostConfig) configure(s Selection) Definition {
	c.Common, c.Modes, c.Sizes = s.Common, nil, s.sizesOr([]int64{MiB, 256 * MiB})
	for _, b := range s.Benchmarks {
		for m, e := range hostEntries {
			if e == "host."+b {
				c.Modes = append(c.Modes, m)
			}
		}
	}
	return c
}

// Configs lists the configurations: each mode at each size.
func (c HostConfig) Configs() []Config {
	c = c.Defaults()
	var out []Config
	for _, mode := range c.Modes {
		for _, size := range c.Sizes {
			out = append(out, Config{Entry: hostEntries[mode], Benchmark: results.BenchTriad, Mode: mode,
				Label: label("host triad", mode, size), SizeBytes: size, FootprintBytes: 3 * size, BytesPerIteration: 3 * size,
				Bound: hostBounds[mode]})
		}
	}
	return configs(c, out, c.Trials.Int())
}

func (c HostConfig) measure(ctx context.Context, r *runner, k Config, base results.Row) error {
	return r.hostStream(ctx, c.Common, k, base)
}

// hostStream measures a STREAM kernel on host memory the GPU accesses in
// place, or waives it where the device cannot.
func (r *runner) hostStream(ctx context.Context, c Common, k Config, base results.Row) error {
	base.ActiveElements, base.StrideElements = k.SizeBytes/8, 1 // as stream sets them, for a waived row
	switch {
	case k.Mode == results.ModeSystem && !r.info.PageableMemoryAccess:
		return r.waive(base, k.Label, "the device does not report pageable memory access (no HMM or ATS): "+
			"the GPU cannot dereference malloc'd memory here")
	case k.Mode == results.ModeSystem:
		return r.stream(ctx, c, k, base, PageableMem, 0)
	case !r.info.CanMapHostMemory:
		return r.waive(base, k.Label, "the device cannot map host memory")
	}
	return r.stream(ctx, c, k, base, MappedMem, 0)
}
