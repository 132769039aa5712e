package datasets

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"

	"github.com/umlab/umlab/results"
)

// CountersCSV returns the counters.csv of a measured dataset made with
// `umbench run --counters` (the Unified Memory counter passes; parse it with
// results.ReadCounterCSV). A dataset without one is an error that says so.
func CountersCSV(name string) (io.Reader, error) {
	if !known(embedded, name) {
		return nil, unknown(embedded, name)
	}
	b, err := fs.ReadFile(embedded, name+"/counters.csv")
	if err != nil {
		return nil, fmt.Errorf("datasets: %s has no counter passes (counters.csv): %w", name, err)
	}
	return bytes.NewReader(b), nil
}

// Simulated reports whether the data were made up by the simulated GPU
// (umbench run --simulate) rather than measured.
func (s Source) Simulated() bool {
	return s.Meta.Kind == results.KindSimulated || results.Simulated(s.Rows)
}
