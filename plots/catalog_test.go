package plots

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/internal/datacheck"
	"github.com/umlab/umlab/results"
)

// paperRows are the three published datasets, as every notebook shows them.
func paperRows(t testing.TB) []results.Row {
	var rows []results.Row
	for _, in := range datasets.List() {
		if in.Kind == datasets.Published {
			r, _, err := datasets.Load(in.Name)
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, r...)
		}
	}
	return rows
}

// TestCatalogOnEveryDataset draws every named figure with the paper's
// platforms beside each embedded measured dataset in turn (and beside
// none), and checks what a reader relies on: no mark pools two
// configurations (two GPUs, groups, strides or runs); at most six series
// in a panel; a logarithmic axis where the marks span more than two
// decades; no model line for a size its panel does not show; every number
// of the reading a value of the table shown with it; no title or caption
// naming a size, platform or run the rows drawn do not hold.
// UMLAB_CATALOG_FIGURES=DIR writes every figure there to look at;
// UMLAB_CATALOG_DATASET=NAME draws beside that dataset only.
func TestCatalogOnEveryDataset(t *testing.T) {
	paper := paperRows(t)
	locals := []string{""}
	for _, in := range datasets.List() {
		if in.Kind != datasets.Published {
			locals = append(locals, in.Name)
		}
	}
	if only := os.Getenv("UMLAB_CATALOG_DATASET"); only != "" {
		locals = []string{only}
	} else if testing.Short() {
		locals = locals[:1]
	}
	for _, name := range locals {
		rows := paper
		if name != "" {
			r, _, err := datasets.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			rows = append(append([]results.Row(nil), paper...), r...)
		}
		for _, n := range Catalog() {
			s, err := n.Draw(rows)
			if errors.Is(err, ErrNoData) {
				continue
			}
			if err != nil {
				t.Errorf("%s on %q: %v", n.ID, name, err)
				continue
			}
			for _, e := range checkShown(s) {
				t.Errorf("%s on %q: %v", n.ID, name, e)
			}
			if dir := os.Getenv("UMLAB_CATALOG_FIGURES"); dir != "" && s.Figure != nil {
				png, err := s.Figure.PNG()
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s--%s.png", n.ID, name)), png, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// checkShown returns what is wrong with a drawn figure.
func checkShown(s *Shown) []error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if s.Table.Err != nil {
		bad("table: %v", s.Table.Err)
	}
	values := datacheck.Values(s.Table)
	for _, r := range s.Reading {
		if b := datacheck.Sentence(r, values); len(b) > 0 {
			bad("reading %q states %v, not in its table", r, b)
		}
	}
	if b := datacheck.Names(s.Title+" "+s.Caption, s.Rows); len(b) > 0 {
		bad("title or caption %q names %v, not in its rows", s.Title+" "+s.Caption, b)
	}
	if s.Figure == nil {
		return errs
	}
	series := map[string]map[string]bool{}
	medians := map[string][]float64{}
	for _, p := range s.Figure.points {
		if p.Configs > 1 {
			bad("mark %s/%s/%s/%g pools %d configurations", p.Panel, p.Series, p.Category, p.X, p.Configs)
		}
		if series[p.Panel] == nil {
			series[p.Panel] = map[string]bool{}
		}
		series[p.Panel][p.Series] = true
		if !math.IsNaN(p.Median) {
			medians[p.Panel] = append(medians[p.Panel], p.Median)
		}
	}
	for panel, ss := range series {
		if len(ss) > 6 {
			bad("panel %q has %d series", panel, len(ss))
		}
	}
	lo, hi := math.Inf(1), 0.0
	for _, vs := range medians {
		for _, v := range vs {
			if v > 0 {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	for i, p := range s.Figure.Panels {
		if _, log := p.Y.Scale.(plot.LogScale); !log && hi/lo > LogSpan {
			bad("panel %d (%q): values span %.0f× on a linear axis", i, p.Title.Text, hi/lo)
		}
	}
	for _, m := range s.Figure.models {
		shown := false
		for _, p := range s.Figure.points {
			for _, r := range p.rows {
				shown = shown || (p.Panel == m.Panel && r.SizeBytes == m.SizeBytes && r.Policy == m.Policy)
			}
		}
		if !shown {
			bad("model line %s %s in panel %q, which shows no such size", m.Policy, results.FormatBytes(m.SizeBytes), m.Panel)
		}
	}
	return errs
}

// A mark that would pool two GPUs is split, by GPU, and the figure says so.
func TestNoPooling(t *testing.T) {
	var rows []results.Row
	for i, gpu := range []string{"GPU-11111111-a", "GPU-22222222-b"} {
		for trial := range 3 {
			r := results.NewRow()
			r.Group, r.Benchmark, r.Mode, r.Platform, r.GPUUUID, r.RunID = "hbm", "triad", "explicit", "H200", gpu, "run"
			r.SizeBytes, r.Trial, r.GBps = 1<<30, int64(trial), float64(1000*(i+1)+trial)
			rows = append(rows, r)
		}
	}
	fig, err := Bars(rows, results.ColGBps, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(fig.points); n != 2 {
		t.Fatalf("%d marks, want one per GPU", n)
	}
	if got := strings.Join(fig.LegendNames(), ","); got != "H200 GPU-11111111,H200 GPU-22222222" {
		t.Errorf("legend %q", got)
	}
}

// A memory state has one colour in every figure, whatever else the series
// key holds; a platform too.
func TestOneColourPerState(t *testing.T) {
	r := results.NewRow()
	r.Mode, r.Platform = results.ModeManagedCold, "GB200"
	for _, k := range []Key{By(results.ColMode), By(results.ColBenchmark, results.ColMode), By(results.ColMode, results.ColPlatform)} {
		if c, _ := colourOf(k, &r); c != stateColours[results.ModeManagedCold] {
			t.Errorf("key %v: managed_cold is %v", k.cols, c)
		}
	}
	r.Policy = results.PolicyManaged
	if c, _ := colourOf(By(results.ColPolicy), &r); c != stateColours[results.ModeManagedCold] {
		t.Errorf("policy managed (demand paging) is %v, not cold's colour", c)
	}
	if c, _ := colourOf(By(results.ColPlatform), &r); c != platformColours["GB200"] {
		t.Errorf("GB200 is %v", c)
	}
}
