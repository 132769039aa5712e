package results

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// Limits of what a reader takes from a results directory's files. The
// whole default suite's results.csv is about 5.6 MB of 28,000 lines of at
// most about 600 bytes, its meta.json 10 kB; the limits only stop a file
// that is not one (a link to /dev/zero, a sparse or NUL-filled file, a
// runaway log) from exhausting memory or flooding the terminal.
const (
	MaxCSVBytes  = 1 << 30   // results.csv, counters.csv, results.partial.csv
	MaxMetaBytes = 16 << 20  // meta.json and umlab's other JSON files
	MaxLineBytes = 64 << 10  // one line of a CSV file
	MaxCSVRows   = 2_000_000 // rows of one CSV file, about 70 whole default suites (a row takes about 450 bytes of memory)
)

// ErrTooLarge is wrapped by the errors of readers that stopped at one of
// the limits above.
var ErrTooLarge = errors.New("over a reader's limit")

// ReadFileLimited reads a regular file of at most limit bytes. Anything
// else (a device, a FIFO, a directory, a larger file) is refused with an
// error naming the file, before its content is read.
func ReadFileLimited(path string, limit int64) ([]byte, error) {
	f, err := OpenLimited(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// OpenLimited opens a regular file of at most limit bytes for reading; the
// reader stops at limit+1 bytes and then fails, should the file grow. The
// type is checked before the open, which never blocks (a FIFO that no
// process writes would otherwise hang the reader), and again on the
// descriptor.
func OpenLimited(path string, limit int64) (io.ReadCloser, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, notRegular(path, modeBits(st), "read")
	}
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	return limitFile(f, path, limit)
}

// limitFile checks that the open file f is a regular file of at most limit
// bytes and wraps it in a reader that stops past limit.
func limitFile(f *os.File, path string, limit int64) (io.ReadCloser, error) {
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, notRegular(path, modeBits(st), "read")
	}
	if st.Size() > limit {
		f.Close()
		return nil, refuse(ErrTooLarge, "results: %s is %d bytes, more than the %d a results file may have: refusing to read it",
			path, st.Size(), limit)
	}
	return &limitedFile{f: f, r: io.LimitReader(f, limit+1), left: limit + 1, path: path, limit: limit}, nil
}

// modeBits is the S_IFMT bits of a file's mode, which kindOf reads.
func modeBits(fi fs.FileInfo) uint32 { return uint32(fi.Sys().(*syscall.Stat_t).Mode) }

type limitedFile struct {
	f     *os.File
	r     io.Reader
	left  int64
	path  string
	limit int64
}

func (l *limitedFile) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left <= 0 {
		return n, refuse(ErrTooLarge, "results: %s grew past %d bytes while being read", l.path, l.limit)
	}
	return n, err
}

func (l *limitedFile) Close() error { return l.f.Close() }

// lineLimiter passes a CSV file through, failing at the first line longer
// than max bytes: encoding/csv would otherwise gather a line of any length
// (a NUL-filled header of 100 MiB) into memory, and quote it in its error.
type lineLimiter struct {
	r    io.Reader
	max  int
	name string
	line int // 1-based line being read
	n    int // bytes of it so far
}

func newLineLimiter(r io.Reader, name string) *lineLimiter {
	return &lineLimiter{r: r, max: MaxLineBytes, name: name, line: 1}
}

func (l *lineLimiter) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for i, b := range p[:n] {
		if b == '\n' {
			l.line++
			l.n = 0
			continue
		}
		if l.n++; l.n > l.max {
			return i, refuse(ErrTooLarge, "%s:%d: a line longer than %d bytes, the limit (a results file's lines are a few hundred)",
				l.name, l.line, l.max)
		}
	}
	return n, err
}

// short quotes s for an error message, cut to its first 40 bytes: a bad
// value is named, never echoed whole.
func short(s string) string {
	const max = 40
	if len(s) <= max {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%q… (%d bytes)", s[:max], len(s))
}
