package umkit

import (
	"context"
	"fmt"

	"github.com/go-gota/gota/dataframe"
	"github.com/umlab/umlab/umkit/results"
)

// HBM measures local GPU-resident bandwidth with STREAM copy (c = a, 2
// arrays moved per element) and triad (a = b + 3c, 3 arrays) on device
// memory, one row per trial. Kernel time is measured with events; every
// trial's result is checked on the device afterwards.
func HBM(ctx context.Context, dev Device, cfg HBMConfig) (dataframe.DataFrame, error) {
	if err := cfg.Validate(); err != nil {
		return dataframe.DataFrame{}, err
	}
	return collect(dev, func(r *runner) error { return r.hbm(ctx, cfg) })
}

const triadScalar = 3

func (r *runner) hbm(ctx context.Context, cfg HBMConfig) error {
	cfg = cfg.Defaults()
	for _, bench := range cfg.Benchmarks {
		for _, size := range cfg.Sizes {
			if err := r.hbmOne(ctx, cfg, bench, size); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *runner) hbmOne(ctx context.Context, cfg HBMConfig, bench string, size int64) error {
	arrays := map[string]int{"copy": 2, "triad": 3}[bench]
	n := uint64(size / 8)
	base := r.row("hbm", bench, "explicit")
	base.SizeBytes, base.FootprintBytes = size, int64(arrays)*size
	base.UsefulBytes, base.ActiveElements, base.StrideElements = int64(arrays)*size, int64(n), 1
	label := fmt.Sprintf("hbm %s %s", bench, fmtBytes(size))
	if r.skip(base) {
		r.step(label + " (done earlier)")
		return nil
	}
	bufs, free, err := r.allocs(DeviceMem, uint64(size), arrays)
	if err != nil {
		return fmt.Errorf("umkit: %s: %w", label, err)
	}
	defer free()
	seedB, seedC := cfg.Seed, cfg.Seed+1
	if err := r.dev.Fill(bufs[1], n, seedB); err != nil {
		return err
	}
	if arrays == 3 {
		if err := r.dev.Fill(bufs[2], n, seedC); err != nil {
			return err
		}
	}
	k := Kernel{Kind: KTriad, X: bufs[0], Y: bufs[1], N: n, Scalar: triadScalar}
	want := Expect{Triad: true, N: n, SeedB: seedB, SeedC: seedC, Scalar: triadScalar}
	if arrays == 3 {
		k.Z = bufs[2]
	} else {
		k = Kernel{Kind: KCopy, X: bufs[1], Y: bufs[0], N: n}
		want = AllOf(n, seedB, 1, 0)
	}
	return r.measureReps(ctx, base, label, cfg.Warmups, cfg.Trials, 1, cfg.MinWarmupMs, func(it int, row *results.Row) error {
		// Poison the output so each trial must write every element.
		if err := r.dev.Fill(bufs[0], n, cfg.Seed+uint64(100+it)); err != nil {
			return err
		}
		ms, err := r.timed(func() error { return r.dev.Launch(k) })
		if err != nil {
			return err
		}
		row.KernelMs, row.TotalMs, row.GBps = ms, ms, gbps(row.UsefulBytes, ms)
		return r.check(bufs[0], want, bench)
	})
}
