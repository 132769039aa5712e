package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// BandwidthVsSize draws useful bandwidth against working-set size, log-log,
// one line per series (by default whichever of benchmark, mode, direction
// and pattern tell the rows apart) and one panel per platform.
func BandwidthVsSize(rows []results.Row, o Options) (*Figure, error) {
	rows = Except(rows, results.ColSizeBytes, 0)
	return bandwidthFigure(rows, results.ColSizeBytes, "Useful bandwidth vs working-set size", o, results.ColBenchmark, results.ColMode, results.ColDirection, results.ColPattern)
}

// StrideSweep draws useful bandwidth against stride for the strided
// benchmark (paper, Figs. 5 and 6), one line per mode.
func StrideSweep(rows []results.Row, o Options) (*Figure, error) {
	rows = Where(rows, results.ColBenchmark, results.BenchStrided)
	return bandwidthFigure(rows, results.ColStrideElements, "Strided access: useful bandwidth vs stride", o, results.ColMode, results.ColSizeBytes)
}

// PageTouch draws useful bandwidth against the page-touch interval (one
// element touched per interval; paper, Section VI-C), one line per mode.
func PageTouch(rows []results.Row, o Options) (*Figure, error) {
	rows = Where(rows, results.ColBenchmark, results.BenchPageTouch)
	return bandwidthFigure(rows, results.ColPageIntervalBytes, "Page touch: useful bandwidth vs interval", o, results.ColMode, results.ColSizeBytes)
}

// Oversubscription draws useful bandwidth against the managed footprint as
// a percentage of GPU memory (paper, Fig. 7), one line per mode (and
// pattern, when there are several), with the capacity boundary at 100 %
// dashed.
func Oversubscription(rows []results.Row, o Options) (*Figure, error) {
	rows = Where(rows, results.ColGroup, results.GroupOversub)
	lf, err := bandwidthLines(rows, results.ColOversubPct, lineSpec{
		title:     "Oversubscription: bandwidth vs footprint (dashed: GPU memory)",
		defSeries: []string{results.ColMode, results.ColPattern},
		xInclude:  []float64{100},
	}, o)
	if err != nil {
		return nil, err
	}
	for _, p := range lf.fig.Panels {
		p.Add(vline(p, 100))
	}
	return lf.fig, nil
}

// bandwidthFigure draws useful bandwidth against column x, one line per
// series (by default whichever of the series columns tell the rows apart,
// else mode) and one panel per platform.
func bandwidthFigure(rows []results.Row, x, title string, o Options, series ...string) (*Figure, error) {
	lf, err := bandwidthLines(rows, x, lineSpec{title: title, defSeries: series}, o)
	if err != nil {
		return nil, err
	}
	return lf.fig, nil
}

// bandwidthLines is lines with useful bandwidth on y, x's axis and mode as
// the fallback series; spec gives the title, series and extras.
func bandwidthLines(rows []results.Row, x string, spec lineSpec, o Options) (*lineFig, error) {
	spec.xa, spec.ya, spec.fallback = AxisOf(x), AxisOf(results.ColGBps), results.ColMode
	return lines(rows, x, results.ColGBps, o, spec)
}

// HandoffReuse draws the time of one alternating CPU–GPU iteration against
// the GPU passes R after each CPU update (paper, Fig. 8): measured medians
// as markers, one colour per policy, and each model of models as a dashed
// line F + R·G in its policy's colour, in the panel of its platform. Rows
// other than the handoff group's alternating phase are ignored.
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
	lf, err := lines(rows, results.ColReusePasses, results.ColTotalMs, o, spec)
	if err != nil {
		return nil, err
	}
	series := lf.series
	for _, m := range models {
		p, ok := lf.panels[m.Platform]
		if !ok && len(lf.fig.Panels) == 1 {
			p, ok = lf.fig.Panels[0], true
		}
		if !ok {
			continue
		}
		r := results.NewRow()
		r.Policy, r.SizeBytes, r.Platform = m.Policy, m.SizeBytes, m.Platform
		ci, ok := lf.colors[series.label(&r)]
		if !ok {
			continue
		}
		// Sample the line geometrically: it is straight in R, curved on a
		// log axis.
		const n = 48
		lo, hi := p.X.Min, p.X.Max
		xys := make(plotter.XYs, 0, n)
		for i := range n {
			x := lo * math.Pow(hi/lo, float64(i)/(n-1))
			if y := m.Time(x); y > 0 {
				xys = append(xys, plotter.XY{X: x, Y: y})
			}
		}
		if len(xys) < 2 {
			continue
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, fmt.Errorf("plots: model line %s: %w", m.Policy, err)
		}
		l.LineStyle = lineStyle(seriesColor(ci), true)
		// Keep the panel's (shared) ranges: the canvas clips the line.
		x0, x1, y0, y1 := p.X.Min, p.X.Max, p.Y.Min, p.Y.Max
		p.Add(l)
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = x0, x1, y0, y1
	}
	if len(models) > 0 {
		// Rebuild the legend: a marker and a dashed line per policy, and
		// what each means.
		names := lf.fig.LegendNames()
		lf.fig.legend = NewFigure("").legend
		lf.fig.legendNames = nil
		for _, name := range names {
			ci := lf.colors[name]
			lf.fig.AddLegend(name, &plotter.Line{LineStyle: lineStyle(seriesColor(ci), true)},
				&plotter.Scatter{GlyphStyle: draw.GlyphStyle{Color: seriesColor(ci), Radius: vg.Points(3), Shape: seriesShape(ci)}})
		}
		grey := color.Gray{Y: 0x60}
		lf.fig.AddLegend("measured (median)", &plotter.Scatter{GlyphStyle: draw.GlyphStyle{Color: grey, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}})
		lf.fig.AddLegend("model F + R·G", &plotter.Line{LineStyle: lineStyle(grey, true)})
	}
	return lf.fig, nil
}
