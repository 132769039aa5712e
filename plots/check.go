package plots

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/umlab/umlab/check"
)

// checkColours are the verdicts' colours (Okabe–Ito), the same in every
// check figure.
var checkColours = map[check.Verdict]color.Color{
	check.Fail:         color.RGBA{R: 0xd5, G: 0x5e, B: 0x00, A: 0xff},
	check.Inconclusive: color.RGBA{R: 0xe6, G: 0x9f, B: 0x00, A: 0xff},
	check.Pass:         color.RGBA{R: 0x00, G: 0x72, B: 0xb2, A: 0xff},
}

// ratioPoints are a check figure's points with their intervals.
type ratioPoints struct {
	plotter.XYs
	lo, hi []float64
}

func (r ratioPoints) XError(i int) (float64, float64) {
	return r.XYs[i].X - r.lo[i], r.hi[i] - r.XYs[i].X
}

// CheckResources draws a check report's verdicts per resource: each
// resource's change against the baseline (the weighted mean of its
// configurations, in percent) as a point with its interval as a bar and
// the tolerance it was judged against as a tick either side, coloured by
// verdict, the GPU's resources first. The fail threshold is a dashed line.
func CheckResources(rep *check.Report, o Options) (*Figure, error) {
	if rep == nil || len(rep.Resources) == 0 {
		return nil, fmt.Errorf("%w: no resource judged", ErrNoData)
	}
	var labels []string
	for _, r := range rep.Resources {
		label := r.Class + " " + r.Resource
		if rep.RunGPUs > 1 && len(r.GPU) > 12 {
			label += " " + r.GPU[4:12]
		}
		labels = append(labels, label)
	}
	fig, p := rowsFigure(fmt.Sprintf("%s against %s: GPU %s, host %s", rep.GPUModel, rep.Baseline, rep.GPU, rep.Host), o, labels,
		0.22*vg.Inch, "change against the baseline (%, interval; ticks: the tolerance; negative is slower)", "")
	fig.PanelWidth = cmp.Or(fig.PanelWidth, 7*vg.Inch)
	pts := map[check.Verdict]*ratioPoints{}
	var ticks plotter.XYs
	lo, hi := -rep.FailPct*1.5, rep.FailPct*1.5
	for i, r := range rep.Resources {
		y, x, rlo, rhi := float64(len(labels)-1-i), r.ChangePct(), 100*(r.Lo-1), 100*(r.Hi-1)
		rp := pts[r.Verdict]
		if rp == nil {
			rp = &ratioPoints{}
			pts[r.Verdict] = rp
		}
		rp.XYs = append(rp.XYs, plotter.XY{X: x, Y: y})
		rp.lo, rp.hi = append(rp.lo, rlo), append(rp.hi, rhi)
		lo, hi = math.Min(lo, rlo), math.Max(hi, rhi)
		if tol := r.TolerancePct; !math.IsNaN(tol) {
			ticks = append(ticks, plotter.XY{X: -tol, Y: y}, plotter.XY{X: tol, Y: y})
			lo, hi = math.Min(lo, -tol), math.Max(hi, tol)
		}
	}
	pad := 0.05 * (hi - lo)
	p.X.Min, p.X.Max = lo-pad, hi+pad
	p.Add(vline(p, -rep.FailPct, lineStyle(checkColours[check.Fail], modelDashes)))
	if len(ticks) > 0 {
		s, err := scatter(ticks, draw.GlyphStyle{Color: color.Gray{Y: 0x40}, Shape: draw.PlusGlyph{}, Radius: vg.Points(3)})
		if err != nil {
			return nil, err
		}
		p.Add(s)
	}
	for _, v := range []check.Verdict{check.Fail, check.Inconclusive, check.Pass} {
		rp := pts[v]
		if rp == nil {
			continue
		}
		bars, err := plotter.NewXErrorBars(rp)
		if err != nil {
			return nil, fmt.Errorf("plots: %w", err)
		}
		bars.LineStyle = draw.LineStyle{Color: checkColours[v], Width: vg.Points(1.4)}
		bars.CapWidth = vg.Points(5)
		s, err := scatter(rp.XYs, draw.GlyphStyle{Color: checkColours[v], Shape: draw.CircleGlyph{}, Radius: vg.Points(2.8)})
		if err != nil {
			return nil, err
		}
		p.Add(bars, s)
		fig.AddLegend(fmt.Sprintf("%s (%d)", v, len(rp.XYs)), s)
	}
	return fig, nil
}

// rowsFigure returns a figure of one panel with a row per label, top to
// bottom, each rowHeight tall, and a grey line at x = 0: the check and
// fleet figures. Row i is at y = len(labels)-1-i.
func rowsFigure(title string, o Options, labels []string, rowHeight vg.Length, xlabel, ylabel string) (*Figure, *plot.Plot) {
	fig := newFigure(title, o)
	n := len(labels)
	if fig.PanelHeight == 0 {
		fig.PanelHeight = max(PanelHeight, vg.Length(n)*rowHeight+1.1*vg.Inch)
	}
	p := newPanel("", xlabel, ylabel)
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	p.Add(vline(p, 0, draw.LineStyle{Color: color.Gray{Y: 0x60}, Width: vg.Points(1)}))
	bottomUp := slices.Clone(labels)
	slices.Reverse(bottomUp)
	p.NominalY(bottomUp...)
	p.X.Tick.Marker = linearTicks{}
	fig.Panels = append(fig.Panels, p)
	return fig, p
}
