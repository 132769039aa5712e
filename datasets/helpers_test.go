package datasets

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"

	"github.com/go-gota/gota/dataframe"

	"github.com/umlab/umlab/results"
)

// LoadFrame is Load returning the tidy DataFrame of results.Frame.
func LoadFrame(name string) (dataframe.DataFrame, results.Metadata, error) {
	rows, m, err := Load(name)
	if err != nil {
		return dataframe.DataFrame{}, m, err
	}
	df := results.Frame(rows)
	if df.Err != nil {
		return df, m, fmt.Errorf("datasets: %s: %w", name, df.Err)
	}
	return df, m, nil
}

// LoadMany loads several datasets or results directories (each as by
// LoadAny) into one slice of rows, in argument order. The platform column
// tells the platforms apart; run_id tells apart runs on one platform.
func LoadMany(namesOrDirs ...string) ([]results.Row, error) {
	var all []results.Row
	for _, n := range namesOrDirs {
		rows, _, err := LoadAny(n)
		if err != nil {
			return nil, err
		}
		all = append(all, rows...)
	}
	return all, nil
}

// LoadManyFrame is LoadMany returning the tidy DataFrame of results.Frame.
func LoadManyFrame(namesOrDirs ...string) (dataframe.DataFrame, error) {
	rows, err := LoadMany(namesOrDirs...)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	df := results.Frame(rows)
	if df.Err != nil {
		return df, fmt.Errorf("datasets: %w", df.Err)
	}
	return df, nil
}

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
