// Command readmegen writes the README's figure blocks from the datasets
// they cite, so that no figure in the README is typed by hand:
//
//	go run ./internal/readmegen          # rewrite README.md in place
//	go run ./internal/readmegen -check   # exit 1 if README.md is stale
//
// A block is the text between `<!-- readme:NAME -->` and
// `<!-- /readme:NAME -->`; everything outside the blocks is prose the
// command leaves alone. .ci/run regenerates the blocks and fails on a
// diff, as it does for the PTX, and TestREADMEUpToDate does the same in
// `go test ./...`.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

func main() {
	check := flag.Bool("check", false, "exit 1 and say which blocks differ instead of writing README.md")
	path := flag.String("readme", "README.md", "the README to rewrite")
	flag.Parse()
	if err := run(*path, *check); err != nil {
		fmt.Fprintln(os.Stderr, "readmegen:", err)
		os.Exit(1)
	}
}

// root is the repository's top directory, where the README's relative
// paths (datasets/…) start.
var root = "."

func run(path string, check bool) error {
	root = filepath.Dir(path)
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	gen, err := Regenerate(old)
	if err != nil {
		return err
	}
	if bytes.Equal(old, gen) {
		return nil
	}
	if check {
		return fmt.Errorf("%s: the generated blocks are stale; run go run ./internal/readmegen", filepath.Base(path))
	}
	return os.WriteFile(path, gen, 0o644)
}

var blockRE = regexp.MustCompile(`(?s)(<!-- readme:([a-z-]+) -->\n)(.*?)(<!-- /readme:([a-z-]+) -->)`)

// Regenerate returns readme with every block's content made anew.
func Regenerate(readme []byte) ([]byte, error) {
	var err error
	out := blockRE.ReplaceAllFunc(readme, func(m []byte) []byte {
		s := blockRE.FindSubmatch(m)
		name, end := string(s[2]), string(s[5])
		if name != end {
			err = fmt.Errorf("block %q ends with /readme:%s", name, end)
			return m
		}
		gen, ok := blocks[name]
		if !ok {
			err = fmt.Errorf("unknown block %q (known: %v)", name, blockNames())
			return m
		}
		text, e := gen()
		if e != nil {
			err = fmt.Errorf("block %s: %w", name, e)
			return m
		}
		return append(append(append([]byte{}, s[1]...), text...), s[4]...)
	})
	return out, err
}
