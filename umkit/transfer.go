package umkit

import (
	"context"
	"fmt"
	"slices"

	"github.com/umlab/umlab/results"
)

// TransferConfig configures the transfer/prefetch group: explicit copies
// host→device and device→host from pinned and pageable memory (copy,
// transfer_ms) and managed prefetch CPU→GPU and GPU→CPU (prefetch,
// prefetch_ms). Each trial moves freshly written data, checked afterwards.
type TransferConfig struct {
	Common
	Sizes []int64 // default 64 KiB to 1 GiB in steps of 4
	Modes []string
}

var _ = register(TransferConfig{})

// TransferModes are the transfer group's modes.
var TransferModes = []string{results.ModePinned, results.ModePageable, results.ModeManaged}

// Name is the group's name.
func (TransferConfig) Name() string { return results.GroupTransfer }

// Entries are the group's registry entries.
func (TransferConfig) Entries() []Benchmark {
	return []Benchmark{
		entry("transfer.copy", "size", always,
			"Explicit cudaMemcpy host→device and device→host, from pinned and from pageable host memory (V-B)."),
		entry("transfer.prefetch", "size", needsPrefetch,
			"cudaMemPrefetchAsync of CPU-written managed memory to the GPU, and of GPU-written managed memory to the CPU (V-B)."),
	}
}

// Defaults returns c with every zero field set to its default.
func (c TransferConfig) Defaults() TransferConfig {
	c.Common = c.Common.withDefaults(DefaultTrials)
	c.Sizes = orElse(c.Sizes, pow4(64*KiB, GiB))
	c.Modes = orElse(c.Modes, TransferModes)
	return c
}

// Validate checks c before anything touches the GPU.
func (c TransferConfig) Validate() error {
	c = c.Defaults()
	return firstError(c.Common.validate("transfer"), validateSizes("transfer", "size", c.Sizes, 16, 64*GiB),
		validateChoice("transfer", "mode", c.Modes, TransferModes))
}

func (c TransferConfig) configure(s Selection) Definition {
	c.Common, c.Modes, c.Sizes = s.Common, nil, s.sizesOr([]int64{MiB, 256 * MiB})
	if slices.Contains(s.Benchmarks, results.BenchCopy) {
		c.Modes = append(c.Modes, results.ModePinned, results.ModePageable)
	}
	if slices.Contains(s.Benchmarks, results.BenchPrefetch) {
		c.Modes = append(c.Modes, results.ModeManaged)
	}
	return c
}

// Configs lists the configurations: each mode, both directions, each size.
func (c TransferConfig) Configs() []Config {
	c = c.Defaults()
	var out []Config
	for _, mode := range c.Modes {
		for _, dir := range []string{results.DirectionH2D, results.DirectionD2H} {
			for _, size := range c.Sizes {
				k := Config{Benchmark: results.BenchCopy, Mode: mode, Label: label("transfer copy", mode, dir, size),
					SizeBytes: size, FootprintBytes: 2 * size, BytesPerIteration: size, Bound: results.BoundHostLink, arg: dir}
				switch mode {
				case results.ModePageable: // staged through pinned buffers by the CPU
					k.Bound = results.BoundHostPageable
				case results.ModeManaged:
					// The driver's page work on the host, well below the
					// link on an H200 (h200-2026-12-02-setuploops).
					k.Benchmark, k.Label, k.FootprintBytes = results.BenchPrefetch, label("transfer prefetch", dir, size), size
					k.Bound = results.BoundFaults
				}
				out = append(out, k)
			}
		}
	}
	return configs(c, out, c.Trials.Int())
}

func (c TransferConfig) measure(ctx context.Context, r *runner, k Config, base results.Row) error {
	base.Direction, base.ActiveElements = k.arg.(string), k.SizeBytes/8
	if k.Mode == results.ModeManaged {
		return r.prefetchOne(ctx, c, k, base)
	}
	return r.copyOne(ctx, c, k, base)
}

func (r *runner) copyOne(ctx context.Context, cfg TransferConfig, k Config, base results.Row) error {
	size, n, label := k.SizeBytes, uint64(k.SizeBytes/8), k.Label
	if r.doneEarlier(base, label) {
		return nil
	}
	hostKind := PinnedMem
	if k.Mode == results.ModePageable {
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
	h2d := base.Direction == results.DirectionH2D
	if h2d {
		if err := r.dev.FillHost(host, n, cfg.Seed); err != nil {
			return err
		}
	}
	return r.measure(ctx, base, label, cfg.Common, 0, func(it int, row *results.Row) error {
		// h2d poisons the destination, which the copy must overwrite; d2h
		// writes fresh source data each trial, so a copy that did nothing fails.
		seed := cfg.Seed + uint64(it) + 1
		dst, src, fill, want, check := dev, host, seed+1000, cfg.Seed, r.check
		if !h2d {
			dst, src, fill, want, check = host, dev, seed, seed, r.checkHost
		}
		if err := r.dev.Fill(dev, n, fill); err != nil {
			return err
		}
		ms, err := r.timed(func() error { return r.dev.Copy(dst, src, uint64(size)) })
		if err != nil {
			return err
		}
		row.TransferMs, row.TotalMs, row.GBps = ms, ms, gbps(size, ms)
		row.Placement = hostKind.String()
		return check(dst, AllOf(n, want, 1, 0), base.Direction+" copy")
	})
}

func (r *runner) prefetchOne(ctx context.Context, cfg TransferConfig, k Config, base results.Row) error {
	size, n, label := k.SizeBytes, uint64(k.SizeBytes/8), k.Label
	if !r.info.ConcurrentManagedAccess {
		return r.waive(base, label, "prefetch needs concurrent managed access, which the device does not report")
	}
	if r.doneEarlier(base, label) {
		return nil
	}
	m, err := r.dev.Alloc(ManagedMem, uint64(size))
	if err != nil {
		return fmt.Errorf("umkit: %s: %w", label, err)
	}
	defer r.dev.Free(m)
	h2d := base.Direction == results.DirectionH2D
	return r.measure(ctx, base, label, cfg.Common, 0, func(it int, row *results.Row) error {
		seed := cfg.Seed + uint64(it) + 1
		to := ToGPU
		if h2d {
			// CPU-written pages are CPU-resident.
			if row.CPUMs, err = r.cpuTimed(func() error { return r.dev.FillHost(m, n, seed) }); err != nil {
				return err
			}
		} else {
			// GPU-written pages are GPU-resident. A prefetch back before
			// the fill takes a fifth of the set-up time of the fill's
			// faults, with the same timed prefetch (cuda
			// TestDiagPrefetchToCPUSource).
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
		if h2d {
			return r.check(m, AllOf(n, seed, 1, 0), "prefetch to GPU")
		}
		return r.checkHost(m, AllOf(n, seed, 1, 0), "prefetch to CPU")
	})
}
