package plots_test

import (
	"bytes"
	"errors"
	"flag"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/plots"
	"github.com/umlab/umlab/results"
)

var regen = flag.Bool("regen", false, "rewrite the golden images in testdata from the current output")

var model0 = model.Options{}

// checkGolden runs an example that writes testdata/<name>.png and compares
// it pixel by pixel, without tolerance, with testdata/<name>_golden.png:
// gonum/plot embeds its fonts, so the output is deterministic. With -regen
// it replaces the golden image instead.
func checkGolden(t *testing.T, example func(), name string) {
	t.Helper()
	example()
	path := filepath.Join("testdata", name+".png")
	golden := filepath.Join("testdata", name+"_golden.png")
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if *regen {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -regen to create it)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	a, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	b, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		t.Fatal(err)
	}
	if n := differingPixels(a, b); n > 0 {
		t.Errorf("%s differs from %s in %d pixels (sizes %v and %v); look at both, then run go test -regen if the change is intended",
			path, golden, n, a.Bounds().Size(), b.Bounds().Size())
	}
}

func differingPixels(a, b image.Image) int {
	if a.Bounds() != b.Bounds() {
		return a.Bounds().Dx() * a.Bounds().Dy()
	}
	n := 0
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				n++
			}
		}
	}
	return n
}

func TestBandwidthVsSize(t *testing.T) { checkGolden(t, ExampleBandwidthVsSize, "bandwidth_vs_size") }
func TestBars(t *testing.T)            { checkGolden(t, ExampleBars, "bars") }
func TestStrideSweep(t *testing.T)     { checkGolden(t, ExampleStrideSweep, "stride_sweep") }
func TestOversubscription(t *testing.T) {
	checkGolden(t, ExampleOversubscription, "oversubscription")
}
func TestHandoffReuse(t *testing.T) { checkGolden(t, ExampleHandoffReuse, "handoff_reuse") }

// Figures return errors instead of panicking on data a log axis cannot
// hold, and draw what they can.
func TestLogAxisData(t *testing.T) {
	row := func(size int64, gbps float64) results.Row {
		r := results.NewRow()
		r.Platform, r.Group, r.Benchmark, r.Mode, r.SizeBytes, r.GBps = "X", "hbm", "triad", "explicit", size, gbps
		return r
	}
	cases := []struct {
		name    string
		rows    []results.Row
		noData  bool
		entries int
	}{
		{"empty", nil, true, 0},
		{"NaN", []results.Row{row(1<<20, math.NaN()), row(1<<21, math.Inf(1))}, true, 0},
		{"zero on a linear axis", []results.Row{row(1<<20, 0), row(1<<21, 7)}, false, 0},
		{"one point", []results.Row{row(1<<20, 5)}, false, 0},
		{"zero dropped from a log axis", []results.Row{row(1<<20, 0), row(1<<21, 7), row(1<<22, 900)}, false, 0},
		{"tiny values", []results.Row{row(1<<20, 1e-9), row(1<<30, 1e-8)}, false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fig, err := plots.BandwidthVsSize(c.rows, plots.Options{})
			if c.noData {
				if !errors.Is(err, plots.ErrNoData) {
					t.Fatalf("err = %v, want ErrNoData", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := fig.PNG(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestWaivedRowsAreLeftOut(t *testing.T) {
	rows := plots.Where(paperRows(), "group", "managed")
	for i := range rows {
		if rows[i].Platform == "GB10" {
			rows[i].Waived = true
		}
	}
	fig, err := plots.Bars(rows, "gbps", plots.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(fig.LegendNames(), ","); got != "GB200,GH200" {
		t.Errorf("legend %q, want GB200,GH200", got)
	}
}

func TestUnknownColumn(t *testing.T) {
	if _, err := plots.Lines(paperRows(), "size_bytes", "no_such", plots.Options{}); err == nil {
		t.Error("Lines with an unknown column: no error")
	}
	if _, err := plots.Lines(paperRows(), "mode", "gbps", plots.Options{}); err == nil {
		t.Error("Lines with a string x column: no error")
	}
	if _, err := plots.Bars(paperRows(), "gbps", plots.Options{Series: plots.By("nope")}); err == nil {
		t.Error("Bars with an unknown series column: no error")
	}
}

// A panel of its own per platform, in the paper's order, then the others.
func TestPlatformOrder(t *testing.T) {
	rows := append(localRows(), paperRows()...)
	got := strings.Join(plots.Platforms(rows), ",")
	if got != "GB200,GH200,GB10,H200" {
		t.Errorf("Platforms = %s", got)
	}
	fig, err := plots.Lines(plots.Where(rows, "group", "managed"), "size_bytes", "gbps", plots.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, p := range fig.Panels {
		titles = append(titles, p.Title.Text)
	}
	if strings.Join(titles, ",") != "GB200,GH200,GB10,H200" {
		t.Errorf("panels %v", titles)
	}
}

func TestNearest(t *testing.T) {
	rows := append(localRows(), paperRows()...)
	got := plots.Nearest(plots.Where(rows, "group", "managed"), 300<<20)
	sizes := map[string]int64{}
	for _, r := range got {
		sizes[r.Platform] = r.SizeBytes
	}
	if sizes["GB200"] != 256<<20 || sizes["H200"] != 256<<20 {
		t.Errorf("nearest sizes %v", sizes)
	}
}

func TestSVG(t *testing.T) {
	fig, err := plots.StrideSweep(paperRows(), plots.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svg, err := fig.SVG()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(svg, []byte("<svg")) {
		t.Error("no <svg> element")
	}
}
