package plots

import (
	"image/color"
	"math"
	"slices"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/umlab/umlab/results"
)

// Colours are fixed by meaning, so that a memory state or a platform has
// the same colour in every figure of every notebook and of the report. The
// states take the Okabe–Ito palette (distinguishable with the common
// colour-vision deficiencies), the platforms Paul Tol's "bright" one.
// A handoff policy takes the colour of the state it puts the data in.
var (
	stateColours = map[string]color.RGBA{
		results.ModeExplicit:           rgb(0x000000), // the baseline: black
		results.ModeManagedCold:        rgb(0xD55E00), // vermillion
		results.ModeManaged:            rgb(0x0072B2), // the transfer group's managed prefetch
		results.ModeManagedPrefetch:    rgb(0x0072B2), // blue
		results.ModeManagedReuse:       rgb(0x009E73), // bluish green
		results.ModeHostMapped:         rgb(0xE69F00), // orange
		results.ModeAdvisePreferredGPU: rgb(0xCC79A7), // reddish purple
		results.ModeAdviseAccessedBy:   rgb(0x56B4E9), // sky blue
		results.ModeAdvisePreferredCPU: rgb(0x999933), // olive
		results.ModeSystem:             rgb(0x777777), // grey
		results.ModePinned:             rgb(0x332288), // indigo
		results.ModePageable:           rgb(0xAA4499), // purple
	}
	policyStates = map[string]string{
		results.PolicyExplicitCopy: results.ModeExplicit, results.PolicyHostMapped: results.ModeHostMapped,
		results.PolicyManaged: results.ModeManagedCold, results.PolicyManagedPrefetch: results.ModeManagedPrefetch,
	}
	platformColours = map[string]color.RGBA{
		"GB200": rgb(0x4477AA), "GH200": rgb(0x228833), "GB10": rgb(0xCCBB44), "H200": rgb(0xEE6677),
	}
	// others: the colours of series that are neither states nor known
	// platforms, in order.
	others = []color.RGBA{rgb(0x66CCEE), rgb(0xAA3377), rgb(0x4477AA), rgb(0xCCBB44), rgb(0x228833), rgb(0xBBBBBB)}
)

func rgb(v uint32) color.RGBA { return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff} }

// colourOf returns the colour of a series whose key is k, from its first
// row: the state's colour when the key holds the mode or policy, the
// platform's when it holds the platform; ok is false for any other series.
func colourOf(k Key, r *results.Row) (c color.Color, ok bool) {
	for _, col := range k.cols {
		switch col {
		case results.ColMode:
			if c, ok := stateColours[r.Mode]; ok {
				return c, true
			}
		case results.ColPolicy:
			if c, ok := stateColours[policyStates[r.Policy]]; ok {
				return c, true
			}
		}
	}
	if slices.Contains(k.cols, results.ColPlatform) {
		if c, ok := platformColours[r.Platform]; ok {
			return c, true
		}
	}
	return nil, false
}

var shapes = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{},
	draw.RingGlyph{}, draw.BoxGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{},
}

var dashes = [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)}, {vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)}}

// look is how one series is drawn: its colour, and a marker and dash
// pattern that tell apart series of the same colour.
type look struct {
	colour color.Color
	shape  draw.GlyphDrawer
	dashes []vg.Length
}

// looks gives each series of gs its look: colour by meaning (colourOf),
// and the n-th series of a colour the n-th marker and dash pattern.
func looks(gs []group, k Key) map[string]look {
	out := map[string]look{}
	seen := map[color.Color]int{}
	other := 0
	for _, g := range gs {
		c, ok := colourOf(k, &g.rows[0])
		if !ok {
			c = others[other%len(others)]
			other++
		}
		n := seen[c]
		seen[c]++
		out[g.label] = look{colour: c, shape: shapes[n%len(shapes)], dashes: dashes[n%len(dashes)]}
	}
	return out
}

// Fonts: Liberation Sans, sized to stay readable when a figure is printed
// at the width of a page (see Figure.Size).
var (
	sans      = font.Font{Typeface: "Liberation", Variant: "Sans"}
	fontTick  = vg.Points(10)
	fontLabel = vg.Points(11)
	fontTitle = vg.Points(11.5)
)

// newPanel returns an empty plot with umlab's fonts and a grid.
func newPanel(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(sans, fontTitle)
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	for _, sty := range []*text.Style{&p.X.Label.TextStyle, &p.Y.Label.TextStyle} {
		sty.Font = font.From(sans, fontLabel)
	}
	for _, sty := range []*text.Style{&p.X.Tick.Label, &p.Y.Tick.Label} {
		sty.Font = font.From(sans, fontTick)
	}
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
	// Log allows a logarithmic scale: it is used when the values drawn
	// span more than two decades (LogSpan), so that small values stay
	// visible, and a linear one otherwise, where a straight line looks
	// straight.
	Log   bool
	Pow2  bool // ticks at powers of two (on a log scale)
	Bytes bool // tick labels as sizes: 64 KiB, 1 MiB
}

// LogSpan is the ratio of the largest to the smallest value above which
// an axis that allows it is logarithmic: two decades.
const LogSpan = 100

// isLog says whether the axis is logarithmic for these values.
func (a Axis) isLog(v []float64) bool {
	if !a.Log {
		return false
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range v {
		if x > 0 && !math.IsInf(x, 0) {
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	return hi/lo > LogSpan
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

// apply configures a plot axis, log or not; the range must already be
// set. data are the values drawn on it (for the labels of a power-of-two
// axis).
func (a Axis) apply(ax *plot.Axis, log bool, data []float64) {
	if !log {
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

// lineStyle is the style of data lines (solid, or l's dashes) and of
// model lines (dashed).
func lineStyle(c color.Color, d []vg.Length) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: vg.Points(1.6), Dashes: d}
}

// modelDashes are the dashes of model and reference lines.
var modelDashes = []vg.Length{vg.Points(5), vg.Points(3)}
