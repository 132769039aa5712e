package plots

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/umlab/umlab/check"
)

// CheckMaxRows is the most configurations CheckRatios draws: every failure
// and warning, then the passes that moved most.
const CheckMaxRows = 40

// ratioPoints are the points of CheckRatios with their intervals.
type ratioPoints struct {
	plotter.XYs
	lo, hi []float64
}

func (r ratioPoints) XError(i int) (float64, float64) {
	return r.XYs[i].X - r.lo[i], r.hi[i] - r.XYs[i].X
}

// CheckRatios draws a check report: one row per configuration, its change
// against the baseline (run median / baseline median − 1, in percent) as a
// point with its bootstrap interval as a bar, coloured by verdict, with the
// warn and fail thresholds as dashed lines. Reports with more than
// CheckMaxRows judged configurations show the failures and warnings first,
// then the passes that moved most; the title says how many are shown.
func CheckRatios(rep *check.Report, o Options) (*Figure, error) {
	if rep == nil {
		return nil, fmt.Errorf("%w: no check report", ErrNoData)
	}
	var judged []check.Result
	for _, r := range rep.Results {
		if r.Verdict != check.Skip && !math.IsNaN(r.Ratio) && !math.IsNaN(r.Lo) {
			judged = append(judged, r)
		}
	}
	if len(judged) == 0 {
		return nil, fmt.Errorf("%w: the check judged no configuration", ErrNoData)
	}
	rank := map[check.Verdict]int{check.Fail: 0, check.Inconclusive: 1, check.Pass: 2}
	sort.SliceStable(judged, func(i, j int) bool {
		a, b := judged[i], judged[j]
		if rank[a.Verdict] != rank[b.Verdict] {
			return rank[a.Verdict] < rank[b.Verdict]
		}
		return math.Abs(a.Ratio-1) > math.Abs(b.Ratio-1)
	})
	total := len(judged)
	if len(judged) > CheckMaxRows {
		judged = judged[:CheckMaxRows]
	}
	title := fmt.Sprintf("%s against %s", rep.GPUModel, rep.Baseline)
	if total > len(judged) {
		title += fmt.Sprintf(" (%d of %d configurations: flagged first, then the largest changes)", len(judged), total)
	}
	fig := NewFigure(o.title(title))
	fig.PanelWidth, fig.PanelHeight = o.PanelWidth, o.PanelHeight
	n := len(judged)
	if fig.PanelHeight == 0 {
		fig.PanelHeight = max(PanelHeight, vg.Length(n)*0.22*vg.Inch+1.1*vg.Inch)
	}
	if fig.PanelWidth == 0 {
		fig.PanelWidth = 7 * vg.Inch
	}
	p := newPanel("", fmt.Sprintf("change against the baseline (%%, %g %% interval; negative is slower)", 100*rep.Confidence), "configuration")
	verdicts := []check.Verdict{check.Fail, check.Inconclusive, check.Pass}
	colours := map[check.Verdict]color.Color{
		check.Fail:         color.RGBA{R: 0xc0, G: 0x20, B: 0x20, A: 0xff},
		check.Inconclusive: color.RGBA{R: 0xe0, G: 0x90, B: 0x00, A: 0xff},
		check.Pass:         color.RGBA{R: 0x30, G: 0x70, B: 0xb0, A: 0xff},
	}
	pts := map[check.Verdict]*ratioPoints{}
	labels := make([]string, n)
	lo, hi := -rep.FailPct*1.5, rep.FailPct*1.5
	for i, r := range judged {
		y := float64(n - 1 - i)
		labels[n-1-i] = r.Group + " " + r.Configuration
		if rep.RunGPUs > 1 && len(r.GPU) > 12 {
			labels[n-1-i] += " " + r.GPU[4:12]
		}
		rp := pts[r.Verdict]
		if rp == nil {
			rp = &ratioPoints{}
			pts[r.Verdict] = rp
		}
		x, l, h := 100*(r.Ratio-1), 100*(r.Lo-1), 100*(r.Hi-1)
		rp.XYs = append(rp.XYs, plotter.XY{X: x, Y: y})
		rp.lo, rp.hi = append(rp.lo, l), append(rp.hi, h)
		lo, hi = math.Min(lo, l), math.Max(hi, h)
	}
	pad := 0.05 * (hi - lo)
	p.X.Min, p.X.Max = lo-pad, hi+pad
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	vline := func(x float64, ls draw.LineStyle) error {
		l, err := plotter.NewLine(plotter.XYs{{X: x, Y: p.Y.Min}, {X: x, Y: p.Y.Max}})
		if err != nil {
			return fmt.Errorf("plots: %w", err)
		}
		l.LineStyle = ls
		p.Add(l)
		return nil
	}
	if err := vline(0, draw.LineStyle{Color: color.Gray{Y: 0x60}, Width: vg.Points(1)}); err != nil {
		return nil, err
	}
	for _, t := range []struct {
		pct float64
		v   check.Verdict
	}{{-rep.FailPct, check.Fail}} {
		ls := lineStyle(colours[t.v], modelDashes)
		ls.Width = vg.Points(1)
		if err := vline(t.pct, ls); err != nil {
			return nil, err
		}
	}
	for _, v := range verdicts {
		rp := pts[v]
		if rp == nil {
			continue
		}
		bars, err := plotter.NewXErrorBars(rp)
		if err != nil {
			return nil, fmt.Errorf("plots: %w", err)
		}
		bars.LineStyle = draw.LineStyle{Color: colours[v], Width: vg.Points(1.4)}
		bars.CapWidth = vg.Points(5)
		s, err := plotter.NewScatter(rp.XYs)
		if err != nil {
			return nil, fmt.Errorf("plots: %w", err)
		}
		s.GlyphStyle = draw.GlyphStyle{Color: colours[v], Shape: draw.CircleGlyph{}, Radius: vg.Points(2.8)}
		p.Add(bars, s)
		fig.AddLegend(fmt.Sprintf("%s (%d)", v, map[check.Verdict]int{check.Fail: rep.Counts.Fail, check.Inconclusive: rep.Counts.Inconclusive, check.Pass: rep.Counts.Pass}[v]), s)
	}
	p.NominalY(labels...)
	p.X.Tick.Marker = linearTicks{}
	fig.Panels = append(fig.Panels, p)
	return fig, nil
}
