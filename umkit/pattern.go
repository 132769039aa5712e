package umkit

import (
	"cmp"
	"context"
	"fmt"

	"github.com/umlab/umlab/results"
)

// PatternConfig configures the access-pattern group (paper VI-B, VI-C):
// streaming, strided, random (through a device-made permutation index
// array, counted in footprint_bytes) and page-touch access over a fixed
// footprint, each under explicit, cold, prefetched and reused memory.
// useful_bytes counts 16 bytes per touched element.
type PatternConfig struct {
	Common
	StateSetup
	FootprintBytes int64    // data allocation; default 256 MiB (paper VI-B)
	Strides        []int64  // elements; default 1, 2, 4, ..., 1024
	PageIntervals  []int64  // bytes; default 4 KiB, 64 KiB, 2 MiB
	Benchmarks     []string // default all four patterns
	Modes          []string // default explicit, cold, prefetch, reuse
}

var _ = register(PatternConfig{})

// PatternModes are the memory states of the access-pattern group.
var PatternModes = []string{results.ModeExplicit, results.ModeManagedCold, results.ModeManagedPrefetch, results.ModeManagedReuse}

// PatternBenchmarks are the access patterns.
var PatternBenchmarks = []string{results.PatternStreaming, results.PatternStrided, results.PatternRandom, results.PatternPageTouch}

// Name is the group's name.
func (PatternConfig) Name() string { return results.GroupPattern }

// Entries are the group's registry entries.
func (PatternConfig) Entries() []Benchmark {
	return []Benchmark{
		entry("pattern.streaming", "16 bytes per element", needsManaged,
			"The streaming kernel over the fixed footprint, under explicit, cold, prefetched and reused memory."),
		entry("pattern.strided", "16 bytes per touched element", needsManaged,
			"Every stride-th element (stride 1 to 1024) over a fixed footprint: fewer useful bytes per cache line and page (VI-B)."),
		entry("pattern.random", "16 bytes per element", needsManaged,
			"Every element once, in the order of a shuffled index array (whose 8 bytes per element count in the footprint, not in useful bytes) (VI-B)."),
		entry("pattern.page_touch", "16 bytes per touched element", needsManaged,
			"One element per 4 KiB, 64 KiB or 2 MiB: sparse, page-like access (VI-C)."),
	}
}

// Defaults returns c with every zero field set to its default.
func (c PatternConfig) Defaults() PatternConfig {
	c.Common = c.Common.withDefaults(DefaultTrials)
	c.StateSetup = c.StateSetup.withDefaults()
	c.FootprintBytes = cmp.Or(c.FootprintBytes, 256*MiB)
	if c.Strides == nil {
		for s := int64(1); s <= 1024; s *= 2 {
			c.Strides = append(c.Strides, s)
		}
	}
	c.PageIntervals = orElse(c.PageIntervals, []int64{4 * KiB, 64 * KiB, 2 * MiB})
	c.Benchmarks = orElse(c.Benchmarks, PatternBenchmarks)
	c.Modes = orElse(c.Modes, PatternModes)
	return c
}

// Validate checks c before anything touches the GPU.
func (c PatternConfig) Validate() error {
	c = c.Defaults()
	return firstError(c.Common.validate("pattern"), c.StateSetup.validate("pattern"),
		validateSizes("pattern", "footprint", []int64{c.FootprintBytes}, 64*KiB, 64*GiB),
		each(c.Strides, func(s int64) error {
			return failIf(s < 1 || s*8 > c.FootprintBytes, "pattern: stride %d elements: allowed 1 to footprint/8 (%d)", s, c.FootprintBytes/8)
		}),
		each(c.PageIntervals, func(p int64) error {
			return failIf(p < 8 || p%8 != 0 || p > c.FootprintBytes,
				"pattern: page interval %d bytes: allowed multiples of 8 up to the footprint (%d)", p, c.FootprintBytes)
		}),
		validateChoice("pattern", "benchmark", c.Benchmarks, PatternBenchmarks), validateChoice("pattern", "mode", c.Modes, PatternModes))
}

func (c PatternConfig) configure(s Selection) Definition {
	c.Common, c.StateSetup, c.Benchmarks = s.Common, s.StateSetup(), s.Benchmarks
	if s.Quick {
		c.FootprintBytes, c.Strides = 64*MiB, []int64{1, 16, 1024}
	}
	return c
}

// patternShape is one workload of the group: a pattern with its stride
// (strided) or page interval (page_touch).
type patternShape struct {
	bench            string
	stride, interval int64
}

// Configs lists the configurations: each mode, then each pattern with each
// of its strides or intervals.
func (c PatternConfig) Configs() []Config {
	c = c.Defaults()
	var shapes []patternShape
	for _, bench := range c.Benchmarks {
		switch bench {
		case results.PatternStrided:
			for _, s := range c.Strides {
				shapes = append(shapes, patternShape{bench: bench, stride: s})
			}
		case results.PatternPageTouch:
			for _, p := range c.PageIntervals {
				shapes = append(shapes, patternShape{bench: bench, stride: p / 8, interval: p})
			}
		default:
			shapes = append(shapes, patternShape{bench: bench, stride: 1})
		}
	}
	var out []Config
	for _, mode := range c.Modes {
		for _, sh := range shapes {
			w := stateWorkload(sh.bench, uint64(c.FootprintBytes/8), uint64(sh.stride))
			k := Config{Benchmark: sh.bench, Mode: mode, Label: patternLabel(sh, mode), SizeBytes: c.FootprintBytes,
				FootprintBytes: c.FootprintBytes, BytesPerIteration: int64(w.active) * 16, Bound: stateBound(mode, int64(w.active)*16), arg: sh}
			if w.random {
				k.FootprintBytes *= 2
			}
			out = append(out, k)
		}
	}
	return configs(c, out, c.Trials.Int())
}

func patternLabel(sh patternShape, mode string) string {
	l := fmt.Sprintf("pattern %s %s", sh.bench, mode)
	switch {
	case sh.interval > 0:
		l += " every " + fmtBytes(sh.interval)
	case sh.stride > 1:
		l += fmt.Sprintf(" stride %d", sh.stride)
	}
	return l
}

func (c PatternConfig) measure(ctx context.Context, r *runner, k Config, base results.Row) error {
	sh := k.arg.(patternShape)
	w := stateWorkload(sh.bench, uint64(k.SizeBytes/8), uint64(sh.stride))
	base.Pattern, base.ActiveElements, base.PageIntervalBytes = sh.bench, int64(w.active), sh.interval
	if !w.random {
		base.StrideElements = sh.stride
	}
	return r.runState(ctx, c, k, base, w)
}
