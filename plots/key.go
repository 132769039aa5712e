package plots

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/umlab/umlab/results"
)

// A Key names the columns whose values make a row's series, panel or
// category: rows with equal values fall together. Its zero value means "the
// figure's default"; [By] with no columns puts every row together.
type Key struct {
	cols []string
	set  bool
}

// By returns the key made of the given columns, in order. Values are joined
// with spaces in labels; empty strings, zero integers and NaN are skipped, and
// columns ending in _bytes are written as sizes (256 MiB).
func By(cols ...string) Key { return Key{cols: cols, set: true} }

// Single is the key that puts every row in one group: one panel, one series.
var Single = By()

// has says whether the key holds column c.
func (k Key) has(c string) bool { return slices.Contains(k.cols, c) }

// identity are the columns that tell two measurements apart: rows that
// agree on all of them are trials of one configuration of one run. The
// GPU comes first: it is what most often splits a mark (two GPUs of one
// node), and it explains the run too.
var identity = append(append([]string{results.ColGPUUUID}, slices.DeleteFunc(slices.Clone(results.ConfigColumns),
	func(c string) bool { return c == results.ColGPUUUID })...), results.ColRunID)

// identityOf is a row's measurement: its configuration and run.
func identityOf(r *results.Row) string { return results.ConfigKey(*r) + "\x00" + r.RunID }

// pooledBy returns the first identity column that varies among the rows
// of some cell (the rows cell maps to the same string), or "": the column
// a figure adds to one of its keys so that no mark pools two
// configurations (two GPUs, two groups, two strides, two runs).
func pooledBy(rows []results.Row, cell func(r *results.Row) string) string {
	first := map[string]*results.Row{}
	n := len(identity) // identity[:n] may still vary
	for i := range rows {
		r := &rows[i]
		c := cell(r)
		f, ok := first[c]
		if !ok {
			first[c] = r
			continue
		}
		if identityOf(f) == identityOf(r) {
			continue
		}
		if j := slices.IndexFunc(identity[:n], func(col string) bool {
			return formatValue(col, value(f, col)) != formatValue(col, value(r, col))
		}); j >= 0 {
			n = j
		}
	}
	if n == len(identity) {
		return ""
	}
	return identity[n]
}

// split returns k with as few identity columns added as make every cell
// (cell(r, k) with k's label) hold one configuration: one at a time, in
// identity order.
func (k Key) split(rows []results.Row, cell func(r *results.Row, k Key) string) Key {
	for {
		col := pooledBy(rows, func(r *results.Row) string { return cell(r, k) })
		if col == "" || k.has(col) {
			return k
		}
		k = By(append(slices.Clone(k.cols), col)...)
	}
}

func (k Key) or(def Key) Key {
	if k.set {
		return k
	}
	return def
}

// validate reports an unknown column.
func (k Key) validate() error {
	for _, c := range k.cols {
		if _, ok := results.ColumnOf(c); !ok {
			return fmt.Errorf("plots: unknown column %q", c)
		}
	}
	return nil
}

// label is the text of r's key values.
func (k Key) label(r *results.Row) string {
	var parts []string
	for _, c := range k.cols {
		if s := formatValue(c, value(r, c)); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " ")
}

// order is the sort key of r's key values.
func (k Key) order(r *results.Row) []sortVal {
	o := make([]sortVal, len(k.cols))
	for i, c := range k.cols {
		o[i] = makeSortVal(c, value(r, c))
	}
	return o
}

func value(r *results.Row, col string) any {
	v, err := r.Value(col)
	if err != nil {
		return ""
	}
	return v
}

// formatValue writes one column value for a label or a table cell.
func formatValue(col string, v any) string {
	switch x := v.(type) {
	case string:
		if col == results.ColGPUUUID && len(x) > 12 {
			return x[:12] // GPU-57761561: enough to tell a node's GPUs apart
		}
		return x
	case int64:
		if x == 0 {
			return ""
		}
		if strings.HasSuffix(col, "_bytes") {
			return results.FormatBytes(x)
		}
		return strconv.FormatInt(x, 10)
	case float64:
		if math.IsNaN(x) {
			return ""
		}
		if col == results.ColOversubPct {
			return strconv.FormatFloat(x, 'g', 4, 64) + "%"
		}
		return strconv.FormatFloat(x, 'g', 4, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

// vocabulary fixes the order of the values of some columns, the paper's
// order where it has one; other values sort after these, alphabetically.
var vocabulary = map[string][]string{
	results.ColPlatform:  {"GB200", "GH200", "GB10"},
	results.ColGroup:     results.Groups,
	results.ColBenchmark: results.Benchmarks,
	results.ColMode:      results.Modes,
	results.ColPolicy:    results.Policies, // Table III
	results.ColPattern:   results.Patterns,
	results.ColDirection: results.Directions,
	results.ColPhase:     append(slices.Clone(results.Phases), "baseline", "extra"), // the last two: the paper datasets' (datasets.PhaseBaseline, PhaseExtra)
	results.ColBound:     results.Bounds,
}

// sortVal orders values: numbers by value, strings by vocabulary rank and
// then alphabetically.
type sortVal struct {
	num  float64
	rank int
	str  string
}

func makeSortVal(col string, v any) sortVal {
	switch x := v.(type) {
	case string:
		r := slices.Index(vocabulary[col], x)
		if r < 0 {
			r = len(vocabulary[col])
		}
		return sortVal{rank: r, str: x}
	case int64:
		return sortVal{num: float64(x)}
	case float64:
		if math.IsNaN(x) {
			return sortVal{num: math.Inf(1)}
		}
		return sortVal{num: x}
	case bool:
		if x {
			return sortVal{num: 1}
		}
	}
	return sortVal{}
}

func compareVals(a, b []sortVal) int {
	return slices.CompareFunc(a, b, func(x, y sortVal) int {
		return cmp.Or(cmp.Compare(x.num, y.num), cmp.Compare(x.rank, y.rank), strings.Compare(x.str, y.str))
	})
}

// group is the rows that share one key label.
type group struct {
	label string
	order []sortVal
	rows  []results.Row
}

// split groups rows by k, sorted by the key's values.
func split(rows []results.Row, k Key) []group {
	var at results.FirstSeen[string]
	var gs []group
	for i := range rows {
		l := k.label(&rows[i])
		j, isNew := at.Of(l)
		if isNew {
			gs = append(gs, group{label: l, order: k.order(&rows[i])})
		}
		gs[j].rows = append(gs[j].rows, rows[i])
	}
	slices.SortStableFunc(gs, func(a, b group) int { return compareVals(a.order, b.order) })
	return gs
}

// Where returns the rows whose column col equals one of vals. Values compare
// as written in a CSV file, so an int, int64 or float64 1024 all match the
// integer 1024, and "GB200" matches the platform GB200. An unknown column
// matches nothing.
func Where(rows []results.Row, col string, vals ...any) []results.Row {
	return filter(rows, col, vals, true)
}

// Except returns the rows whose column col equals none of vals (compared as
// by [Where]).
func Except(rows []results.Row, col string, vals ...any) []results.Row {
	return filter(rows, col, vals, false)
}

// filter keeps the rows whose value of col is among vals (in) or not (!in);
// a row without the column is never among them.
func filter(rows []results.Row, col string, vals []any, in bool) []results.Row {
	want := map[string]bool{}
	for _, v := range vals {
		want[canon(v)] = true
	}
	var out []results.Row
	for i := range rows {
		v, err := rows[i].Value(col)
		if (err == nil && want[canon(v)]) == in {
			out = append(out, rows[i])
		}
	}
	return out
}

func canon(v any) string {
	if x, ok := v.(float64); ok && x == math.Trunc(x) && math.Abs(x) < 1<<53 {
		return strconv.FormatInt(int64(x), 10) // 2097152, not 2.097152e+06
	}
	return fmt.Sprint(v)
}

// Nearest keeps, for each platform and benchmark, the rows whose size_bytes
// is the one closest to target on a logarithmic scale (ties go to the
// larger). It lets a figure compare the paper's 256 MiB points with a local
// run that measured other sizes. Rows without a size are dropped.
func Nearest(rows []results.Row, target int64) []results.Row {
	type kb struct{ platform, group, benchmark string }
	best := map[kb]int64{}
	dist := func(s int64) float64 { return math.Abs(math.Log(float64(s) / float64(target))) }
	for _, r := range rows {
		if r.SizeBytes <= 0 {
			continue
		}
		k := kb{r.Platform, r.Group, r.Benchmark}
		b, ok := best[k]
		if !ok || dist(r.SizeBytes) < dist(b) || (dist(r.SizeBytes) == dist(b) && r.SizeBytes > b) {
			best[k] = r.SizeBytes
		}
	}
	var out []results.Row
	for _, r := range rows {
		if r.SizeBytes > 0 && best[kb{r.Platform, r.Group, r.Benchmark}] == r.SizeBytes {
			out = append(out, r)
		}
	}
	return out
}

// Platforms returns the platforms of rows in figure order: the paper's
// (GB200, GH200, GB10) first, then the others alphabetically.
func Platforms(rows []results.Row) []string {
	var out []string
	for _, g := range split(rows, By(results.ColPlatform)) {
		out = append(out, g.label)
	}
	return out
}
