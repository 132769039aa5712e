package umkit

import (
	"cmp"
	"context"
	"fmt"
	"math"

	"github.com/umlab/umlab/results"
)

// SparseConfig configures the paper's "sparse random" benchmark (VI-B): a
// random subset of the elements, a fraction Density of them,
// read-modified-written through an index array (the first Density·n
// entries of a device-made permutation, allocated whole) under explicit,
// cold, prefetched and reused memory. useful_bytes counts 16 bytes per
// touched element; stride_elements records 1/Density. Each trial is
// compared with a reference made once per memory state by the same kernel,
// itself checked to differ from the initial data in exactly Density·n
// elements, each by exactly the number of passes.
type SparseConfig struct {
	Common
	StateSetup
	FootprintBytes int64     // data allocation; default 256 MiB (paper VI-B)
	Densities      []float64 // fractions of the elements touched, each 1/k for a whole k; default 1/16, 1/256
	Modes          []string  // default explicit, cold, prefetch, reuse (PatternModes)
}

var _ = register(SparseConfig{})

// Name identifies the definition: a set of extra benchmarks of the pattern group.
func (SparseConfig) Name() string { return "pattern.sparse" }

// Entries are its registry entries.
func (SparseConfig) Entries() []Benchmark {
	return []Benchmark{entry("pattern.sparse_random", "16 bytes per touched element", needsManaged,
		"A random subset of the elements (density 1/16 and 1/256 by default), each once, through an index array: "+
			"the paper's sparse random benchmark (VI-B), beside pattern.random's dense permutation.")}
}

// Defaults returns c with every unset field set to its default.
func (c SparseConfig) Defaults() SparseConfig {
	c.Common = c.Common.withDefaults(DefaultTrials)
	c.StateSetup = c.StateSetup.withDefaults()
	c.FootprintBytes = cmp.Or(c.FootprintBytes, 256*MiB)
	c.Densities = orElse(c.Densities, []float64{1.0 / 16, 1.0 / 256})
	c.Modes = orElse(c.Modes, PatternModes)
	return c
}

// Validate checks c, defaults applied, before anything touches the GPU.
func (c SparseConfig) Validate() error {
	c = c.Defaults()
	n := c.FootprintBytes / 8
	return firstError(c.Common.validate("pattern.sparse"), c.StateSetup.validate("pattern.sparse"),
		validateSizes("pattern.sparse", "footprint", []int64{c.FootprintBytes}, 64*KiB, 64*GiB),
		each(c.Densities, func(d float64) error {
			k := sparseSpacing(d)
			return failIf(k < 1 || k > n, "pattern.sparse: density %v: allowed 1/k for a whole k from 1 to footprint/8 (%d), e.g. 0.25, 0.0625", d, n)
		}),
		validateChoice("pattern.sparse", "mode", c.Modes, PatternModes))
}

// sparseSpacing returns k for a density of 1/k, or 0 when it is not one.
func sparseSpacing(density float64) int64 {
	if !(density > 0 && density <= 1) {
		return 0
	}
	k := math.Round(1 / density)
	if math.Abs(1/k-density) > 1e-12*density {
		return 0
	}
	return int64(k)
}

func (c SparseConfig) configure(s Selection) Definition {
	c.Common, c.StateSetup = s.Common, s.StateSetup()
	if s.Quick {
		c.FootprintBytes = 64 * MiB
	}
	return c
}

// Configs lists the configurations: each mode, then each density. The
// footprint counts the index array.
func (c SparseConfig) Configs() []Config {
	c = c.Defaults()
	var out []Config
	for _, mode := range c.Modes {
		for _, d := range c.Densities {
			k := sparseSpacing(d)
			useful := 16 * (c.FootprintBytes / 8 / k)
			out = append(out, Config{Benchmark: results.BenchSparse, Mode: mode,
				Label:     fmt.Sprintf("pattern sparse_random %s density 1/%d", mode, k),
				SizeBytes: c.FootprintBytes, FootprintBytes: 2 * c.FootprintBytes, BytesPerIteration: useful, Bound: stateBound(mode, useful), arg: k})
		}
	}
	return configs(c, out, c.Trials.Int())
}

func (c SparseConfig) measure(ctx context.Context, r *runner, cfg Config, base results.Row) error {
	k := cfg.arg.(int64)
	n := uint64(c.FootprintBytes / 8)
	m := n / uint64(k)
	w := workload{n: n, kernel: Kernel{Kind: KRandom, Mul: 1, Add: 1, Active: m}, stride: 1, active: m, random: true}
	base.Pattern, base.ActiveElements, base.StrideElements = results.PatternSparse, int64(m), k
	base.Note = fmt.Sprintf("density 1/%d: %d of %d elements through an index array", k, m, n)
	passes := 1.0
	if cfg.Mode == results.ModeManagedReuse {
		passes = 2
	}
	w.reference = func(idx Buffer) (Buffer, error) { return r.sparseReference(w, idx, c.Seed, passes) }
	return r.runState(ctx, c, cfg, base, w)
}

// sparseReference makes the expected data after a trial on a device
// buffer, and checks, independently of the kernel, that exactly w.active
// elements changed, each by exactly passes.
func (r *runner) sparseReference(w workload, idx Buffer, seed uint64, passes float64) (Buffer, error) {
	ref, err := r.dev.Alloc(DeviceMem, w.n*8)
	if err != nil {
		return nil, err
	}
	err = func() error {
		if err := r.dev.Fill(ref, w.n, seed); err != nil {
			return err
		}
		k := w.kernel
		k.X, k.Idx = ref, idx
		for p := 0; p < int(passes); p++ {
			if err := r.dev.Launch(k); err != nil {
				return err
			}
		}
		untouched, err := r.dev.Check(ref, AllOf(w.n, seed, 1, 0))
		if err != nil {
			return err
		}
		touched, err := r.dev.Check(ref, AllOf(w.n, seed, 1, passes))
		if err != nil {
			return err
		}
		// A symbolic buffer (a test device without data) checks clean.
		if untouched.OK() && touched.OK() {
			return nil
		}
		if untouched.Count != w.active || touched.Count != w.n-w.active {
			return fmt.Errorf("verification failed (sparse reference): %d elements changed and %d by exactly %g, want %d of %d (the index array is not %d distinct elements)",
				untouched.Count, w.n-touched.Count, passes, w.active, w.n, w.active)
		}
		return nil
	}()
	if err != nil {
		r.dev.Free(ref)
		return nil, err
	}
	return ref, nil
}
