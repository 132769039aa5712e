package results

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// TableWidth is the width every default text table and report keeps to
// (issue 17); wide output shows the rest.
const TableWidth = 120

var fleetRE = regexp.MustCompile(`(?:^|;\s*)fleet=(isolated|concurrent)(?::(\d+))?`)

// FleetMode reads a row note's fleet token ("fleet=isolated",
// "fleet=concurrent:N"): the mode ("" when the row is not from a fleet
// worker) and, for concurrent rows, how many GPUs ran at once. It is the
// one reader of the token (fleet writes it).
func FleetMode(note string) (mode string, peers int) {
	m := fleetRE.FindStringSubmatch(note)
	if m == nil {
		return "", 0
	}
	peers = 1
	if m[2] != "" {
		peers, _ = strconv.Atoi(m[2])
	}
	return m[1], peers
}

// Wrap breaks text into lines of at most width runes, at spaces (a word
// longer than width stands alone on its line).
func Wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// AlignLines lays rows (all as long) out as text with text/tabwriter:
// columns two spaces apart, each as wide as its widest cell in runes,
// trailing blanks trimmed.
func AlignLines(rows [][]string) []string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

// CutRunes shortens s to n runes, the last one "…", when it is longer.
func CutRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// ShortGPU is the first 8 hex digits of a GPU UUID, as tables print it.
func ShortGPU(uuid string) string {
	u := strings.TrimPrefix(uuid, "GPU-")
	if len(u) > 8 {
		return u[:8]
	}
	return u
}
