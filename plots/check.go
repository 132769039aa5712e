package plots

import (
	"cmp"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/umlab/umlab/check"
)

// checkRow is one row of a check figure: a change and its interval, in
// percent, coloured by its verdict.
type checkRow struct {
	label        string
	x, lo, hi    float64
	verdict      check.Verdict
	tolerancePct float64
}

// checkColours are the verdicts' colours (Okabe–Ito), the same in every
// check figure.
var checkColours = map[check.Verdict]color.Color{
	check.Fail:         color.RGBA{R: 0xd5, G: 0x5e, B: 0x00, A: 0xff},
	check.Inconclusive: color.RGBA{R: 0xe6, G: 0x9f, B: 0x00, A: 0xff},
	check.Pass:         color.RGBA{R: 0x00, G: 0x72, B: 0xb2, A: 0xff},
}

// CheckResources draws a check report's verdicts per resource: each
// resource's change against the baseline (the weighted mean of its
// configurations, in percent) as a point with its interval as a bar and
// the tolerance it was judged against as a tick either side, coloured by
// verdict, the GPU's resources first.
func CheckResources(rep *check.Report, o Options) (*Figure, error) {
	if rep == nil || len(rep.Resources) == 0 {
		return nil, fmt.Errorf("%w: no resource judged", ErrNoData)
	}
	var rows []checkRow
	for _, r := range rep.Resources {
		label := r.Class + " " + r.Resource
		if rep.RunGPUs > 1 && len(r.GPU) > 12 {
			label += " " + r.GPU[4:12]
		}
		rows = append(rows, checkRow{label, 100 * (r.Ratio - 1), 100 * (r.Lo - 1), 100 * (r.Hi - 1), r.Verdict, r.TolerancePct})
	}
	title := fmt.Sprintf("%s against %s: GPU %s, host %s", rep.GPUModel, rep.Baseline, rep.GPU, rep.Host)
	return checkFigure(o.title(title), fmt.Sprintf("change against the baseline (%%, interval; ticks: the tolerance; negative is slower)"), rows, rep.FailPct, o)
}

// ratioPoints are a check figure's points with their intervals.
type ratioPoints struct {
	plotter.XYs
	lo, hi []float64
}

func (r ratioPoints) XError(i int) (float64, float64) {
	return r.XYs[i].X - r.lo[i], r.hi[i] - r.XYs[i].X
}

// checkFigure draws rows top to bottom, with zero and the fail threshold
// as vertical lines and a legend entry per verdict.
func checkFigure(title, xlabel string, rows []checkRow, failPct float64, o Options) (*Figure, error) {
	fig := NewFigure(title)
	n := len(rows)
	fig.PanelWidth, fig.PanelHeight = o.PanelWidth, o.PanelHeight
	if fig.PanelHeight == 0 {
		fig.PanelHeight = max(PanelHeight, vg.Length(n)*0.22*vg.Inch+1.1*vg.Inch)
	}
	fig.PanelWidth = cmp.Or(fig.PanelWidth, 7*vg.Inch)
	p := newPanel("", xlabel, "")
	pts := map[check.Verdict]*ratioPoints{}
	var ticks plotter.XYs
	labels := make([]string, n)
	lo, hi := -failPct*1.5, failPct*1.5
	for i, r := range rows {
		y := float64(n - 1 - i)
		labels[n-1-i] = r.label
		rp := pts[r.verdict]
		if rp == nil {
			rp = &ratioPoints{}
			pts[r.verdict] = rp
		}
		rp.XYs = append(rp.XYs, plotter.XY{X: r.x, Y: y})
		rp.lo, rp.hi = append(rp.lo, r.lo), append(rp.hi, r.hi)
		lo, hi = math.Min(lo, r.lo), math.Max(hi, r.hi)
		if !math.IsNaN(r.tolerancePct) {
			ticks = append(ticks, plotter.XY{X: -r.tolerancePct, Y: y}, plotter.XY{X: r.tolerancePct, Y: y})
			lo, hi = math.Min(lo, -r.tolerancePct), math.Max(hi, r.tolerancePct)
		}
	}
	pad := 0.05 * (hi - lo)
	p.X.Min, p.X.Max = lo-pad, hi+pad
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	p.Add(vline(p, 0, draw.LineStyle{Color: color.Gray{Y: 0x60}, Width: vg.Points(1)}), vline(p, -failPct, lineStyle(checkColours[check.Fail], modelDashes)))
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
	p.NominalY(labels...)
	p.X.Tick.Marker = linearTicks{}
	fig.Panels = append(fig.Panels, p)
	return fig, nil
}
