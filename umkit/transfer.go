package umkit

import (
	"context"
	"fmt"
	"slices"

	"github.com/go-gota/gota/dataframe"
	"github.com/umlab/umlab/results"
)

// Transfer measures movement bandwidth: explicit copies host→device and
// device→host from pinned and pageable memory (benchmark copy, time in
// transfer_ms) and managed prefetch CPU→GPU and GPU→CPU (benchmark prefetch,
// time in prefetch_ms). Each trial moves freshly written data, and the
// destination is checked afterwards.
func Transfer(ctx context.Context, dev Device, cfg TransferConfig) (dataframe.DataFrame, error) {
	if err := cfg.Validate(); err != nil {
		return dataframe.DataFrame{}, err
	}
	return collect(dev, func(r *runner) error { return r.runDefinition(ctx, cfg) })
}

// Name is the group's name.
func (TransferConfig) Name() string { return "transfer" }

// Entries are the group's registry entries.
func (TransferConfig) Entries() []Benchmark {
	return []Benchmark{
		entry("transfer.copy", "size", always,
			"Explicit cudaMemcpy host→device and device→host, from pinned and from pageable host memory (V-B)."),
		entry("transfer.prefetch", "size", needsPrefetch,
			"cudaMemPrefetchAsync of CPU-written managed memory to the GPU, and of GPU-written managed memory to the CPU (V-B)."),
	}
}

func (c TransferConfig) configure(s Selection) Definition {
	c.Common, c.Modes, c.Sizes = s.Common, nil, s.sizesOr([]int64{MiB, 256 * MiB})
	if slices.Contains(s.Benchmarks, "copy") {
		c.Modes = append(c.Modes, "pinned", "pageable")
	}
	if slices.Contains(s.Benchmarks, "prefetch") {
		c.Modes = append(c.Modes, "managed")
	}
	return c
}

func (c TransferConfig) defaults() Definition { return c.Defaults() }

// Configs lists the configurations: each mode, both directions, each size.
func (c TransferConfig) Configs() []Config {
	c = c.Defaults()
	var out []Config
	for _, mode := range c.Modes {
		for _, dir := range []string{"h2d", "d2h"} {
			for _, size := range c.Sizes {
				k := Config{Definition: "transfer", Entry: "transfer.copy", Group: "transfer", Benchmark: "copy", Mode: mode,
					Label: label("transfer copy", mode, dir, size), SizeBytes: size, BytesPerIteration: size, arg: dir}
				if mode == "managed" {
					k.Benchmark, k.Entry, k.Label = "prefetch", "transfer.prefetch", label("transfer prefetch", dir, size)
				}
				out = append(out, k)
			}
		}
	}
	return withRows(out, c.Trials.Int())
}

func (c TransferConfig) start(r *runner) (func(context.Context, Config) error, func(), error) {
	return noStart(func(ctx context.Context, k Config) error {
		if k.Mode == "managed" {
			return r.prefetchOne(ctx, c, k.arg.(string), k.SizeBytes)
		}
		return r.copyOne(ctx, c, k.Mode, k.arg.(string), k.SizeBytes)
	})
}

func (r *runner) copyOne(ctx context.Context, cfg TransferConfig, mode, dir string, size int64) error {
	n := uint64(size / 8)
	base := r.row("transfer", "copy", mode)
	base.Direction, base.SizeBytes, base.FootprintBytes, base.UsefulBytes = dir, size, 2*size, size
	base.ActiveElements = int64(n)
	label := fmt.Sprintf("transfer copy %s %s %s", mode, dir, fmtBytes(size))
	if r.skip(base) {
		r.step(label + " (done earlier)")
		return nil
	}
	hostKind := PinnedMem
	if mode == "pageable" {
		hostKind = PageableMem
	}
	host, err := r.dev.Alloc(hostKind, uint64(size))
	if err != nil {
		return fmt.Errorf("umkit: %s: %w", label, err)
	}
	defer r.dev.Free(host)
	dev, err := r.dev.Alloc(DeviceMem, uint64(size))
	if err != nil {
		return fmt.Errorf("umkit: %s: %w", label, err)
	}
	defer r.dev.Free(dev)
	if dir == "h2d" {
		if err := r.dev.FillHost(host, n, cfg.Seed); err != nil {
			return err
		}
	}
	return r.measure(ctx, base, label, cfg.Warmups.Int(), cfg.Trials.Int(), func(it int, row *results.Row) error {
		seed := cfg.Seed + uint64(it) + 1
		var ms float64
		var err error
		if dir == "h2d" {
			// Poison the destination; the copy must overwrite it.
			if err := r.dev.Fill(dev, n, seed+1000); err != nil {
				return err
			}
			if ms, err = r.timed(func() error { return r.dev.Copy(dev, host, uint64(size)) }); err != nil {
				return err
			}
			err = r.check(dev, AllOf(n, cfg.Seed, 1, 0), "h2d copy")
		} else {
			// Fresh source data each trial, so a copy that did nothing fails.
			if err := r.dev.Fill(dev, n, seed); err != nil {
				return err
			}
			if ms, err = r.timed(func() error { return r.dev.Copy(host, dev, uint64(size)) }); err != nil {
				return err
			}
			err = r.checkHost(host, AllOf(n, seed, 1, 0), "d2h copy")
		}
		row.TransferMs, row.TotalMs, row.GBps = ms, ms, gbps(size, ms)
		row.Placement = hostKind.String()
		return err
	})
}

func (r *runner) prefetchOne(ctx context.Context, cfg TransferConfig, dir string, size int64) error {
	n := uint64(size / 8)
	base := r.row("transfer", "prefetch", "managed")
	base.Direction, base.SizeBytes, base.FootprintBytes, base.UsefulBytes = dir, size, size, size
	base.ActiveElements = int64(n)
	label := fmt.Sprintf("transfer prefetch %s %s", dir, fmtBytes(size))
	if !r.info.ConcurrentManagedAccess {
		return r.waive(base, label, "prefetch needs concurrent managed access, which the device does not report")
	}
	if r.skip(base) {
		r.step(label + " (done earlier)")
		return nil
	}
	m, err := r.dev.Alloc(ManagedMem, uint64(size))
	if err != nil {
		return fmt.Errorf("umkit: %s: %w", label, err)
	}
	defer r.dev.Free(m)
	return r.measure(ctx, base, label, cfg.Warmups.Int(), cfg.Trials.Int(), func(it int, row *results.Row) error {
		seed := cfg.Seed + uint64(it) + 1
		to := ToGPU
		if dir == "h2d" {
			// CPU-written pages are CPU-resident.
			if row.CPUMs, err = r.cpuTimed(func() error { return r.dev.FillHost(m, n, seed) }); err != nil {
				return err
			}
		} else {
			// GPU-written pages are GPU-resident. The pages the last
			// trial moved to the CPU go back with a prefetch before the
			// fill rather than through the fill's faults: on the H200
			// (cuda TestDiagPrefetchToCPUSource, 1 GiB, 25 interleaved
			// trials each, 2026-12-02) that set up a trial in 22.5 ms
			// against 124.9, and the timed prefetch back ran at a median
			// of 102.34 ms against 104.60, each inside the other's
			// 10th–90th percentile range.
			to = ToCPU
			if err := r.dev.Prefetch(m, ToGPU); err != nil {
				return err
			}
			if err := r.dev.Fill(m, n, seed); err != nil {
				return err
			}
			if err := r.dev.Sync(); err != nil {
				return err
			}
		}
		ms, err := r.timed(func() error { return r.dev.Prefetch(m, to) })
		if err != nil {
			return err
		}
		row.PrefetchMs, row.TotalMs, row.GBps = ms, ms, gbps(size, ms)
		if err := r.placement(m, row); err != nil {
			return err
		}
		// Check where the data now is, so the check moves nothing.
		if dir == "h2d" {
			return r.check(m, AllOf(n, seed, 1, 0), "prefetch to GPU")
		}
		return r.checkHost(m, AllOf(n, seed, 1, 0), "prefetch to CPU")
	})
}
