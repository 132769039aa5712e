package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// BandwidthVsSize draws useful bandwidth against working-set size, log-log,
// one line per series (by default whichever of benchmark, mode, direction
// and pattern tell the rows apart) and one panel per platform. A platform
// measured at a single size (the paper's) has no panel when another
// platform has a sweep.
func BandwidthVsSize(rows []results.Row, o Options) (*Figure, error) {
	return bandwidthLines(Except(rows, results.ColSizeBytes, 0), results.ColSizeBytes, lineSpec{
		title:     "Useful bandwidth vs working-set size",
		defSeries: []string{results.ColBenchmark, results.ColMode, results.ColDirection, results.ColPattern}, sweepsOnly: true}, o)
}

// StrideSweep draws useful bandwidth against stride for the strided
// benchmark (paper, Figs. 5 and 6), one line per mode.
func StrideSweep(rows []results.Row, o Options) (*Figure, error) {
	rows = Where(rows, results.ColBenchmark, results.BenchStrided)
	return bandwidthLines(rows, results.ColStrideElements, lineSpec{
		title: "Strided access: useful bandwidth vs stride", defSeries: []string{results.ColMode}}, o)
}

// PageTouch draws useful bandwidth against the page-touch interval (one
// element touched per interval; paper, Section VI-C), one line per mode.
func PageTouch(rows []results.Row, o Options) (*Figure, error) {
	rows = Where(rows, results.ColBenchmark, results.BenchPageTouch)
	return bandwidthLines(rows, results.ColPageIntervalBytes, lineSpec{
		title: "Page touch: useful bandwidth vs interval", defSeries: []string{results.ColMode}}, o)
}

// A statedRange is a figure the paper states only as a range in its text:
// bandwidth held over a range of footprints.
type statedRange struct {
	platform, mode string
	fromPct, toPct float64
	lo, hi         float64 // GB/s; equal when the text gives one value
	source         string
}

// statedRanges are Section VII-A's figures below the capacity boundary,
// which the published datasets cannot hold as rows (no footprint is
// given for either end): GB200 "4683–4736 GB/s from 25 % to 90 %"
// (prefetched) and "4674–4701 GB/s over the same range" (reused); GH200
// "remain near 3.2 TB/s" (both).
var statedRanges = []statedRange{
	{"GB200", results.ModeManagedPrefetch, 25, 90, 4683, 4736, "VII-A"},
	{"GB200", results.ModeManagedReuse, 25, 90, 4674, 4701, "VII-A"},
	{"GH200", results.ModeManagedPrefetch, 25, 90, 3200, 3200, "VII-A, \"near 3.2 TB/s\""},
	{"GH200", results.ModeManagedReuse, 25, 90, 3200, 3200, "VII-A, \"near 3.2 TB/s\""},
}

// Oversubscription draws useful bandwidth against the managed footprint as
// a percentage of GPU memory (paper, Fig. 7), one line per mode (and
// pattern, when there are several), with the capacity boundary at 100 %
// dashed. Where the paper states its figures below the boundary only as a
// range (Section VII-A), the range is drawn as a band from 25 % to 90 % in
// the mode's colour, so that the paper's platforms show both sides of
// 100 %.
func Oversubscription(rows []results.Row, o Options) (*Figure, error) {
	rows = Where(rows, results.ColGroup, results.GroupOversub)
	ys := column(rows, results.ColGBps)
	platforms := Platforms(rows)
	for _, s := range statedRanges {
		if slices.Contains(platforms, s.platform) {
			ys = append(ys, s.lo, s.hi)
		}
	}
	spec := lineSpec{title: "Oversubscription: bandwidth vs footprint (dashed: GPU memory)", xa: AxisOf(results.ColOversubPct),
		ya: AxisOf(results.ColGBps), fallback: results.ColMode, defSeries: []string{results.ColMode, results.ColPattern}, xInclude: []float64{0, 100, 130}}
	fig, err := lines(rows, results.ColOversubPct, results.ColGBps, o, spec)
	if err != nil {
		return nil, err
	}
	lo, hi := span(ys, spec.ya.isLog(ys))
	for i, pg := range fig.groups {
		p := fig.Panels[i]
		p.Y.Min, p.Y.Max = min(p.Y.Min, lo), max(p.Y.Max, hi)
		for _, s := range statedRanges {
			c, ok := stateColours[s.mode]
			if pg.rows[0].Platform != s.platform || !ok {
				continue
			}
			band, err := rect(s.fromPct, s.toPct, s.lo, s.hi)
			if err != nil {
				return nil, err
			}
			band.LineStyle = draw.LineStyle{Color: c, Width: vg.Points(2.5)}
			band.Color = withAlpha(c, 0x50)
			p.Add(band)
			fig.points = append(fig.points, Point{Panel: pg.label, Series: s.mode + ", stated " + rangeText(s.fromPct, s.toPct) + " %",
				X: math.NaN(), Median: math.NaN(), Lo: s.lo, Hi: s.hi, Configs: 1})
		}
		p.Add(vline(p, 100, draw.LineStyle{Color: color.Gray{Y: 0x70}, Width: vg.Points(1), Dashes: modelDashes}))
	}
	fig.AddLegend("paper: range stated in the text", &plotter.Polygon{Color: withAlpha(color.Gray{Y: 0x60}, 0x50)})
	return fig, nil
}

func rangeText(a, b float64) string { return results.FormatNumber(a) + "–" + results.FormatNumber(b) }

func withAlpha(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: a}
}

// rect is a rectangle from x0 to x1 and y0 to y1.
func rect(x0, x1, y0, y1 float64) (*plotter.Polygon, error) {
	r, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
	if err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	return r, nil
}

// bandwidthLines is lines with useful bandwidth on y, x's axis and mode as
// the fallback series; spec gives the title, series and extras.
func bandwidthLines(rows []results.Row, x string, spec lineSpec, o Options) (*Figure, error) {
	spec.xa, spec.ya, spec.fallback = AxisOf(x), AxisOf(results.ColGBps), results.ColMode
	return lines(rows, x, results.ColGBps, o, spec)
}

// Trials draws the trials of one configuration in the order they ran,
// with their median (a solid line) and the 95 % bootstrap interval of the
// median (a band): what every other figure reduces to one mark. Of rows
// of several configurations it draws the first, in the package's order
// (its panel title says which).
func Trials(rows []results.Row, o Options) (*Figure, error) {
	rows = drawable(rows, results.ColGBps)
	if len(rows) == 0 {
		return nil, fmt.Errorf("%w: no trials", ErrNoData)
	}
	rows = split(rows, By(identity...))[0].rows
	pt := describe(rows, results.ColGBps)
	ax := Axis{Label: "trial, in the order run"}
	o.Panel = o.Panel.or(By(results.ColPlatform, results.ColGroup, results.ColBenchmark, results.ColMode, results.ColDirection))
	spec := lineSpec{title: "The trials of one configuration", xa: ax, ya: Axis{Label: "useful bandwidth (GB/s)"},
		fallback: results.ColMode, pointsOnly: true, tight: true}
	fig, err := lines(rows, results.ColTrial, results.ColGBps, o, spec)
	if err != nil {
		return nil, err
	}
	p := fig.Panels[0]
	x0, x1 := p.X.Min, p.X.Max
	band, err := rect(x0, x1, pt.Lo, pt.Hi)
	if err != nil {
		return nil, err
	}
	band.Color, band.LineStyle.Width = color.NRGBA{R: 0x80, G: 0x80, B: 0x80, A: 0x40}, 0
	med, err := plotter.NewLine(plotter.XYs{{X: x0, Y: pt.Median}, {X: x1, Y: pt.Median}})
	if err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	med.LineStyle = draw.LineStyle{Color: color.Gray{Y: 0x30}, Width: vg.Points(1.2)}
	p.Add(band, med)
	p.Y.Min, p.Y.Max = min(p.Y.Min, pt.Lo), max(p.Y.Max, pt.Hi)
	fig.resetLegend()
	fig.AddLegend("one trial", &plotter.Scatter{GlyphStyle: draw.GlyphStyle{Color: color.Black, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}})
	fig.AddLegend("median", &plotter.Line{LineStyle: med.LineStyle})
	fig.AddLegend("95 % interval of the median", &plotter.Polygon{Color: band.Color})
	pt.Panel, pt.Series = "", "median"
	fig.points = []Point{pt}
	return fig, nil
}

// HandoffReuse draws the time of one alternating CPU–GPU iteration against
// the GPU passes R after each CPU update (paper, Fig. 8): measured medians
// as markers, one colour per policy, and each model of models as a dashed
// line F + R·G in its policy's colour, in the panel of its platform, and
// only for a size the panel's markers show. Both axes are linear over the
// usual R = 1…32, so that the model is drawn as the straight line it is.
// Rows other than the handoff group's alternating phase are ignored.
func HandoffReuse(rows []results.Row, models []model.Calibration, o Options) (*Figure, error) {
	rows = Where(Where(rows, results.ColGroup, results.GroupHandoff), results.ColPhase, results.PhaseAlternating)
	spec := lineSpec{
		title:      "CPU–GPU handoff: time per CPU update vs GPU reuse",
		xa:         AxisOf(results.ColReusePasses),
		ya:         AxisOf(results.ColTotalMs),
		fallback:   results.ColPolicy,
		defSeries:  []string{results.ColPolicy, results.ColSizeBytes},
		pointsOnly: len(models) > 0,
	}
	fig, err := lines(rows, results.ColReusePasses, results.ColTotalMs, o, spec)
	if err != nil {
		return nil, err
	}
	for _, m := range models {
		if err := fig.addModel(m); err != nil {
			return nil, err
		}
	}
	if len(fig.models) > 0 {
		// A marker and a dashed line per policy, and what each means.
		names := fig.LegendNames()
		fig.resetLegend()
		for _, name := range names {
			l := fig.looks[name]
			fig.AddLegend(name, &plotter.Line{LineStyle: lineStyle(l.colour, modelDashes)},
				&plotter.Scatter{GlyphStyle: draw.GlyphStyle{Color: l.colour, Radius: vg.Points(3), Shape: l.shape}})
		}
		grey := color.Gray{Y: 0x60}
		fig.AddLegend("measured (median)", &plotter.Scatter{GlyphStyle: draw.GlyphStyle{Color: grey, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}})
		fig.AddLegend("model F + R·G", &plotter.Line{LineStyle: lineStyle(grey, modelDashes)})
	}
	return fig, nil
}

// addModel draws m as a dashed line in the panel whose markers show its
// platform, policy and size; a model of anything the figure does not show
// is not drawn.
func (fig *Figure) addModel(m model.Calibration) error {
	for pi, pg := range fig.groups {
		i := slices.IndexFunc(pg.rows, func(r results.Row) bool {
			return r.Policy == m.Policy && r.SizeBytes == m.SizeBytes && (m.Platform == "" || r.Platform == m.Platform)
		})
		if i < 0 {
			continue
		}
		p := fig.Panels[pi]
		l, ok := fig.looks[fig.series.label(&pg.rows[i])]
		if !ok {
			continue
		}
		xys := plotter.XYs{}
		for _, x := range []float64{p.X.Min, p.X.Max} {
			if y := m.Time(x); y > 0 {
				xys = append(xys, plotter.XY{X: x, Y: y})
			}
		}
		if len(xys) < 2 {
			continue
		}
		line, err := plotter.NewLine(xys)
		if err != nil {
			return fmt.Errorf("plots: model line %s: %w", m.Policy, err)
		}
		line.LineStyle = lineStyle(l.colour, modelDashes)
		// Keep the panel's (shared) ranges: the canvas clips the line.
		x0, x1, y0, y1 := p.X.Min, p.X.Max, p.Y.Min, p.Y.Max
		p.Add(line)
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = x0, x1, y0, y1
		fig.models = append(fig.models, ModelLine{Panel: pg.label, Policy: m.Policy, SizeBytes: m.SizeBytes})
	}
	return nil
}
