package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/umlab/umlab/check"
	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/internal/sanitize"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
)

// errCheckFailed is returned when a check finds a regression (exit 1).
var errCheckFailed = errors.New("check failed")

type checkFlags struct {
	data                          *dataFlags
	baseline, format, groups, out string
	failPct, conf                 float64
	strict, wide, sim, all        bool
	gpu                           int
}

func newCheckCmd() *cobra.Command {
	f := &checkFlags{}
	c := &cobra.Command{
		Use:   "check --baseline NAME|DIR [DIR | --dataset NAME]",
		Short: "this GPU (a quick run), DIR or a dataset against a baseline: pass, warn or fail",
		Long: "Sets each configuration's median against the baseline's, with a bootstrap interval for the\n" +
			"ratio. Without DIR, runs the quick suite on this GPU first (--simulate: on the simulated GPU).\n" +
			"Exit 0: the GPU did not fail; 1: it failed (with --strict: either verdict is not a pass) or the\n" +
			"two cannot be compared; 2: a usage error.",
		Args: maxArgs(1),
	}
	f.data = addData(c, false)
	fs := c.Flags()
	fs.StringVar(&f.baseline, "baseline", "", "the baseline: an embedded dataset `NAME`, a results DIR or a directory of runs (required)")
	addFormat(c, &f.format, "table", "csv", "json")
	fs.Float64Var(&f.failPct, "fail-pct", 3, "the smallest slowdown (`PCT` %) that fails, where it is beyond the node's variation too")
	fs.Float64Var(&f.conf, "confidence", 0.95, "interval level")
	fs.BoolVar(&f.strict, "strict", false, "exit 1 unless both the GPU and the host verdict pass")
	fs.BoolVar(&f.all, "all", false, "table: list every configuration, not only those that failed or are inconclusive")
	fs.BoolVar(&f.wide, "wide", false, "table: do not cut long configuration names and reasons to fit 120 columns")
	fs.StringVar(&f.groups, "groups", "", "without DIR: `GROUPS` to measure (default: the baseline's groups)")
	fs.IntVar(&f.gpu, "gpu", 0, "without DIR: GPU ordinal to measure")
	fs.StringVar(&f.out, "out", "", "without DIR: where the quick run's results go (default results/check-<date>-<time>)")
	fs.BoolVar(&f.sim, "simulate", false, "without DIR: measure on the simulated GPU ("+EnvSimulate+"=1 does the same)")
	c.RunE = f.run
	return c
}

func (f *checkFlags) run(c *cobra.Command, args []string) error {
	if f.baseline == "" {
		return usagef("--baseline is required: an embedded dataset (umbench datasets) or a results directory")
	}
	refs, _ := f.data.refs(args) // none: measure this GPU
	if len(refs) > 1 {
		return usagef("check takes at most one run (a results directory or --dataset NAME), got %q", refs)
	}
	if len(refs) == 1 && (f.groups != "" || f.out != "" || isSet(c, "gpu") || f.sim) {
		return usagef("--groups, --gpu, --out and --simulate choose the quick run; with %s nothing is measured", refs[0])
	}
	if f.gpu < 0 {
		return usagef("--gpu %d: a GPU ordinal is 0 or more", f.gpu)
	}
	base, err := datasets.OpenRuns(f.baseline)
	if err != nil {
		return fmt.Errorf("--baseline: %w", err)
	}
	if len(refs) == 0 {
		dir, err := f.quickRun(base.Rows, c.ErrOrStderr())
		if err != nil {
			return err
		}
		refs = []string{dir}
	}
	runSrc, err := datasets.OpenRuns(refs[0]) // a run, or a directory of runs (run --repeat)
	if err != nil {
		return err
	}
	rep, err := check.Compare(check.Side{Name: runSrc.Name, Rows: runSrc.Rows, Meta: runSrc.Meta},
		check.Side{Name: base.Name, Rows: base.Rows, Meta: base.Meta},
		check.Options{FailPct: f.failPct, Confidence: f.conf})
	if errors.Is(err, check.ErrNotComparable) {
		return err
	} else if err != nil {
		return usageError{err.Error()}
	}
	announce(c, runSrc.Rows, f.format == "table")
	sayUnverified(c, f.format == "table", "the run: ", runSrc.Meta.Unverified)
	sayUnverified(c, f.format == "table", "the baseline: ", base.Meta.Unverified)
	if err := f.write(c, rep); err != nil {
		return err
	}
	if !rep.OK(f.strict) {
		return fmt.Errorf("%w: GPU %s, host %s", errCheckFailed, rep.GPU, rep.Host)
	}
	return nil
}

func (f *checkFlags) write(c *cobra.Command, rep *check.Report) error {
	w := c.OutOrStdout()
	if f.format != "table" {
		fmt.Fprintln(c.ErrOrStderr(), sanitize.Terminal(rep.SummaryLine))
		if f.format == "csv" {
			return rep.WriteCSV(w)
		}
		return rep.WriteJSON(w)
	}
	// The table's lines name the device and the runs: a line break in
	// meta.json must not forge a line.
	shown := *rep
	shown.GPUModel, shown.Run, shown.Baseline = sanitize.Terminal(rep.GPUModel), sanitize.Terminal(rep.Run), sanitize.Terminal(rep.Baseline)
	shown.SummaryLine, rep = sanitize.Terminal(rep.SummaryLine), &shown
	w, done := fitted(w, f.wide)
	defer done()
	return rep.WriteTable(w, f.wide, f.all)
}

// quickRun measures the quick suite of --groups (default: the baseline's)
// on --gpu, or on the simulated GPU, and returns its results directory.
func (f *checkFlags) quickRun(baseline []results.Row, stderr io.Writer) (string, error) {
	groups := splitList(f.groups)
	if groups == nil {
		groups = baselineGroups(baseline)
	}
	for _, g := range groups {
		if !slices.Contains(umkit.Groups, g) {
			return "", usagef("--groups: unknown group %q: groups are %s", g, strings.Join(umkit.Groups, ", "))
		}
	}
	out := cmp.Or(f.out, filepath.Join("results", "check-"+time.Now().Format("20060102-150405")))
	open, _, err := deviceOpener(f.sim)
	if err != nil {
		return "", err
	}
	opts := umkit.Options{Groups: groups, Quick: true, Out: out, Ordinal: f.gpu,
		Command: fmt.Sprintf("umbench check (umbench run --quick --groups %s --gpu %d --out %s)", strings.Join(groups, ","), f.gpu, out),
		Warn:    func(s string) { fmt.Fprintln(stderr, "umbench: warning:", s) }}
	start := fmt.Sprintf("umbench check: measuring the quick suite (%s) into %s", strings.Join(groups, ","), out)
	if _, err := measure(opts, open, false, stderr, start); err != nil {
		return "", err
	}
	return out, nil
}

// baselineGroups are the measured groups of a baseline, in umkit's order.
func baselineGroups(rows []results.Row) []string {
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.Group] = true
	}
	return slices.DeleteFunc(slices.Clone(umkit.Groups), func(g string) bool { return !seen[g] })
}
