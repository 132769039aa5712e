package claims

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"github.com/umlab/umlab/internal/sanitize"
	"github.com/umlab/umlab/results"
)

// Columns of the claims table.
var tableColumns = []string{"id", "section", "claim", "paper", "measured", "verdict", "reason"}

// Cells returns one check as the claims table's cells: id, section,
// statement, the paper's figure, the measured figure with its 95 %
// interval, the verdict and the reason (with the runs the figure rests on
// and the ambiguity the claim rests on, when there is one).
func (x Check) Cells() []string {
	paper := x.Paper.String()
	if x.Paper.Text != "" && x.Paper.Text != paper {
		paper += " (" + x.Paper.Text + ")"
	}
	meas := x.Measured.WithCI()
	if x.Measured.Text != "" {
		meas += " (" + x.Measured.Text + ")"
	}
	reason := x.reasonAndRuns()
	if x.Claim.Ambiguity != "" && x.Verdict != NotMeasured {
		if reason != "" {
			reason += ". "
		}
		reason += "Ambiguity: " + x.Claim.Ambiguity
	}
	return []string{x.Claim.ID, x.Claim.Section, x.Claim.Statement, paper, meas, x.Verdict.String(), reason}
}

// reasonAndRuns is the reason followed by the runs the figure rests on.
func (x Check) reasonAndRuns() string {
	if len(x.RestsOn) == 0 {
		return x.Reason
	}
	reason := strings.TrimSuffix(x.Reason, ".")
	if reason != "" {
		reason += ". "
	}
	return reason + "Rests on " + strings.Join(x.RestsOn, ", ")
}

// Counts returns how many checks have each verdict.
func Counts(xs []Check) map[Verdict]int {
	out := map[Verdict]int{}
	for _, x := range xs {
		out[x.Verdict]++
	}
	return out
}

// CountsText summarises the verdicts in one line.
func CountsText(xs []Check) string {
	c := Counts(xs)
	var parts []string
	for v := Reproduces; v <= NotMeasured; v++ {
		if c[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c[v], v))
		}
	}
	return fmt.Sprintf("%d claims: %s", len(xs), strings.Join(parts, ", "))
}

// IntervalsNote says how the measured figures' intervals were made, and
// heads the claims of simulated data with the SIMULATED banner.
func IntervalsNote(xs []Check) string {
	s := "Measured figures carry 95 % bootstrap intervals [lo–hi]: trials resampled (the handoff sweeps round by round, as measured), " +
		"each handoff configuration with a draw of the CPU update's configuration-to-configuration variation measured in the run, " +
		"runs resampled where several of one machine are combined, and a single run's figure with its claim's run-to-run deviation " +
		"measured over five full H200 runs. A verdict needs the whole interval on one side of the paper's tolerance or direction; otherwise it is inconclusive."
	for _, x := range xs {
		if x.Simulated {
			return results.SimulatedBanner + "\n" + s
		}
	}
	return s
}

// Write prints the checks as "table" (aligned text: id, section, paper,
// measured with its interval, verdict; the reason on the next lines), "md"
// (a Markdown table) or "csv" (every column); table and md start with
// IntervalsNote.
func Write(w io.Writer, xs []Check, format string) error {
	switch format {
	case "csv":
		cw := csv.NewWriter(w)
		if err := cw.Write(tableColumns); err != nil {
			return err
		}
		for _, x := range xs {
			if err := cw.Write(x.Cells()); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	case "md":
		var b strings.Builder
		b.WriteString(IntervalsNote(xs) + "\n\n| claim | section | paper | measured | verdict | reason |\n|---|---|---|---|---|---|\n")
		for _, x := range xs {
			c := x.Cells()
			fmt.Fprintf(&b, "| **%s** %s | %s | %s | %s | %s | %s |\n", mdCell(c[0]), mdCell(c[2]), mdCell(c[1]), mdCell(c[3]), mdCell(c[4]), mdCell(c[5]), mdCell(c[6]))
		}
		_, err := io.WriteString(w, b.String())
		return err
	case "table", "":
		// Aligned columns; each reason goes on the lines below its claim,
		// wrapped, so that it does not widen the columns.
		head := []string{"id", "section", "paper", "measured", "verdict"}
		rows := [][]string{head}
		for _, x := range xs {
			rows = append(rows, []string{x.Claim.ID, x.Claim.Section, x.Paper.String(), x.Measured.WithCI(), x.Verdict.String()})
		}
		var b strings.Builder
		for _, l := range strings.Split(IntervalsNote(xs), "\n") {
			b.WriteString(strings.Join(results.Wrap(l, 110), "\n") + "\n")
		}
		b.WriteString("\n")
		for i, l := range results.AlignLines(rows) {
			b.WriteString(l + "\n")
			if i > 0 && xs[i-1].Reason != "" {
				for _, r := range results.Wrap(xs[i-1].reasonAndRuns(), 110) {
					b.WriteString("    " + r + "\n")
				}
			}
		}
		b.WriteString(CountsText(xs) + "\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	return fmt.Errorf("claims: format %q: want table, md or csv", format)
}

// mdCell makes s one Markdown table cell of plain text: its own line
// breaks become spaces, then sanitize.Markdown escapes what data could put
// there (a |, a link, an image, raw HTML, a terminal escape).
func mdCell(s string) string {
	return sanitize.Markdown(strings.ReplaceAll(s, "\n", " "))
}
