package results

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Names of the files in a results directory.
const (
	CSVName  = "results.csv"
	MetaName = "meta.json"
)

// ConfigKey identifies the configuration a row belongs to (its
// ConfigColumns joined); trials of one configuration share it.
func ConfigKey(r Row) string {
	var b strings.Builder
	for i, c := range ConfigColumns {
		if i > 0 {
			b.WriteByte('|')
		}
		v, _ := r.Value(c)
		switch x := v.(type) {
		case float64:
			b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
		default:
			fmt.Fprint(&b, x)
		}
	}
	return b.String()
}

// Appender adds finished configurations to a results directory's CSV. Each
// Append is flushed and synced before it returns, so a run that is
// interrupted keeps every configuration it completed.
type Appender struct {
	mu   sync.Mutex
	dir  string
	f    *os.File
	done map[string]bool
	rows []Row

	abandoned bool // see Abandon
}

// ErrResultsExist is returned by OpenAppender when the directory already
// holds results and resume was not asked for.
var ErrResultsExist = errors.New("results directory already holds results")

// OpenAppender opens dir for appending, creating it if needed. If dir already
// has a results.csv, resume must be true: its rows are kept and their
// configurations count as done (a line cut short by an interruption is
// dropped); otherwise ErrResultsExist is returned.
func OpenAppender(dir string, resume bool) (*Appender, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, CSVName)
	a := &Appender{dir: dir, done: map[string]bool{}}
	old, err := ReadFileLimited(path, MaxCSVBytes)
	switch {
	case err == nil && hasRows(old):
		if !resume {
			return nil, fmt.Errorf("%w: %s (pass --resume to continue that run, or choose another --out)", ErrResultsExist, path)
		}
		if i := bytes.LastIndexByte(old, '\n'); i != len(old)-1 {
			// An interrupted write left a partial line: keep its bytes aside.
			if err := keepTorn(dir, old[i+1:]); err != nil {
				return nil, err
			}
			old = old[:i+1]
			if err := WriteFileAtomic(path, old, 0o644); err != nil {
				return nil, err
			}
		}
		rows, err := ReadCSV(bytes.NewReader(old), path)
		if err != nil {
			return nil, err
		}
		a.rows = rows
		for _, r := range rows {
			a.done[ConfigKey(r)] = true
		}
		a.f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, err
		}
	case err == nil || errors.Is(err, os.ErrNotExist):
		a.f, err = os.Create(path)
		if err != nil {
			return nil, err
		}
		if err := WriteCSV(a.f, nil); err != nil {
			a.f.Close()
			return nil, err
		}
	default:
		return nil, err
	}
	return a, nil
}

// hasRows reports whether a results file holds more than a results header
// line: a run that failed at its start leaves just the header, which blocks
// nothing. A single line that is not a results header counts as content.
func hasRows(b []byte) bool {
	t := bytes.TrimRight(b, "\r\n")
	if len(t) == 0 {
		return false
	}
	if bytes.IndexByte(t, '\n') >= 0 {
		return true
	}
	_, err := ReadCSV(bytes.NewReader(b), "")
	return err != nil
}

// Done reports whether the configuration of r is already in the directory.
func (a *Appender) Done(r Row) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.done[ConfigKey(r)]
}

// Rows returns every row in the directory, earlier runs' included.
func (a *Appender) Rows() []Row {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]Row(nil), a.rows...)
}

// Append writes the rows of one finished configuration and syncs the file.
func (a *Appender) Append(rows ...Row) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.abandoned {
		return errors.New("results: the run was abandoned (hung device): nothing more is written")
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, rows); err != nil {
		return err
	}
	body := buf.Bytes()[bytes.IndexByte(buf.Bytes(), '\n')+1:] // drop the header
	if _, err := a.f.Write(body); err != nil {
		return err
	}
	if err := a.f.Sync(); err != nil {
		return err
	}
	for _, r := range rows {
		a.done[ConfigKey(r)] = true
	}
	a.rows = append(a.rows, rows...)
	return nil
}

// Close closes the CSV file.
func (a *Appender) Close() error { return a.f.Close() }

// WriteDir writes a whole results directory at once: dir (created if
// needed) gets results.csv with rows and meta.json with m, each written
// atomically. LoadDir reads it back.
func WriteDir(dir string, rows []Row, m Metadata) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, rows); err != nil {
		return err
	}
	if err := WriteFileAtomic(filepath.Join(dir, CSVName), buf.Bytes(), 0o644); err != nil {
		return err
	}
	return WriteMetadata(filepath.Join(dir, MetaName), m)
}

// LoadDir reads a results directory: its CSV and, if present, its metadata.
func LoadDir(dir string) ([]Row, Metadata, error) {
	var m Metadata
	path := filepath.Join(dir, CSVName)
	f, err := OpenLimited(path, MaxCSVBytes)
	if err != nil {
		return nil, m, fmt.Errorf("results: %s is not a results directory: %w", dir, err)
	}
	defer f.Close()
	rows, err := ReadCSV(f, path)
	if err != nil {
		return nil, m, err
	}
	if _, err := os.Stat(filepath.Join(dir, MetaName)); err == nil {
		m, err = ReadMetadata(filepath.Join(dir, MetaName))
		if err != nil {
			return nil, m, err
		}
	}
	return rows, m, nil
}
