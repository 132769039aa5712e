package results

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Names of the files in a results directory.
const (
	CSVName  = "results.csv"
	MetaName = "meta.json"
)

// ConfigKey identifies the configuration a row belongs to (its
// ConfigColumns joined); trials of one configuration share it.
func ConfigKey(r Row) string { return string(appendConfigKey(nil, &r)) }

// Appender adds finished configurations to a results directory's CSV. Each
// Append is flushed and synced before it returns, so a run that is
// interrupted keeps every configuration it completed.
type Appender struct {
	csvAppender[Row] // dir/results.csv
	dir              string
	done             map[string]bool
	abandoned        bool // see Abandon
}

// ErrReplaced is returned by Append when results.csv was removed or
// replaced by another file since the run opened it: rows appended to a
// file no name leads to would be lost, so nothing more is written.
var ErrReplaced = errors.New("the results file was removed or replaced while the run was writing it")

// ErrResultsExist is returned by OpenAppender when the directory already
// holds results and resume was not asked for.
var ErrResultsExist = errors.New("results directory already holds results")

// OpenAppender opens dir for appending, creating it if needed. If dir already
// has a results.csv, resume must be true: its rows are kept and their
// configurations count as done (a line cut short by an interruption is
// dropped); otherwise ErrResultsExist is returned.
func OpenAppender(dir string, resume bool) (*Appender, error) {
	a := &Appender{dir: dir, done: map[string]bool{}}
	a.path, a.write = filepath.Join(dir, CSVName), WriteCSV
	load := func(old []byte, path string) error {
		rows, err := ReadCSV(bytes.NewReader(old), path)
		if err != nil {
			return err
		}
		a.rows = rows
		for _, r := range rows {
			a.done[ConfigKey(r)] = true
		}
		return nil
	}
	// An interrupted write left a partial line: keep its bytes aside.
	torn := func(b []byte) error { return keepTorn(dir, b) }
	if err := a.open(dir, resume, load, torn); err != nil {
		return nil, err
	}
	return a, nil
}

// Done reports whether the configuration of r is already in the directory.
func (a *Appender) Done(r Row) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.done[ConfigKey(r)]
}

// Append writes the rows of one finished configuration and syncs the file.
func (a *Appender) Append(rows ...Row) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.abandoned {
		return errors.New("results: the run was abandoned (hung device): nothing more is written")
	}
	if err := a.add(rows, fmt.Sprintf("; the %d rows this run holds are in memory only", len(a.rows))); err != nil {
		return err
	}
	for _, r := range rows {
		a.done[ConfigKey(r)] = true
	}
	return nil
}

// WriteDir writes a whole results directory at once: dir (created if
// needed) gets results.csv with rows and meta.json with m, each written
// atomically. LoadDir reads it back.
func WriteDir(dir string, rows []Row, m Metadata) error {
	d, err := makeDir(dir)
	if err != nil {
		return err
	}
	d.Close()
	if err := writeCSVFile(filepath.Join(dir, CSVName), rows); err != nil {
		return err
	}
	return WriteMetadata(filepath.Join(dir, MetaName), m)
}

// writeCSVFile replaces path with a results CSV of rows, atomically.
func writeCSVFile(path string, rows []Row) error {
	var buf bytes.Buffer
	if err := WriteCSV(&buf, rows); err != nil {
		return err
	}
	return WriteFileAtomic(path, buf.Bytes(), 0o644)
}

// LoadDir reads a results directory: its CSV (a sharded directory's
// shards, see ShardsDir) and, if present, its metadata.
func LoadDir(dir string) ([]Row, Metadata, error) {
	var m Metadata
	var rows []Row
	if shards, ok := Shards(dir); ok {
		var err error
		if rows, err = readShards(dir, shards); err != nil {
			return nil, m, err
		}
	} else {
		path := filepath.Join(dir, CSVName)
		f, err := OpenLimited(path, MaxCSVBytes)
		if err != nil {
			return nil, m, fmt.Errorf("results: %s is not a results directory: %w", dir, err)
		}
		defer f.Close()
		if rows, err = ReadCSV(f, path); err != nil {
			return nil, m, err
		}
	}
	if _, err := os.Stat(filepath.Join(dir, MetaName)); err == nil {
		m, err = ReadMetadata(filepath.Join(dir, MetaName))
		if err != nil {
			return nil, m, err
		}
	}
	return rows, m, nil
}
