package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// runRepeats is umbench run --repeat N: N passes of the run into out/run1
// … runN, each a process of its own (umbench check measures the variation
// between processes). A failed pass stops the repeats; --resume continues
// each pass that has begun and starts the others.
func runRepeats(args []string, n int, out string, resume bool, stdout, stderr io.Writer) error {
	args = withoutFlags(args, "repeat", "out", "resume")
	for i := 1; i <= n; i++ {
		dir := filepath.Join(out, fmt.Sprintf("run%d", i))
		pass := args
		if _, err := os.Stat(dir); err == nil && resume {
			pass = append(pass, "--resume")
		}
		fmt.Fprintf(stderr, "umbench: pass %d of %d, a process of its own, into %s\n", i, n, dir)
		if err := runInChild(pass, dir, stdout, stderr); err != nil {
			return fmt.Errorf("pass %d of %d: %w (the passes before it are kept in %s)", i, n, err, out)
		}
	}
	fmt.Fprintf(stdout, "\n%d passes in %s; a node check against them: umbench check --baseline %s\n", n, out, out)
	return nil
}

// withoutFlags returns args without the named flags and their values
// (--name V, --name=V, or a bare boolean --name).
func withoutFlags(args []string, names ...string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		name, _, hasValue := strings.Cut(strings.TrimPrefix(args[i], "--"), "=")
		switch {
		case !strings.HasPrefix(args[i], "--") || !slices.Contains(names, name):
			out = append(out, args[i])
		case !hasValue && name != "resume":
			i++ // its value
		}
	}
	return out
}
