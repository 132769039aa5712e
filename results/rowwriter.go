package results

import (
	"encoding/csv"
	"io"
)

// RowWriter writes a results CSV one row at a time, exactly as WriteCSV
// writes it: merge writes each GPU's shard through one.
type RowWriter struct {
	cw  *csv.Writer
	rec []string
	buf []byte
}

// NewRowWriter writes the header line to w and returns a writer of rows.
func NewRowWriter(w io.Writer) (*RowWriter, error) {
	rw := &RowWriter{cw: csv.NewWriter(w), rec: make([]string, len(Columns))}
	return rw, rw.cw.Write(Names(Columns))
}

// Write writes one row.
func (rw *RowWriter) Write(r *Row) error {
	rw.buf = rw.buf[:0]
	ends := make([]int, len(Columns)) // one allocation per row, not one per field
	for i := range Columns {
		rw.buf = appendCSVField(rw.buf, fieldAt[i](r))
		ends[i] = len(rw.buf)
	}
	s, start := string(rw.buf), 0
	for i, end := range ends {
		rw.rec[i], start = s[start:end], end
	}
	return rw.cw.Write(rw.rec)
}

// Flush writes what is buffered and returns the first error of any write.
func (rw *RowWriter) Flush() error {
	rw.cw.Flush()
	return rw.cw.Error()
}
