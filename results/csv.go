package results

import (
	"errors"
	"io"
)

// WriteCSV writes rows with a header line, floats at full precision and
// NaN as an empty field.
func WriteCSV(w io.Writer, rows []Row) error {
	rw, err := NewRowWriter(w)
	if err != nil {
		return err
	}
	for i := range rows {
		if err := rw.Write(&rows[i]); err != nil {
			return err
		}
	}
	return rw.Flush()
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
