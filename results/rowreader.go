package results

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// RowReader reads a results CSV one row at a time, with ReadCSV's rules
// and errors, so that a large file is never held whole: fleet statistics
// and merge stream every GPU's rows through one.
type RowReader struct {
	lines   *lines
	name    string
	head    []string
	fields  []func(*Row) any // fieldPtr of each column of the file
	trial   bool             // the file has a trial column: duplicates are caught
	trials  map[trialID]int  // → line
	config  ConfigIndex
	runs    FirstSeen[string]
	sources FirstSeen[string]
	bound   bool // the file has a bound column (else LegacyBound)
	rows    int
}

// RequiredColumns are the columns every results CSV must have; any other
// column a file lacks (an older umbench wrote it) takes its empty value.
var RequiredColumns = []string{ColGroup, ColBenchmark, ColMode, ColSizeBytes}

// NewRowReader reads the header line of a results CSV named name (used in
// errors) and returns a reader of its rows.
func NewRowReader(r io.Reader, name string) (*RowReader, error) {
	ls := newLines(r, name)
	head, seen, err := readHeader(ls, name, Names(Columns), RequiredColumns...)
	if err != nil {
		return nil, err
	}
	rr := &RowReader{lines: ls, name: name, head: head, trial: seen[ColTrial], bound: seen[ColBound], trials: map[trialID]int{}}
	for _, h := range head {
		rr.fields = append(rr.fields, fieldPtr[h])
	}
	return rr, nil
}

// Expect tells the reader about how many rows to expect (from the file's
// size, say), so that its check for duplicate trials is sized once.
func (rr *RowReader) Expect(rows int) {
	if len(rr.trials) == 0 && rows > 0 {
		rr.trials = make(map[trialID]int, rows)
	}
}

// Columns returns the file's columns, in its order.
func (rr *RowReader) Columns() []string { return rr.head }

// Next reads the next row into row; io.EOF at the end of the file. Schema
// columns the file lacks take their empty value.
func (rr *RowReader) Next(row *Row) error {
	rec, err := rr.lines.next()
	if err != nil {
		return malformed(rr.name, err)
	}
	line := rr.lines.last
	if rr.rows++; rr.rows > MaxCSVRows {
		return fmt.Errorf("%s:%d: %w: more than %d rows (about 70 whole default suites)", rr.name, line, ErrTooLarge, MaxCSVRows)
	}
	if len(rec) != len(rr.head) {
		return fmt.Errorf("%s:%d: %w: %d fields, header has %d", rr.name, line, ErrMalformed, len(rec), len(rr.head))
	}
	*row = NewRow()
	for i, f := range rec {
		if err := parseInto(rr.fields[i](row), strings.TrimSpace(f)); err != nil {
			return fmt.Errorf("%s:%d: %w: column %s: %v", rr.name, line, ErrMalformed, rr.head[i], err)
		}
	}
	if !rr.bound {
		row.Bound = LegacyBound(*row)
	}
	if err := checkRow(row); err != nil {
		return fmt.Errorf("%s:%d: %w: %v", rr.name, line, ErrMalformed, err)
	}
	if rr.trial && !row.Waived {
		c, _ := rr.config.Of(row)
		run, _ := rr.runs.Of(row.RunID)
		source, _ := rr.sources.Of(row.Source)
		k := trialID{c, run, source, row.Repetition, row.Trial}
		if first, dup := rr.trials[k]; dup {
			return fmt.Errorf("%s:%d: %w: trial %d (repetition %d) of this configuration and run is already on line %d",
				rr.name, line, ErrMalformed, row.Trial, row.Repetition, first)
		}
		rr.trials[k] = line
	}
	return nil
}

// parseInto parses one field into the row field p points to, as
// ParseValue parses it.
func parseInto(p any, f string) error {
	var err error
	switch x := p.(type) {
	case *string:
		*x = f
	case *int64:
		if *x = 0; f != "" {
			if *x, err = strconv.ParseInt(f, 10, 64); err != nil {
				return fmt.Errorf("%s is not an integer", short(f))
			}
		}
	case *float64:
		if *x = math.NaN(); f != "" && !strings.EqualFold(f, "nan") {
			if *x, err = strconv.ParseFloat(f, 64); err != nil {
				return fmt.Errorf("%s is not a number", short(f))
			}
		}
	case *bool:
		if *x = false; f != "" {
			if *x, err = strconv.ParseBool(f); err != nil {
				return fmt.Errorf("%s is not true or false", short(f))
			}
		}
	}
	return nil
}
