package plots

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/umlab/umlab/results"
)

// Options tunes a figure. Zero values take the figure's defaults.
type Options struct {
	// Title is drawn above the panels; empty takes the figure's default,
	// and "-" draws none.
	Title string
	// Series makes one line (or one bar of each group) per value; the
	// default depends on the figure.
	Series Key
	// Panel makes one panel per value; the default is one per platform.
	// Use Single for one panel.
	Panel Key
	// Category makes one group of bars per value ([Bars] only); default
	// By("mode").
	Category Key
	// PanelWidth and PanelHeight set the size of one panel.
	PanelWidth, PanelHeight vg.Length
	// IndependentAxes gives each panel its own axis ranges; by default all
	// panels share them, so that platforms compare at a glance.
	IndependentAxes bool
	// NoErrorBars hides the min–max bars drawn where a point has several
	// trials.
	NoErrorBars bool
}

func (o Options) title(def string) string {
	switch o.Title {
	case "":
		return def
	case "-":
		return ""
	}
	return o.Title
}

// number returns a numeric column of r as float64 (NaN for strings).
func number(r *results.Row, col string) float64 {
	switch v := value(r, col).(type) {
	case int64:
		return float64(v)
	case float64:
		return v
	}
	return math.NaN()
}

func numericColumn(col string) error {
	for _, c := range results.Columns {
		if c.Name == col {
			if c.Kind == results.Int || c.Kind == results.Float {
				return nil
			}
			return fmt.Errorf("plots: column %q is not numeric", col)
		}
	}
	return fmt.Errorf("plots: unknown column %q", col)
}

// point is the summary of the trials at one x of one series.
type point struct {
	x, y, lo, hi float64
	n            int
}

// summarize groups rows by x and describes y (median, min, max).
func summarize(rows []results.Row, x, y string) []point {
	gs := results.GroupStats(rows, func(r *results.Row) float64 { return number(r, x) },
		func(r *results.Row) float64 { return number(r, y) })
	pts := make([]point, len(gs))
	for i, g := range gs {
		pts[i] = point{x: g.Key, y: g.Median, lo: g.Min, hi: g.Max, n: g.N}
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].x < pts[j].x })
	return pts
}

// usable drops rows that cannot be drawn: waived ones, NaN in x or y, and
// values ≤ 0 on a log axis.
func usable(rows []results.Row, x, y string, ax, ay Axis) []results.Row {
	var out []results.Row
	for i := range rows {
		r := &rows[i]
		if r.Waived {
			continue
		}
		xv, yv := number(r, x), number(r, y)
		if math.IsNaN(xv) || math.IsNaN(yv) || math.IsInf(xv, 0) || math.IsInf(yv, 0) {
			continue
		}
		if (ax.Log && xv <= 0) || (ay.Log && yv <= 0) {
			continue
		}
		out = append(out, *r)
	}
	return out
}

// autoKey keeps the columns that take more than one value within some
// panel, or fallback if none does, so that labels say only what tells the
// lines of a panel apart.
func autoKey(rows []results.Row, panel Key, fallback string, cols ...string) Key {
	var keep []string
	for _, c := range cols {
		for _, pg := range split(rows, panel) {
			seen := map[string]bool{}
			for j := range pg.rows {
				seen[formatValue(c, value(&pg.rows[j], c))] = true
			}
			if len(seen) > 1 {
				keep = append(keep, c)
				break
			}
		}
	}
	if len(keep) == 0 {
		keep = []string{fallback}
	}
	return By(keep...)
}

// panelTitle is the panel's label, with the working-set size when every
// row of the panel has the same one and neither the x axis nor the series
// show it (the paper's 256 MiB against a local run's 64 MiB, say).
func panelTitle(label string, rows []results.Row, x string, series Key) string {
	if x == results.ColSizeBytes {
		return label
	}
	for _, c := range series.cols {
		if c == results.ColSizeBytes {
			return label
		}
	}
	size := rows[0].SizeBytes
	for _, r := range rows {
		if r.SizeBytes != size {
			return label
		}
	}
	if size <= 0 {
		return label
	}
	if label == "" {
		return results.FormatBytes(size)
	}
	return label + ", " + results.FormatBytes(size)
}

// lineSpec is what a named line figure adds to Lines.
type lineSpec struct {
	title      string
	xa, ya     Axis
	fallback   string   // default series: the columns of defSeries that vary
	defSeries  []string // within a panel, or fallback
	pointsOnly bool     // markers without connecting lines
	xInclude   []float64
}

// lineFig is a line figure under construction.
type lineFig struct {
	fig    *Figure
	panels map[string]*plot.Plot // by panel label
	colors map[string]int        // series label -> palette index
	series Key
}

// Lines draws column y against column x, one line per series and one panel
// per platform. Axes follow the columns: sizes, strides and reuse counts on
// a log₂ axis with power-of-two ticks, bandwidths and times on a log₁₀ axis,
// percentages on a linear one. Each point is the median of its trials, with
// a min–max error bar when there are several. Series default to the mode.
func Lines(rows []results.Row, x, y string, o Options) (*Figure, error) {
	lf, err := lines(rows, x, y, o, lineSpec{title: y + " vs " + x, xa: AxisOf(x), ya: AxisOf(y), fallback: results.ColMode})
	if err != nil {
		return nil, err
	}
	return lf.fig, nil
}

func lines(rows []results.Row, x, y string, o Options, spec lineSpec) (*lineFig, error) {
	if err := numericColumn(x); err != nil {
		return nil, err
	}
	if err := numericColumn(y); err != nil {
		return nil, err
	}
	panel := o.Panel.or(By(results.ColPlatform))
	if err := panel.validate(); err != nil {
		return nil, err
	}
	if err := o.Series.validate(); err != nil {
		return nil, err
	}
	rows = usable(rows, x, y, spec.xa, spec.ya)
	if len(rows) == 0 {
		return nil, fmt.Errorf("%w: no row with %s and %s to draw%s", ErrNoData, x, y, logNote(spec.xa, spec.ya))
	}
	series := o.Series.or(autoKey(rows, panel, spec.fallback, spec.defSeries...))

	lf := &lineFig{fig: NewFigure(o.title(spec.title)), panels: map[string]*plot.Plot{}, colors: map[string]int{}, series: series}
	lf.fig.PanelWidth, lf.fig.PanelHeight = o.PanelWidth, o.PanelHeight
	all := split(rows, series)
	for i, g := range all {
		lf.colors[g.label] = i
	}
	var xs, ys []float64
	for _, pg := range split(rows, panel) {
		p := newPanel(panelTitle(pg.label, pg.rows, x, series), spec.xa.Label, spec.ya.Label)
		for _, sg := range split(pg.rows, series) {
			ci := lf.colors[sg.label]
			pts := summarize(sg.rows, x, y)
			xys := make(plotter.XYs, len(pts))
			errs := make(plotter.YErrors, len(pts))
			withErr := false
			for i, pt := range pts {
				xys[i] = plotter.XY{X: pt.x, Y: pt.y}
				lo, hi := pt.y-pt.lo, pt.hi-pt.y
				if spec.ya.Log {
					lo = min(lo, 0.9*pt.y) // keep the bar's low end above zero
				}
				errs[i] = struct{ Low, High float64 }{lo, hi}
				withErr = withErr || (pt.n > 1 && pt.hi > pt.lo)
				xs, ys = append(xs, pt.x), append(ys, pt.y-lo, pt.y+hi)
			}
			if err := addSeries(p, xys, errs, withErr && !o.NoErrorBars, ci, spec.pointsOnly); err != nil {
				return nil, err
			}
		}
		if o.IndependentAxes {
			setRange(p, xs, ys, spec)
			xs, ys = nil, nil
		}
		lf.fig.Panels = append(lf.fig.Panels, p)
		lf.panels[pg.label] = p
	}
	if !o.IndependentAxes {
		for _, p := range lf.fig.Panels {
			setRange(p, xs, ys, spec)
		}
	}
	if len(all) > 1 || all[0].label != "" {
		for i, g := range all {
			lf.fig.AddLegend(g.label, legendThumbs(i, spec.pointsOnly)...)
		}
	}
	return lf, nil
}

func logNote(xa, ya Axis) string {
	if xa.Log || ya.Log {
		return " (values ≤ 0 cannot go on a log axis)"
	}
	return ""
}

type errXY struct {
	plotter.XYs
	plotter.YErrors
}

func addSeries(p *plot.Plot, xys plotter.XYs, errs plotter.YErrors, withErr bool, ci int, pointsOnly bool) error {
	c := seriesColor(ci)
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	s.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(3), Shape: seriesShape(ci)}
	if len(xys) > 1 && !pointsOnly {
		l, err := plotter.NewLine(xys)
		if err != nil {
			return fmt.Errorf("plots: %w", err)
		}
		l.LineStyle = lineStyle(c, false)
		p.Add(l)
	}
	if withErr {
		eb, err := plotter.NewYErrorBars(errXY{xys, errs})
		if err != nil {
			return fmt.Errorf("plots: %w", err)
		}
		eb.LineStyle = draw.LineStyle{Color: c, Width: vg.Points(1)}
		eb.CapWidth = vg.Points(5)
		p.Add(eb)
	}
	p.Add(s)
	return nil
}

func legendThumbs(ci int, pointsOnly bool) []plot.Thumbnailer {
	c := seriesColor(ci)
	s := &plotter.Scatter{GlyphStyle: draw.GlyphStyle{Color: c, Radius: vg.Points(3), Shape: seriesShape(ci)}}
	if pointsOnly {
		return []plot.Thumbnailer{s}
	}
	return []plot.Thumbnailer{&plotter.Line{LineStyle: lineStyle(c, false)}, s}
}

// setRange sets a panel's axis ranges from the data values and configures
// the scales. A log axis with a single value gets a factor of two either
// side (gonum/plot would widen it by ±1, which can reach zero).
func setRange(p *plot.Plot, xs, ys []float64, spec lineSpec) {
	p.X.Min, p.X.Max = span(append(append([]float64(nil), xs...), spec.xInclude...), spec.xa.Log)
	p.Y.Min, p.Y.Max = span(ys, spec.ya.Log)
	spec.xa.apply(&p.X, xs)
	spec.ya.apply(&p.Y, nil)
}

func span(v []float64, log bool) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range v {
		if math.IsNaN(x) || (log && x <= 0) {
			continue
		}
		lo, hi = min(lo, x), max(hi, x)
	}
	switch {
	case math.IsInf(lo, 1):
		return 1, 10
	case log && lo == hi:
		return lo / 2, hi * 2
	case log:
		f := math.Pow(hi/lo, 0.04) // a little room so markers are not cut
		return lo / f, hi * f
	case lo == hi:
		d := max(math.Abs(lo)*0.1, 1)
		return lo - d, hi + d
	}
	d := (hi - lo) * 0.04
	return lo - d, hi + d
}

// vline returns a dashed vertical line at x across the panel's y range.
func vline(p *plot.Plot, x float64) *plotter.Line {
	l, _ := plotter.NewLine(plotter.XYs{{X: x, Y: p.Y.Min}, {X: x, Y: p.Y.Max}})
	l.LineStyle = draw.LineStyle{Color: color.Gray{Y: 0x70}, Width: vg.Points(1),
		Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
	return l
}
