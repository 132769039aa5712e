package report

import (
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/go-gota/gota/dataframe"

	"github.com/umlab/umlab/claims"
	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/plots"
	"github.com/umlab/umlab/results"
)

// Table is an HTML table's content: a header and rows of cells, plus a
// class per row of the summary (flagged rows) and the claims (verdicts).
type Table struct {
	Head  []string
	Rows  [][]string
	Class []string
}

// Figure is one figure of the report: a named figure of package plots.
type Figure struct {
	ID, Notebook, Title, Caption string
	Reading                      []string
	URI                          template.URL // a data: URI of an SVG drawn by plots, never user text
	Err                          string       // why the figure could not be drawn
}

// Field is one line of the provenance table.
type Field struct{ Name, Value string }

type page struct {
	Title, Simulated, Methods, Facts, CountsText, ModelNote string
	Resamples, Flagged                                      int
	Provenance, UVM, Counts                                 []Field
	Notes                                                   []string
	Summary, Flags, Claims                                  Table
	Figures                                                 []Figure
	Model                                                   []modelPart
}

type modelPart struct {
	Title string
	Table Table
	Text  string
}

//go:embed page.html
var pageHTML string

var tmpl = template.Must(template.New("report").Parse(pageHTML))

// Write renders the report of a run as one self-contained HTML page, with
// the sections the package documentation lists; every string goes through
// html/template's escaping. against (may be nil) is the other platform's
// run for the cross-platform claims, as in claims.Options.
func Write(w io.Writer, run, against *claims.Run) error {
	xs, err := claims.Evaluate(run, claims.Options{Against: against})
	if err != nil {
		return err
	}
	p := page{Title: "umlab report: " + run.Name, Facts: run.Facts.Describe(), Methods: plots.Methods(run.Rows, run.Meta),
		Resamples: results.SummaryResamples, Notes: run.Meta.Notes, CountsText: claims.CountsText(xs), Figures: figures(run),
		Claims: claimsTable(xs)}
	if results.Simulated(run.Rows) {
		p.Simulated = results.SimulatedBanner
	}
	p.Provenance, p.UVM = provenance(run.Meta)
	counts := claims.Counts(xs)
	for _, v := range slices.Sorted(maps.Keys(counts)) {
		p.Counts = append(p.Counts, Field{v.String(), fmt.Sprint(counts[v])})
	}
	p.Summary, p.Flags, p.Flagged = summary(run)
	p.Model, p.ModelNote = modelParts(run)
	return tmpl.Execute(w, p)
}

func provenance(m results.Metadata) ([]Field, []Field) {
	d := m.Device
	when := func(ok bool, s string) string {
		if ok {
			return s
		}
		return ""
	}
	f := slices.DeleteFunc([]Field{
		{"platform", m.Platform}, {"kind", m.Kind}, {"device", d.Name}, {"UUID", d.UUID},
		{"compute capability", d.ComputeCapability},
		{"SMs", when(d.SMs > 0, fmt.Sprint(d.SMs))},
		{"memory", when(d.MemoryBytes > 0, results.FormatBytes(int64(d.MemoryBytes)))},
		{"memory peak", when(d.PeakMemoryGBps > 0, fmt.Sprintf("%.0f GB/s", d.PeakMemoryGBps))},
		{"host link", when(d.PCIeGeneration > 0,
			fmt.Sprintf("PCIe Gen%d x%d, %.0f GB/s per direction raw", d.PCIeGeneration, d.PCIeWidth, d.PeakHostLinkGBps))},
		{"memory organisation", d.MemoryOrganization}, {"CPU", d.CPU}, {"driver", d.DriverVersion},
		{"CUDA (driver)", when(d.CUDADriverVersion > 0,
			fmt.Sprintf("%d.%d", d.CUDADriverVersion/1000, d.CUDADriverVersion%1000/10))},
		{"toolkit", d.Toolkit},
		{"clocks", when(d.SMClockMHz > 0,
			fmt.Sprintf("SM %d MHz (max %d), memory %d MHz", d.SMClockMHz, d.MaxSMClockMHz, d.MemClockMHz))},
		{"throttle reasons", d.ThrottleReasons},
		{"managed memory capabilities", when(m.Kind != datasets.Published, fmt.Sprintf("concurrent managed access %t, "+
			"pageable memory access %t (host page tables %t), direct managed access from host %t, can map host memory %t",
			d.ConcurrentManagedAccess, d.PageableMemoryAccess, d.PageableUsesHostPageTables, d.DirectManagedAccessFromHost,
			d.CanMapHostMemory))},
		{"run", m.RunID}, {"command", m.Command}, {"commit", m.Commit}, {"module", m.Module}, {"host", m.Host},
		{"start", when(!m.Start.IsZero(), m.Start.UTC().Format(time.RFC3339))},
		{"end", when(!m.End.IsZero(), m.End.UTC().Format(time.RFC3339))},
		{"source", m.Source},
	}, func(f Field) bool { return f.Value == "" || f.Value == "0" })
	var uvm []Field
	for _, k := range slices.Sorted(maps.Keys(m.UVMParams)) {
		uvm = append(uvm, Field{k, m.UVMParams[k]})
	}
	return f, uvm
}

var summaryCols = []string{results.ColGroup, results.ColBenchmark, results.ColMode, results.ColPattern, results.ColPolicy,
	results.ColPhase, results.ColDirection, results.ColSizeBytes, results.ColStrideElements, results.ColPageIntervalBytes,
	results.ColOversubPct, results.ColReusePasses, results.ColN, results.ColMedianGBps, results.ColMedianGBpsLo, results.ColMedianGBpsHi,
	results.ColCVPct, results.ColMedianKernelMs, results.ColMedianTotalMs, results.ColMedianTotalMsLo, results.ColMedianTotalMsHi,
	results.ColPctOfPeak, results.ColFlags}

// summary is every configuration with its medians' 95 % intervals, the
// flags' legend with their counts, and how many configurations are flagged.
func summary(run *claims.Run) (Table, Table, int) {
	sum := results.Summarize(run.Rows, run.Meta.Device.SummaryOptions())
	t := frameTable(results.SummaryFrame(sum).Select(summaryCols))
	flagged := 0
	for i, s := range sum {
		if len(s.Flags) > 0 && i < len(t.Class) {
			flagged++
			t.Class[i] = "flagged"
		}
	}
	return t, frameTable(plots.Flags(sum)), flagged
}

// frameTable converts a frame to cells (results.TableCells): columns
// empty everywhere dropped, sizes in binary units, numbers to four
// significant digits.
func frameTable(df dataframe.DataFrame) Table {
	head, rows, err := results.TableCells(df)
	if err != nil {
		return Table{Head: []string{"error"}, Rows: [][]string{{err.Error()}}, Class: []string{""}}
	}
	for i, h := range head {
		head[i] = plots.ColumnTitle(h)
	}
	return Table{Head: head, Rows: rows, Class: make([]string, len(rows))}
}

// figures draws the named figures of the notebooks (plots.Catalog) for
// the run beside the paper's platforms, as SVG (PNG where SVG fails).
func figures(run *claims.Run) []Figure {
	var rows []results.Row
	for _, n := range []string{claims.GB200, claims.GH200, claims.GB10} {
		if run.Meta.RunID == n {
			continue
		}
		if r, _, err := datasets.Load(n); err == nil {
			rows = append(rows, r...)
		}
	}
	rows = append(rows, run.Rows...)
	var out []Figure
	for _, n := range plots.Catalog() {
		f := Figure{ID: n.ID, Notebook: n.Notebook, Title: n.ID, Caption: n.About}
		s, err := n.Draw(rows)
		switch {
		case errors.Is(err, plots.ErrNoData):
			f.Err = "nothing to draw on these data: " + err.Error()
		case err != nil:
			f.Err = err.Error()
		case s.Figure == nil:
			continue // a table-only entry: the report has its own tables
		default:
			f.Title, f.Caption, f.Reading = s.Title, n.About+" "+s.Caption, s.Reading
			f.URI, err = dataURI(s.Figure)
			if err != nil {
				f.Err = err.Error()
			}
		}
		out = append(out, f)
	}
	return out
}

// dataURI renders a figure as an SVG data: URI, or as PNG where SVG fails.
func dataURI(f *plots.Figure) (template.URL, error) {
	if svg, err := f.SVG(); err == nil {
		return template.URL("data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(svg)), nil
	}
	png, err := f.PNG()
	if err != nil {
		return "", err
	}
	return template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(png)), nil
}

func modelParts(run *claims.Run) ([]modelPart, string) {
	var out []modelPart
	if ps, err := datasets.ModelParameters(run.Meta.RunID); err == nil && len(ps) > 0 {
		out = append(out, modelPart{Title: "Published parameters", Table: frameTable(plots.ModelTable(ps)),
			Text: "Table III as published (the paper gives no intervals)."})
	}
	rows := model.HandoffPhases(run.Rows)
	if len(rows) == 0 {
		return out, "This run has no handoff sweep: the reuse model T = F + R·G needs one (umbench run --groups handoff)."
	}
	rep, err := model.Fits.Fit(rows, model.Options{})
	if err != nil {
		return out, "The reuse model could not be fitted: " + err.Error()
	}
	out = append(out, modelPart{Title: "Calibrated on this run (G from GPU-only, F from R = 1; validated on R > 1)", Table: calibrationTable(rep),
		Text: fmt.Sprintf("Median APE over the validation points of %s and larger: %s %% (95 %% interval %s); the model names the measured fastest policy in %d of %d size–reuse cases (%d of the %d beyond noise, where always naming %s scores %d).",
			results.FormatBytes(rep.MinSizeBytes), results.FormatNumber(rep.MedianAPE), interval(rep.MedianAPECI.Lo, rep.MedianAPECI.Hi),
			rep.Matches, rep.Compared, rep.DecisiveMatches, rep.Decisive, rep.ConstantPolicy, rep.ConstantMatches)})
	out = append(out, modelPart{Title: "Fastest policy: predicted against measured", Table: frameTable(rep.FastestFrame())})
	out = append(out, modelPart{Title: "Crossovers", Table: crossoverTable(rep.Crossovers)})
	out = append(out, modelPart{Title: "Validation points", Table: frameTable(rep.PointsFrame())})
	return out, ""
}

// interval writes a 95 % interval, or "–" when there is none.
func interval(lo, hi float64) string {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return "–"
	}
	return results.FormatNumber(lo) + "–" + results.FormatNumber(hi)
}

// calibrationTable is the calibration with the interval of each median APE.
func calibrationTable(rep *model.Report) Table {
	t := Table{Head: []string{"policy", "size", "F (ms)", "G (ms/pass)", "points", "median APE (%)", "95 % interval", "max APE (%)"}}
	for _, c := range rep.Calibration {
		t.Rows = append(t.Rows, []string{c.Policy, results.FormatBytes(c.SizeBytes), results.FormatNumber(c.F), results.FormatNumber(c.G),
			fmt.Sprint(c.Points), results.FormatNumber(c.MedianAPE), interval(c.MedianAPECI.Lo, c.MedianAPECI.Hi), results.FormatNumber(c.MaxAPE)})
	}
	return t
}

// crossoverTable is every crossover with the interval of R* and its verdict.
func crossoverTable(cs []model.Crossover) Table {
	t := Table{Head: []string{"size", "policies", "R*", "95 % interval", "faster below", "faster above", "verdict"}}
	for _, c := range cs {
		t.Rows = append(t.Rows, []string{results.FormatBytes(c.SizeBytes), c.A + " / " + c.B, results.FormatNumber(c.R),
			interval(c.RCI.Lo, c.RCI.Hi), c.Below, c.Above, c.Verdict})
	}
	return t
}

func claimsTable(xs []claims.Check) Table {
	t := Table{Head: []string{"claim", "section", "statement", "paper", "measured", "verdict", "reason"}}
	for _, x := range xs {
		t.Rows = append(t.Rows, x.Cells())
		t.Class = append(t.Class, "v-"+strings.Join(strings.FieldsFunc(x.Verdict.String(), func(r rune) bool { return r == ' ' || r == ',' }), "-"))
	}
	return t
}
