package report_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/umlab/umlab/claims"
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/report"
	"github.com/umlab/umlab/results"
)

func write(t *testing.T, run *claims.Run) string {
	t.Helper()
	var b bytes.Buffer
	if err := report.Write(&b, run, nil); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Strings from a run (its command, notes, host) are escaped.
func TestEscapes(t *testing.T) {
	ref, err := claims.Load("h200-2026-12-03-quick")
	if err != nil {
		t.Fatal(err)
	}
	m := ref.Meta
	m.Command = `umbench run --out "<script>alert(1)</script>"`
	m.Notes = append(m.Notes, `<img src=x onerror=alert(2)>`)
	run, err := claims.NewRun(`<b>run</b>`, ref.Rows, m)
	if err != nil {
		t.Fatal(err)
	}
	h := write(t, run)
	for _, bad := range []string{"<script>alert", "<img src=x", "<b>run</b>"} {
		if strings.Contains(h, bad) {
			t.Errorf("unescaped %q in the report", bad)
		}
	}
	if !strings.Contains(h, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("escaped command missing")
	}
}

// What a report attached to a paper needs: a table of contents, a methods
// paragraph with the run's warm-ups and trials, intervals in the summary,
// SVG figures, and a banner on simulated data (and none on measured data).
func TestPaperReady(t *testing.T) {
	run, err := claims.Load("h200-2026-12-03-quick")
	if err != nil {
		t.Fatal(err)
	}
	h := write(t, run)
	for _, want := range []string{`<nav><h2 id="contents">`, `href="#fig-states"`, "2 warm-ups", "5 trials", "driver 580",
		"median GB/s, 95 % lo", `src="data:image/svg`} {
		if !strings.Contains(h, want) {
			t.Errorf("no %q in the report", want)
		}
	}
	if strings.Contains(h, results.SimulatedBanner) || strings.Contains(h, "data:image/png") {
		t.Error("a measured run's report has the simulated banner or a PNG figure")
	}
	rows := append([]results.Row(nil), run.Rows...)
	for i := range rows {
		rows[i].Simulated = true
	}
	sim, err := claims.NewRun("simulated", rows, run.Meta)
	if err != nil {
		t.Fatal(err)
	}
	if h := write(t, sim); !strings.Contains(h, `<p class="simulated" id="simulated">`+results.SimulatedBanner) {
		t.Error("no simulated banner at the top of a simulated run's report")
	}
}

// Render the report of the paper's GB10 figures; a run without a handoff
// sweep says so in the model section.
func ExampleWrite() {
	run, err := claims.Load("paper-gb10")
	if err != nil {
		fmt.Println(err)
		return
	}
	var b bytes.Buffer
	if err := report.Write(&b, run, nil); err != nil {
		fmt.Println(err)
		return
	}
	h := b.String()
	fmt.Println(strings.HasPrefix(h, "<!DOCTYPE html>"))
	fmt.Println(strings.Contains(h, "This run has no handoff sweep"))
	fmt.Println(strings.Count(h, `src="data:image/svg`) > 0)
	// Output:
	// true
	// true
	// true
}

// A report fits each distinct input once (model.Fits): a second report of
// the same run fits nothing again.
func TestFitsOncePerInput(t *testing.T) {
	run, err := claims.Load("h200-2026-12-03-quick")
	if err != nil {
		t.Fatal(err)
	}
	before := model.Fits.Made
	write(t, run)
	made := model.Fits.Made
	if made == before {
		t.Fatal("the report made no fit through model.Fits")
	}
	write(t, run)
	if model.Fits.Made != made {
		t.Errorf("the second report made %d fits again", model.Fits.Made-made)
	}
}
