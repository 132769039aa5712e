package plots

import (
	"fmt"
	"slices"
	"strings"

	"github.com/go-gota/gota/dataframe"

	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

func errFrame(err error) dataframe.DataFrame { return dataframe.DataFrame{Err: err} }

// ModelTable lays out reuse-model parameters as the paper's Table III:
// policy, F (ms), G (ms per pass) and the median and maximum absolute
// percentage errors of the validation, with the platform and size first
// when the models have more than one of either. Rows are sorted by
// platform, size and policy.
func ModelTable(models []model.Calibration) dataframe.DataFrame {
	if len(models) == 0 {
		return errFrame(fmt.Errorf("%w: no models", ErrNoData))
	}
	order := func(m model.Calibration) []sortVal {
		return []sortVal{makeSortVal(results.ColPlatform, m.Platform), makeSortVal("", m.SizeBytes), makeSortVal(results.ColPolicy, m.Policy)}
	}
	ms := slices.Clone(models)
	slices.SortStableFunc(ms, func(a, b model.Calibration) int { return compareVals(order(a), order(b)) })
	type C = model.Calibration
	var fields []results.Field[C]
	if slices.ContainsFunc(ms, func(m C) bool { return m.Platform != ms[0].Platform }) {
		fields = append(fields, results.StringField(results.ColPlatform, func(m *C) string { return m.Platform }))
	}
	if slices.ContainsFunc(ms, func(m C) bool { return m.SizeBytes != ms[0].SizeBytes }) {
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
	if slices.ContainsFunc(pts, func(p Point) bool { return p.Panel != pts[0].Panel }) {
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
