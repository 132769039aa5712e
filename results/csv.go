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
// mode and size_bytes, which every file must have, and bound, which rows of
// files written before it get from LegacyBound.
func ReadCSV(r io.Reader, name string) ([]Row, error) {
	rr, err := NewRowReader(r, name)
	if err != nil {
		return nil, err
	}
	var rows []Row
	for {
		var row Row
		switch err := rr.Next(&row); err {
		case nil:
			rows = append(rows, row)
		case io.EOF:
			return rows, nil
		default:
			return nil, err
		}
	}
}

// schemaKind is the kind of a schema column.
func schemaKind(name string) (Kind, bool) {
	c, ok := ColumnOf(name)
	return c.Kind, ok
}

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
			return nil, fmt.Errorf("%s is not an integer", short(f))
		}
		return v, nil
	case Float:
		if f == "" || strings.EqualFold(f, "nan") {
			return math.NaN(), nil
		}
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, fmt.Errorf("%s is not a number", short(f))
		}
		return v, nil
	case Bool:
		if f == "" {
			return false, nil
		}
		v, err := strconv.ParseBool(f)
		if err != nil {
			return nil, fmt.Errorf("%s is not true or false", short(f))
		}
		return v, nil
	}
	return nil, fmt.Errorf("unknown kind %d", k)
}
