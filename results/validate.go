package results

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// checkRow rejects values no measurement can have: negative or infinite
// times, rates and percentages, negative sizes and counts, control
// characters in text columns, and a bound that is not one of Bounds. ReadCSV applies it to every row, so every
// reading command (summary, compare, model, decompose, merge, resume)
// refuses such a file with its line.
func checkRow(r *Row) error {
	for i, c := range Columns {
		switch x := fieldAt[i](r).(type) {
		case *float64:
			if math.IsInf(*x, 0) || *x < 0 {
				return fmt.Errorf("column %s: %s is impossible (allowed: a finite number ≥ 0, or empty)", c.Name, strconv.FormatFloat(*x, 'g', -1, 64))
			}
		case *int64:
			if *x < 0 {
				return fmt.Errorf("column %s: %d is impossible (allowed: an integer ≥ 0)", c.Name, *x)
			}
		case *string:
			if printableASCII(*x) {
				continue
			}
			for i, ch := range *x {
				if c.Name == ColNote && (ch == '\n' || ch == '\t') {
					continue // free text may have lines and tabs
				}
				if ch < 0x20 || ch == 0x7f || (ch >= 0x80 && ch < 0xa0) {
					return fmt.Errorf("column %s: control character %U at byte %d (text columns hold printable text only)", c.Name, ch, i)
				}
			}
		}
	}
	if r.Bound != "" && !slices.Contains(Bounds, r.Bound) {
		return fmt.Errorf("column %s: %q is not a resource (allowed: %v, or empty)", ColBound, r.Bound, Bounds)
	}
	return nil
}

// printableASCII reports whether s holds only printable ASCII (most text
// of a results file), which checkRow need not read rune by rune.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// checkCounterRow rejects what no counter pass can record: a configuration
// column checkRow refuses, and a negative or infinite count, byte count or
// time (cols: the file's columns, to name the bad one).
func checkCounterRow(r *CounterRow, cols []counterCol) error {
	if err := checkRow(&r.Config); err != nil {
		return err
	}
	for _, c := range cols {
		if x, ok := c.Value(r).(float64); ok && (math.IsInf(x, 0) || x < 0) {
			return fmt.Errorf("column %s: %s is impossible (allowed: a finite number ≥ 0, or empty)", c.Name, strconv.FormatFloat(x, 'g', -1, 64))
		}
	}
	return nil
}
