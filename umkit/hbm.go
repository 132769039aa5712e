package umkit

import (
	"context"
	"fmt"

	"github.com/go-gota/gota/dataframe"
	"github.com/umlab/umlab/results"
)

// HBM measures local GPU-resident bandwidth with STREAM copy (a = b, two
// arrays moved per element) and triad (a = b + s·c, three arrays) on device
// memory, one row per trial. Kernel time is measured with events; every
// trial's result is checked on the device afterwards, and each trial
// computes a new result (the triad's scalar and the copy's source rotate), so
// the check proves the trial itself wrote every element.
func HBM(ctx context.Context, dev Device, cfg HBMConfig) (dataframe.DataFrame, error) {
	if err := cfg.Validate(); err != nil {
		return dataframe.DataFrame{}, err
	}
	return collect(dev, func(r *runner) error { return r.runDefinition(ctx, cfg) })
}

// Name is the group's name.
func (HBMConfig) Name() string { return "hbm" }

// Entries are the group's registry entries.
func (HBMConfig) Entries() []Benchmark {
	return []Benchmark{
		entry("hbm.copy", "2 × size (read b, write a)", always,
			"STREAM copy a = b on device memory: the local HBM baseline for a kernel that reads one array and writes another."),
		entry("hbm.triad", "3 × size (read b and c, write a)", always,
			"STREAM triad a = b + s·c on device memory: the paper's local-HBM reference (V-A)."),
	}
}

func (c HBMConfig) configure(s Selection) Definition {
	c.Common, c.Benchmarks, c.Sizes = s.Common, s.Benchmarks, s.sizesOr([]int64{MiB, 256 * MiB})
	return c
}

func (c HBMConfig) defaults() Definition { return c.Defaults() }

// Configs lists the configurations: each benchmark at each size.
func (c HBMConfig) Configs() []Config {
	c = c.Defaults()
	var out []Config
	for _, bench := range c.Benchmarks {
		for _, size := range c.Sizes {
			out = append(out, Config{Definition: "hbm", Entry: "hbm." + bench, Group: "hbm", Benchmark: bench, Mode: "explicit",
				Label: label("hbm", bench, size), SizeBytes: size, BytesPerIteration: hbmMoved[bench] * size})
		}
	}
	return withRows(out, c.Trials.Int())
}

func (c HBMConfig) start(r *runner) (func(context.Context, Config) error, func(), error) {
	return noStart(func(ctx context.Context, k Config) error { return r.hbmOne(ctx, c, k.Benchmark, k.SizeBytes) })
}

// hbmMoved is how many arrays of size bytes each benchmark moves.
var hbmMoved = map[string]int64{"copy": 2, "triad": 3}

func (r *runner) hbmOne(ctx context.Context, cfg HBMConfig, bench string, size int64) error {
	moved := map[string]int64{"copy": 2, "triad": 3}[bench]
	n := uint64(size / 8)
	base := r.row("hbm", bench, "explicit")
	// Both kernels use three arrays: copy alternates its source between two.
	base.SizeBytes, base.FootprintBytes = size, 3*size
	base.UsefulBytes, base.ActiveElements, base.StrideElements = moved*size, int64(n), 1
	label := fmt.Sprintf("hbm %s %s", bench, fmtBytes(size))
	if r.skip(base) {
		r.step(label + " (done earlier)")
		return nil
	}
	bufs, free, err := r.allocs(DeviceMem, uint64(size), 3)
	if err != nil {
		return fmt.Errorf("umkit: %s: %w", label, err)
	}
	defer free()
	seedB, seedC := cfg.Seed, cfg.Seed+1
	if err := r.dev.Fill(bufs[1], n, seedB); err != nil {
		return err
	}
	if err := r.dev.Fill(bufs[2], n, seedC); err != nil {
		return err
	}
	// The trials are checked against the inputs, so check the inputs first;
	// no kernel writes them afterwards.
	if err := r.check(bufs[1], AllOf(n, seedB, 1, 0), "input b"); err != nil {
		return err
	}
	if err := r.check(bufs[2], AllOf(n, seedC, 1, 0), "input c"); err != nil {
		return err
	}
	return r.measureReps(ctx, base, label, cfg.Warmups.Int(), cfg.Trials.Int(), 1, cfg.MinWarmupMs, func(it int, row *results.Row) error {
		// Each trial computes something the previous one did not (another
		// scalar, or the other source array), so the check proves that this
		// trial wrote every element. Reading the arrays to check them leaves
		// the memory system in a state that slows the next kernel (on an
		// H200, 2026-11-29: 3934 GB/s after a check against 4289 back to
		// back, for a 1 GiB triad), so one untimed launch with the previous
		// trial's operands comes first, as in a back-to-back loop.
		prev, _ := rotate(bench, bufs, n, it+1)
		if err := r.dev.Launch(prev); err != nil {
			return err
		}
		k, want := rotate(bench, bufs, n, it)
		ms, err := r.timeKernel(k)
		if err != nil {
			return err
		}
		row.KernelMs, row.TotalMs, row.GBps = ms, ms, gbps(row.UsefulBytes, ms)
		return r.check(bufs[0], want, bench)
	})
}

// rotate returns trial it's kernel and expected output: the triad
// a = b + s·c with s = 2, 3, 4, 5, 6 in turn, or the copy a = b and a = c
// alternately. The expectation reads the inputs (a reference check).
func rotate(bench string, bufs []Buffer, n uint64, it int) (Kernel, Expect) {
	if bench == "triad" {
		s := float64(2 + it%5)
		return Kernel{Kind: KTriad, X: bufs[0], Y: bufs[1], Z: bufs[2], N: n, Scalar: s},
			Expect{N: n, Y: bufs[1], Z: bufs[2], Scalar: s}
	}
	src := bufs[1+it%2]
	return Kernel{Kind: KCopy, X: src, Y: bufs[0], N: n}, Expect{N: n, Y: src}
}
