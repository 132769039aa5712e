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
	"sort"
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

// files are the files the blocks draw (figures), by path from root, made
// anew by every Regenerate.
var files = map[string][]byte{}

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
	stale := Stale(old, gen)
	if len(stale) == 0 {
		return nil
	}
	if check {
		return fmt.Errorf("stale: %v; run go run ./internal/readmegen", stale)
	}
	for _, f := range stale {
		b := gen
		if f != filepath.Base(path) {
			b = files[f]
		}
		if err := os.WriteFile(filepath.Join(root, f), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Stale lists what differs from what Regenerate made: the README (by its
// base name) and the drawn files whose content on disk is not theirs.
func Stale(old, gen []byte) []string {
	var out []string
	if !bytes.Equal(old, gen) {
		out = append(out, "README.md")
	}
	for f, b := range files {
		if disk, err := os.ReadFile(filepath.Join(root, f)); err != nil || !bytes.Equal(disk, b) {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

var blockRE = regexp.MustCompile(`(?s)(<!-- readme:([a-z-]+) -->\n)(.*?)(<!-- /readme:([a-z-]+) -->)`)

// Regenerate returns readme with every block's content made anew (and the
// blocks' figures in files).
func Regenerate(readme []byte) ([]byte, error) {
	files = map[string][]byte{}
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
