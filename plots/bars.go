package plots

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/umlab/umlab/results"
)

// Bars draws the median of column y for groups of categories: one group
// per category (default By("mode")), one mark per series within it
// (default By("platform")), and one panel unless o.Panel says otherwise.
// Each mark is a dot on a stem with its value written beside it and the
// 95 % interval of the median as an error bar. The axis is logarithmic
// when the values span more than two decades (so that a 14 GB/s mark stays
// visible beside a 4600 GB/s one), linear from zero otherwise. A category
// that a series lacks has no mark and no gap: the marks present are
// centred.
func Bars(rows []results.Row, y string, o Options) (*Figure, error) {
	category, series, panel := o.Category.or(By(results.ColMode)), o.Series.or(By(results.ColPlatform)), o.Panel.or(Single)
	if err := checkInputs([]string{y}, category, series, panel); err != nil {
		return nil, err
	}
	kept := drawable(rows, y)
	ya := AxisOf(y)
	ylog := ya.isLog(column(kept, y))
	if ylog {
		kept = positive(kept, y)
	}
	if len(kept) == 0 {
		return nil, fmt.Errorf("%w: no row with %s to draw", ErrNoData, y)
	}
	// No mark pools two configurations: what varies within one splits the
	// key that holds the platform (a second GPU is another platform's
	// mark), else the series.
	if category.has(results.ColPlatform) {
		category = category.split(kept, func(r *results.Row, k Key) string {
			return panel.label(r) + "\x00" + k.label(r) + "\x00" + series.label(r)
		})
	} else {
		series = series.split(kept, func(r *results.Row, k Key) string {
			return panel.label(r) + "\x00" + category.label(r) + "\x00" + k.label(r)
		})
	}
	fig := newFigure("Median "+ya.Label, o)
	var names []string
	for _, c := range split(kept, category) {
		names = append(names, c.label)
	}
	if fig.PanelWidth == 0 { // room for the marks and their labels
		fig.PanelWidth = max(PanelWidth, vg.Length(len(names))*0.55*vg.Inch+1.2*vg.Inch)
	}
	all := split(kept, series)
	lk := looks(all, series)
	pgs := split(kept, panel)
	var xs []float64
	fig.points, xs = barPoints(pgs, category, series, names, y)
	lo, hi := barRange(fig.points, ylog)
	for _, pg := range pgs {
		p := newPanel(pg.label, "", ya.Label)
		for i, pt := range fig.points {
			if pt.Panel != pg.label {
				continue
			}
			if err := addMark(p, xs[i], lo, pt, lk[pt.Series], !o.NoErrorBars); err != nil {
				return nil, err
			}
		}
		nominalX(p, names)
		p.Y.Min, p.Y.Max = lo, hi
		ya.apply(&p.Y, ylog, nil)
		fig.Panels = append(fig.Panels, p)
	}
	if len(all) > 1 || all[0].label != "" {
		for _, s := range all {
			l := lk[s.label]
			fig.AddLegend(s.label, &plotter.Scatter{GlyphStyle: draw.GlyphStyle{Color: l.colour, Radius: vg.Points(3.5), Shape: l.shape}})
		}
	}
	return fig, nil
}

// barPoints are the marks of each panel and their x positions: one group
// per category, the marks of a group centred and sharing 70 % of the room
// between groups, whatever their number.
func barPoints(pgs []group, category, series Key, names []string, y string) (pts []Point, xs []float64) {
	for _, pg := range pgs {
		for _, cg := range split(pg.rows, category) {
			ci := slices.Index(names, cg.label)
			sgs := split(cg.rows, series)
			for si, sg := range sgs {
				pt := describe(sg.rows, y)
				pt.Panel, pt.Category, pt.Series = pg.label, cg.label, sg.label
				pts = append(pts, pt)
				xs = append(xs, float64(ci)+0.7*(float64(si)-float64(len(sgs)-1)/2)/float64(max(len(sgs), 2)))
			}
		}
	}
	return pts, xs
}

// barRange is the y range of Bars' marks and intervals: from zero on a
// linear axis, and with room above for the value labels.
func barRange(pts []Point, ylog bool) (lo, hi float64) {
	var ys []float64
	for _, pt := range pts {
		ys = append(ys, pt.Lo, pt.Hi)
	}
	lo, hi = span(ys, ylog)
	if !ylog {
		return 0, hi * 1.08
	}
	return lo, hi * math.Pow(hi/lo, 0.08)
}

// nominalX labels a panel's categories, slanted when they are many or long.
func nominalX(p *plot.Plot, names []string) {
	p.NominalX(names...)
	if len(names) > 3 || slices.ContainsFunc(names, func(n string) bool { return len(n) > 9 }) {
		p.X.Tick.Label.Rotation = math.Pi / 7
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
	p.X.Min, p.X.Max = -0.6, float64(len(names))-0.4
}

// addMark draws one mark at x: a stem from the axis' bottom (bottom), a
// dot, its interval and its value.
func addMark(p *plot.Plot, x, bottom float64, pt Point, l look, withErr bool) error {
	xy := plotter.XYs{{X: x, Y: pt.Median}}
	ln, err := plotter.NewLine(plotter.XYs{{X: x, Y: bottom}, {X: x, Y: pt.Median}})
	if err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	ln.LineStyle = draw.LineStyle{Color: l.colour, Width: vg.Points(1.2)}
	p.Add(ln)
	if withErr && pt.Hi > pt.Lo {
		eb, err := plotter.NewYErrorBars(errXY{xy, plotter.YErrors{{Low: pt.Median - pt.Lo, High: pt.Hi - pt.Median}}})
		if err != nil {
			return fmt.Errorf("plots: %w", err)
		}
		eb.LineStyle = draw.LineStyle{Color: l.colour, Width: vg.Points(1)}
		eb.CapWidth = vg.Points(6)
		p.Add(eb)
	}
	s, err := scatter(xy, draw.GlyphStyle{Color: l.colour, Radius: vg.Points(3.5), Shape: l.shape})
	if err != nil {
		return err
	}
	lb, err := plotter.NewLabels(plotter.XYLabels{XYs: xy, Labels: []string{results.FormatNumber(pt.Median)}})
	if err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	st := &lb.TextStyle[0]
	st.Font = font.From(sans, 8.5)
	st.Rotation, st.XAlign, st.YAlign = math.Pi/2, draw.XLeft, draw.YCenter
	lb.Offset = vg.Point{Y: vg.Points(6)}
	p.Add(s, lb)
	return nil
}

func column(rows []results.Row, col string) []float64 {
	v := make([]float64, len(rows))
	for i := range rows {
		v[i] = number(&rows[i], col)
	}
	return v
}
