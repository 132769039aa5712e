package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/umlab/umlab/fleet"
)

// FleetDeviation draws how far each GPU is from the fleet median
// (fleet.Compare): one row per GPU, one point per configuration it was
// compared in, coloured by benchmark group, at its difference from the
// fleet median in percent, signed so that negative is always worse (lower
// bandwidth or longer time). Dashed lines mark ±tolerancePct (the
// tolerance given to Compare; 0 draws none) and a ring marks each
// flagged point, so a slow GPU shows as a row of ringed points left of the
// band. Points of one GPU are spread a little vertically, in configuration
// order, so that they do not hide each other.
func FleetDeviation(cmp []fleet.Comparison, tolerancePct float64, o Options) (*Figure, error) {
	var parts, groups []string
	row, colour := map[string]int{}, map[string]int{}
	maxDev := 0.0
	for _, c := range cmp {
		if math.IsNaN(c.DevPct) || math.IsInf(c.DevPct, 0) {
			continue
		}
		if _, ok := row[c.Part]; !ok {
			row[c.Part] = len(parts)
			parts = append(parts, c.Part)
		}
		if _, ok := colour[c.Config.Group]; !ok {
			colour[c.Config.Group] = len(groups)
			groups = append(groups, c.Config.Group)
		}
		maxDev = max(maxDev, math.Abs(c.DevPct))
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("%w: no comparison to draw", ErrNoData)
	}
	fig := NewFigure(o.title("Each GPU against the fleet median"))
	fig.PanelWidth, fig.PanelHeight = o.PanelWidth, o.PanelHeight
	if fig.PanelHeight == 0 {
		fig.PanelHeight = max(PanelHeight, vg.Length(len(parts))*0.32*vg.Inch+1.1*vg.Inch)
	}
	p := newPanel("", "difference from the fleet median (%; negative is worse)", "GPU (host/gpu)")
	n := len(parts)
	// Configuration order within each GPU, for the vertical spread.
	seen := map[string]int{}
	byGroup := make([]plotter.XYs, len(groups))
	var rings plotter.XYs
	for _, c := range cmp {
		i, ok := row[c.Part]
		if !ok || math.IsNaN(c.DevPct) || math.IsInf(c.DevPct, 0) {
			continue
		}
		k := seen[c.Part]
		seen[c.Part]++
		jitter := 0.3 * (float64(k%7)/6 - 0.5)
		d := c.DevPct
		if !c.HigherIsBetter {
			d = -d
		}
		xy := plotter.XY{X: d, Y: float64(n-1-i) + jitter}
		g := colour[c.Config.Group]
		byGroup[g] = append(byGroup[g], xy)
		if c.Outlier {
			rings = append(rings, xy)
		}
	}
	span := max(maxDev*1.15, 2*tolerancePct, 1)
	p.X.Min, p.X.Max = -span, span
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	p.Add(vline(p, 0, draw.LineStyle{Color: color.Gray{Y: 0x60}, Width: vg.Points(1)}))
	if tolerancePct > 0 {
		dashed := lineStyle(color.Gray{Y: 0x90}, modelDashes)
		dashed.Width = vg.Points(1)
		p.Add(vline(p, -tolerancePct, dashed), vline(p, tolerancePct, dashed))
	}
	for g, xys := range byGroup {
		s, err := scatter(xys, draw.GlyphStyle{Color: others[g%len(others)], Shape: draw.CircleGlyph{}, Radius: vg.Points(2.6)})
		if err != nil {
			return nil, err
		}
		p.Add(s)
		fig.AddLegend(groups[g], s)
	}
	if len(rings) > 0 {
		s, err := scatter(rings, draw.GlyphStyle{Color: color.Black, Shape: draw.RingGlyph{}, Radius: vg.Points(4.6)})
		if err != nil {
			return nil, err
		}
		p.Add(s)
		fig.AddLegend("flagged", s)
	}
	labels := make([]string, n)
	for i, name := range parts {
		labels[n-1-i] = name
	}
	p.NominalY(labels...)
	p.X.Tick.Marker = linearTicks{}
	fig.Panels = append(fig.Panels, p)
	return fig, nil
}
