package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
)

// flagAsValue catches a flag that took the next flag as its value because
// its own was missing (umbench run --out --resume): Go's flag package
// would silently write the results to a directory named "--resume".
func flagAsValue(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		v := f.Value.String()
		if err != nil || !strings.HasPrefix(v, "-") {
			return
		}
		name := strings.TrimLeft(v, "-")
		if i := strings.IndexByte(name, '='); i >= 0 {
			name = name[:i]
		}
		if fs.Lookup(name) != nil {
			err = usagef("flag --%s needs a value, but got the flag %s", f.Name, v)
		}
	})
	return err
}

// strictList parses a comma-separated list that was given on the command
// line: an empty element (--groups ,, or --groups hbm,,managed) is an error.
func strictList(flagName, s string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			return nil, usagef("--%s %q: an empty name in the list; give comma-separated names", flagName, s)
		}
		out = append(out, f)
	}
	return out, nil
}

// finite checks numeric flags: NaN and ±Inf are never allowed.
func finite(vals map[string]float64) error {
	for name, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return usagef("--%s %v: want a finite number", name, v)
		}
	}
	return nil
}

// checkRunFlags rejects run's impossible numbers before anything is opened
// or written.
func checkRunFlags(fs *flag.FlagSet, gpu int, kernelTimeout time.Duration) error {
	if gpu < 0 {
		return usagef("--gpu %d: a GPU ordinal is 0 or more (umbench info lists them)", gpu)
	}
	if kernelTimeout < 0 {
		return usagef("--kernel-timeout %s: want a duration ≥ 0 (0: never time out)", kernelTimeout)
	}
	for _, name := range []string{"worker-timeout", "worker-stall", "time-limit"} {
		if d, ok := fs.Lookup(name).Value.(flag.Getter).Get().(time.Duration); ok && d < 0 {
			return usagef("--%s %s: want a duration ≥ 0", name, d)
		}
	}
	if v := fs.Lookup("rewrite").Value.String(); !slices.Contains(umkit.Rewrites, v) {
		return usagef("--rewrite %q: allowed %s", v, strings.Join(umkit.Rewrites, " or "))
	}
	for _, name := range []string{"trials", "warmups"} {
		if n, ok := fs.Lookup(name).Value.(flag.Getter).Get().(int); ok && (n < 0 || n > 100000) {
			return usagef("--%s %d: allowed 0 (the default) to 100000", name, n)
		}
	}
	return nil
}

// selection reads --groups and --bench: given, they must name something.
func selection(fs *flag.FlagSet, groups, bench string) (g, b []string, err error) {
	if isSet(fs, "groups") {
		if g, err = strictList("groups", groups); err != nil {
			return nil, nil, err
		}
	}
	if isSet(fs, "bench") {
		if b, err = strictList("bench", bench); err != nil {
			return nil, nil, err
		}
	}
	return g, b, nil
}

// advisePatterns are the access patterns umbench advise knows (the model is
// calibrated on streaming; the others come with a warning).
var advisePatterns = []string{"streaming", "strided", "random", "page_touch"}

// checkSource refuses rows no table should be made of: none at all (a
// header-only file), or simulated rows mixed with measured ones.
func checkSource(rows []results.Row, name string) error {
	if len(rows) == 0 {
		return fmt.Errorf("%s holds no rows (a header line only): nothing to show", name)
	}
	return results.CheckNotMixed(rows, name)
}

// checkParts is checkSource over the parts compare reads, with the banner
// when they are simulated.
func checkParts(w io.Writer, parts []fleet.Part, table bool) error {
	if err := fleet.NotMixed(parts, "the parts given"); err != nil {
		return err
	}
	if table && fleet.Simulated(parts) {
		fmt.Fprintf(w, "*** %s ***\n", results.SimulatedBanner)
	}
	return nil
}

// checkedWriter remembers the first write error of a command's output
// (stdout on a full disk, a closed pipe), so that the command exits
// non-zero instead of reporting success with its output lost.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	c.err = err
	return n, err
}
