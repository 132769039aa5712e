package umkit

import (
	"context"
	"fmt"

	"github.com/umlab/umlab/results"
)

// HBMConfig configures the HBM bandwidth group (paper Table II: local
// GPU-resident bandwidth): STREAM copy (a = b) and triad (a = b + s·c) on
// device memory, each trial's result checked on the device.
type HBMConfig struct {
	Common
	Sizes      []int64  // bytes per array; default 64 KiB to 4 GiB in steps of 4
	Benchmarks []string // copy, triad; default both
	// MinWarmupMs keeps warming up until this much GPU time has passed, so
	// clocks have left idle before the trials; default 100 ms (0 with N(0) warm-ups).
	MinWarmupMs float64
}

var _ = register(HBMConfig{})

// Name is the group's name.
func (HBMConfig) Name() string { return results.GroupHBM }

// Entries are the group's registry entries.
func (HBMConfig) Entries() []Benchmark {
	return []Benchmark{
		entry("hbm.copy", "2 × size (read b, write a)", always,
			"STREAM copy a = b on device memory: the local HBM baseline for a kernel that reads one array and writes another."),
		entry("hbm.triad", "3 × size (read b and c, write a)", always,
			"STREAM triad a = b + s·c on device memory: the paper's local-HBM reference (V-A)."),
	}
}

// Defaults returns c with every zero field set to its default.
func (c HBMConfig) Defaults() HBMConfig {
	c.Common = c.Common.withDefaults(DefaultTrials)
	c.Sizes = orElse(c.Sizes, pow4(64*KiB, 4*GiB))
	c.Benchmarks = orElse(c.Benchmarks, []string{results.BenchCopy, results.BenchTriad})
	if c.MinWarmupMs == 0 && c.Warmups.Int() > 0 { // N(0) warm-ups: none at all
		c.MinWarmupMs = 100
	}
	return c
}

// Validate checks c, defaults applied, before anything touches the GPU.
func (c HBMConfig) Validate() error {
	c = c.Defaults()
	return firstError(c.Common.validate("hbm"),
		failIf(c.MinWarmupMs < 0, "hbm: MinWarmupMs %v: must not be negative", c.MinWarmupMs),
		validateSizes("hbm", "size", c.Sizes, 16, 64*GiB),
		validateChoice("hbm", "benchmark", c.Benchmarks, []string{results.BenchCopy, results.BenchTriad}))
}

func (c HBMConfig) configure(s Selection) Definition {
	c.Common, c.Benchmarks, c.Sizes = s.Common, s.Benchmarks, s.sizesOr([]int64{MiB, 256 * MiB})
	return c
}

// Configs lists the configurations: each benchmark at each size. Both
// kernels use three arrays (copy alternates its source).
func (c HBMConfig) Configs() []Config {
	c = c.Defaults()
	var out []Config
	for _, bench := range c.Benchmarks {
		moved := map[string]int64{results.BenchCopy: 2, results.BenchTriad: 3}[bench]
		for _, size := range c.Sizes {
			out = append(out, Config{Benchmark: bench, Mode: results.ModeExplicit, Label: label("hbm", bench, size),
				SizeBytes: size, FootprintBytes: 3 * size, BytesPerIteration: moved * size, Bound: results.KernelBound(moved * size)})
		}
	}
	return configs(c, out, c.Trials.Int())
}

func (c HBMConfig) measure(ctx context.Context, r *runner, k Config, base results.Row) error {
	return r.stream(ctx, c.Common, k, base, DeviceMem, c.MinWarmupMs)
}

// stream measures a STREAM kernel (copy or triad) over three arrays of
// device memory, or of host memory the GPU accesses in place. Each trial
// computes something the previous one did not (rotate), so the check
// proves that this trial wrote every element.
func (r *runner) stream(ctx context.Context, c Common, k Config, base results.Row, kind MemKind, minWarmupMs float64) error {
	n := uint64(k.SizeBytes / 8)
	base.ActiveElements, base.StrideElements = int64(n), 1
	if r.doneEarlier(base, k.Label) {
		return nil
	}
	bufs, free, err := r.allocs(kind, uint64(k.SizeBytes), 3)
	if err != nil {
		return fmt.Errorf("umkit: %s: %w", k.Label, err)
	}
	defer free()
	onDevice, what := kind == DeviceMem, k.Benchmark
	if !onDevice {
		what = "host " + what
	}
	// The trials are checked against the inputs, so check the inputs first;
	// no kernel writes them afterwards.
	for i, seed := range []uint64{c.Seed, c.Seed + 1} {
		in, check, fill := fmt.Sprintf("input %c", 'b'+i), r.check, r.dev.Fill
		if !onDevice {
			check, fill = r.checkHost, r.dev.FillHost
		}
		if err := fill(bufs[i+1], n, seed); err != nil {
			return err
		}
		if err := check(bufs[i+1], AllOf(n, seed, 1, 0), in); err != nil {
			return err
		}
	}
	return r.measure(ctx, base, k.Label, c, minWarmupMs, func(it int, row *results.Row) error {
		// Reading device arrays to check them leaves the memory system in a
		// state that slows the next kernel (an H200's 1 GiB triad by 8 %),
		// so one untimed launch with the previous trial's operands comes
		// first, as in a back-to-back loop.
		if onDevice {
			prev, _ := rotate(k.Benchmark, bufs, n, it+1)
			if err := r.dev.Launch(prev); err != nil {
				return err
			}
		}
		kern, want := rotate(k.Benchmark, bufs, n, it)
		ms, err := r.timeKernel(kern)
		if err != nil {
			return err
		}
		row.KernelMs, row.TotalMs, row.GBps = ms, ms, gbps(row.UsefulBytes, ms)
		if !onDevice {
			row.Placement = kind.String()
		}
		return r.check(bufs[0], want, what)
	})
}

// rotate returns trial it's kernel and expected output: the triad
// a = b + s·c with s = 2, 3, 4, 5, 6 in turn, or the copy a = b and a = c
// alternately. The expectation reads the inputs (a reference check).
func rotate(bench string, bufs []Buffer, n uint64, it int) (Kernel, Expect) {
	if bench == results.BenchTriad {
		s := float64(2 + it%5)
		return Kernel{Kind: KTriad, X: bufs[0], Y: bufs[1], Z: bufs[2], N: n, Scalar: s},
			Expect{N: n, Y: bufs[1], Z: bufs[2], Scalar: s}
	}
	src := bufs[1+it%2]
	return Kernel{Kind: KCopy, X: src, Y: bufs[0], N: n}, Expect{N: n, Y: src}
}
