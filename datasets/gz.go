package datasets

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"path"
	"strings"
	"time"
)

// gzSuffix marks a dataset file kept compressed in the binary: the full
// suite's results.csv is 5.6 MB as text and about 1 MB compressed, the
// difference between a binary above and below 30 MB. The repository
// keeps the text beside it (TestCompressedCopies holds them equal); the
// embed patterns take the compressed one.
const gzSuffix = ".gz"

// gzFS serves NAME from NAME.gz where only the compressed file is
// embedded, so that every reader sees plain files.
type gzFS struct{ fs.FS }

func (g gzFS) Open(name string) (fs.File, error) {
	f, err := g.FS.Open(name)
	if err == nil || !fs.ValidPath(name) {
		return f, err
	}
	b, zerr := fs.ReadFile(g.FS, name+gzSuffix)
	if zerr != nil {
		return nil, err
	}
	zr, zerr := gzip.NewReader(bytes.NewReader(b))
	if zerr != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: zerr}
	}
	data, zerr := io.ReadAll(zr)
	if zerr != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: zerr}
	}
	return &memFile{Reader: bytes.NewReader(data), info: memInfo{name: path.Base(name), size: int64(len(data))}}, nil
}

// ReadDir lists NAME.gz as NAME.
func (g gzFS) ReadDir(name string) ([]fs.DirEntry, error) {
	es, err := fs.ReadDir(g.FS, name)
	for i, e := range es {
		if n := e.Name(); strings.HasSuffix(n, gzSuffix) && !e.IsDir() {
			es[i] = fs.FileInfoToDirEntry(memInfo{name: strings.TrimSuffix(n, gzSuffix)})
		}
	}
	return es, err
}

type memFile struct {
	*bytes.Reader
	info memInfo
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Close() error               { return nil }

type memInfo struct {
	name string
	size int64
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }
