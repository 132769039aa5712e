package nb

import (
	"errors"
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"github.com/janpfeifer/gonb/gonbui"

	"github.com/umlab/umlab/plots"
	"github.com/umlab/umlab/results"
)

// Markdown displays Markdown text (LaTeX works in JupyterLab).
func Markdown(md string) {
	gonbui.DisplayMarkdown(md)
	gonbui.Sync()
}

// Markdownf displays formatted Markdown text.
// Its string, error and Stringer arguments are escaped (see Text): the
// format is markup, the arguments are data.
func Markdownf(format string, args ...any) { Markdown(fmt.Sprintf(format, escapeArgs(args)...)) }

// HTML displays an HTML fragment.
func HTML(h string) {
	gonbui.DisplayHtml(h)
	gonbui.Sync()
}

// PNG displays a PNG image.
func PNG(png []byte) {
	gonbui.DisplayPng(png)
	gonbui.Sync()
}

// bullets writes lines of data as a Markdown list.
func bullets(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString("- " + Text(l) + "\n")
	}
	return b.String()
}

// Note displays a one-line remark, set apart from the narrative.
func Note(format string, args ...any) {
	Markdown("> " + fmt.Sprintf(format, escapeArgs(args)...))
}

// Show displays a figure, taking the two results of a plots function
// directly: nb.Show(plots.StrideSweep(rows, plots.Options{})). With
// plots.ErrNoData it displays a note saying so; any other error, from the
// figure or from rendering it, panics and so fails the cell.
func Show(fig *plots.Figure, err error) {
	if err == nil {
		var png []byte
		png, err = fig.PNG()
		if err == nil {
			PNG(png)
			simulatedCaption()
			return
		}
	}
	fail(err)
}

func fail(err error) {
	if errors.Is(err, plots.ErrNoData) {
		Note("Nothing to show: %v.", err)
		return
	}
	failCell(err)
}

// failCell displays err and fails the cell.
func failCell(err error) {
	HTML(`<pre style="color:#b00">` + html.EscapeString(err.Error()) + `</pre>`)
	panic(err)
}

// Table displays a gota DataFrame as an HTML table (see TableHTML). A frame
// whose Err is plots.ErrNoData gives a note; any other Err fails the cell.
func Table(df dataframe.DataFrame) {
	if df.Err != nil {
		fail(df.Err)
		return
	}
	HTML(TableHTML(df))
	simulatedCaption()
}

// TableFolded displays a table as Table does, folded under a one-line
// summary ("what (N rows)") when it has more than a dozen rows.
func TableFolded(df dataframe.DataFrame, what string) {
	if df.Err != nil || df.Nrow() <= 12 {
		Table(df)
		return
	}
	HTML(fmt.Sprintf("<details><summary>%s (%d rows)</summary>\n%s</details>", html.EscapeString(what), df.Nrow(), TableHTML(df)))
	simulatedCaption()
}

// SimulatedCaption is the caption under every figure and table shown after
// a Load whose local rows came from the simulated GPU.
const SimulatedCaption = "Simulated GPU (umkit/simgpu): the local platform's numbers are made up, never measurements."

// simulatedCaption captions a figure or table when the last Load's local
// rows are simulated.
func simulatedCaption() {
	if lastSimulated() {
		Note("%s", SimulatedCaption)
	}
}

// lastSimulated says whether the last Load's local rows are simulated.
func lastSimulated() bool { return last.localSrc.Kind == KindSimulated }

// MaxRows is the most rows TableHTML writes; the rest are counted in a
// last line.
var MaxRows = 200

// TableHTML writes a DataFrame as an HTML table for a notebook: numbers
// right-aligned, floats written as results.FormatNumber does (3963, 14.1,
// 0.043) with NaN as a dash, columns named *_bytes as sizes (256 MiB), and
// every cell escaped.
func TableHTML(df dataframe.DataFrame) string {
	var b strings.Builder
	b.WriteString(`<table class="umlab-table" style="border-collapse:collapse;font-size:90%">` + "\n<thead><tr>")
	names, types := df.Names(), df.Types()
	align := make([]string, len(names))
	for i, n := range names {
		align[i] = "left"
		if types[i] == series.Float || types[i] == series.Int {
			align[i] = "right"
		}
		fmt.Fprintf(&b, `<th style="text-align:%s;padding:2px 8px;border-bottom:1px solid #888">%s</th>`,
			align[i], html.EscapeString(plots.ColumnTitle(n)))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	rows := df.Nrow()
	for r := 0; r < min(rows, MaxRows); r++ {
		b.WriteString("<tr>")
		for c, n := range names {
			fmt.Fprintf(&b, `<td style="text-align:%s;padding:2px 8px">%s</td>`, align[c], html.EscapeString(cell(n, types[c], df.Elem(r, c))))
		}
		b.WriteString("</tr>\n")
	}
	if rows > MaxRows {
		fmt.Fprintf(&b, `<tr><td colspan="%d">… %d more rows</td></tr>`+"\n", len(names), rows-MaxRows)
	}
	b.WriteString("</tbody></table>\n")
	return b.String()
}

func cell(name string, t series.Type, e series.Element) string {
	if e.IsNA() {
		return "–"
	}
	switch t {
	case series.Float:
		v := e.Float()
		if math.IsNaN(v) {
			return "–"
		}
		return results.FormatNumber(v)
	case series.Int:
		v, err := e.Int()
		if err != nil {
			return e.String()
		}
		if strings.HasSuffix(name, "_bytes") {
			if v == 0 {
				return ""
			}
			return results.FormatBytes(int64(v))
		}
	}
	return e.String()
}
