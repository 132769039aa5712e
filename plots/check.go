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
// and inconclusive one, then the passes that moved most.
const CheckMaxRows = 40

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

// CheckRatios draws a check report per configuration: its change against
// the baseline (in percent) as a point with its interval as a bar,
// coloured by verdict. Reports with more than CheckMaxRows judged
// configurations show the failures and inconclusive ones first, then the
// passes that moved most; the title says how many are shown.
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
	title := fmt.Sprintf("%s against %s", rep.GPUModel, rep.Baseline)
	if len(judged) > CheckMaxRows {
		title += fmt.Sprintf(" (%d of %d configurations: flagged first, then the largest changes)", CheckMaxRows, len(judged))
		judged = judged[:CheckMaxRows]
	}
	var rows []checkRow
	for _, r := range judged {
		label := r.Group + " " + r.Configuration
		if rep.RunGPUs > 1 && len(r.GPU) > 12 {
			label += " " + r.GPU[4:12]
		}
		rows = append(rows, checkRow{label, 100 * (r.Ratio - 1), 100 * (r.Lo - 1), 100 * (r.Hi - 1), r.Verdict, math.NaN()})
	}
	return checkFigure(o.title(title), fmt.Sprintf("change against the baseline (%%, %g %% interval; negative is slower)", 100*rep.Confidence), rows, rep.FailPct, o)
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
	if fig.PanelWidth == 0 {
		fig.PanelWidth = 7 * vg.Inch
	}
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
	for _, v := range []struct {
		x  float64
		ls draw.LineStyle
	}{{0, draw.LineStyle{Color: color.Gray{Y: 0x60}, Width: vg.Points(1)}}, {-failPct, lineStyle(checkColours[check.Fail], modelDashes)}} {
		l, err := plotter.NewLine(plotter.XYs{{X: v.x, Y: p.Y.Min}, {X: v.x, Y: p.Y.Max}})
		if err != nil {
			return nil, fmt.Errorf("plots: %w", err)
		}
		l.LineStyle = v.ls
		p.Add(l)
	}
	if len(ticks) > 0 {
		s, err := plotter.NewScatter(ticks)
		if err != nil {
			return nil, fmt.Errorf("plots: %w", err)
		}
		s.GlyphStyle = draw.GlyphStyle{Color: color.Gray{Y: 0x40}, Shape: draw.PlusGlyph{}, Radius: vg.Points(3)}
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
		s, err := plotter.NewScatter(rp.XYs)
		if err != nil {
			return nil, fmt.Errorf("plots: %w", err)
		}
		s.GlyphStyle = draw.GlyphStyle{Color: checkColours[v], Shape: draw.CircleGlyph{}, Radius: vg.Points(2.8)}
		p.Add(bars, s)
		fig.AddLegend(fmt.Sprintf("%s (%d)", v, len(rp.XYs)), s)
	}
	p.NominalY(labels...)
	p.X.Tick.Marker = linearTicks{}
	fig.Panels = append(fig.Panels, p)
	return fig, nil
}
