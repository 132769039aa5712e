package plots

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/stats"
)

// Options tunes a figure. Zero values take the figure's defaults.
type Options struct {
	// Title is drawn above the panels; empty takes the figure's default,
	// and "-" draws none.
	Title string
	// Series makes one line (or one mark of each group) per value; the
	// default depends on the figure.
	Series Key
	// Panel makes one panel per value; the default is one per platform.
	// Use Single for one panel.
	Panel Key
	// Category makes one group of marks per value ([Bars] only); default
	// By("mode").
	Category Key
	// PanelWidth and PanelHeight set the size of one panel.
	PanelWidth, PanelHeight vg.Length
	// IndependentAxes gives each panel its own axis ranges; by default all
	// panels share them, so that platforms compare at a glance.
	IndependentAxes bool
	// NoErrorBars hides the intervals drawn where a point has several
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

// checkInputs reports a column of nums that is unknown or not numeric, or
// an unknown column of a key.
func checkInputs(nums []string, keys ...Key) error {
	for _, col := range nums {
		c, ok := results.ColumnOf(col)
		if !ok {
			return fmt.Errorf("plots: unknown column %q", col)
		}
		if c.Kind != results.Int && c.Kind != results.Float {
			return fmt.Errorf("plots: column %q is not numeric", col)
		}
	}
	for _, k := range keys {
		if err := k.validate(); err != nil {
			return err
		}
	}
	return nil
}

// A Point is one drawn mark: a point of a line or a mark of a group, the
// median of the trials of its rows with the 95 % bootstrap interval of
// that median (Lo = Hi = Median with a single trial).
type Point struct {
	Panel, Series, Category string
	X                       float64 // NaN for a category
	N                       int
	Median, Lo, Hi          float64
	// Configs counts the configurations (results.ConfigColumns and the
	// run) among the point's rows: 1, since a figure splits its keys until
	// no mark pools two (see Points).
	Configs int
	rows    []results.Row
}

// describe summarises the trials of one mark.
func describe(rows []results.Row, y string) Point {
	v := column(rows, y)
	ci := stats.MedianCI(v, stats.DefaultLevel, results.SummaryResamples, 1)
	ids := map[string]bool{}
	for i := range rows {
		ids[identityOf(&rows[i])] = true
	}
	return Point{N: len(v), Median: ci.Est, Lo: ci.Lo, Hi: ci.Hi, X: math.NaN(), Configs: len(ids), rows: rows}
}

// drawable keeps the rows that are not waived and have a finite value in
// every column of cols.
func drawable(rows []results.Row, cols ...string) []results.Row {
	return slices.DeleteFunc(slices.Clone(rows), func(r results.Row) bool {
		return r.Waived || slices.ContainsFunc(cols, func(c string) bool {
			v := number(&r, c)
			return math.IsNaN(v) || math.IsInf(v, 0)
		})
	})
}

// positive keeps, in place, the rows whose col is above zero (for a log axis).
func positive(rows []results.Row, col string) []results.Row {
	return slices.DeleteFunc(rows, func(r results.Row) bool { return number(&r, col) <= 0 })
}

// autoKey keeps the columns that take more than one value within some
// panel, or fallback if none does, so that labels say only what tells the
// lines of a panel apart.
func autoKey(rows []results.Row, panel Key, fallback string, cols ...string) Key {
	pgs := split(rows, panel)
	keep := slices.DeleteFunc(slices.Clone(cols), func(c string) bool {
		return !slices.ContainsFunc(pgs, func(pg group) bool {
			first := formatValue(c, value(&pg.rows[0], c))
			return slices.ContainsFunc(pg.rows, func(r results.Row) bool { return formatValue(c, value(&r, c)) != first })
		})
	})
	if len(keep) == 0 {
		keep = []string{fallback}
	}
	return By(keep...)
}

// panelTitle is the panel's label, with the working-set size when every
// row of the panel has the same one and neither the x axis nor the series
// show it (the paper's 256 MiB against a local run's 64 MiB, say).
func panelTitle(label string, rows []results.Row, x string, series Key) string {
	size := rows[0].SizeBytes
	if x == results.ColSizeBytes || series.has(results.ColSizeBytes) || size <= 0 ||
		slices.ContainsFunc(rows, func(r results.Row) bool { return r.SizeBytes != size }) {
		return label
	}
	return strings.Join(compact([]string{label, results.FormatBytes(size)}), ", ")
}

// lineSpec is what a named line figure adds to Lines.
type lineSpec struct {
	title      string
	xa, ya     Axis
	fallback   string   // default series: the columns of defSeries that vary
	defSeries  []string // within a panel, or fallback
	pointsOnly bool     // markers without connecting lines
	xInclude   []float64
	tight      bool // a linear y axis spans the data, not from zero
	// sweepsOnly leaves out the panels in which no series has two x
	// values, when another panel has a line: a platform the paper reports
	// at one size is not drawn as a near-empty sweep.
	sweepsOnly bool
	x, y       string // set by lines: the columns drawn
	xlog, ylog bool   // and whether their axes are logarithmic
}

// Lines draws column y against column x, one line per series and one panel
// per platform. Axes follow the columns: sizes, strides and page intervals
// on a log₂ axis with power-of-two ticks, bandwidths and times on a log₁₀
// axis when they span more than two decades, linear otherwise. Each point is
// the median of its trials with the 95 % bootstrap interval of the median
// as an error bar. Series default to the mode.
func Lines(rows []results.Row, x, y string, o Options) (*Figure, error) {
	return lines(rows, x, y, o, lineSpec{title: y + " vs " + x, xa: AxisOf(x), ya: AxisOf(y), fallback: results.ColMode})
}

func lines(rows []results.Row, x, y string, o Options, spec lineSpec) (*Figure, error) {
	if err := checkInputs([]string{x, y}, o.Panel, o.Series); err != nil {
		return nil, err
	}
	rows = drawable(rows, x, y)
	spec.x, spec.y = x, y
	spec.xlog, spec.ylog = spec.xa.isLog(column(rows, x)), spec.ya.isLog(column(rows, y))
	if spec.xlog {
		rows = positive(rows, x)
	}
	if spec.ylog {
		rows = positive(rows, y)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%w: no row with %s and %s to draw", ErrNoData, x, y)
	}
	panel := o.Panel.or(By(results.ColPlatform))
	series := o.Series.or(autoKey(rows, panel, spec.fallback, spec.defSeries...))
	// No point pools two configurations: what varies within one splits
	// the panels.
	panel = panel.split(rows, func(r *results.Row, k Key) string {
		return k.label(r) + "\x00" + series.label(r) + "\x00" + formatValue(x, value(r, x))
	})
	if spec.sweepsOnly {
		rows = sweeps(rows, panel, series, x)
	}
	all := split(rows, series)
	fig := newFigure(spec.title, o)
	fig.series, fig.looks = series, looks(all, series)
	if err := fig.addPanels(split(rows, panel), o, spec); err != nil {
		return nil, err
	}
	if len(all) > 1 || all[0].label != "" {
		for _, g := range all {
			fig.AddLegend(g.label, legendThumbs(fig.looks[g.label], spec.pointsOnly)...)
		}
	}
	return fig, nil
}

// addPanels draws a panel per group of rows, a line per series in each.
func (fig *Figure) addPanels(pgs []group, o Options, spec lineSpec) error {
	var xs, ys []float64
	for _, pg := range pgs {
		p := newPanel(panelTitle(pg.label, pg.rows, spec.x, fig.series), spec.xa.Label, spec.ya.Label)
		for _, sg := range split(pg.rows, fig.series) {
			pts := linePoints(sg.rows, spec.x, spec.y, pg.label, sg.label)
			fig.points = append(fig.points, pts...)
			for _, pt := range pts {
				xs, ys = append(xs, pt.X), append(ys, pt.Lo, pt.Hi)
			}
			if err := addSeries(p, pts, !o.NoErrorBars, fig.looks[sg.label], spec.pointsOnly); err != nil {
				return err
			}
		}
		if o.IndependentAxes {
			setRange(p, xs, ys, spec)
			xs, ys = nil, nil
		}
		fig.Panels, fig.groups = append(fig.Panels, p), append(fig.groups, pg)
	}
	if !o.IndependentAxes {
		for _, p := range fig.Panels {
			setRange(p, xs, ys, spec)
		}
	}
	return nil
}

// linePoints summarises one series of one panel, point by point along x.
func linePoints(rows []results.Row, x, y, panel, series string) []Point {
	byX := map[float64][]results.Row{}
	for _, r := range rows {
		byX[number(&r, x)] = append(byX[number(&r, x)], r)
	}
	var pts []Point
	for xv, rs := range byX {
		pt := describe(rs, y)
		pt.Panel, pt.Series, pt.X = panel, series, xv
		pts = append(pts, pt)
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].X < pts[j].X })
	return pts
}

// sweeps drops the panels whose series all have fewer than two x values,
// unless no panel has more.
func sweeps(rows []results.Row, panel, series Key, x string) []results.Row {
	var keep []results.Row
	for _, pg := range split(rows, panel) {
		for _, sg := range split(pg.rows, series) {
			if len(distinct(column(sg.rows, x))) > 1 {
				keep = append(keep, pg.rows...)
				break
			}
		}
	}
	if len(keep) == 0 {
		return rows
	}
	return keep
}

type errXY struct {
	plotter.XYs
	plotter.YErrors
}

func addSeries(p *plot.Plot, pts []Point, withErr bool, l look, pointsOnly bool) error {
	xys := make(plotter.XYs, len(pts))
	errs := make(plotter.YErrors, len(pts))
	hasErr := false
	for i, pt := range pts {
		xys[i] = plotter.XY{X: pt.X, Y: pt.Median}
		errs[i].Low, errs[i].High = pt.Median-pt.Lo, pt.Hi-pt.Median
		hasErr = hasErr || pt.Hi > pt.Lo
	}
	s, err := scatter(xys, draw.GlyphStyle{Color: l.colour, Radius: vg.Points(3), Shape: l.shape})
	if err != nil {
		return err
	}
	if len(xys) > 1 && !pointsOnly {
		ln, err := plotter.NewLine(xys)
		if err != nil {
			return fmt.Errorf("plots: %w", err)
		}
		ln.LineStyle = lineStyle(l.colour, l.dashes)
		p.Add(ln)
	}
	if withErr && hasErr {
		eb, err := plotter.NewYErrorBars(errXY{xys, errs})
		if err != nil {
			return fmt.Errorf("plots: %w", err)
		}
		eb.LineStyle = draw.LineStyle{Color: l.colour, Width: vg.Points(1)}
		eb.CapWidth = vg.Points(5)
		p.Add(eb)
	}
	p.Add(s)
	return nil
}

func legendThumbs(l look, pointsOnly bool) []plot.Thumbnailer {
	s := &plotter.Scatter{GlyphStyle: draw.GlyphStyle{Color: l.colour, Radius: vg.Points(3), Shape: l.shape}}
	if pointsOnly {
		return []plot.Thumbnailer{s}
	}
	return []plot.Thumbnailer{&plotter.Line{LineStyle: lineStyle(l.colour, l.dashes)}, s}
}

// setRange sets a panel's axis ranges from the data values and configures
// the scales. A log axis with a single value gets a factor of two either
// side (gonum/plot would widen it by ±1, which can reach zero); a linear
// axis of a quantity that cannot be negative starts at zero.
func setRange(p *plot.Plot, xs, ys []float64, spec lineSpec) {
	p.X.Min, p.X.Max = span(append(slices.Clone(xs), spec.xInclude...), spec.xlog)
	p.Y.Min, p.Y.Max = span(ys, spec.ylog)
	if !spec.ylog && !spec.tight && p.Y.Min > 0 {
		p.Y.Min = 0
	}
	spec.xa.apply(&p.X, spec.xlog, xs)
	spec.ya.apply(&p.Y, spec.ylog, nil)
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

// vline returns a vertical line at x across the panel's y range.
func vline(p *plot.Plot, x float64, ls draw.LineStyle) *plotter.Line {
	l, _ := plotter.NewLine(plotter.XYs{{X: x, Y: p.Y.Min}, {X: x, Y: p.Y.Max}})
	l.LineStyle = ls
	return l
}

// scatter returns xys drawn as glyphs g.
func scatter(xys plotter.XYer, g draw.GlyphStyle) (*plotter.Scatter, error) {
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	s.GlyphStyle = g
	return s, nil
}
