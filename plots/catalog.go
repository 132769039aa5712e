package plots

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-gota/gota/dataframe"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// A Named figure is one figure (or table) of the notebooks and the report,
// defined once: the notebooks show it with nb.Figure(id), the report draws
// every entry of Catalog.
type Named struct {
	ID       string   // stable name: "states"
	Notebook string   // the notebook that shows it: "02"
	Groups   []string // the benchmark groups it reads
	// Claims are the ids of the paper's claims that the figure's data
	// measure, to be said under it.
	Claims []string
	// About is fixed prose on what the figure shows and how it is made:
	// method and mechanism, never a measured number.
	About string
	draw  func(rows []results.Row) (*Shown, error)
}

// Shown is a named figure drawn from some rows.
type Shown struct {
	Named
	Title   string
	Figure  *Figure // nil for a table-only entry
	Table   dataframe.DataFrame
	Caption string   // the platforms, runs and sizes drawn, from the rows
	Reading []string // sentences whose numbers are values of Table
	Rows    []results.Row
}

// Catalog returns every named figure in notebook order.
func Catalog() []Named { return append([]Named(nil), catalog...) }

// Lookup returns the named figure id.
func Lookup(id string) (Named, error) {
	if i := slices.IndexFunc(catalog, func(n Named) bool { return n.ID == id }); i >= 0 {
		return catalog[i], nil
	}
	var ids []string
	for _, n := range catalog {
		ids = append(ids, n.ID)
	}
	return Named{}, fmt.Errorf("plots: no figure %q: figures are %s", id, strings.Join(ids, ", "))
}

// Draw draws the figure from rows (those of other groups are left out).
// Nothing to draw is an error wrapping ErrNoData.
func (n Named) Draw(rows []results.Row) (*Shown, error) {
	s, err := n.draw(Where(rows, results.ColGroup, anys(n.Groups)...))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", n.ID, err)
	}
	s.Named = n
	if s.Caption == "" {
		s.Caption = caption(s.Rows)
	}
	if s.Figure != nil && s.Title != "" {
		s.Figure.Title = s.Title
	}
	return s, nil
}

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// figure completes a Shown from a drawn figure: its marks as the table.
func figure(title string, fig *Figure, err error, rows []results.Row, x, y string, reading ...string) (*Shown, error) {
	if err != nil {
		return nil, err
	}
	return &Shown{Title: title, Figure: fig, Table: PointsFrame(fig.Points(), x, y), Rows: rows, Reading: compact(reading)}, nil
}

func compact(ss []string) []string {
	return slices.DeleteFunc(ss, func(s string) bool { return s == "" })
}

// local keeps the rows of platforms the paper did not publish.
func local(rows []results.Row) []results.Row {
	return slices.DeleteFunc(slices.Clone(rows), func(r results.Row) bool { return published[r.Platform] })
}

// published are the paper's platforms.
var published = map[string]bool{"GB200": true, "GH200": true, "GB10": true}

// distinctOf returns the distinct non-empty values of a string column.
func distinctOf(rows []results.Row, col string) []string {
	var out []string
	for i := range rows {
		if v := formatValue(col, value(&rows[i], col)); v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// sizes writes the distinct working-set sizes of rows: "256 MiB", "64 MiB
// and 256 MiB".
func sizes(rows []results.Row) string {
	var ss []string
	for _, v := range distinct(column(rows, results.ColSizeBytes)) {
		if v > 0 {
			ss = append(ss, results.FormatBytes(int64(v)))
		}
	}
	return and(ss)
}

func and(ss []string) string {
	switch len(ss) {
	case 0:
		return ""
	case 1:
		return ss[0]
	}
	return strings.Join(ss[:len(ss)-1], ", ") + " and " + ss[len(ss)-1]
}

// at is a title naming the sizes rows hold.
func at(what string, rows []results.Row) string {
	if s := sizes(rows); s != "" {
		return what + ", " + s
	}
	return what
}

// caption says what a figure's rows are: per platform, the runs and sizes.
func caption(rows []results.Row) string {
	var parts []string
	for _, g := range split(rows, By(results.ColPlatform)) {
		runs := distinctOf(g.rows, results.ColRunID)
		what := g.label
		if len(runs) > 0 {
			what += " (" + strings.Join(runs, ", ")
			if s := sizes(g.rows); s != "" {
				what += "; " + s
			}
			what += ")"
		}
		parts = append(parts, what)
	}
	if len(parts) == 0 {
		return ""
	}
	return "Data: " + and(parts) + "."
}

var catalog = []Named{
	{ID: "trials", Notebook: "01", Groups: []string{results.GroupHBM, results.GroupHost, results.GroupTransfer},
		About: "Every other figure reduces a configuration to one mark: the median of its trials, with the 95 % interval of that median. Here are the trials behind one mark.",
		draw:  drawTrials},
	{ID: "paths", Notebook: "01", Groups: []string{results.GroupHBM, results.GroupHost, results.GroupTransfer},
		Claims: []string{"V-A.triad", "V-A.host-fraction", "V-A.host-hundreds", "V-A.copy-below-triad", "V-B.copy-h2d", "V-B.prefetch-below-copy", "V-B.prefetch-d2h-slower"},
		About:  "One group of marks per path (group, benchmark, mode, direction), one mark per platform, at the size nearest 1 GiB each platform measured.",
		draw:   drawPaths},
	{ID: "paths-size", Notebook: "01", Groups: []string{results.GroupHBM, results.GroupHost, results.GroupTransfer},
		About: "Each path against working-set size, for the platforms that measured a sweep (the paper states 1 GiB only).",
		draw:  drawPathsSize},
	{ID: "states", Notebook: "02", Groups: []string{results.GroupManaged},
		Claims: []string{"Abstract.state-dependent", "V-C.cold-fraction", "V-C.prefetch-matches", "V-C.reuse-fraction", "V-C.gh200-recover", "V-C.gb10-uniform"},
		About:  "The streaming kernel in four memory states, one group of marks per platform, at the size nearest 256 MiB each platform measured.",
		draw:   drawStates},
	{ID: "advice", Notebook: "02", Groups: []string{results.GroupManaged},
		Claims: []string{"VI-A.preferred-gpu-like-cold", "VI-A.preferred-cpu-below-cold", "VI-A.accessed-by-between", "VI-A.hints-not-residency"},
		About:  "The three cudaMemAdvise hints beside cold first touch and prefetch, at the size nearest 256 MiB.",
		draw:   drawAdvice},
	{ID: "states-size", Notebook: "02", Groups: []string{results.GroupManaged},
		Claims: []string{"VI-A.cold-1gib", "VI-A.prefetch-1gib", "VI-A.reuse-1gib"},
		About:  "The four states against size, for the platforms that measured a sweep; the prefetch's own time is the table's last column.",
		draw:   drawStatesSize},
	{ID: "stride", Notebook: "03", Groups: []string{results.GroupPattern},
		Claims: []string{"VI-B.explicit-stride-fall", "VI-B.resident-track-explicit", "VI-B.resident-stride64", "VI-B.cold-stride1", "VI-B.cold-stride-collapse", "VI-B.gh200-prefetch-1024"},
		About:  "Useful bandwidth against stride at the footprint nearest 256 MiB, one line per memory state.",
		draw:   drawStride},
	{ID: "random", Notebook: "03", Groups: []string{results.GroupPattern},
		Claims: []string{"VI-B.random-cold", "VI-B.random-recover"},
		About:  "Random access: `random` touches every element once in shuffled order; `sparse_random N` touches one element in N, in random order.",
		draw:   drawRandom},
	{ID: "page-touch", Notebook: "03", Groups: []string{results.GroupPattern},
		Claims: []string{"VI-C.page-touch-fall", "VI-C.page-touch-64k"},
		About:  "One element touched per interval (4 KiB, 64 KiB, 2 MiB), one line per memory state.",
		draw:   drawPageTouch},
	{ID: "oversub", Notebook: "04", Groups: []string{results.GroupOversub},
		Claims: []string{"VII-A.flat-below-capacity", "VII-A.prefetch-105", "VII-A.prefetch-125"},
		About:  "The streaming pattern's bandwidth against the footprint as a percentage of GPU memory; bands are the paper's ranges stated in its text, the dashed line is 100 %.",
		draw:   drawOversub},
	{ID: "handoff", Notebook: "05", Groups: []string{results.GroupHandoff},
		Claims: []string{"VII-B.host-fastest-r1", "VII-B.order-r32"},
		About:  "Time per CPU update against the GPU passes R after it, at the size nearest 1 GiB: markers are measured medians, dashed lines the model T = F + R·G fitted to each platform's own rows at that size.",
		draw:   drawHandoff},
	{ID: "handoff-cost", Notebook: "05", Groups: []string{results.GroupHandoff},
		Claims: []string{"VII-B.managed-extra", "VII-B.prefetch-removes-extra", "VII-B.explicit-small-extra"},
		About:  "One iteration at R = 1 against its parts measured alone (the CPU update, one GPU pass): the extra is what alternating adds, split into what was timed inside it.",
		draw:   drawHandoffCost},
	{ID: "table3", Notebook: "06", Groups: []string{results.GroupHandoff},
		About: "Table III's published model (dashed) over the alternating times the paper states in its text (R = 1, 2 and 32).",
		draw:  drawTable3},
	{ID: "refit", Notebook: "06", Groups: []string{results.GroupHandoff},
		About: "The same fit applied to the handoff times the paper states in its text: G from its GPU-only times, F from its R = 1 times, validated at the other R it states (2 and 32). F can agree with Table III only within the rounding of the text's times.",
		draw:  drawRefit},
	{ID: "crossovers", Notebook: "06", Groups: []string{results.GroupHandoff},
		About: "Where each pair of policies' lines cross, R* = (F_a − F_b) / (G_b − G_a), from the paper's GB200 times refitted: below R* the smaller fixed cost wins, above it the smaller per-pass cost.",
		draw:  drawCrossovers},
	{ID: "advisor", Notebook: "06", Groups: []string{results.GroupHandoff},
		About: "The advisor (model.Advise) ranks the policies for a workload by predicted time; here the paper's GB200 model at 1 GiB and a few reuse counts.",
		draw:  drawAdvisor},
	{ID: "model", Notebook: "06", Groups: []string{results.GroupHandoff},
		About: "The model fitted to each platform measured with a sweep (G from GPU-only, F from R = 1, validated at every other R), drawn at the size nearest 1 GiB.",
		draw:  drawModel},
}

// errNoModel says a figure needs a fitted model the rows do not give.
var errNoModel = errors.New("no reuse model can be fitted")

// fitted fits the model to every platform of rows at one size each.
func fitted(rows []results.Row) ([]model.PlatformFit, []model.Calibration) {
	fits := model.FitEach(rows, model.Options{})
	return fits, model.AllModels(fits)
}

// publishedModels are Table III's parameters, for the rows that hold
// GB200's published handoff times.
func publishedModels(rows []results.Row) ([]model.Calibration, error) {
	if len(Where(rows, results.ColPlatform, "GB200")) == 0 {
		return nil, nil
	}
	return datasets.ModelParameters("paper-gb200")
}
