package plots_test

import (
	"math"

	"github.com/umlab/umlab/results"
)

// paperRows are a few of the paper's GB200 and GH200 figures (medians,
// Sections V to VII), written out here so that the tests do not change when
// the datasets package does.
func paperRows() []results.Row {
	var rows []results.Row
	add := func(platform, group, bench, mode string, size int64, gbps float64, set func(*results.Row)) {
		r := results.NewRow()
		r.Platform, r.Group, r.Benchmark, r.Mode, r.SizeBytes, r.GBps = platform, group, bench, mode, size, gbps
		r.Source = "paper"
		if set != nil {
			set(&r)
		}
		rows = append(rows, r)
	}
	const mib, gib = 1 << 20, 1 << 30
	for _, p := range []struct {
		platform               string
		explicit, cold, pf, re float64
	}{{"GB200", 4582, 14.1, 4606, 4504}, {"GH200", 3128, 9.9, 3121, 3105}, {"GB10", 187, 154, 150, 155}} {
		add(p.platform, "managed", "stream", "explicit", 256*mib, p.explicit, nil)
		add(p.platform, "managed", "stream", "managed_cold", 256*mib, p.cold, nil)
		add(p.platform, "managed", "stream", "managed_prefetch", 256*mib, p.pf, nil)
		add(p.platform, "managed", "stream", "managed_reuse", 256*mib, p.re, nil)
	}
	stride := func(s int64) func(*results.Row) {
		return func(r *results.Row) { r.StrideElements, r.Pattern = s, "strided" }
	}
	for _, s := range []struct {
		platform, mode string
		stride         int64
		gbps           float64
	}{
		{"GB200", "explicit", 1, 4585}, {"GB200", "explicit", 1024, 67.7},
		{"GB200", "managed_cold", 1, 8.6}, {"GB200", "managed_cold", 1024, 0.01},
		{"GB200", "managed_prefetch", 1, 3659}, {"GB200", "managed_prefetch", 64, 177},
		{"GH200", "explicit", 1, 3107}, {"GH200", "explicit", 1024, 78.3},
		{"GH200", "managed_cold", 1, 8.27}, {"GH200", "managed_cold", 1024, 0.008},
		{"GH200", "managed_prefetch", 1, 3020}, {"GH200", "managed_prefetch", 64, 118},
	} {
		add(s.platform, "pattern", "strided", s.mode, 256*mib, s.gbps, stride(s.stride))
	}
	over := func(pct float64) func(*results.Row) {
		return func(r *results.Row) { r.OversubPct, r.Pattern, r.SizeBytes = pct, "streaming", 0 }
	}
	add("GB200", "oversub", "stream", "managed_prefetch", 0, 2385, over(105))
	add("GB200", "oversub", "stream", "managed_prefetch", 0, 968, over(125))
	add("GB200", "oversub", "stream", "managed_reuse", 0, 2722, over(105))
	add("GB200", "oversub", "stream", "managed_reuse", 0, 1214, over(125))
	hand := func(policy, phase string, r int64, ms float64) {
		add("GB200", "handoff", "handoff", "", gib, math.NaN(), func(x *results.Row) {
			x.Policy, x.Phase, x.ReusePasses, x.TotalMs = policy, phase, r, ms
		})
	}
	for _, h := range []struct {
		policy      string
		g           float64
		r1, r2, r32 float64
	}{
		{"explicit_copy", 0.415, 60.5, 60.9, 73.3},
		{"host_mapped", 5.119, 60.2, 65.3, 218.7},
		{"managed", 0.415, 272.1, math.NaN(), 284.4},
		{"managed_prefetch", 0.489, 79.9, math.NaN(), 92.6},
	} {
		hand(h.policy, "gpu_only", 0, h.g)
		hand(h.policy, "alternating", 1, h.r1)
		if !math.IsNaN(h.r2) {
			hand(h.policy, "alternating", 2, h.r2)
		}
		hand(h.policy, "alternating", 32, h.r32)
	}
	return rows
}

// localRows are made-up trials of a local H200 run: a size sweep with five
// trials per point, deterministic, shaped like a real one (a rise to a
// bandwidth plateau, a slow cold state) but not measurements.
func localRows() []results.Row {
	var rows []results.Row
	for _, m := range []struct {
		mode       string
		peak, half float64
	}{{"explicit", 4300, 4 << 20}, {"managed_cold", 9, 1 << 20}, {"managed_prefetch", 4250, 4 << 20}, {"managed_reuse", 4200, 4 << 20}} {
		for e := 16; e <= 30; e += 2 {
			size := int64(1) << e
			for t := range 5 {
				r := results.NewRow()
				r.Platform, r.Group, r.Benchmark, r.Mode = "H200", "managed", "stream", m.mode
				r.SizeBytes, r.Trial, r.Verified = size, int64(t), true
				s := float64(size)
				r.GBps = m.peak * s / (s + m.half) * (1 + 0.01*float64(t-2))
				r.KernelMs = 3 * s / r.GBps / 1e6
				rows = append(rows, r)
			}
		}
	}
	return rows
}
