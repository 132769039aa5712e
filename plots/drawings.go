package plots

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/umlab/umlab/results"
)

// The draw functions of the catalog: each selects the rows it shows,
// draws them and says what they show, with numbers from the same marks.

func drawTrials(rows []results.Row) (*Shown, error) {
	rows = local(rows)
	pick := Where(rows, results.ColGroup, results.GroupHBM, results.ColBenchmark, results.BenchTriad)
	pick = Nearest(Where(pick, results.ColMode, results.ModeExplicit), 1<<30)
	if len(pick) == 0 { // any configuration: the one with the most trials
		for _, g := range split(Nearest(rows, 1<<30), By(identity...)) {
			if len(g.rows) > len(pick) {
				pick = g.rows
			}
		}
	}
	if len(pick) == 0 {
		return nil, fmt.Errorf("%w: no measured trials (the paper publishes one number per configuration)", ErrNoData)
	}
	pick = split(pick, By(identity...))[0].rows
	fig, err := Trials(pick, Options{})
	if err != nil {
		return nil, err
	}
	r := pick[0]
	what := fmt.Sprintf("%s %s %s, %s", r.Platform, r.Benchmark, r.Mode, results.FormatBytes(r.SizeBytes))
	return figure("The trials of "+what, fig, nil, pick, "", results.ColGBps, trialsReading(pick, fig.Points()[0]))
}

func trialsReading(rows []results.Row, pt Point) string {
	d := results.Describe(column(rows, results.ColGBps))
	warm := ""
	if w := rows[0].Warmups; w > 0 {
		warm = fmt.Sprintf(", after %d warm-ups that were run and not kept", w)
	}
	return fmt.Sprintf("%d trials%s: they range from %s to %s; their median is %s, and the 95 %% interval of that median runs from %s to %s.",
		pt.N, warm, gb(d.Min), gb(d.Max), gb(pt.Median), gb(pt.Lo), gb(pt.Hi))
}

func drawPaths(rows []results.Row) (*Shown, error) {
	rows = Nearest(rows, 1<<30)
	fig, err := Bars(rows, results.ColGBps, Options{Category: By(results.ColGroup, results.ColBenchmark, results.ColMode, results.ColDirection)})
	var reading []string
	for _, p := range Platforms(rows) {
		reading = append(reading, pathsReading(Where(rows, results.ColPlatform, p), p))
	}
	return figure(at("Memory paths", rows), fig, err, rows, "", results.ColGBps, reading...)
}

func pathsReading(rows []results.Row, platform string) string {
	hbm, ok1 := pick(rows, results.ColGBps, results.ColGroup, results.GroupHBM, results.ColBenchmark, results.BenchTriad)
	host, ok2 := pick(rows, results.ColGBps, results.ColGroup, results.GroupHost, results.ColMode, results.ModeHostMapped)
	if !ok1 || !ok2 {
		return ""
	}
	s := fmt.Sprintf("On %s the host-mapped triad reaches %s, %s of the HBM triad's %s", platform, gb(host.Median), pct(host.Median, hbm.Median), gb(hbm.Median))
	if c, ok := pick(rows, results.ColGBps, results.ColGroup, results.GroupTransfer, results.ColBenchmark, results.BenchCopy,
		results.ColMode, results.ModePinned, results.ColDirection, results.DirectionH2D); ok {
		s += fmt.Sprintf("; pinned copies move %s host to device", gb(c.Median))
		if p, ok := pick(rows, results.ColGBps, results.ColGroup, results.GroupTransfer, results.ColBenchmark, results.BenchPrefetch,
			results.ColDirection, results.DirectionH2D); ok {
			s += fmt.Sprintf(" and managed prefetch %s", gb(p.Median))
		}
	}
	return s + "."
}

func drawPathsSize(rows []results.Row) (*Shown, error) {
	rows = Except(rows, results.ColMode, results.ModeSystem) // a few sizes only where supported: drawn at 1 GiB
	fig, err := BandwidthVsSize(rows, Options{Panel: By(results.ColPlatform, results.ColGroup),
		Series: By(results.ColBenchmark, results.ColMode, results.ColDirection)})
	if err != nil {
		return nil, err
	}
	drawn := fig.drawn()
	var reading []string
	for _, p := range Platforms(drawn) {
		for _, c := range [][]any{{results.ColGroup, results.GroupHBM, results.ColBenchmark, results.BenchTriad},
			{results.ColGroup, results.GroupHost, results.ColMode, results.ModeHostMapped}} {
			reading = append(reading, levels(Where(drawn, results.ColPlatform, p), p, c...))
		}
	}
	return figure("Memory paths against working-set size", fig, nil, drawn, results.ColSizeBytes, results.ColGBps, reading...)
}

// levels says where one configuration's bandwidth levels off with size:
// the smallest size within 10 % of its largest median.
func levels(rows []results.Row, platform string, kv ...any) string {
	rows = filterAll(rows, kv...)
	var pts []Point
	for _, g := range split(rows, By(results.ColSizeBytes)) {
		pt := describe(g.rows, results.ColGBps)
		if pt.Configs != 1 {
			return ""
		}
		pt.X = float64(g.rows[0].SizeBytes)
		pts = append(pts, pt)
	}
	if len(pts) < 3 {
		return ""
	}
	top := slices.MaxFunc(pts, func(a, b Point) int { return cmp.Compare(a.Median, b.Median) })
	at := top
	for i := len(pts) - 1; i >= 0 && pts[i].Median >= 0.9*top.Median; i-- {
		at = pts[i]
	}
	r := rows[0]
	return fmt.Sprintf("On %s the %s %s rises from %s at %s to %s at %s, within a tenth of its highest median (%s at %s).",
		platform, r.Mode, r.Benchmark, gb(pts[0].Median), size(pts[0].X), gb(at.Median), size(at.X), gb(top.Median), size(top.X))
}

func drawStates(rows []results.Row) (*Shown, error) {
	rows = Nearest(Where(Where(rows, results.ColBenchmark, results.BenchStream), results.ColMode,
		results.ModeExplicit, results.ModeManagedCold, results.ModeManagedPrefetch, results.ModeManagedReuse), 256<<20)
	fig, err := Bars(rows, results.ColGBps, Options{Category: By(results.ColPlatform), Series: By(results.ColMode)})
	var reading []string
	for _, p := range Platforms(rows) {
		reading = append(reading, statesReading(Where(rows, results.ColPlatform, p), p))
	}
	return figure(at("Streaming kernel by memory state", rows), fig, err, rows, "", results.ColGBps, reading...)
}

func statesReading(rows []results.Row, platform string) string {
	m := map[string]Point{}
	for _, mode := range []string{results.ModeExplicit, results.ModeManagedCold, results.ModeManagedPrefetch, results.ModeManagedReuse} {
		if pt, ok := pick(rows, results.ColGBps, results.ColMode, mode); ok {
			m[mode] = pt
		}
	}
	ex, ok := m[results.ModeExplicit]
	cold, ok2 := m[results.ModeManagedCold]
	if !ok || !ok2 {
		return ""
	}
	s := fmt.Sprintf("On %s cold first touch runs at %s, %s of explicit's %s", platform, gb(cold.Median), pct(cold.Median, ex.Median), gb(ex.Median))
	for _, mode := range []string{results.ModeManagedPrefetch, results.ModeManagedReuse} {
		if pt, ok := m[mode]; ok {
			s += fmt.Sprintf("; %s %s (%s of explicit's %s)", mode, gb(pt.Median), pct(pt.Median, ex.Median), gb(ex.Median))
		}
	}
	return s + "."
}

func drawAdvice(rows []results.Row) (*Shown, error) {
	rows = Nearest(Where(rows, results.ColMode, results.ModeManagedCold, results.ModeManagedPrefetch,
		results.ModeAdvisePreferredGPU, results.ModeAdviseAccessedBy, results.ModeAdvisePreferredCPU), 256<<20)
	fig, err := Bars(rows, results.ColGBps, Options{Category: By(results.ColPlatform), Series: By(results.ColMode)})
	var reading []string
	for _, p := range Platforms(rows) {
		pr := Where(rows, results.ColPlatform, p)
		cold, ok1 := pick(pr, results.ColGBps, results.ColMode, results.ModeManagedCold)
		gpu, ok2 := pick(pr, results.ColGBps, results.ColMode, results.ModeAdvisePreferredGPU)
		acc, ok3 := pick(pr, results.ColGBps, results.ColMode, results.ModeAdviseAccessedBy)
		cpu, ok4 := pick(pr, results.ColGBps, results.ColMode, results.ModeAdvisePreferredCPU)
		if ok1 && ok2 && ok3 && ok4 {
			reading = append(reading, fmt.Sprintf("On %s preferred-GPU runs at %s against cold's %s, accessed-by at %s, preferred-CPU at %s.",
				p, gb(gpu.Median), gb(cold.Median), gb(acc.Median), gb(cpu.Median)))
		}
		// The paper measured prefetch twice: in its streaming run and in
		// its advice run.
		s, ok5 := pick(pr, results.ColGBps, results.ColMode, results.ModeManagedPrefetch, results.ColBenchmark, results.BenchStream)
		a, ok6 := pick(pr, results.ColGBps, results.ColMode, results.ModeManagedPrefetch, results.ColBenchmark, results.BenchAdvise)
		if ok5 && ok6 {
			reading = append(reading, fmt.Sprintf("%s's prefetch was measured twice: %s in the advice run (advise), %s in the streaming run (stream), %s apart: the advice claims compare with the advice run's.",
				p, gb(a.Median), gb(s.Median), pct(math.Abs(a.Median-s.Median), s.Median)))
		}
	}
	return figure(at("Advice against cold first touch and prefetch", rows), fig, err, rows, "", results.ColGBps, reading...)
}

func drawStatesSize(rows []results.Row) (*Shown, error) {
	rows = Where(Where(rows, results.ColBenchmark, results.BenchStream), results.ColMode,
		results.ModeExplicit, results.ModeManagedCold, results.ModeManagedPrefetch, results.ModeManagedReuse)
	fig, err := BandwidthVsSize(rows, Options{Series: By(results.ColMode)})
	if err != nil {
		return nil, err
	}
	drawn := fig.drawn()
	var reading []string
	for _, p := range Platforms(drawn) {
		for _, mode := range []string{results.ModeManagedCold, results.ModeManagedPrefetch} {
			reading = append(reading, levels(Where(drawn, results.ColPlatform, p), p, results.ColMode, mode))
		}
	}
	s, err := figure("Memory states against working-set size", fig, nil, drawn, results.ColSizeBytes, results.ColGBps, reading...)
	if err == nil {
		s.Table = PointsFrame(fig.Points(), results.ColSizeBytes, results.ColGBps, results.ColPrefetchMs)
	}
	return s, err
}

func drawStride(rows []results.Row) (*Shown, error) {
	rows = Nearest(Where(rows, results.ColBenchmark, results.BenchStrided), 256<<20)
	fig, err := StrideSweep(rows, Options{})
	var reading []string
	for _, p := range Platforms(rows) {
		pr := Where(rows, results.ColPlatform, p)
		var parts []string
		for _, mode := range []string{results.ModeExplicit, results.ModeManagedCold} {
			strides := distinct(column(Where(pr, results.ColMode, mode), results.ColStrideElements))
			if len(strides) < 2 {
				continue
			}
			a, ok1 := pick(pr, results.ColGBps, results.ColMode, mode, results.ColStrideElements, strides[0])
			b, ok2 := pick(pr, results.ColGBps, results.ColMode, mode, results.ColStrideElements, strides[len(strides)-1])
			if ok1 && ok2 {
				parts = append(parts, fmt.Sprintf("%s falls from %s at stride %g to %s at stride %g (%s of it)",
					mode, gb(a.Median), strides[0], gb(b.Median), strides[len(strides)-1], pct(b.Median, a.Median)))
			}
		}
		if len(parts) > 0 {
			reading = append(reading, "On "+p+" "+and(parts)+".")
		}
	}
	return figure(at("Strided access", rows), fig, err, rows, results.ColStrideElements, results.ColGBps, reading...)
}

func drawRandom(rows []results.Row) (*Shown, error) {
	rows = Nearest(Where(rows, results.ColBenchmark, results.BenchRandom, results.BenchSparse), 256<<20)
	fig, err := Bars(rows, results.ColGBps, Options{Category: By(results.ColPlatform, results.ColBenchmark, results.ColStrideElements), Series: By(results.ColMode)})
	var reading []string
	for _, g := range split(rows, By(results.ColPlatform, results.ColBenchmark, results.ColStrideElements)) {
		ex, ok1 := pick(g.rows, results.ColGBps, results.ColMode, results.ModeExplicit)
		cold, ok2 := pick(g.rows, results.ColGBps, results.ColMode, results.ModeManagedCold)
		pre, ok3 := pick(g.rows, results.ColGBps, results.ColMode, results.ModeManagedPrefetch)
		if ok1 && ok2 && ok3 {
			reading = append(reading, fmt.Sprintf("%s: cold runs at %s, %s of explicit's %s; prefetched at %s.",
				g.label, gb(cold.Median), pct(cold.Median, ex.Median), gb(ex.Median), gb(pre.Median)))
		}
	}
	return figure(at("Random access", rows), fig, err, rows, "", results.ColGBps, reading...)
}

func drawPageTouch(rows []results.Row) (*Shown, error) {
	rows = Nearest(Where(rows, results.ColBenchmark, results.BenchPageTouch), 256<<20)
	fig, err := PageTouch(rows, Options{})
	var reading []string
	for _, g := range split(rows, By(results.ColPlatform, results.ColMode)) {
		iv := distinct(column(g.rows, results.ColPageIntervalBytes))
		if len(iv) < 2 {
			continue
		}
		a, ok1 := pick(g.rows, results.ColGBps, results.ColPageIntervalBytes, iv[0])
		b, ok2 := pick(g.rows, results.ColGBps, results.ColPageIntervalBytes, iv[len(iv)-1])
		if ok1 && ok2 {
			reading = append(reading, fmt.Sprintf("%s: from %s at %s to %s at %s, %s as fast for a touch %g times sparser.",
				g.label, gb(a.Median), size(iv[0]), gb(b.Median), size(iv[len(iv)-1]), pct(b.Median, a.Median), iv[len(iv)-1]/iv[0]))
		}
	}
	return figure(at("Page touch", rows), fig, err, rows, results.ColPageIntervalBytes, results.ColGBps, reading...)
}

func drawOversub(rows []results.Row) (*Shown, error) {
	rows = Where(rows, results.ColPattern, results.PatternStreaming)
	fig, err := Oversubscription(rows, Options{Series: By(results.ColMode)})
	if err != nil {
		return nil, err
	}
	var reading []string
	for _, p := range Platforms(rows) {
		pr := Where(rows, results.ColPlatform, p)
		top := distinct(column(pr, results.ColOversubPct))
		last := top[len(top)-1]
		if last < 100 {
			reading = append(reading, fmt.Sprintf("%s stops at %g %%: it has no point above the capacity boundary "+
				"(umlab stops at 90 %% of free memory unless a run opts in with --allow-oversubscription).", p, last))
			continue
		}
		for _, mode := range []string{results.ModeManagedPrefetch, results.ModeManagedReuse} {
			var parts []string
			for _, pctv := range top {
				if pctv > 100 {
					if pt, ok := pick(pr, results.ColGBps, results.ColMode, mode, results.ColOversubPct, pctv); ok {
						parts = append(parts, fmt.Sprintf("%s at %g %%", gb(pt.Median), pctv))
					}
				}
			}
			if len(parts) > 0 {
				reading = append(reading, fmt.Sprintf("On %s %s falls to %s.", p, mode, and(parts)))
			}
		}
	}
	return figure("Oversubscription, streaming", fig, nil, rows, results.ColOversubPct, results.ColGBps, reading...)
}
