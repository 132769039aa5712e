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
	return collect(dev, func(r *runner) error { return r.patterns(ctx, cfg) })
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

func (r *runner) patterns(ctx context.Context, cfg PatternConfig) error {
	cfg = cfg.Defaults()
	ws, rows := r.patternWorkloads(cfg, "pattern")
	for _, mode := range cfg.Modes {
		for i, w := range ws {
			base := rows[i]
			base.Mode = mode
			label := fmt.Sprintf("pattern %s %s", base.Benchmark, mode)
			switch {
			case base.StrideElements > 1 && base.PageIntervalBytes == 0:
				label += fmt.Sprintf(" stride %d", base.StrideElements)
			case base.PageIntervalBytes > 0:
				label += " every " + fmtBytes(base.PageIntervalBytes)
			}
			if err := r.runState(ctx, base, label, mode, w, cfg.Common); err != nil {
				return err
			}
		}
	}
	return nil
}
