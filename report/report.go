package report

import (
	"fmt"
	"html/template"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/go-gota/gota/dataframe"

	"github.com/umlab/umlab/claims"
	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/plots"
	"github.com/umlab/umlab/results"
)

// Options tune Write.
type Options struct {
	// Against is passed to claims.Evaluate for the cross-platform claims.
	Against *claims.Run
	// Generated, when set, is printed as the report's date; zero prints none,
	// so that a report of a dataset is reproducible byte for byte.
	Generated time.Time
}

// Table is an HTML table's content: a header and rows of cells, plus a
// class per row (for flagged summary rows or verdicts).
type Table struct {
	Head  []string
	Rows  [][]string
	Class []string
}

// Figure is one figure of the report.
type Figure struct {
	Notebook, Title, Caption string
	URI                      template.URL // a data: URI built by plots, never user text
	Err                      string       // why the figure could not be drawn
}

// Field is one line of the provenance table.
type Field struct{ Name, Value string }

type page struct {
	Title, Generated string
	Name, Platform   string
	Facts            string
	Provenance       []Field
	UVM              []Field
	Notes, Caveats   []string
	Counts           []Field
	CountsText       string
	Summary          Table
	Flagged          int
	FlagCounts       string
	Figures          []Figure
	Model            []modelPart
	ModelNote        string
	Claims           Table
}

type modelPart struct {
	Title string
	Table Table
	Text  string
}

// Write renders the report of a run as one self-contained HTML page:
// device and provenance, the claims at a glance, the summary with quality
// flags, the figures of the six notebooks (PNG data URIs), the reuse model
// with its validation and the claims table. Every string goes through
// html/template's escaping.
func Write(w io.Writer, run *claims.Run, o Options) error {
	xs, err := claims.Evaluate(run, claims.Options{Against: o.Against})
	if err != nil {
		return err
	}
	p := page{Title: "umlab report: " + run.Name, Name: run.Name, Platform: run.Meta.Platform, Facts: run.Facts.Describe()}
	if !o.Generated.IsZero() {
		p.Generated = o.Generated.UTC().Format("2006-01-02 15:04 UTC")
	}
	p.Provenance, p.UVM = provenance(run.Meta)
	p.Notes = run.Meta.Notes
	for _, n := range strings.Split(run.Name, " + ") {
		if c := datasets.Caveats(n); c != "" {
			p.Caveats = append(p.Caveats, n+": "+c)
		}
	}
	counts := claims.Counts(xs)
	for v := claims.Reproduces; v <= claims.NotMeasured; v++ {
		p.Counts = append(p.Counts, Field{v.String(), fmt.Sprint(counts[v])})
	}
	p.CountsText = claims.CountsText(xs)
	p.Summary, p.Flagged, p.FlagCounts = summary(run)
	p.Figures = figures(run)
	p.Model, p.ModelNote = modelParts(run)
	p.Claims = claimsTable(xs)
	return tmpl.Execute(w, p)
}

func provenance(m results.Metadata) ([]Field, []Field) {
	d := m.Device
	var f []Field
	add := func(name, v string) {
		if v != "" && v != "0" {
			f = append(f, Field{name, v})
		}
	}
	add("platform", m.Platform)
	add("kind", m.Kind)
	add("device", d.Name)
	add("UUID", d.UUID)
	add("compute capability", d.ComputeCapability)
	if d.SMs > 0 {
		add("SMs", fmt.Sprint(d.SMs))
	}
	if d.MemoryBytes > 0 {
		add("memory", results.FormatBytes(int64(d.MemoryBytes)))
	}
	if d.PeakMemoryGBps > 0 {
		add("memory peak", fmt.Sprintf("%.0f GB/s", d.PeakMemoryGBps))
	}
	if d.PCIeGeneration > 0 {
		add("host link", fmt.Sprintf("PCIe Gen%d x%d, %.0f GB/s per direction raw", d.PCIeGeneration, d.PCIeWidth, d.PeakHostLinkGBps))
	}
	add("memory organisation", d.MemoryOrganization)
	add("CPU", d.CPU)
	add("driver", d.DriverVersion)
	if d.CUDADriverVersion > 0 {
		add("CUDA (driver)", fmt.Sprintf("%d.%d", d.CUDADriverVersion/1000, d.CUDADriverVersion%1000/10))
	}
	add("toolkit", d.Toolkit)
	if d.SMClockMHz > 0 {
		add("clocks", fmt.Sprintf("SM %d MHz (max %d), memory %d MHz", d.SMClockMHz, d.MaxSMClockMHz, d.MemClockMHz))
	}
	add("throttle reasons", d.ThrottleReasons)
	if m.Kind != datasets.Published {
		add("managed memory capabilities", fmt.Sprintf("concurrent managed access %t, pageable memory access %t (host page tables %t), direct managed access from host %t, can map host memory %t",
			d.ConcurrentManagedAccess, d.PageableMemoryAccess, d.PageableUsesHostPageTables, d.DirectManagedAccessFromHost, d.CanMapHostMemory))
	}
	add("run", m.RunID)
	add("command", m.Command)
	add("commit", m.Commit)
	add("module", m.Module)
	add("host", m.Host)
	if !m.Start.IsZero() {
		add("start", m.Start.UTC().Format(time.RFC3339))
	}
	if !m.End.IsZero() {
		add("end", m.End.UTC().Format(time.RFC3339))
	}
	add("source", m.Source)
	var uvm []Field
	for k, v := range m.UVMParams {
		uvm = append(uvm, Field{k, v})
	}
	sort.Slice(uvm, func(i, j int) bool { return uvm[i].Name < uvm[j].Name })
	return f, uvm
}

var summaryCols = []string{results.ColGroup, results.ColBenchmark, results.ColMode, results.ColPattern, results.ColPolicy,
	results.ColPhase, results.ColDirection, results.ColSizeBytes, results.ColStrideElements, results.ColPageIntervalBytes,
	results.ColOversubPct, results.ColReusePasses, results.ColN, results.ColMedianGBps, results.ColCVPct,
	results.ColMedianKernelMs, results.ColMedianTotalMs, results.ColPctOfPeak, results.ColFlags}

func summary(run *claims.Run) (Table, int, string) {
	d := run.Meta.Device
	sum := results.Summarize(run.Rows, results.SummaryOptions{PeakMemoryGBps: d.PeakMemoryGBps,
		PeakHostLinkGBps: d.PeakHostLinkGBps, ThrottleReasons: d.ThrottleReasons})
	t := frameTable(results.SummaryFrame(sum).Select(summaryCols))
	flagged := 0
	per := map[string]int{}
	for i, s := range sum {
		cls := ""
		if len(s.Flags) > 0 {
			flagged++
			cls = "flagged"
			for _, f := range s.Flags {
				per[f]++
			}
		}
		if i < len(t.Class) {
			t.Class[i] = cls
		}
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(per)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, per[k]))
	}
	return t, flagged, strings.Join(parts, ", ")
}

// frameTable converts a frame to cells (results.TableCells): columns
// empty everywhere dropped, sizes in binary units, numbers to four
// significant digits.
func frameTable(df dataframe.DataFrame) Table {
	head, rows, err := results.TableCells(df)
	if err != nil {
		return Table{Head: []string{"error"}, Rows: [][]string{{err.Error()}}, Class: []string{""}}
	}
	return Table{Head: head, Rows: rows, Class: make([]string, len(rows))}
}

// figures draws the figures of the six notebooks for the run beside the
// paper's platforms.
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
	grp := func(gs ...any) []results.Row { return plots.Where(rows, results.ColGroup, gs...) }
	type spec struct {
		nb, title, caption string
		draw               func() (*plots.Figure, error)
	}
	specs := []spec{
		{"01", "Memory paths at 1 GiB", "Median useful bandwidth of the HBM, host-mapped and transfer paths (paper Section V-A, V-B).", func() (*plots.Figure, error) {
			return plots.Bars(plots.Nearest(grp("hbm", "host", "transfer"), 1<<30), "gbps", plots.Options{
				Title: "Memory paths at 1 GiB: median useful bandwidth", Category: plots.By("group", "benchmark", "mode", "direction")})
		}},
		{"01", "Memory paths against size", "", func() (*plots.Figure, error) {
			return plots.BandwidthVsSize(grp("hbm", "host", "transfer"), plots.Options{Series: plots.By("group", "benchmark", "mode", "direction")})
		}},
		{"02", "Streaming kernel at 256 MiB: memory state", "Explicit, cold, prefetched and reused (Section V-C).", func() (*plots.Figure, error) {
			r := plots.Nearest(plots.Where(grp("managed"), "benchmark", "stream"), 256<<20)
			return plots.Bars(plots.Where(r, "mode", "explicit", "managed_cold", "managed_prefetch", "managed_reuse"), "gbps", plots.Options{Title: "Streaming kernel at 256 MiB: memory state"})
		}},
		{"02", "Advice against prefetch and reuse, 256 MiB", "Section VI-A.", func() (*plots.Figure, error) {
			return plots.Bars(plots.Except(plots.Nearest(grp("managed"), 256<<20), "mode", "explicit"), "gbps", plots.Options{
				Title: "Advice against prefetch and reuse, 256 MiB", Category: plots.By("benchmark", "mode")})
		}},
		{"02", "Managed states against size", "", func() (*plots.Figure, error) {
			return plots.BandwidthVsSize(plots.Where(grp("managed"), "benchmark", "stream"), plots.Options{})
		}},
		{"03", "Stride sweep", "Section VI-B.", func() (*plots.Figure, error) {
			return plots.StrideSweep(plots.Nearest(grp("pattern"), 256<<20), plots.Options{})
		}},
		{"03", "Random access, 256 MiB", "Section VI-B.", func() (*plots.Figure, error) {
			return plots.Bars(plots.Nearest(plots.Where(grp("pattern"), "benchmark", "random"), 256<<20), "gbps", plots.Options{Title: "Random access, 256 MiB: useful bandwidth"})
		}},
		{"03", "Page touch", "Section VI-C.", func() (*plots.Figure, error) {
			return plots.PageTouch(plots.Nearest(grp("pattern"), 256<<20), plots.Options{})
		}},
		{"04", "Oversubscription", "Section VII-A. The paper's percentages are of CUDA-visible memory; a run's are of the free capacity of its sweep.", func() (*plots.Figure, error) {
			return plots.Oversubscription(grp("oversub"), plots.Options{})
		}},
		{"05", "Handoff and reuse at 1 GiB", "Section VII-B, with the reuse model fitted per platform (dashed).", func() (*plots.Figure, error) {
			r := plots.Nearest(grp("handoff"), 1<<30)
			return plots.HandoffReuse(r, plots.AllModels(plots.FitReuse(r, model.Options{})), plots.Options{})
		}},
	}
	if published, err := plots.PublishedModels(claims.GB200); err == nil {
		specs = append(specs, spec{"06", "Table III's model against the paper's times", "Section VIII-C.", func() (*plots.Figure, error) {
			return plots.HandoffReuse(plots.Where(grp("handoff"), "platform", "GB200"), published, plots.Options{Title: "Table III's model (dashed) against the times the paper states"})
		}})
	}
	var out []Figure
	for _, s := range specs {
		f := Figure{Notebook: s.nb, Title: s.title, Caption: s.caption}
		fig, err := s.draw()
		if err == nil {
			var uri string
			if uri, err = fig.DataURI(); err == nil {
				f.URI = template.URL(uri) // built from PNG bytes by plots
			}
		}
		if err != nil {
			f.Err = err.Error()
		}
		out = append(out, f)
	}
	return out
}

func modelParts(run *claims.Run) ([]modelPart, string) {
	var out []modelPart
	if ps, err := datasets.ModelParameters(run.Meta.RunID); err == nil && len(ps) > 0 {
		t := Table{Head: []string{"policy", "size", "F (ms)", "G (ms/pass)", "median APE (%)", "max APE (%)", "source"}}
		for _, p := range ps {
			t.Rows = append(t.Rows, []string{p.Policy, results.FormatBytes(p.SizeBytes), fmt.Sprintf("%.2f", p.F), fmt.Sprintf("%.3f", p.G),
				fmt.Sprintf("%.2f", p.MedianAPE), fmt.Sprintf("%.2f", p.MaxAPE), p.Source})
			t.Class = append(t.Class, "")
		}
		out = append(out, modelPart{Title: "Published parameters", Table: t,
			Text: "Table III as published. Below, F is refitted from the paper's stated times (F = T(R = 1) − G) and validated on the only other points the text gives (R = 2 for two policies, R = 32), so the errors differ from Table III's, which rest on R = 2…32."})
	}
	var rows []results.Row
	for _, r := range run.Rows {
		if r.Group == "handoff" && (r.Phase == "cpu_only" || r.Phase == "gpu_only" || r.Phase == "alternating") {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return out, "This run has no handoff sweep: the reuse model T = F + R·G needs one (umbench run --groups handoff)."
	}
	rep, err := model.Fit(rows, model.Options{})
	if err != nil {
		return out, "The reuse model could not be fitted: " + err.Error()
	}
	out = append(out, modelPart{Title: "Calibrated on this run (G from GPU-only, F from R = 1; validated on R > 1)", Table: frameTable(rep.CalibrationFrame()),
		Text: fmt.Sprintf("Median APE over the validation points of %s and larger: %s %%; the model names the measured fastest policy in %d of %d size–reuse cases.",
			results.FormatBytes(rep.MinSizeBytes), results.FormatNumber(rep.MedianAPE), rep.Matches, rep.Compared)})
	out = append(out, modelPart{Title: "Fastest policy: predicted against measured", Table: frameTable(rep.FastestFrame())})
	out = append(out, modelPart{Title: "Crossovers", Table: frameTable(rep.CrossoverFrame())})
	out = append(out, modelPart{Title: "Validation points", Table: frameTable(rep.PointsFrame())})
	return out, ""
}

var verdictClass = map[claims.Verdict]string{
	claims.Reproduces: "v-ok", claims.Qualitative: "v-qual", claims.KnownReason: "v-known",
	claims.Unexplained: "v-bad", claims.Inconclusive: "v-none", claims.NotMeasured: "v-none",
}

func claimsTable(xs []claims.Check) Table {
	t := Table{Head: []string{"claim", "section", "statement", "paper", "measured", "verdict", "reason"}}
	for _, x := range xs {
		t.Rows = append(t.Rows, x.Cells())
		t.Class = append(t.Class, verdictClass[x.Verdict])
	}
	return t
}

var tmpl = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; color: #222; line-height: 1.4; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 2em; }
table { border-collapse: collapse; font-size: .85em; margin: .5em 0 1em; }
th, td { border: 1px solid #ddd; padding: .25em .5em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; position: sticky; top: 0; }
tr.flagged td { background: #fff6e0; }
tr.v-ok td.verdict { background: #dff3df; } tr.v-qual td.verdict { background: #eef6d8; }
tr.v-known td.verdict { background: #e2ecf8; } tr.v-bad td.verdict { background: #f8dcdc; }
tr.v-none td.verdict { background: #eee; color: #555; }
table.claims { width: 100%; } table.claims td.stmt { max-width: 20em; } td.reason { min-width: 26em; font-size: .95em; }
figure { margin: 1em 0 2em; } figure img { max-width: 100%; border: 1px solid #eee; }
figcaption { font-size: .9em; color: #444; }
.counts span { display: inline-block; margin-right: 1em; }
details { margin: .5em 0; } .err { color: #a00; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p>Made by <code>umbench report</code> (umlab){{if .Generated}} on {{.Generated}}{{end}}. It checks the run against
Graddon, Jarmusch and Chandrasekaran, "Understanding NVIDIA Grace–Blackwell Unified Memory Through
Placement-Controlled Microbenchmarks" (arXiv:2610.20354). Bandwidths are useful bytes per second with 1 GB = 10<sup>9</sup> bytes
(umlab's convention; the paper does not define GB).</p>

<h2 id="device">Device and provenance</h2>
<p>{{.Facts}}</p>
<table>{{range .Provenance}}<tr><th>{{.Name}}</th><td>{{.Value}}</td></tr>{{end}}</table>
{{if .Notes}}<p>Notes:</p><ul>{{range .Notes}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Caveats}}<p>Caveats found after the run:</p><ul>{{range .Caveats}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .UVM}}<details><summary>nvidia_uvm module parameters ({{len .UVM}})</summary>
<table>{{range .UVM}}<tr><th>{{.Name}}</th><td>{{.Value}}</td></tr>{{end}}</table></details>{{end}}

<h2 id="glance">The paper's claims at a glance</h2>
<p class="counts">{{range .Counts}}<span><b>{{.Value}}</b> {{.Name}}</span>{{end}}</p>
<p>{{.CountsText}}. The full table is <a href="#claims">at the end</a>.</p>

<h2 id="summary">Summary with quality flags</h2>
<p>{{len .Summary.Rows}} configurations; {{.Flagged}} flagged{{if .FlagCounts}} ({{.FlagCounts}}){{end}}.
short_kernel: the median kernel is under 50 µs, so timer and launch costs weigh; high_cv: trials vary by more than 5 %;
above_peak: faster than the device's theoretical peak; waived: not supported on this device.</p>
<details><summary>every configuration</summary>
<table><tr>{{range .Summary.Head}}<th>{{.}}</th>{{end}}</tr>
{{range $i, $r := .Summary.Rows}}<tr class="{{index $.Summary.Class $i}}">{{range $r}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table></details>

<h2 id="figures">Figures of the notebooks</h2>
<p>This run beside the paper's platforms (GB200, GH200, GB10: the figures the paper states in its text).</p>
{{range .Figures}}<figure><figcaption><b>Notebook {{.Notebook}}: {{.Title}}.</b> {{.Caption}}</figcaption>
{{if .URI}}<img src="{{.URI}}" alt="{{.Title}}">{{else}}<p class="err">Not drawn: {{.Err}}</p>{{end}}</figure>
{{end}}

<h2 id="model">The reuse model T = F + R·G (Section VIII)</h2>
{{if .ModelNote}}<p>{{.ModelNote}}</p>{{end}}
{{range .Model}}<h3>{{.Title}}</h3>{{if .Text}}<p>{{.Text}}</p>{{end}}
<table><tr>{{range .Table.Head}}<th>{{.}}</th>{{end}}</tr>
{{range .Table.Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}

<h2 id="claims">The paper's claims on this run</h2>
<p>{{.CountsText}}. Each claim's paper figure is computed from the embedded paper datasets; the measured figure with the same
function from this run. Verdicts: reproduces (the claimed relation holds), reproduces qualitatively (same direction,
different magnitude), differs for a known reason (from the device facts and the run's own data), differs unexplained,
not measured (and why).</p>
<table class="claims"><tr>{{range .Claims.Head}}<th>{{.}}</th>{{end}}</tr>
{{range $i, $r := .Claims.Rows}}<tr class="{{index $.Claims.Class $i}}"><td><code>{{index $r 0}}</code></td><td>{{index $r 1}}</td><td class="stmt">{{index $r 2}}</td><td>{{index $r 3}}</td><td>{{index $r 4}}</td><td class="verdict">{{index $r 5}}</td><td class="reason">{{index $r 6}}</td></tr>
{{end}}</table>
</body>
</html>
`))
