package results

import (
	"fmt"
	"io"
	"os"
)

// Size limits of the files a results directory holds. A results.csv of the
// full default suite is a few MB; the limits only stop a file that is not
// one (a link to /dev/zero, a runaway log) from exhausting memory.
const (
	MaxCSVBytes  = 1 << 30  // results.csv, counters.csv
	MaxMetaBytes = 64 << 20 // meta.json
)

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
// reader stops at limit+1 bytes and then fails, should the file grow.
func OpenLimited(path string, limit int64) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("results: %s is not a regular file (%s): refusing to read it", path, st.Mode().Type())
	}
	if st.Size() > limit {
		f.Close()
		return nil, fmt.Errorf("results: %s is %d bytes, more than the %d a results file may have: refusing to read it", path, st.Size(), limit)
	}
	return &limitedFile{f: f, r: io.LimitReader(f, limit+1), left: limit + 1, path: path, limit: limit}, nil
}

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
		return n, fmt.Errorf("results: %s grew past %d bytes while being read", l.path, l.limit)
	}
	return n, err
}

func (l *limitedFile) Close() error { return l.f.Close() }
