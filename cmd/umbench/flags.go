package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/umlab/umlab/results"
)

var errHelp = errors.New("help shown")

// newFlags makes a flag set that reports errors instead of exiting.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("umbench "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parse parses args, turning flag errors into usage errors. Flags may come
// before or after positional arguments (umbench summary DIR --group hbm).
func parse(fs *flag.FlagSet, args []string) error {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return errHelp
			}
			return usageError{err.Error()}
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if err := flagAsValue(fs); err != nil {
		return err
	}
	return fs.Parse(append([]string{"--"}, pos...))
}

// ParseSize reads a byte size such as 1GiB, 256MiB, 64KiB, 4096 or 1.5GB
// (results.ParseBytes).
func ParseSize(s string) (int64, error) { return results.ParseBytes(s) }

// sizeList parses a comma-separated list of sizes.
func sizeList(s string) ([]int64, error) {
	if s == "" {
		return nil, nil
	}
	var out []int64
	for _, f := range strings.Split(s, ",") {
		v, err := ParseSize(f)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// floatList parses a comma-separated list of numbers.
func floatList(s, what string) ([]float64, error) {
	if s == "" {
		return nil, nil
	}
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return nil, fmt.Errorf("%s %q: want comma-separated finite numbers ≥ 0", what, f)
		}
		out = append(out, v)
	}
	return out, nil
}

func splitList(s string) []string {
	if s == "" {
		return nil
	}
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// noArgs refuses positional arguments for commands that take none.
func noArgs(fs *flag.FlagSet) error {
	if fs.NArg() > 0 {
		return usagef("%s takes no arguments (got %q)", strings.TrimPrefix(fs.Name(), "umbench "), fs.Args())
	}
	return nil
}
