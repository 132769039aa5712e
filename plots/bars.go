package plots

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/umlab/umlab/results"
)

// Bars draws grouped bars of the median of column y: one group per
// category (default By("mode")), one bar per series within it (default
// By("platform")), and one panel unless o.Panel says otherwise. The value
// axis is linear, starting at zero: a log axis cannot hold bars. Each bar
// carries its value as a label, so that small bars remain readable next to
// large ones. A category that a series lacks leaves a gap.
func Bars(rows []results.Row, y string, o Options) (*Figure, error) {
	if err := numericColumn(y); err != nil {
		return nil, err
	}
	category := o.Category.or(By(results.ColMode))
	series := o.Series.or(By(results.ColPlatform))
	panel := o.Panel.or(Single)
	for _, k := range []Key{category, series, panel} {
		if err := k.validate(); err != nil {
			return nil, err
		}
	}
	kept := drawable(rows, y)
	if len(kept) == 0 {
		return nil, fmt.Errorf("%w: no row with %s to draw", ErrNoData, y)
	}
	ya := AxisOf(y)
	fig := NewFigure(o.title("Median " + ya.Label))
	fig.PanelWidth, fig.PanelHeight = o.PanelWidth, o.PanelHeight

	cats := split(kept, category)
	catIndex := map[string]int{}
	names := make([]string, len(cats))
	for i, c := range cats {
		catIndex[c.label] = i
		names[i] = c.label
	}
	all := split(kept, series)
	colors := map[string]int{}
	for i, s := range all {
		colors[s.label] = i
	}

	if fig.PanelWidth == 0 { // room for the bars and their labels
		fig.PanelWidth = max(PanelWidth, vg.Length(len(cats)*len(all))*0.3*vg.Inch+1.2*vg.Inch)
	}
	// Bars of one group share 80 % of the distance between groups.
	pw, _ := fig.panelSize()
	groupW := (pw - vg.Points(60)) / vg.Length(len(cats)) * 0.8
	barW := groupW / vg.Length(len(all))
	ymax := 0.0
	for _, pg := range split(kept, panel) {
		p := newPanel(pg.label, "", ya.Label)
		for _, sg := range split(pg.rows, series) {
			top, err := addBars(p, sg.rows, y, category, catIndex, colors[sg.label], len(all), barW)
			if err != nil {
				return nil, err
			}
			ymax = max(ymax, top)
		}
		p.NominalX(names...)
		if len(cats) > 3 || longest(names) > 9 {
			p.X.Tick.Label.Rotation = math.Pi / 7
			p.X.Tick.Label.XAlign = draw.XRight
			p.X.Tick.Label.YAlign = draw.YCenter
		}
		fig.Panels = append(fig.Panels, p)
	}
	for _, p := range fig.Panels {
		p.Y.Min = 0
		if !o.IndependentAxes {
			p.Y.Max = ymax * 1.08
		}
		p.X.Min, p.X.Max = -0.5, float64(len(cats))-0.5
	}
	if len(all) > 1 || all[0].label != "" {
		for i, s := range all {
			b := &plotter.BarChart{Color: seriesColor(i)}
			fig.AddLegend(s.label, b)
		}
	}
	return fig, nil
}

// drawable keeps the rows that are not waived and have a finite y.
func drawable(rows []results.Row, y string) []results.Row {
	var kept []results.Row
	for i := range rows {
		if v := number(&rows[i], y); !rows[i].Waived && !math.IsNaN(v) && !math.IsInf(v, 0) {
			kept = append(kept, rows[i])
		}
	}
	return kept
}

// addBars adds one series' bars to p: the median of y per category, at the
// series' offset ci of n within each category, each labelled with its
// value (stood up when too wide for its bar). It returns the tallest bar.
func addBars(p *plot.Plot, rows []results.Row, y string, category Key, catIndex map[string]int, ci, n int, barW vg.Length) (float64, error) {
	vals := make(plotter.Values, len(catIndex))
	var lxy plotter.XYs
	var labels []string
	ymax := 0.0
	for _, cg := range split(rows, category) {
		d := results.Describe(column(cg.rows, y))
		i := catIndex[cg.label]
		vals[i] = d.Median
		ymax = max(ymax, d.Median)
		lxy = append(lxy, plotter.XY{X: float64(i), Y: d.Median})
		labels = append(labels, results.FormatNumber(d.Median))
	}
	b, err := plotter.NewBarChart(vals, barW)
	if err != nil {
		return 0, fmt.Errorf("plots: %w", err)
	}
	b.Color = seriesColor(ci)
	b.LineStyle.Width = 0
	b.Offset = (vg.Length(ci) - vg.Length(n-1)/2) * barW
	p.Add(b)
	lb, err := plotter.NewLabels(plotter.XYLabels{XYs: lxy, Labels: labels})
	if err != nil {
		return 0, fmt.Errorf("plots: %w", err)
	}
	for i := range lb.TextStyle {
		st := &lb.TextStyle[i]
		st.Font.Size = 7.5
		st.Handler = plot.DefaultTextHandler
		st.XAlign = draw.XCenter
		if st.Width(labels[i]) > barW+vg.Points(2) {
			// Too wide to sit on its bar: stand it up.
			st.Rotation, st.XAlign, st.YAlign = math.Pi/2, draw.XLeft, draw.YCenter
		}
	}
	lb.Offset = vg.Point{X: b.Offset, Y: vg.Points(2)}
	p.Add(lb)
	return ymax, nil
}

func column(rows []results.Row, col string) []float64 {
	v := make([]float64, len(rows))
	for i := range rows {
		v[i] = number(&rows[i], col)
	}
	return v
}

func longest(names []string) int {
	n := 0
	for _, s := range names {
		n = max(n, len(s))
	}
	return n
}
