package plots

import (
	"image/color"
	"math"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/umlab/umlab/results"
)

// palette is Tableau 10: distinct, colour-blind tolerable, and readable on
// white. Series take colours in their sorted order across all panels.
var palette = []color.RGBA{
	{0x4e, 0x79, 0xa7, 0xff}, // blue
	{0xf2, 0x8e, 0x2b, 0xff}, // orange
	{0xe1, 0x57, 0x59, 0xff}, // red
	{0x76, 0xb7, 0xb2, 0xff}, // teal
	{0x59, 0xa1, 0x4f, 0xff}, // green
	{0xed, 0xc9, 0x48, 0xff}, // yellow
	{0xb0, 0x7a, 0xa1, 0xff}, // purple
	{0xff, 0x9d, 0xa7, 0xff}, // pink
	{0x9c, 0x75, 0x5f, 0xff}, // brown
	{0xba, 0xb0, 0xac, 0xff}, // grey
}

func seriesColor(i int) color.Color { return palette[i%len(palette)] }

var shapes = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{},
	draw.RingGlyph{}, draw.BoxGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{},
}

func seriesShape(i int) draw.GlyphDrawer { return shapes[i%len(shapes)] }

// newPanel returns an empty plot with umlab's fonts and a grid.
func newPanel(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = 12
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.X.Label.TextStyle.Font.Size = 11
	p.Y.Label.TextStyle.Font.Size = 11
	p.X.Tick.Label.Font.Size = 9.5
	p.Y.Tick.Label.Font.Size = 9.5
	p.Y.Tick.Marker = linearTicks{}
	g := plotter.NewGrid()
	g.Vertical.Color = color.Gray{Y: 0xe4}
	g.Horizontal.Color = color.Gray{Y: 0xe4}
	p.Add(g)
	return p
}

// Axis describes how a column is drawn on an axis.
type Axis struct {
	Label string // axis label, with the unit
	Log   bool   // logarithmic scale
	Pow2  bool   // ticks at powers of two (with Log)
	Bytes bool   // tick labels as sizes: 64 KiB, 1 MiB
}

// axes knows how umlab's columns are drawn; others get a linear axis named
// after the column.
var axes = map[string]Axis{
	"size_bytes":          {Label: "working-set size", Log: true, Pow2: true, Bytes: true},
	"footprint_bytes":     {Label: "footprint", Log: true, Pow2: true, Bytes: true},
	"useful_bytes":        {Label: "useful bytes", Log: true, Pow2: true, Bytes: true},
	"page_interval_bytes": {Label: "page-touch interval", Log: true, Pow2: true, Bytes: true},
	"stride_elements":     {Label: "stride (elements)", Log: true, Pow2: true},
	"reuse_passes":        {Label: "GPU passes per CPU update, R", Log: true, Pow2: true},
	"active_elements":     {Label: "active elements", Log: true},
	"oversub_pct":         {Label: "footprint (% of GPU memory)"},
	"gbps":                {Label: "useful bandwidth (GB/s)", Log: true},
	"kernel_ms":           {Label: "kernel time (ms)", Log: true},
	"prefetch_ms":         {Label: "prefetch time (ms)", Log: true},
	"transfer_ms":         {Label: "transfer time (ms)", Log: true},
	"cpu_ms":              {Label: "CPU time (ms)", Log: true},
	"total_ms":            {Label: "time per iteration (ms)", Log: true},
}

// AxisOf returns how column col is drawn by default.
func AxisOf(col string) Axis {
	if a, ok := axes[col]; ok {
		return a
	}
	return Axis{Label: col}
}

// apply configures a plot axis; the range must already be set. data are
// the values drawn on it (for the labels of a power-of-two axis).
func (a Axis) apply(ax *plot.Axis, data []float64) {
	if !a.Log {
		ax.Tick.Marker = linearTicks{}
		return
	}
	ax.Scale = plot.LogScale{}
	if a.Pow2 {
		ax.Tick.Marker = pow2Ticks{bytes: a.Bytes, data: distinct(data)}
	} else {
		ax.Tick.Marker = logTicks{}
	}
}

// pow2Ticks puts a tick at every power of two in range. When the data has
// at most eight distinct values (set by the figure), exactly those are
// labelled; otherwise at most about eight powers of two, evenly spaced in
// exponent.
type pow2Ticks struct {
	bytes bool
	data  []float64 // distinct data values, ascending, or nil
}

func (t pow2Ticks) label(v float64) string {
	if t.bytes && v >= 1 {
		return results.FormatBytes(int64(v))
	}
	s := strconv.FormatFloat(v, 'g', 4, 64)
	if t.bytes {
		s += " B"
	}
	return s
}

func (t pow2Ticks) Ticks(lo, hi float64) []plot.Tick {
	if lo <= 0 || hi <= 0 {
		return nil
	}
	in := func(v float64) bool { return v >= lo*(1-1e-9) && v <= hi*(1+1e-9) }
	elo, ehi := int(math.Floor(math.Log2(lo)+1e-9)), int(math.Ceil(math.Log2(hi)-1e-9))
	step := 1
	for (ehi-elo+1)/step > 8 {
		step *= 2
	}
	byData := len(t.data) > 0 && len(t.data) <= 8
	var ts []plot.Tick
	labelled := map[float64]bool{}
	if byData {
		for _, v := range t.data {
			if in(v) {
				ts = append(ts, plot.Tick{Value: v, Label: t.label(v)})
				labelled[v] = true
			}
		}
	}
	for e := elo; e <= ehi; e++ {
		v := math.Ldexp(1, e)
		if !in(v) || labelled[v] {
			continue
		}
		tk := plot.Tick{Value: v}
		if !byData && e%step == 0 {
			tk.Label = t.label(v)
		}
		ts = append(ts, tk)
	}
	return ts
}

// distinct returns the distinct values of v, ascending.
func distinct(v []float64) []float64 {
	seen := map[float64]bool{}
	var out []float64
	for _, x := range v {
		if !seen[x] && !math.IsNaN(x) {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Float64s(out)
	return out
}

// logTicks labels powers of ten; on a short axis also 2 and 5 times them,
// or most integer multiples on an axis shorter than a decade and a bit. There
// are unlabelled minor ticks in between unless the axis is very tall.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if lo <= 0 || hi <= 0 {
		return nil
	}
	dlo, dhi := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	decades := math.Log10(hi / lo)
	labelled := map[int]bool{1: true}
	switch {
	case decades <= 1.2:
		for _, m := range []int{2, 3, 4, 5, 6, 8} {
			labelled[m] = true
		}
	case decades <= 3.2:
		labelled[2], labelled[5] = true, true
	}
	every := 1 // label every decade, or every second one on a tall axis
	if dhi-dlo > 8 {
		every = 2
	}
	var ts []plot.Tick
	for d := dlo; d <= dhi; d++ {
		for m := 1; m <= 9; m++ {
			v := float64(m) * math.Pow(10, float64(d))
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			if dhi-dlo > 6 && m != 1 { // minor ticks clutter a tall axis
				continue
			}
			tk := plot.Tick{Value: v}
			if labelled[m] && (m != 1 || d%every == 0) {
				tk.Label = results.FormatNumber(v)
			}
			ts = append(ts, tk)
		}
	}
	return ts
}

// linearTicks are gonum's default ticks, labelled with results.FormatNumber (the
// defaults print 100.00 for 100).
type linearTicks struct{}

func (linearTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = results.FormatNumber(ts[i].Value)
		}
	}
	return ts
}

// thinLine is the style of model lines and markers.
func lineStyle(c color.Color, dashed bool) draw.LineStyle {
	ls := draw.LineStyle{Color: c, Width: vg.Points(1.6)}
	if dashed {
		ls.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	return ls
}
