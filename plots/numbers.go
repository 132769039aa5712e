package plots

import (
	"math"

	"github.com/umlab/umlab/results"
)

// pick describes the rows matching every col, value pair of kv: the same
// median and interval a mark of them shows. It reports false when none
// match or when they are of several configurations (a number that pools
// them is never said).
func pick(rows []results.Row, y string, kv ...any) (Point, bool) {
	rows = drawable(filterAll(rows, kv...), y)
	if len(rows) == 0 {
		return Point{}, false
	}
	pt := describe(rows, y)
	return pt, pt.Configs == 1
}

// filterAll keeps the rows matching every col, value pair of kv.
func filterAll(rows []results.Row, kv ...any) []results.Row {
	for i := 0; i+1 < len(kv); i += 2 {
		rows = Where(rows, kv[i].(string), kv[i+1])
	}
	return rows
}

func gb(v float64) string { return results.FormatRate(v) }
func ms(v float64) string { return results.FormatNumber(v) + " ms" }

// pct writes a as a percentage of b.
func pct(a, b float64) string {
	if b == 0 || math.IsNaN(a) || math.IsNaN(b) {
		return ""
	}
	return results.FormatNumber(100*a/b) + " %"
}

func size(v float64) string { return results.FormatBytes(int64(v)) }
