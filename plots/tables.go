package plots

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// keyColumns returns one typed series per key column, holding the first
// row's value of each group.
func keyColumns(gs []group, cols []string) ([]series.Series, error) {
	df := results.Build(gs, results.ConfigFields(func(g *group) *results.Row { return &g.rows[0] }, cols...)...)
	if df.Err != nil {
		return nil, df.Err
	}
	out := make([]series.Series, len(cols))
	for i, c := range cols {
		out[i] = df.Col(c)
	}
	return out, nil
}

func errFrame(err error) dataframe.DataFrame { return dataframe.DataFrame{Err: err} }

// Summary describes rows grouped by the key columns, in the package's
// order (platforms as in the paper, modes from explicit to managed, sizes
// ascending): the number of rows, the median, min and max useful bandwidth
// and its coefficient of variation, the median of each time column that
// has values, and the sources of published figures. Statistics ignore NaN
// and waived rows. Columns without a single value are left out. Errors
// (an unknown column, no rows) are in the frame's Err field, as gota does.
func Summary(rows []results.Row, keys ...string) dataframe.DataFrame {
	k := By(keys...)
	if err := k.validate(); err != nil {
		return errFrame(err)
	}
	rows = Where(rows, results.ColWaived, false)
	if len(rows) == 0 {
		return errFrame(fmt.Errorf("%w: no rows to summarize", ErrNoData))
	}
	gs := split(rows, k)
	cols, err := keyColumns(gs, keys)
	if err != nil {
		return errFrame(err)
	}
	sums := make([]results.SummaryRow, len(gs))
	n := make([]int, len(gs))
	for i, g := range gs {
		sums[i] = results.DescribeTrials(g.rows)
		n[i] = sums[i].N
	}
	cols = append(cols, series.New(n, series.Int, results.ColN))
	stat := func(name string, f func(*results.SummaryRow) float64) {
		v := make([]float64, len(gs))
		any := false
		for i := range sums {
			v[i] = f(&sums[i])
			any = any || !math.IsNaN(v[i])
		}
		if any {
			cols = append(cols, series.New(v, series.Float, name))
		}
	}
	stat(results.ColMedianGBps, func(s *results.SummaryRow) float64 { return s.GBps.Median })
	stat(results.ColMinGBps, func(s *results.SummaryRow) float64 { return s.GBps.Min })
	stat(results.ColMaxGBps, func(s *results.SummaryRow) float64 { return s.GBps.Max })
	stat(results.ColCVPct, func(s *results.SummaryRow) float64 {
		if s.GBps.N < 2 {
			return math.NaN()
		}
		return s.GBps.CVPct
	})
	stat(results.ColMedianKernelMs, func(s *results.SummaryRow) float64 { return s.KernelMs })
	stat(results.ColMedianPrefetch, func(s *results.SummaryRow) float64 { return s.PrefetchMs })
	stat(results.ColMedianTransfer, func(s *results.SummaryRow) float64 { return s.TransferMs })
	stat(results.ColMedianCPUMs, func(s *results.SummaryRow) float64 { return s.CPUMs })
	stat(results.ColMedianTotalMs, func(s *results.SummaryRow) float64 { return s.TotalMs.Median })
	src := make([]string, len(gs))
	anySrc := false
	for i, g := range gs {
		seen := map[string]bool{}
		var s []string
		for _, r := range g.rows {
			if r.Source != "" && !seen[r.Source] {
				seen[r.Source] = true
				s = append(s, r.Source)
			}
		}
		src[i] = strings.Join(s, "; ")
		anySrc = anySrc || len(s) > 0
	}
	if anySrc {
		cols = append(cols, series.New(src, series.String, results.ColSource))
	}
	df := dataframe.New(cols...)
	return df
}

// Pivot lays out the median of column y as a grid: one row per value of
// rowKey (its columns first), one column per value of colKey (named by its
// label, e.g. the platform), NaN where there is no data. For example
// Pivot(rows, By("mode"), By("platform"), "gbps") puts modes down and
// platforms across.
func Pivot(rows []results.Row, rowKey, colKey Key, y string) dataframe.DataFrame {
	if err := numericColumn(y); err != nil {
		return errFrame(err)
	}
	for _, k := range []Key{rowKey, colKey} {
		if err := k.validate(); err != nil {
			return errFrame(err)
		}
	}
	rows = Where(rows, results.ColWaived, false)
	var kept []results.Row
	for i := range rows {
		if !math.IsNaN(number(&rows[i], y)) {
			kept = append(kept, rows[i])
		}
	}
	if len(kept) == 0 {
		return errFrame(fmt.Errorf("%w: no row with %s", ErrNoData, y))
	}
	rgs := split(kept, rowKey)
	cols, err := keyColumns(rgs, rowKey.cols)
	if err != nil {
		return errFrame(err)
	}
	for _, cg := range split(kept, colKey) {
		med := results.Medians(cg.rows, rowKey.label, func(r *results.Row) float64 { return number(r, y) })
		v := make([]float64, len(rgs))
		for i, rg := range rgs {
			v[i] = math.NaN()
			if m, ok := med[rg.label]; ok {
				v[i] = m
			}
		}
		name := cg.label
		if name == "" {
			name = y
		}
		cols = append(cols, series.New(v, series.Float, name))
	}
	return dataframe.New(cols...)
}

// ModelTable lays out reuse-model parameters as the paper's Table III:
// policy, F (ms), G (ms per pass) and the median and maximum absolute
// percentage errors of the validation, with the platform and size first
// when the models have more than one of either. Rows are sorted by
// platform, size and policy.
func ModelTable(models []model.Calibration) dataframe.DataFrame {
	if len(models) == 0 {
		return errFrame(fmt.Errorf("%w: no models", ErrNoData))
	}
	ms := append([]model.Calibration(nil), models...)
	sort.SliceStable(ms, func(i, j int) bool {
		a, b := ms[i], ms[j]
		return lessVals(
			[]sortVal{makeSortVal(results.ColPlatform, a.Platform), makeSortVal("", a.SizeBytes), makeSortVal(results.ColPolicy, a.Policy)},
			[]sortVal{makeSortVal(results.ColPlatform, b.Platform), makeSortVal("", b.SizeBytes), makeSortVal(results.ColPolicy, b.Policy)})
	})
	platforms, sizes := map[string]bool{}, map[int64]bool{}
	for _, m := range ms {
		platforms[m.Platform], sizes[m.SizeBytes] = true, true
	}
	type C = model.Calibration
	var fields []results.Field[C]
	if len(platforms) > 1 {
		fields = append(fields, results.StringField(results.ColPlatform, func(m *C) string { return m.Platform }))
	}
	if len(sizes) > 1 {
		fields = append(fields, results.IntField(results.ColSizeBytes, func(m *C) int64 { return m.SizeBytes }))
	}
	fields = append(fields,
		results.StringField(results.ColPolicy, func(m *C) string { return m.Policy }),
		results.FloatField("f_ms", func(m *C) float64 { return m.F }),
		results.FloatField("g_ms_per_pass", func(m *C) float64 { return m.G }),
		results.FloatField("median_ape_pct", func(m *C) float64 { return m.MedianAPE }),
		results.FloatField("max_ape_pct", func(m *C) float64 { return m.MaxAPE }),
	)
	return results.Build(ms, fields...)
}

// PointsFrame lays out a figure's marks as a table, one row per mark: the
// panel (when there are several), the series, the category or the x value
// (named after column x), the number of trials, the median of y with the
// 95 % interval of that median, the smallest and largest trial, and the
// median of each extra column.
func PointsFrame(pts []Point, x, y string, extra ...string) dataframe.DataFrame {
	if len(pts) == 0 {
		return errFrame(fmt.Errorf("%w: no marks", ErrNoData))
	}
	var fields []results.Field[Point]
	panels := map[string]bool{}
	for _, p := range pts {
		panels[p.Panel] = true
	}
	if len(panels) > 1 {
		fields = append(fields, results.StringField("panel", func(p *Point) string { return p.Panel }))
	}
	fields = append(fields, results.StringField("series", func(p *Point) string { return p.Series }))
	switch c, _ := results.ColumnOf(x); {
	case x == "":
		fields = append(fields, results.StringField("category", func(p *Point) string { return p.Category }))
	case c.Kind == results.Int:
		fields = append(fields, results.IntField(x, func(p *Point) int64 { return int64(p.X) }))
	default:
		fields = append(fields, results.FloatField(x, func(p *Point) float64 { return p.X }))
	}
	stat := func(name string, f func(p *Point) float64) {
		fields = append(fields, results.FloatField(name, f))
	}
	fields = append(fields, results.IntField(results.ColN, func(p *Point) int { return p.N }))
	stat("median_"+y, func(p *Point) float64 { return p.Median })
	stat("interval_lo_"+y, func(p *Point) float64 { return p.Lo })
	stat("interval_hi_"+y, func(p *Point) float64 { return p.Hi })
	stat("min_"+y, func(p *Point) float64 { return results.Describe(column(p.rows, y)).Min })
	stat("max_"+y, func(p *Point) float64 { return results.Describe(column(p.rows, y)).Max })
	for _, e := range extra {
		stat("median_"+e, func(p *Point) float64 { return results.Describe(column(p.rows, e)).Median })
	}
	return results.Build(pts, fields...)
}

// ColumnTitle makes a column name readable for a table's header:
// size_bytes → size, median_gbps → median GB/s, kernel_ms → kernel (ms).
func ColumnTitle(n string) string {
	switch {
	case strings.HasSuffix(n, "_lo"):
		return ColumnTitle(strings.TrimSuffix(n, "_lo")) + ", 95 % lo"
	case strings.HasSuffix(n, "_hi"):
		return ColumnTitle(strings.TrimSuffix(n, "_hi")) + ", 95 % hi"
	case n == "size_bytes":
		return "size"
	case strings.HasSuffix(n, "_bytes"):
		return strings.ReplaceAll(strings.TrimSuffix(n, "_bytes"), "_", " ")
	case strings.HasSuffix(n, "_gbps") || n == "gbps":
		return strings.ReplaceAll(strings.TrimSuffix(strings.TrimSuffix(n, "gbps"), "_"), "_", " ") + " GB/s"
	case strings.HasSuffix(n, "_ms"):
		return strings.ReplaceAll(strings.TrimSuffix(n, "_ms"), "_", " ") + " (ms)"
	case strings.HasSuffix(n, "_pct"):
		return strings.ReplaceAll(strings.TrimSuffix(n, "_pct"), "_", " ") + " (%)"
	}
	return strings.ReplaceAll(n, "_", " ")
}
