package umkit

import (
	"context"
	"fmt"

	"github.com/go-gota/gota/dataframe"
	"github.com/umlab/umlab/results"
)

// Patterns measures how access pattern shapes each memory state over a fixed
// footprint (paper VI-B, VI-C): streaming, strided (stride in elements),
// random through a device-made permutation index array (8 bytes per element,
// counted in footprint_bytes), and page-touch (one element per 4 KiB, 64 KiB
// or 2 MiB), each under explicit, cold, prefetched and reused memory.
// useful_bytes counts the data read and written for the touched elements
// (16 bytes each); bandwidth is useful bytes over kernel time.
func Patterns(ctx context.Context, dev Device, cfg PatternConfig) (dataframe.DataFrame, error) {
	if err := cfg.Validate(); err != nil {
		return dataframe.DataFrame{}, err
	}
	return collect(dev, func(r *runner) error { return r.runDefinition(ctx, cfg) })
}

// Name is the group's name.
func (PatternConfig) Name() string { return "pattern" }

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

func (c PatternConfig) configure(s Selection) Definition {
	c.Common, c.StateSetup, c.Benchmarks = s.Common, s.StateSetup(), s.Benchmarks
	if s.Quick {
		c.FootprintBytes, c.Strides = 64*MiB, []int64{1, 16, 1024}
	}
	return c
}

func (c PatternConfig) defaults() Definition { return c.Defaults() }

// Configs lists the configurations: each mode, then each workload.
func (c PatternConfig) Configs() []Config {
	c = c.Defaults()
	_, rows := (&runner{}).patternWorkloads(c, "pattern")
	var out []Config
	for _, mode := range c.Modes {
		for i, row := range rows {
			out = append(out, Config{Definition: "pattern", Entry: "pattern." + row.Benchmark, Group: "pattern", Benchmark: row.Benchmark, Mode: mode,
				Label:     patternLabel(row.Benchmark, mode, row.StrideElements, row.PageIntervalBytes),
				SizeBytes: c.FootprintBytes, BytesPerIteration: row.UsefulBytes, arg: i})
		}
	}
	return withRows(out, c.Trials.Int())
}

func (c PatternConfig) start(r *runner) (func(context.Context, Config) error, func(), error) {
	ws, rows := r.patternWorkloads(c, "pattern")
	return noStart(func(ctx context.Context, k Config) error {
		base := rows[k.arg.(int)]
		base.Mode = k.Mode
		return r.runState(ctx, base, k.Label, k.Mode, ws[k.arg.(int)], c.Common, c.StateSetup)
	})
}

// patternLabel is a pattern configuration's progress label.
func patternLabel(bench, mode string, stride, interval int64) string {
	l := fmt.Sprintf("pattern %s %s", bench, mode)
	switch {
	case stride > 1 && interval == 0:
		l += fmt.Sprintf(" stride %d", stride)
	case interval > 0:
		l += " every " + fmtBytes(interval)
	}
	return l
}

// patternWorkloads expands a configuration into its workloads and row
// templates.
func (r *runner) patternWorkloads(cfg PatternConfig, group string) ([]workload, []results.Row) {
	n := uint64(cfg.FootprintBytes / 8)
	var ws []workload
	var rows []results.Row
	add := func(bench string, w workload, fill func(*results.Row)) {
		row := r.row(group, bench, "")
		row.Pattern = bench
		row.SizeBytes, row.FootprintBytes = cfg.FootprintBytes, cfg.FootprintBytes
		row.ActiveElements, row.UsefulBytes = int64(w.active), int64(w.active)*16
		fill(&row)
		ws, rows = append(ws, w), append(rows, row)
	}
	for _, bench := range cfg.Benchmarks {
		switch bench {
		case "streaming":
			add(bench, workload{n: n, kernel: Kernel{Kind: KRMW, N: n, Mul: 1, Add: 1}, stride: 1, active: n},
				func(row *results.Row) { row.StrideElements = 1 })
		case "strided":
			for _, s := range cfg.Strides {
				active := (n-1)/uint64(s) + 1
				k := Kernel{Kind: KStrided, Mul: 1, Add: 1, Stride: uint64(s), Active: active}
				add(bench, workload{n: n, kernel: k, stride: uint64(s), active: active},
					func(row *results.Row) { row.StrideElements = s })
			}
		case "random":
			k := Kernel{Kind: KRandom, Mul: 1, Add: 1, Active: n}
			add(bench, workload{n: n, kernel: k, stride: 1, active: n, random: true},
				func(row *results.Row) { row.FootprintBytes = 2 * cfg.FootprintBytes })
		case "page_touch":
			for _, p := range cfg.PageIntervals {
				step := uint64(p / 8)
				active := (n-1)/step + 1
				k := Kernel{Kind: KPageTouch, Mul: 1, Add: 1, IntervalBytes: uint64(p), Active: active}
				add(bench, workload{n: n, kernel: k, stride: step, active: active},
					func(row *results.Row) { row.PageIntervalBytes, row.StrideElements = p, int64(step) })
			}
		}
	}
	return ws, rows
}
