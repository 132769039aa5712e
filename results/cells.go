package results

import (
	"fmt"
	"math"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// TableCell formats element i of the frame column s, called name, for a
// text or HTML table: NaN, NA and zero integers (other than n) empty;
// columns ending in _bytes in binary units (FormatBytes; measured byte
// counts, float columns, to three significant digits); counts (names
// ending in _faults, _groups or _count) as whole numbers; other numbers to
// four significant digits.
func TableCell(s series.Series, i int, name string) string {
	e := s.Elem(i)
	switch s.Type() {
	case series.Float:
		v := e.Float()
		if math.IsNaN(v) {
			return ""
		}
		switch {
		case strings.HasSuffix(name, "_bytes") && v >= 0 && v == math.Trunc(v) && v < 1<<62:
			return formatBytes(int64(v), 3)
		case isCount(name):
			return fmt.Sprintf("%.0f", v)
		}
		return fmt.Sprintf("%.4g", v)
	case series.Int:
		v, _ := e.Int()
		if v == 0 && name != ColN {
			return ""
		}
		if strings.HasSuffix(name, "_bytes") {
			return FormatBytes(int64(v))
		}
		return fmt.Sprint(v)
	}
	if e.IsNA() {
		return ""
	}
	return e.String()
}

// isCount says whether a column holds counts (faults, fault groups), shown
// as whole numbers.
func isCount(name string) bool {
	return strings.HasSuffix(name, "_faults") || strings.HasSuffix(name, "_groups") || strings.HasSuffix(name, "_count")
}

// TableCells turns a frame into a table's header and rows of TableCell
// text, leaving out the columns that are empty in every row.
func TableCells(df dataframe.DataFrame) (head []string, rows [][]string, err error) {
	if df.Err != nil {
		return nil, nil, df.Err
	}
	for _, name := range df.Names() {
		s := df.Col(name)
		for i := 0; i < s.Len(); i++ {
			if TableCell(s, i, name) != "" {
				head = append(head, name)
				break
			}
		}
	}
	for i := 0; i < df.Nrow(); i++ {
		row := make([]string, len(head))
		for j, name := range head {
			row[j] = TableCell(df.Col(name), i, name)
		}
		rows = append(rows, row)
	}
	return head, rows, nil
}
