// Package datacheck holds the checks that the tests of plots and nb make
// on generated words: that every number a sentence states is a value of
// the table shown with it, and that a title or caption names no size,
// platform or run the data do not hold.
package datacheck

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/umlab/umlab/results"
)

// A Number is a figure stated in a sentence, with its unit and the number
// of significant digits it was written with.
type Number struct {
	Text   string
	Value  float64
	Unit   string // "GB/s", "ms", "%", "×"
	Digits int
}

// number matches a figure with its unit, or a range of two ("3947–4003
// GB/s"), whose first figure has the unit too.
var number = regexp.MustCompile(`(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?:\s?–\s?(\d+(?:\.\d+)?(?:e[-+]?\d+)?))?\s?(GB/s|ms|%|×)`)

// Numbers returns the figures with a unit in s.
func Numbers(s string) []Number {
	var out []Number
	for _, m := range number.FindAllStringSubmatch(s, -1) {
		for _, f := range m[1:3] {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				continue
			}
			digits := len(strings.TrimLeft(strings.ReplaceAll(strings.Split(f, "e")[0], ".", ""), "-0"))
			out = append(out, Number{Text: f + " " + m[3], Value: v, Unit: m[3], Digits: max(digits, 1)})
		}
	}
	return out
}

// matches says whether v, written with the digits of n, reads as n.
func (n Number) matches(v float64) bool {
	if math.IsNaN(v) {
		return false
	}
	if n.Value == 0 {
		return math.Abs(v) < 0.5
	}
	// A value written with d significant digits (or as an integer above
	// 100) is within half a unit of its last digit.
	mag := math.Floor(math.Log10(math.Abs(n.Value)))
	unit := math.Pow(10, mag-float64(n.Digits-1))
	if math.Abs(n.Value) >= 100 {
		unit = max(unit, 1)
	}
	return math.Abs(v-n.Value) <= unit/2*(1+1e-9)
}

// Values returns every number of a frame's numeric columns.
func Values(df dataframe.DataFrame) []float64 {
	var out []float64
	for _, name := range df.Names() {
		c := df.Col(name)
		if c.Type() != series.Float && c.Type() != series.Int {
			continue
		}
		out = append(out, c.Float()...)
	}
	return out
}

// Sentence checks that every figure s states is among values, or, for a
// percentage or ratio, follows from two figures with a unit stated in the
// same sentence (a/b, a/b − 1, in percent or as a factor). It returns the
// figures that are neither.
func Sentence(s string, values []float64) []string {
	var bad []string
	for _, sent := range strings.Split(s, ". ") {
		nums := Numbers(strings.ReplaceAll(sent, "95 % interval", "interval"))
		for _, n := range nums {
			if slices.ContainsFunc(values, n.matches) || ((n.Unit == "%" || n.Unit == "×") && derived(n, nums)) {
				continue
			}
			bad = append(bad, n.Text)
		}
	}
	return bad
}

// derived says whether n is a ratio of two of the figures of nums.
func derived(n Number, nums []Number) bool {
	for _, a := range nums {
		for _, b := range nums {
			if a == b || b.Value == 0 || a.Unit != b.Unit || a.Unit == "%" || a.Unit == "×" {
				continue
			}
			r := a.Value / b.Value
			if slices.ContainsFunc([]float64{r, 100 * r, 100 * (r - 1), 100 * (1 - r)}, n.matchesLoosely) {
				return true
			}
		}
	}
	return false
}

// matchesLoosely allows for the rounding of the figures a ratio was
// computed from (each written to three or four digits).
func (n Number) matchesLoosely(v float64) bool {
	return n.matches(v) || math.Abs(v-n.Value) <= 0.01*math.Abs(n.Value)+0.005
}

var (
	sizeName     = regexp.MustCompile(`\b(\d+(?:\.\d+)?) (KiB|MiB|GiB|TiB)\b`)
	platformName = regexp.MustCompile(`\b(GB200|GH200|GB10|H100|H200|B200|Fake)\b`)
)

// Names checks that text names only sizes, platforms and runs that rows
// hold (a size as any of their size, footprint or page-interval columns),
// and returns those it names that they do not.
func Names(text string, rows []results.Row) []string {
	sizes, platforms, runs := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, r := range rows {
		for _, b := range []int64{r.SizeBytes, r.FootprintBytes, r.PageIntervalBytes} {
			if b > 0 {
				sizes[results.FormatBytes(b)] = true
			}
		}
		platforms[r.Platform] = true
		runs[r.RunID] = true
	}
	var bad []string
	for _, m := range sizeName.FindAllString(text, -1) {
		if !sizes[m] {
			bad = append(bad, m)
		}
	}
	for _, m := range platformName.FindAllString(text, -1) {
		if !platforms[m] {
			bad = append(bad, m)
		}
	}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune(" ,;()", r) }) {
		w = strings.TrimSuffix(w, ".")
		if isRunName(w) && !runs[w] {
			bad = append(bad, w)
		}
	}
	return bad
}

// isRunName says whether w looks like an embedded dataset's name.
func isRunName(w string) bool {
	return strings.HasPrefix(w, "paper-") || (strings.HasPrefix(w, "h200") && strings.Count(w, "-") >= 3)
}
