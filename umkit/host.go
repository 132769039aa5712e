package umkit

import (
	"context"
	"fmt"

	"github.com/go-gota/gota/dataframe"
	"github.com/umlab/umlab/results"
)

// Host measures GPU access to CPU-backed memory: the STREAM triad with all
// three arrays in pinned host memory mapped into the device (host_mapped),
// and in malloc'd memory (system) where the device reports pageable memory
// access (Grace ATS, HMM); elsewhere the system mode yields a waived row.
func Host(ctx context.Context, dev Device, cfg HostConfig) (dataframe.DataFrame, error) {
	if err := cfg.Validate(); err != nil {
		return dataframe.DataFrame{}, err
	}
	return collect(dev, func(r *runner) error { return r.runDefinition(ctx, cfg) })
}

// Name is the group's name.
func (HostConfig) Name() string { return "host" }

// hostBench maps the host benchmarks to their modes.
var hostBench = map[string]string{"mapped_triad": "host_mapped", "system_triad": "system"}

// Entries are the group's registry entries.
func (HostConfig) Entries() []Benchmark {
	return []Benchmark{
		entry("host.mapped_triad", "3 × size", func(d DeviceInfo) (bool, string) {
			if !d.CanMapHostMemory {
				return false, "the device cannot map host memory"
			}
			return true, ""
		}, "The triad with all arrays in pinned host memory mapped into the device: GPU loads and stores cross the CPU–GPU link on every access (V-A)."),
		entry("host.system_triad", "3 × size", func(d DeviceInfo) (bool, string) {
			if !d.PageableMemoryAccess {
				return false, "the device does not report pageable memory access (no HMM or ATS)"
			}
			return true, ""
		}, "The triad on malloc'd (system-allocated) memory, which the GPU can dereference only with HMM or ATS (Grace)."),
	}
}

func (c HostConfig) configure(s Selection) Definition {
	c.Common, c.Modes, c.Sizes = s.Common, nil, s.sizesOr([]int64{MiB, 256 * MiB})
	for _, b := range s.Benchmarks {
		c.Modes = append(c.Modes, hostBench[b])
	}
	return c
}

func (c HostConfig) defaults() Definition { return c.Defaults() }

// Configs lists the configurations: each mode at each size.
func (c HostConfig) Configs() []Config {
	c = c.Defaults()
	var out []Config
	for _, mode := range c.Modes {
		for _, size := range c.Sizes {
			out = append(out, Config{Definition: "host", Entry: hostEntry(mode), Group: "host", Benchmark: "triad", Mode: mode,
				Label: label("host triad", mode, size), SizeBytes: size, BytesPerIteration: 3 * size})
		}
	}
	return withRows(out, c.Trials.Int())
}

// hostEntry is the registry entry of a host mode.
func hostEntry(mode string) string {
	for b, m := range hostBench {
		if m == mode {
			return "host." + b
		}
	}
	return ""
}

func (c HostConfig) start(r *runner) (func(context.Context, Config) error, func(), error) {
	return noStart(func(ctx context.Context, k Config) error { return r.hostOne(ctx, c, k.Mode, k.SizeBytes) })
}

// waive emits a single row saying a configuration is not supported here.
func (r *runner) waive(base results.Row, label, reason string) error {
	if r.skip(base) {
		r.step(label + " (done earlier)")
		return nil
	}
	base.Waived, base.Note = true, reason
	if err := r.emit([]results.Row{base}); err != nil {
		return err
	}
	r.step(label + " (waived)")
	return nil
}

func (r *runner) hostOne(ctx context.Context, cfg HostConfig, mode string, size int64) error {
	n := uint64(size / 8)
	base := r.row("host", "triad", mode)
	base.SizeBytes, base.FootprintBytes, base.UsefulBytes = size, 3*size, 3*size
	base.ActiveElements, base.StrideElements = int64(n), 1
	label := fmt.Sprintf("host triad %s %s", mode, fmtBytes(size))
	kind := MappedMem
	switch {
	case mode == "system" && !r.info.PageableMemoryAccess:
		return r.waive(base, label, "the device does not report pageable memory access (no HMM or ATS): "+
			"the GPU cannot dereference malloc'd memory here")
	case mode == "system":
		kind = PageableMem
	case !r.info.CanMapHostMemory:
		return r.waive(base, label, "the device cannot map host memory")
	}
	bufs, free, err := r.allocs(kind, uint64(size), 3)
	if err != nil {
		return fmt.Errorf("umkit: %s: %w", label, err)
	}
	defer free()
	seedB, seedC := cfg.Seed, cfg.Seed+1
	for i, seed := range []uint64{seedB, seedC} {
		if err := r.dev.FillHost(bufs[i+1], n, seed); err != nil {
			return err
		}
		if err := r.checkHost(bufs[i+1], AllOf(n, seed, 1, 0), "input"); err != nil {
			return err
		}
	}
	return r.measure(ctx, base, label, cfg.Warmups.Int(), cfg.Trials.Int(), func(it int, row *results.Row) error {
		k, want := rotate("triad", bufs, n, it) // a new scalar each trial
		ms, err := r.timeKernel(k)
		if err != nil {
			return err
		}
		row.KernelMs, row.TotalMs, row.GBps = ms, ms, gbps(row.UsefulBytes, ms)
		row.Placement = kind.String()
		return r.check(bufs[0], want, "host triad")
	})
}
