// Command gzgen writes results.csv.gz beside each dataset's results.csv
// above 1 MiB (go generate ./datasets): the binary embeds the compressed
// copy (datasets/gz.go). The text stays the repository's record;
// TestCompressedCopies holds the two equal.
package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
)

const threshold = 1 << 20

func main() {
	paths, _ := filepath.Glob(filepath.Join("*", "results.csv"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			fail(err)
		}
		if len(b) <= threshold {
			continue
		}
		var z bytes.Buffer
		w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression) // no name, no time: reproducible
		w.Write(b)
		if err := w.Close(); err != nil {
			fail(err)
		}
		if err := os.WriteFile(p+".gz", z.Bytes(), 0o644); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gzgen:", err)
	os.Exit(1)
}
