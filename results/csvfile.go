package results

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// The two CSV files of a results directory, results.csv and counters.csv,
// are read and appended the same way; these are the shared pieces.

// readHeader reads the header line of a CSV file named name: every column
// must be one of known and appear once, and the required ones must be
// there. It returns the trimmed names and the set of them.
func readHeader(ls *lines, name string, known []string, required ...string) ([]string, map[string]bool, error) {
	head, err := ls.next()
	head = slices.Clone(head)
	if err == io.EOF {
		return nil, nil, fmt.Errorf("%s: %w: empty file, no header line", name, ErrMalformed)
	}
	if err != nil {
		return nil, nil, malformed(name, err)
	}
	seen := map[string]bool{}
	for i, h := range head {
		h = strings.TrimSpace(h)
		head[i] = h
		if !slices.Contains(known, h) {
			return nil, nil, fmt.Errorf("%s:1: %w: unknown column %s (is the header line missing?)", name, ErrMalformed, short(h))
		}
		if seen[h] {
			return nil, nil, fmt.Errorf("%s:1: %w: column %s appears twice", name, ErrMalformed, short(h))
		}
		seen[h] = true
	}
	for _, c := range required {
		if !seen[c] {
			return nil, nil, fmt.Errorf("%s:1: %w: required column %q missing", name, ErrMalformed, c)
		}
	}
	return head, seen, nil
}

// malformed wraps an error of reading a CSV file in ErrMalformed (a
// *csv.ParseError names the line), except io.EOF and errors of a limit.
func malformed(name string, err error) error {
	if err == nil || err == io.EOF || errors.Is(err, ErrTooLarge) {
		return err
	}
	return fmt.Errorf("%s: %w: %v", name, ErrMalformed, err)
}

// csvAppender appends rows of T, written by write, to one CSV file of a
// results directory (results.csv, counters.csv), syncing each write.
type csvAppender[T any] struct {
	mu    sync.Mutex
	path  string
	f     *os.File
	rows  []T
	write func(io.Writer, []T) error
}

// Rows returns the rows the file held when it was opened (earlier runs'
// included), then those appended since.
func (a *csvAppender[T]) Rows() []T {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]T(nil), a.rows...)
}

// Close closes the file.
func (a *csvAppender[T]) Close() error { return a.f.Close() }

// add writes rows and syncs the file, unless it was removed or replaced
// (lost ends that error's message); a.mu is held.
func (a *csvAppender[T]) add(rows []T, lost string) error {
	if !sameFile(a.f, a.path) {
		return fmt.Errorf("results: %s: %w: nothing more is written%s", a.path, ErrReplaced, lost)
	}
	var buf bytes.Buffer
	if err := a.write(&buf, rows); err != nil {
		return err
	}
	body := buf.Bytes()[bytes.IndexByte(buf.Bytes(), '\n')+1:] // drop the header
	if _, err := a.f.Write(body); err != nil {
		return err
	}
	if err := a.f.Sync(); err != nil {
		return err
	}
	a.rows = append(a.rows, rows...)
	return nil
}

// open opens a.path, in dir, for appending, creating dir as needed. A
// file with rows needs resume (ErrResultsExist otherwise); a partial last
// line, left by an interrupted write, is handed to torn (nil: dropped) and
// cut off, and load reads the rest. A missing file, one holding just a
// header line that load accepts, or one whose only line was cut short (a
// torn header) is started afresh with a header line. Every file is opened
// within dir without following a symbolic link (see openIn).
func (a *csvAppender[T]) open(dir string, resume bool, load func(old []byte, path string) error, torn func([]byte) error) error {
	file, path := filepath.Base(a.path), a.path
	d, err := makeDir(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	old, err := readIn(d, file, path, MaxCSVBytes)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	fresh := err != nil || !hasRows(old, func(b []byte) error { return load(b, path) })
	if !fresh {
		if !resume {
			return fmt.Errorf("%w: %s (pass --resume to continue that run, or choose another --out)", ErrResultsExist, path)
		}
		if i := bytes.LastIndexByte(old, '\n'); i != len(old)-1 {
			if torn != nil {
				if err := torn(old[i+1:]); err != nil {
					return err
				}
			}
			old = old[:i+1]
			if !hasRows(old, func(b []byte) error { return load(b, path) }) {
				fresh = true // the header itself, or all but it, was cut short: nothing to keep
			} else if err := WriteFileAtomic(path, old, 0o644); err != nil {
				return err
			}
		}
	}
	var header bytes.Buffer
	if err := a.write(&header, nil); err != nil {
		return err
	}
	if fresh {
		old = header.Bytes()
		if err := WriteFileAtomic(path, old, 0o644); err != nil {
			return err
		}
	} else if !bytes.HasPrefix(old, header.Bytes()) {
		// Rows appended now are in this schema: under another header
		// the file would become unreadable.
		return fmt.Errorf("%w: %s was written with other columns than this umbench writes: it can be read, not continued (choose another --out)",
			ErrMalformed, path)
	}
	if err := load(old, path); err != nil {
		return err
	}
	a.f, err = openIn(d, file, path, os.O_WRONLY|os.O_APPEND, 0)
	return err
}

// readIn reads the regular file name of the open directory d (path is its
// full name) of at most limit bytes, without following a symbolic link.
func readIn(d *os.File, name, path string, limit int64) ([]byte, error) {
	f, err := openIn(d, name, path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	r, err := limitFile(f, path, limit)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// hasRows reports whether a file holds more than a header line: a run that
// failed at its start leaves just the header, which blocks nothing. A
// single line that is not a header (load refuses it) counts as content.
func hasRows(b []byte, load func([]byte) error) bool {
	t := bytes.TrimRight(b, "\r\n")
	if len(t) == 0 {
		return false
	}
	if bytes.IndexByte(t, '\n') >= 0 {
		return true
	}
	return load(b) != nil
}
