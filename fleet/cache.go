package fleet

import (
	"bufio"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/stats"
)

// CacheName is the file beside a results.csv that keeps the digest of its
// rows (per GPU and configuration: the summary statistics, the medians
// Compare reads, the counts Check reads): made when a fleet command first
// reads the directory, made again whenever results.csv changes (size,
// modification time or inode), never written where a run holds the
// directory's lock, and never needed (deleting it costs one more reading).
const CacheName = "results.summary.cache"

// cacheFormat changes whenever a digest would hold other figures: an
// older cache is then made again.
const cacheFormat = "umlab fleet digest 5"

// maxCacheBytes bounds what is read of a cache file.
const maxCacheBytes = 256 << 20

// stamp identifies the content of a results.csv without reading it.
type stamp struct {
	Size, ModNs int64
	Inode       uint64
}

func stampOf(fi os.FileInfo) stamp {
	s := stamp{Size: fi.Size(), ModNs: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.Inode = st.Ino
	}
	return s
}

// cacheFile is what CacheName holds.
type cacheFile struct {
	Format    string
	Resamples int
	Level     float64
	Of        stamp
	Head      []string
	Digests   []*digest
}

// readCache returns the digests kept for a results.csv of stamp of.
func readCache(dir string, of stamp, intervals bool) ([]string, []*digest, bool) {
	f, err := results.OpenLimited(filepath.Join(dir, CacheName), maxCacheBytes)
	if err != nil {
		return nil, nil, false
	}
	defer f.Close()
	var c cacheFile
	if err := gob.NewDecoder(bufio.NewReader(f)).Decode(&c); err != nil {
		return nil, nil, false
	}
	if c.Format != cacheFormat || c.Resamples != results.SummaryResamples || c.Level != stats.DefaultLevel || c.Of != of {
		return nil, nil, false
	}
	if intervals && slices.ContainsFunc(c.Digests, func(d *digest) bool { return !d.Intervals }) {
		return nil, nil, false
	}
	share(c.Digests)
	return c.Head, c.Digests, true
}

// writeCache keeps digests of a results.csv of stamp of beside it, unless
// a run holds the directory. A directory that cannot be written is left
// alone, and the file is renamed into place without syncing: a torn cache
// is refused on reading and made again.
func writeCache(dir string, of stamp, head []string, ds []*digest) {
	if _, held, err := results.Held(dir); held || err != nil {
		return
	}
	path := filepath.Join(dir, CacheName)
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return // something else by that name: not ours to replace
	}
	tmp, err := os.CreateTemp(dir, "."+CacheName+".tmp-*")
	if err != nil {
		return
	}
	w := bufio.NewWriter(tmp)
	err = gob.NewEncoder(w).Encode(cacheFile{cacheFormat, results.SummaryResamples, stats.DefaultLevel, of, head, ds})
	if err == nil {
		err = w.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}

// digestDir returns the header and digests of dir's results.csv, from its
// cache where that is current, else from its rows (then cached). split
// assigns each row to a part (nil: byHostGPU).
func digestDir(dir string, split func(*results.Row) (int, error), intervals bool) ([]string, []*digest, stamp, error) {
	path := filepath.Join(dir, results.CSVName)
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, stamp{}, fmt.Errorf("results: %s is not a results directory: %w", dir, err)
	}
	of := stampOf(fi)
	if head, ds, ok := readCache(dir, of, intervals); ok {
		return head, ds, of, nil
	}
	f, err := results.OpenLimited(path, results.MaxCSVBytes)
	if err != nil {
		return nil, nil, of, fmt.Errorf("results: %s is not a results directory: %w", dir, err)
	}
	defer f.Close()
	rr, err := results.NewRowReader(f, path)
	if err != nil {
		return nil, nil, of, err
	}
	rr.Expect(int(fi.Size() / 300)) // a row of the full suite is about 320 bytes
	buf := rowBuffers.Get().(*[]results.Row)
	defer rowBuffers.Put(buf)
	rows, err := readAll(rr, (*buf)[:0])
	*buf = rows[:0]
	if err != nil {
		return nil, nil, of, err
	}
	ds, err := digestParts(rows, split, intervals)
	if err != nil {
		return nil, nil, of, err
	}
	head := rr.Columns()
	if fi, err := os.Stat(path); err != nil || stampOf(fi) != of {
		return nil, nil, of, fmt.Errorf("%s changed while it was read (is a run still writing it?)", path)
	}
	writeCache(dir, of, head, ds)
	return head, ds, of, nil
}

// rowBuffers keeps the rows of one file between the files of a fleet: a
// digest keeps nothing of them, so the next file reuses their memory.
var rowBuffers = sync.Pool{New: func() any { return new([]results.Row) }}

func readAll(rr *results.RowReader, rows []results.Row) ([]results.Row, error) {
	for {
		var r results.Row
		switch err := rr.Next(&r); {
		case errors.Is(err, io.EOF):
			return rows, nil
		case err != nil:
			return nil, err
		}
		rows = append(rows, r)
	}
}
