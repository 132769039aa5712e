package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/umlab/umlab/check"
	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
)

// errCheckFailed is returned when a check finds a regression (exit 1).
var errCheckFailed = errors.New("check failed")

func cmdCheck(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("check", stderr)
	baseline := fs.String("baseline", "", "the baseline: an embedded dataset (see umbench datasets) or a results directory (required)")
	format := fs.String("format", "table", "table, csv or json")
	failPct := fs.Float64("fail-pct", 3, "the smallest slowdown (%) that fails, where it is beyond the node's variation too")
	conf := fs.Float64("confidence", 0.95, "interval level")
	strict := fs.Bool("strict", false, "exit 1 unless both the GPU and the host verdict pass")
	all := fs.Bool("all", false, "table: list every configuration, not only those that failed or are inconclusive")
	wide := fs.Bool("wide", false, "table: do not cut long configuration names and reasons to fit 120 columns")
	groups := fs.String("groups", "", "without RUN_DIR: groups to measure (default: the baseline's groups)")
	gpu := fs.Int("gpu", 0, "without RUN_DIR: GPU ordinal to measure")
	out := fs.String("out", "", "without RUN_DIR: where the quick run's results go (default results/check-<date>-<time>)")
	dataset := fs.String("dataset", "", "the run to check: an embedded dataset instead of RUN_DIR")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: umbench check --baseline DATASET|DIR [RUN_DIR | --dataset NAME] [flags]")
		fmt.Fprintln(stderr, "\nSets each configuration's median against the baseline's, with a bootstrap interval for the ratio.")
		fmt.Fprintln(stderr, "Without RUN_DIR, runs the quick suite on this GPU first. Exit 0: the GPU did not fail; 1: it failed")
		fmt.Fprintln(stderr, "(with --strict: either verdict is not a pass) or the two cannot be compared; 2: a usage error.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	switch *format {
	case "table", "csv", "json":
	default:
		return usagef("--format %q: table, csv or json", *format)
	}
	if *baseline == "" {
		return usagef("--baseline is required: an embedded dataset (umbench datasets) or a results directory")
	}
	if fs.NArg() > 1 || (fs.NArg() == 1 && *dataset != "") {
		return usagef("check takes at most one run (a results directory or --dataset NAME), got %q", append(fs.Args(), *dataset))
	}
	if *dataset != "" {
		args = append(args, *dataset)
		if err := parse(fs, args); err != nil {
			return err
		}
	}
	if fs.NArg() == 1 && (*groups != "" || *out != "" || isSet(fs, "gpu")) {
		return usagef("--groups, --gpu and --out choose the quick run; with RUN_DIR %s nothing is measured", fs.Arg(0))
	}
	opts := check.Options{FailPct: *failPct, Confidence: *conf}
	brows, bmeta, bname, err := source("", "", []string{*baseline})
	if err != nil {
		return fmt.Errorf("--baseline: %w", err)
	}
	var runDir string
	if fs.NArg() == 1 {
		runDir = fs.Arg(0)
	} else {
		g := splitList(*groups)
		if g == nil {
			g = baselineGroups(brows)
		}
		if runDir, err = quickRun(g, *gpu, *out, stderr); err != nil {
			return err
		}
	}
	rrows, rmeta, rname, err := datasets.Resolve(runDir)
	if err != nil {
		return err
	}
	rep, err := check.Compare(check.Side{Name: rname, Rows: rrows, Meta: rmeta},
		check.Side{Name: bname, Rows: brows, Meta: bmeta}, opts)
	if err != nil {
		if errors.Is(err, check.ErrNotComparable) {
			return err
		}
		return usageError{err.Error()}
	}
	switch *format {
	case "csv":
		err = rep.WriteCSV(stdout)
	case "json":
		err = rep.WriteJSON(stdout)
	default:
		if *wide {
			err = rep.WriteTable(stdout, true, *all)
		} else {
			fw := fitTo(stdout)
			err = rep.WriteTable(fw, false, *all)
			fw.flush()
		}
	}
	if err != nil {
		return err
	}
	if *format != "table" {
		fmt.Fprintln(stderr, rep.SummaryLine)
	}
	if !rep.OK(*strict) {
		return fmt.Errorf("%w: GPU %s, host %s", errCheckFailed, rep.GPU, rep.Host)
	}
	return nil
}

// baselineGroups are the measured groups of a baseline, in umkit's order.
func baselineGroups(rows []results.Row) []string {
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.Group] = true
	}
	var g []string
	for _, name := range umkit.Groups {
		if seen[name] {
			g = append(g, name)
		}
	}
	return g
}

// quickRun measures the quick suite of groups on GPU ordinal gpu and
// returns its results directory.
func quickRun(groups []string, gpu int, out string, stderr io.Writer) (string, error) {
	for _, g := range groups {
		if !slices.Contains(umkit.Groups, g) {
			return "", usagef("--groups: unknown group %q: groups are %s", g, strings.Join(umkit.Groups, ", "))
		}
	}
	if out == "" {
		out = filepath.Join("results", "check-"+time.Now().Format("20060102-150405"))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	dev, err := openDevice(gpu)
	if err != nil {
		return "", fmt.Errorf("no usable GPU: %w", err)
	}
	defer dev.Close()
	fmt.Fprintf(stderr, "umbench check: measuring the quick suite (%s) into %s\n", strings.Join(groups, ","), out)
	bar := newProgress(stderr)
	opts := umkit.Options{Groups: groups, Quick: true, Out: out, Ordinal: gpu, Device: dev, Progress: bar.update,
		Command: fmt.Sprintf("umbench check (umbench run --quick --groups %s --gpu %d --out %s)", strings.Join(groups, ","), gpu, out),
		Warn:    func(s string) { fmt.Fprintln(stderr, "umbench: warning:", s) }}
	_, err = umkit.Run(ctx, opts)
	bar.finish()
	if ctx.Err() != nil {
		return "", fmt.Errorf("%w: the quick run's finished configurations are in %s", errInterrupted, out)
	}
	if err != nil {
		return "", fmt.Errorf("quick run: %w (finished configurations are kept in %s)", err, out)
	}
	return out, nil
}
