package results

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// header returns the schema's column names in file order.
func header() []string { return Names(Columns) }

// record formats one row in file order with full float precision; NaN is
// written as an empty field.
func record(r *Row) []string {
	rec := make([]string, len(Columns))
	for i, c := range Columns {
		v, _ := r.Value(c.Name)
		switch x := v.(type) {
		case string:
			rec[i] = x
		case int64:
			rec[i] = strconv.FormatInt(x, 10)
		case float64:
			if !math.IsNaN(x) {
				rec[i] = strconv.FormatFloat(x, 'g', -1, 64)
			}
		case bool:
			rec[i] = strconv.FormatBool(x)
		}
	}
	return rec
}

// WriteCSV writes rows with a header line.
func WriteCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(header()); err != nil {
		return err
	}
	for i := range rows {
		if err := cw.Write(record(&rows[i])); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ErrMalformed is wrapped by every error ReadCSV returns for bad content.
var ErrMalformed = errors.New("malformed results CSV")

// ReadCSV parses a results CSV. name (a file name) is used in errors, which
// say the line and column of the first bad value. Schema columns the file
// lacks take their empty value (NaN for numbers), except group, benchmark,
// mode and size_bytes, which every file must have.
func ReadCSV(r io.Reader, name string) ([]Row, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: %w: empty file, no header line", name, ErrMalformed)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, ErrMalformed, err)
	}
	kinds := map[string]Kind{}
	for _, c := range Columns {
		kinds[c.Name] = c.Kind
	}
	seen := map[string]bool{}
	for i, h := range head {
		h = strings.TrimSpace(h)
		head[i] = h
		if _, ok := kinds[h]; !ok {
			return nil, fmt.Errorf("%s:1: %w: unknown column %q (is the header line missing?)", name, ErrMalformed, h)
		}
		if seen[h] {
			return nil, fmt.Errorf("%s:1: %w: column %q appears twice", name, ErrMalformed, h)
		}
		seen[h] = true
	}
	for _, c := range []string{ColGroup, ColBenchmark, ColMode, ColSizeBytes} {
		if !seen[c] {
			return nil, fmt.Errorf("%s:1: %w: required column %q missing", name, ErrMalformed, c)
		}
	}
	var rows []Row
	trials := map[string]int{} // trial → line, to catch duplicates
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil { // a *csv.ParseError names the line
			return nil, fmt.Errorf("%s: %w: %v", name, ErrMalformed, err)
		}
		line, _ := cr.FieldPos(0) // panics unless a record was read
		if len(rec) != len(head) {
			return nil, fmt.Errorf("%s:%d: %w: %d fields, header has %d", name, line, ErrMalformed, len(rec), len(head))
		}
		row := NewRow()
		for i, f := range rec {
			col := head[i]
			v, err := parseField(kinds[col], strings.TrimSpace(f))
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w: column %s: %v", name, line, ErrMalformed, col, err)
			}
			if err := row.set(col, v); err != nil {
				return nil, err
			}
		}
		if err := checkRow(&row); err != nil {
			return nil, fmt.Errorf("%s:%d: %w: %v", name, line, ErrMalformed, err)
		}
		if seen[ColTrial] && !row.Waived {
			k := trialKey(&row)
			if first, dup := trials[k]; dup {
				return nil, fmt.Errorf("%s:%d: %w: trial %d (repetition %d) of this configuration and run is already on line %d",
					name, line, ErrMalformed, row.Trial, row.Repetition, first)
			}
			trials[k] = line
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// ParseValue parses one CSV field of a column of kind k, as ReadCSV does:
// an empty field is 0, NaN, false or "" by kind; errors say what the field
// should have been.
func ParseValue(k Kind, f string) (any, error) { return parseField(k, f) }

func parseField(k Kind, f string) (any, error) {
	switch k {
	case String:
		return f, nil
	case Int:
		if f == "" {
			return int64(0), nil
		}
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", f)
		}
		return v, nil
	case Float:
		if f == "" || strings.EqualFold(f, "nan") {
			return math.NaN(), nil
		}
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", f)
		}
		return v, nil
	case Bool:
		if f == "" {
			return false, nil
		}
		v, err := strconv.ParseBool(f)
		if err != nil {
			return nil, fmt.Errorf("%q is not true or false", f)
		}
		return v, nil
	}
	return nil, fmt.Errorf("unknown kind %d", k)
}
