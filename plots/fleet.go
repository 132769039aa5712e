package plots

import (
	"fmt"
	"image/color"
	"math"
	"slices"

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
	cmp = slices.DeleteFunc(slices.Clone(cmp), func(c fleet.Comparison) bool { return math.IsNaN(c.DevPct) || math.IsInf(c.DevPct, 0) })
	if len(cmp) == 0 {
		return nil, fmt.Errorf("%w: no comparison to draw", ErrNoData)
	}
	var parts, groups []string
	maxDev := 0.0
	for _, c := range cmp {
		if !slices.Contains(parts, c.Part) {
			parts = append(parts, c.Part)
		}
		if !slices.Contains(groups, c.Config.Group) {
			groups = append(groups, c.Config.Group)
		}
		maxDev = max(maxDev, math.Abs(c.DevPct))
	}
	fig, p := rowsFigure("Each GPU against the fleet median", o, parts, 0.32*vg.Inch,
		"difference from the fleet median (%; negative is worse)", "GPU (host/gpu)")
	span := max(maxDev*1.15, 2*tolerancePct, 1)
	p.X.Min, p.X.Max = -span, span
	if tolerancePct > 0 {
		dashed := lineStyle(color.Gray{Y: 0x90}, modelDashes)
		dashed.Width = vg.Points(1)
		p.Add(vline(p, -tolerancePct, dashed), vline(p, tolerancePct, dashed))
	}
	byGroup, rings := deviations(cmp, parts, groups)
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
	return fig, nil
}

// deviations places each comparison in its GPU's row (parts[i] at y =
// len(parts)-1-i), spread a little in configuration order, signed so that
// negative is worse: the points of each group, and those flagged.
func deviations(cmp []fleet.Comparison, parts, groups []string) (byGroup []plotter.XYs, flagged plotter.XYs) {
	byGroup = make([]plotter.XYs, len(groups))
	seen := map[string]int{} // configurations of each GPU so far
	for _, c := range cmp {
		k := seen[c.Part]
		seen[c.Part]++
		d := c.DevPct
		if !c.HigherIsBetter {
			d = -d
		}
		xy := plotter.XY{X: d, Y: float64(len(parts)-1-slices.Index(parts, c.Part)) + 0.3*(float64(k%7)/6-0.5)}
		g := slices.Index(groups, c.Config.Group)
		byGroup[g] = append(byGroup[g], xy)
		if c.Outlier {
			flagged = append(flagged, xy)
		}
	}
	return byGroup, flagged
}
