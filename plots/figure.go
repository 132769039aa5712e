package plots

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/umlab/umlab/results"
)

// ErrNoData is returned (wrapped) when no row is left to draw.
var ErrNoData = errors.New("plots: no data to plot")

// Default sizes of one panel, the most panels side by side, and the
// resolution of PNG output. Two 3.6-inch panels and a legend make a figure
// about 9 inches wide: printed across a page (6.5 inches) its 10-point
// ticks stay above 7 points.
const (
	PanelWidth  = 3.6 * vg.Inch
	PanelHeight = 2.8 * vg.Inch
	MaxColumns  = 2
	DPI         = 96
)

// A Figure is one or more panels drawn side by side, a title above them and
// one legend, shared by all panels, to their right.
type Figure struct {
	Title  string
	Panels []*plot.Plot

	// PanelWidth and PanelHeight are the size of one panel; zero means
	// the package defaults.
	PanelWidth, PanelHeight vg.Length

	legend      plot.Legend
	legendNames []string
	points      []Point
	models      []ModelLine

	// A line figure's panels' rows (by label, as Panels), its series key
	// and how each series is drawn.
	groups []group
	series Key
	looks  map[string]look
}

// Points returns the marks the figure draws, panel by panel: what a
// table beside it should show and what a test checks (no mark pools two
// configurations).
func (f *Figure) Points() []Point { return append([]Point(nil), f.points...) }

// drawn returns the rows of the figure's marks.
func (f *Figure) drawn() []results.Row {
	var out []results.Row
	for _, pt := range f.points {
		out = append(out, pt.rows...)
	}
	return out
}

// A ModelLine is a model drawn over a panel: a policy's F + R·G at a size.
type ModelLine struct {
	Panel, Policy string
	SizeBytes     int64
}

// newFigure returns a figure without panels, titled and sized as o says.
func newFigure(title string, o Options) *Figure {
	return &Figure{Title: o.title(title), PanelWidth: o.PanelWidth, PanelHeight: o.PanelHeight, legend: newLegend()}
}

func newLegend() plot.Legend {
	l := plot.NewLegend()
	l.Top, l.Left = true, true
	l.TextStyle.Font = font.From(sans, fontTick)
	l.ThumbnailWidth = vg.Points(22)
	return l
}

// resetLegend empties the legend, for a figure that explains its marks
// itself.
func (f *Figure) resetLegend() { f.legend, f.legendNames = newLegend(), nil }

// AddLegend adds an entry to the figure's shared legend.
func (f *Figure) AddLegend(name string, thumbs ...plot.Thumbnailer) {
	f.legend.Add(name, thumbs...)
	f.legendNames = append(f.legendNames, name)
}

// LegendNames returns the legend's entries in order.
func (f *Figure) LegendNames() []string { return append([]string(nil), f.legendNames...) }

func (f *Figure) panelSize() (w, h vg.Length) {
	return cmp.Or(f.PanelWidth, PanelWidth), cmp.Or(f.PanelHeight, PanelHeight)
}

func (f *Figure) legendWidth() vg.Length {
	if len(f.legendNames) == 0 {
		return 0
	}
	var w vg.Length
	for _, n := range f.legendNames {
		w = max(w, f.legend.TextStyle.Width(n))
	}
	return w + f.legend.ThumbnailWidth + vg.Points(24)
}

var titleStyle = text.Style{
	Color:   color.Black,
	Font:    font.From(sans, 12.5),
	XAlign:  draw.XCenter,
	YAlign:  draw.YTop,
	Handler: plot.DefaultTextHandler,
}

// grid returns the panels' columns and rows: at most MaxColumns side by
// side.
func (f *Figure) grid() (cols, rows int) {
	n := max(len(f.Panels), 1)
	cols = min(n, MaxColumns)
	return cols, (n + cols - 1) / cols
}

// Size returns the size of the whole figure.
func (f *Figure) Size() (w, h vg.Length) {
	pw, ph := f.panelSize()
	cols, rows := f.grid()
	w = vg.Length(cols)*pw + f.legendWidth()
	h = vg.Length(rows) * ph
	if f.Title != "" {
		h += titleStyle.Height(f.Title) + vg.Points(8)
		w = max(w, titleStyle.Width(f.Title)+vg.Points(24))
	}
	return w, h
}

// Draw draws the figure onto c.
func (f *Figure) Draw(c draw.Canvas) {
	if f.Title != "" {
		th := titleStyle.Height(f.Title)
		c.FillText(titleStyle, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: c.Max.Y - vg.Points(4)}, f.Title)
		c.Max.Y -= th + vg.Points(8)
	}
	if lw := f.legendWidth(); lw > 0 {
		lc := c
		lc.Min.X = c.Max.X - lw + vg.Points(8)
		lc.Max.Y -= vg.Points(24) // level with the panels' plot areas, below their titles
		f.legend.Draw(lc)
		c.Max.X -= lw
	}
	if len(f.Panels) == 0 {
		return
	}
	cols, rows := f.grid()
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(6), PadY: vg.Points(6)}
	for i, p := range f.Panels {
		if p != nil {
			drawPanel(p, tiles.At(c, i%cols, i/cols))
		}
	}
}

// drawPanel draws a plot, placing the labels of logarithmic axes itself:
// gonum/plot reserves room for an axis label around the linear midpoint of
// the range, which on a log axis lies near the end of the axis, so the plot
// area shrinks by up to the label's length.
func drawPanel(p *plot.Plot, c draw.Canvas) {
	xl, yl := p.X.Label.Text, p.Y.Label.Text
	defer func() { p.X.Label.Text, p.Y.Label.Text = xl, yl }()
	xlabel, ylabel := logLabel(&p.X), logLabel(&p.Y)
	inner := c
	ysty, xsty := p.Y.Label.TextStyle, p.X.Label.TextStyle
	if ylabel != "" {
		inner.Min.X += ysty.Height(ylabel) + p.Y.Label.Padding + vg.Points(3)
	}
	if xlabel != "" {
		inner.Min.Y += xsty.Height(xlabel) + p.X.Label.Padding + vg.Points(3)
	}
	p.Draw(inner)
	dc := p.DataCanvas(inner)
	if ylabel != "" {
		ysty.Rotation, ysty.XAlign, ysty.YAlign = math.Pi/2, draw.XCenter, draw.YTop
		c.FillText(ysty, vg.Point{X: c.Min.X, Y: (dc.Min.Y + dc.Max.Y) / 2}, ylabel)
	}
	if xlabel != "" {
		xsty.XAlign, xsty.YAlign = draw.XCenter, draw.YBottom
		c.FillText(xsty, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: c.Min.Y + vg.Points(3)}, xlabel)
	}
}

// logLabel takes the label off a logarithmic axis, for drawPanel to place.
func logLabel(a *plot.Axis) string {
	if _, log := a.Scale.(plot.LogScale); !log {
		return ""
	}
	l := a.Label.Text
	a.Label.Text = ""
	return l
}

// PNG renders the figure as a PNG image at 96 dpi on a white background.
func (f *Figure) PNG() ([]byte, error) {
	w, h := f.Size()
	return f.render(vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(DPI),
		vgimg.UseBackgroundColor(color.White))}, "png")
}

// SVG renders the figure as an SVG document. Its text names Liberation
// Sans and then Arial, which has the same metrics, so that it lays out as
// drawn without embedding the font (some 400 KB per figure).
func (f *Figure) SVG() ([]byte, error) {
	w, h := f.Size()
	svg, err := f.render(vgsvg.NewWith(vgsvg.UseWH(w, h)), "svg")
	return bytes.ReplaceAll(svg, []byte("font-family:Liberation Sans;"),
		[]byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;")), err
}

// render draws the figure on c and returns what c writes.
func (f *Figure) render(c vg.CanvasWriterTo, format string) ([]byte, error) {
	if err := drawSafely(func() { f.Draw(draw.New(c)) }); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plots: %s: %w", format, err)
	}
	return buf.Bytes(), nil
}

// drawSafely turns a panic of gonum/plot (it panics on values ≤ 0 on a log
// axis) into an error, so that a bad figure never kills a notebook cell.
func drawSafely(draw func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("plots: drawing failed: %v", r)
		}
	}()
	draw()
	return nil
}
