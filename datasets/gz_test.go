package datasets

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Every folder here that holds a results.csv and a meta.json is
// embedded, plain or compressed: the embed patterns name folders by
// prefix, and a new dataset must not be left out silently.
func TestEveryDatasetEmbedded(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("*", "results.csv"))
	if len(dirs) < 5 {
		t.Fatalf("%d datasets in the package directory", len(dirs))
	}
	have := names(embedded)
	for _, p := range dirs {
		name := filepath.Dir(p)
		if _, err := os.Stat(filepath.Join(name, "meta.json")); err != nil {
			continue
		}
		if !slices.Contains(have, name) {
			t.Errorf("datasets/%s is not embedded: add its folder to the //go:embed patterns in datasets.go", name)
		}
	}
}

// A compressed copy holds exactly its results.csv, and the embedded
// files read as that text.
func TestCompressedCopies(t *testing.T) {
	gzs, _ := filepath.Glob(filepath.Join("*", "results.csv"+gzSuffix))
	if len(gzs) == 0 {
		t.Fatal("no compressed dataset: the binary would embed the full suite as text")
	}
	for _, z := range gzs {
		plain, err := os.ReadFile(z[:len(z)-len(gzSuffix)])
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(z)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr)
		f.Close()
		if err != nil || !bytes.Equal(got, plain) {
			t.Errorf("%s does not hold its results.csv (%v): go generate ./datasets", z, err)
		}
		emb, err := fs.ReadFile(embedded, filepath.ToSlash(z[:len(z)-len(gzSuffix)]))
		if err != nil || !bytes.Equal(emb, plain) {
			t.Errorf("embedded %s: %v, %d bytes against %d", z, err, len(emb), len(plain))
		}
		if fi, err := fs.Stat(embedded, filepath.ToSlash(z[:len(z)-len(gzSuffix)])); err != nil || fi.Size() != int64(len(plain)) {
			t.Errorf("stat of embedded %s: %v", z, err)
		}
		if _, err := fs.Stat(files, filepath.ToSlash(z[:len(z)-len(gzSuffix)])); err == nil {
			t.Errorf("%s is embedded as text too", z)
		}
	}
}
