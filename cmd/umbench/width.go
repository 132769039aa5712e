package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/go-gota/gota/dataframe"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/stats"
)

// withCI writes a median with its interval (none for NaN bounds), the
// bounds to the median's decimals: "4355 [4353, 4356]", "12.97 [12.50,
// 13.40]"; below 0.01 in short scientific notation, "7.06e-4 [6.93e-4, 7.38e-4]".
func withCI(median float64, ci stats.Interval) string {
	if math.IsNaN(median) {
		return ""
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', results.Decimals4(median), 64) }
	if a := math.Abs(median); a > 0 && a < 0.01 {
		f = shortExp
	}
	if math.IsNaN(ci.Lo) || math.IsNaN(ci.Hi) {
		return f(median)
	}
	return fmt.Sprintf("%s [%s, %s]", f(median), f(ci.Lo), f(ci.Hi))
}

// pctWithCI writes a percentage with its interval to two decimals:
// "1.28 [0.18, 4.33]".
func pctWithCI(v float64, ci stats.Interval) string {
	if math.IsNaN(v) {
		return ""
	}
	if math.IsNaN(ci.Lo) || math.IsNaN(ci.Hi) {
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.2f [%.2f, %.2f]", v, ci.Lo, ci.Hi)
}

// shortExp writes v to three significant digits in scientific notation
// with the exponent's leading zero dropped: 7.06e-4.
func shortExp(v float64) string {
	s := strconv.FormatFloat(v, 'e', 2, 64)
	if i := strings.IndexAny(s, "e"); i >= 0 && len(s) > i+3 && s[i+2] == '0' {
		s = s[:i+2] + s[i+3:]
	}
	return s
}

// textTable is a table laid out as text: columns two spaces apart, each as
// wide as its widest cell, trailing blanks trimmed.
type textTable struct {
	head []string
	rows [][]string
	// optional columns, by index, in the order they are left out while a
	// line is wider than the limit.
	optional []int
	// cut is a column whose cells are shortened (ending in …) when leaving
	// out the optional columns is not enough; -1 for none.
	cut int
}

// write lays the table out within width columns where it can (leaving out
// optional columns, then shortening the cut column to no less than 12
// runes), prints it and returns the names of the columns left out.
func (t textTable) write(w io.Writer, width int) (dropped []string, err error) {
	keep := slices.Repeat([]bool{true}, len(t.head))
	lines := t.layout(keep, -1)
	for _, o := range t.optional {
		if maxRunes(lines) <= width {
			break
		}
		keep[o] = false
		dropped = append(dropped, t.head[o])
		lines = t.layout(keep, -1)
	}
	if over := maxRunes(lines) - width; over > 0 && t.cut >= 0 {
		widest := 0
		for _, r := range t.rows {
			widest = max(widest, utf8.RuneCountInString(r[t.cut]))
		}
		lines = t.layout(keep, max(widest-over, 12))
	}
	for _, l := range lines {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return dropped, err
		}
	}
	return dropped, nil
}

func (t textTable) layout(keep []bool, cutTo int) []string {
	var all [][]string
	for _, r := range append([][]string{t.head}, t.rows...) {
		var cells []string
		for i, c := range r {
			if i == t.cut && cutTo > 0 {
				c = results.CutRunes(c, cutTo)
			}
			if keep[i] {
				cells = append(cells, c)
			}
		}
		all = append(all, cells)
	}
	return results.AlignLines(all)
}

func maxRunes(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, utf8.RuneCountInString(l))
	}
	return w
}

// fitLines breaks the lines of text longer than width at spaces. A
// continuation starts under the line's last column, the text after its
// last gap of two or more spaces before the break (a table's prose column:
// a crossover's verdict), or four spaces in from the line's own indent for
// prose ("Note: ..."). Lines without a space to break at stay long.
func fitLines(text string, width int) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		out = append(out, breakLine(l, width))
	}
	return strings.Join(out, "\n")
}

// fitWriter collects a command's text output and writes it, lines broken
// to fit results.TableWidth, on flush.
type fitWriter struct {
	w   io.Writer
	buf bytes.Buffer
}

func (f *fitWriter) Write(p []byte) (int, error) { return f.buf.Write(p) }

func (f *fitWriter) flush() {
	io.WriteString(f.w, fitLines(f.buf.String(), results.TableWidth))
	f.buf.Reset()
}

// fitted returns w as it is with wide, else a writer whose lines are
// broken to fit results.TableWidth when done is called.
func fitted(w io.Writer, wide bool) (_ io.Writer, done func()) {
	if wide {
		return w, func() {}
	}
	f := &fitWriter{w: w}
	return f, f.flush
}

func breakLine(l string, width int) string {
	r := []rune(l)
	if len(r) <= width {
		return l
	}
	own := len(r) - len([]rune(strings.TrimLeft(l, " ")))
	indent := own + 4
	if g := strings.LastIndex(string(r[:width]), "  "); g > 0 {
		col := len([]rune(strings.TrimRight(string(r[:width])[:g], " "))) // the gap's start, in runes
		for col < len(r) && r[col] == ' ' {
			col++
		}
		if col <= width*2/3 {
			indent = col
		}
	}
	return wrapAfter(r, width, 0, strings.Repeat(" ", indent))
}

// wrap breaks a line at spaces so that no piece is longer than width
// (unless one word is), continuing with indent.
func wrap(line string, width int, indent string) string {
	return wrapAfter([]rune(line), width, len(indent), indent)
}

// wrapAfter breaks r at spaces into lines of at most width runes, the
// first breaking after rune first and the others after their indent.
func wrapAfter(r []rune, width, first int, indent string) string {
	var out []string
	for ; len(r) > width; first = len(indent) {
		cut := lastBreak(r, width)
		if cut <= first {
			break
		}
		out = append(out, strings.TrimRight(string(r[:cut]), " "))
		r = []rune(indent + strings.TrimLeft(string(r[cut:]), " "))
	}
	return strings.Join(append(out, string(r)), "\n")
}

// lastBreak is the index of the last space in r[:width+1] at which a line
// may break, -1 if none: not the one inside a size ("64 KiB").
func lastBreak(r []rune, width int) int {
	for j := min(width, len(r)-1); j > 0; j-- {
		if r[j] != ' ' {
			continue
		}
		next := string(r[j+1:])
		if i := strings.IndexAny(next, " ,;–)"); i >= 0 {
			next = next[:i]
		}
		if !slices.Contains([]string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}, next) {
			return j
		}
	}
	return -1
}

// writeTable prints a frame as aligned text (results.TableCells).
func writeTable(w io.Writer, df dataframe.DataFrame) error {
	head, rows, err := results.TableCells(df)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, f := range append([][]string{head}, rows...) {
		fmt.Fprintln(tw, strings.Join(f, "\t"))
	}
	return tw.Flush()
}
