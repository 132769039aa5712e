package model

import (
	"math"

	"github.com/umlab/umlab/results"
)

func aggregate(rows []results.Row) ([]conf, error) {
	type acc struct {
		k, p, t, c, tot, g, s []float64
		useful                int64
	}
	accs := map[ckey]*acc{}
	var order []ckey
	for _, r := range rows {
		if r.Waived {
			continue
		}
		for _, v := range []struct {
			name string
			x    float64
		}{{results.ColKernelMs, r.KernelMs}, {results.ColPrefetchMs, r.PrefetchMs}, {results.ColTransferMs, r.TransferMs},
			{results.ColCPUMs, r.CPUMs}, {results.ColTotalMs, r.TotalMs}, {results.ColGBps, r.GBps}} {
			if v.x < 0 || math.IsInf(v.x, 0) {
				return nil, badInput("%s row (benchmark %q, mode %q, policy %q, size %d, trial %d): %s = %g is not valid",
					r.Group, r.Benchmark, r.Mode, r.Policy, r.SizeBytes, r.Trial, v.name, v.x)
			}
		}
		k := keyOf(r)
		a, ok := accs[k]
		if !ok {
			a = &acc{}
			accs[k] = a
			order = append(order, k)
		}
		a.k, a.p, a.t = append(a.k, r.KernelMs), append(a.p, r.PrefetchMs), append(a.t, r.TransferMs)
		a.s = append(a.s, r.SyncMs)
		a.c, a.tot, a.g = append(a.c, r.CPUMs), append(a.tot, r.TotalMs), append(a.g, r.GBps)
		if r.UsefulBytes > 0 {
			a.useful = r.UsefulBytes
		}
	}
	if _, err := onePlatform(rows, func(r results.Row) bool { return !r.Waived }, "rows", "decompose"); err != nil {
		return nil, err
	}
	med := func(x []float64) float64 { return results.Describe(x).Median }
	out := make([]conf, len(order))
	for i, k := range order {
		a := accs[k]
		out[i] = conf{ckey: k, kernel: med(a.k), prefetch: med(a.p), transfer: med(a.t), cpu: med(a.c),
			total: med(a.tot), gbps: med(a.g), sync: med(a.s), useful: a.useful}
		if out[i].useful == 0 && finite(out[i].gbps) && finite(out[i].kernel) {
			out[i].useful = int64(math.Round(out[i].gbps * 1e6 * out[i].kernel))
		}
	}
	return out, nil
}

// keyOf returns the decomposition key of a row's configuration.
func keyOf(r results.Row) ckey {
	k := ckey{r.Group, r.Benchmark, r.Mode, r.Pattern, r.Policy, r.Phase, r.SizeBytes, r.StrideElements, r.PageIntervalBytes, 0, 0}
	if r.Group == "oversub" && !math.IsNaN(r.OversubPct) {
		k.pct = r.OversubPct
	}
	if r.Group == groupHandoff {
		// A handoff configuration is its policy, phase, size and R.
		k.mode, k.pattern = "", ""
		if r.Phase == phaseAlt {
			k.r = r.ReusePasses
		}
	}
	return k
}
