package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/fleet/node"
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// discoverGPUs lists the GPUs of a node-level run and the CPUs nearest
// each; workerExecutable is the program each GPU's worker runs. Tests
// replace both.
var (
	discoverGPUs     = node.Discover
	workerExecutable = os.Executable
)

// fleetOnly are the flags of umbench run that belong to the supervisor and
// are not passed on to its workers (which get --gpu and --out of their own).
var fleetOnly = map[string]bool{"gpus": true, "concurrent": true, "worker-timeout": true, "worker-stall": true, "gpu": true, "out": true}

// runFleet is umbench run --gpus: one worker process per GPU, supervised.
func runFleet(fs *flag.FlagSet, args []string, gpus, out string, concurrent bool, timeout, stall time.Duration, stdout, stderr io.Writer) error {
	ords, all, err := fleet.ParseGPUs(gpus)
	if err != nil {
		return usageError{err.Error()}
	}
	if isSet(fs, "gpu") {
		return usagef("give --gpu (one GPU, in this process) or --gpus (a worker per GPU), not both")
	}
	if timeout < 0 || stall < 0 {
		return usagef("--worker-timeout and --worker-stall must not be negative")
	}
	var wargs []string
	fs.Visit(func(f *flag.Flag) {
		if !fleetOnly[f.Name] {
			wargs = append(wargs, "--"+f.Name+"="+f.Value.String())
		}
	})
	exe, err := workerExecutable()
	if err != nil {
		return fmt.Errorf("finding the umbench binary to run workers: %w", err)
	}
	if all {
		ords = nil
	}
	list, warns, err := discoverGPUs(ords)
	if err != nil {
		return err
	}
	for _, w := range warns {
		fmt.Fprintln(stderr, "umbench: warning:", w)
	}
	host, _ := os.Hostname()
	mode := fleet.Isolated
	if concurrent {
		mode = fleet.Concurrent
	}
	fmt.Fprintf(stderr, "umbench: %d GPU(s) on %s, %s, one worker each; results in %s\n",
		len(list), host, map[bool]string{false: "one at a time (isolated)", true: "all at once (concurrent)"}[concurrent], node.NodeDir(out, host))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	rep, err := node.RunNode(ctx, node.NodeOptions{
		Executable: exe, Args: append([]string{"run"}, wargs...), Root: out, Host: host, GPUs: list,
		Concurrent: concurrent, Timeout: timeout, Stall: stall, Log: stderr, Warnings: warns,
		Command: "umbench " + strings.Join(append([]string{"run"}, args...), " "),
	})
	if len(rep.Workers) > 0 {
		writeWorkers(stdout, rep.Workers)
	}
	var fe *node.FailedError
	if errors.As(err, &fe) {
		for _, o := range fe.Failed {
			fmt.Fprintf(stderr, "umbench: GPU %d (%s) %s: %s\n", o.GPU, orUnknown(o.UUID), o.State, o.Error)
			if o.StderrTail != "" {
				fmt.Fprintf(stderr, "  last lines of its stderr (all of it in %s):\n", o.StderrLog)
				for _, l := range strings.Split(o.StderrTail, "\n") {
					fmt.Fprintln(stderr, "  | "+l)
				}
			}
		}
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%w: finished configurations are kept in %s; continue with: umbench run --gpus %s --out %s --resume",
			errInterrupted, node.NodeDir(out, host), gpus, out)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "done in %s (%s); results in %s, worker outcomes in %s\ncompare the GPUs with: umbench compare %s\n",
		time.Since(start).Round(time.Second), mode, node.NodeDir(out, host), filepath.Join(node.NodeDir(out, host), node.ReportName), out)
	return nil
}

func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func writeWorkers(w io.Writer, outs []node.Outcome) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "gpu\tgpu_uuid\tcpus\tstate\ttime\tresults")
	for _, o := range outs {
		d := ""
		if o.Seconds > 0 {
			d = (time.Duration(o.Seconds * float64(time.Second))).Round(time.Second).String()
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", o.GPU, orUnknown(o.UUID), orUnknown(o.CPUs), o.State, d, o.Out)
	}
	tw.Flush()
}

// fleetWorker prepares umbench run when a supervisor or a Slurm task
// started it as a fleet worker (fleet.EnvMode set): it pins the process to
// the CPUs it was given if it is not already, and returns a function that
// annotates the results directory when the run ends. For a plain run it
// does nothing.
func fleetWorker(stderr io.Writer) (func(dir string), error) {
	a, ok, err := fleet.AnnotationFromEnv()
	if err != nil {
		return nil, usageError{err.Error()}
	}
	if !ok {
		return func(string) {}, nil
	}
	if a.CPUs != "" {
		want, _ := fleet.ParseCPUs(a.CPUs)
		if node.CurrentCPUs() != fleet.FormatCPUs(want) {
			if err := node.PinProcess(want); err != nil {
				fmt.Fprintln(stderr, "umbench: warning:", err)
			}
		}
	}
	return func(dir string) {
		if err := fleet.Annotate(dir, a); err != nil {
			fmt.Fprintln(stderr, "umbench: warning: recording the fleet mode in", dir+":", err)
		}
	}, nil
}

func cmdMerge(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("merge", stderr)
	out := fs.String("out", "", "the merged results directory to write (required; must not hold results)")
	strict := fs.Bool("strict", false, "refuse to merge when the parts differ in anything but their GPU (commits, plans, trial counts, ...)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("name the results directories to merge, e.g. umbench merge --out merged results/run1 (every directory below with results.csv and meta.json is a part)")
	}
	if *out == "" {
		return usagef("--out is required: the merged results directory to write")
	}
	parts, warns, err := fleet.Load(fs.Args(), []string{*out})
	for _, w := range warns {
		fmt.Fprintln(stderr, "umbench: warning:", w)
	}
	if err != nil {
		return err
	}
	problems := fleet.Check(parts)
	writeProblems(stdout, problems)
	if *strict && len(problems) > 0 {
		return fmt.Errorf("--strict: %d difference(s) between the parts; nothing written", len(problems))
	}
	man, err := fleet.Merge(*out, parts, problems, "umbench "+strings.Join(append([]string{"merge"}, args...), " "))
	if err != nil {
		if errors.Is(err, results.ErrResultsExist) {
			return usageError{err.Error()}
		}
		return err
	}
	rows, hosts := 0, map[string]bool{}
	for _, p := range man.Parts {
		rows += p.Rows
		hosts[p.Host] = true
	}
	fmt.Fprintf(stdout, "merged %d part(s) from %d host(s), %d rows, into %s\ncompare the GPUs with: umbench compare %s\n",
		len(man.Parts), len(hosts), rows, *out, *out)
	return nil
}

func writeProblems(w io.Writer, ps []fleet.Problem) {
	if len(ps) == 0 {
		return
	}
	fmt.Fprintf(w, "differences between the parts (%d):\n", len(ps))
	for _, p := range ps {
		for _, l := range wrap(fmt.Sprintf("  - %s: %s", p.Kind, p.Message), maxColumns, "    ") {
			fmt.Fprintln(w, l)
		}
	}
	fmt.Fprintln(w)
}

func cmdCompare(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("compare", stderr)
	format := fs.String("format", "table", "table or csv")
	tol := fs.Float64("tolerance", 5, "flag a GPU more than this many percent from the fleet median (negative: off)")
	maxZ := fs.Float64("max-z", 3.5, "flag a GPU whose robust z-score (median absolute deviation) exceeds this (negative: off)")
	floor := fs.Float64("mad-floor", 0.5, "smallest spread the robust z-score divides by, in percent of the fleet median")
	metric := fs.String("metric", "", "column to compare: "+strings.Join(fleet.Metrics, ", ")+" (default gbps where measured, else total_ms)")
	group := fs.String("group", "", "only this group")
	only := fs.Bool("outliers", false, "show only flagged GPUs")
	fail := fs.Bool("fail-on-outliers", false, "exit with status 1 when any GPU is flagged")
	wide := fs.Bool("wide", false, "table: add each GPU's full UUID (lines may pass 120 columns)")
	dataset := fs.String("dataset", "", "embedded datasets measured on several GPUs, comma-separated (e.g. h200x2-2026-11-29-isolated; see umbench datasets)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *format != "table" && *format != "csv" {
		return usagef("--format %q: table or csv", *format)
	}
	if fs.NArg() == 0 && *dataset == "" {
		return usagef("name results directories (a fleet run's root, node or GPU directories, or a merged directory) or --dataset NAME")
	}
	if err := finite(map[string]float64{"tolerance": *tol, "max-z": *maxZ, "mad-floor": *floor}); err != nil {
		return err
	}
	if *floor < 0 {
		return usagef("--mad-floor must not be negative")
	}
	var parts []fleet.Part
	if fs.NArg() > 0 {
		ps, warns, err := fleet.Load(fs.Args(), nil)
		for _, w := range warns {
			fmt.Fprintln(stderr, "umbench: warning:", w)
		}
		if err != nil {
			return err
		}
		parts = ps
	}
	for _, name := range splitList(*dataset) {
		rows, meta, err := datasets.Load(name)
		if err != nil {
			return usagef("--dataset: %v", err)
		}
		parts = append(parts, fleet.FromRows(name, rows, meta)...)
	}
	seen := map[string]int{}
	for _, p := range parts {
		seen[p.Label]++
	}
	for i := range parts {
		if seen[parts[i].Label] > 1 {
			parts[i].Label = filepath.Base(parts[i].Dir) + ":" + parts[i].Label
		}
	}
	if err := checkParts(stdout, parts, *format == "table"); err != nil {
		return err
	}
	if *group != "" {
		n := 0
		for i := range parts {
			n += parts[i].KeepGroup(*group)
		}
		if n == 0 {
			return fmt.Errorf("no rows of group %q", *group)
		}
	}
	// Zero means "off" to fleet.CompareOptions but literally zero here.
	nz := func(v float64) float64 {
		if v == 0 {
			return math.SmallestNonzeroFloat64
		}
		return v
	}
	o := fleet.CompareOptions{TolerancePct: nz(*tol), MaxZ: nz(*maxZ), MADFloorPct: nz(*floor), Metric: *metric}
	cmp, err := fleet.Compare(parts, o)
	if err != nil {
		return usageError{err.Error()}
	}
	if len(cmp) == 0 {
		return fmt.Errorf("nothing to compare: %d part(s) and no configuration measured on two or more GPUs", len(parts))
	}
	outliers := 0
	for _, c := range cmp {
		if c.Outlier {
			outliers++
		}
	}
	shown := cmp
	if *only {
		shown = nil
		for _, c := range cmp {
			if c.Outlier {
				shown = append(shown, c)
			}
		}
	}
	if *format == "csv" {
		if err := model.WriteFrameCSV(stdout, fleet.Frame(shown)); err != nil {
			return err
		}
	} else {
		writeProblems(stdout, fleet.Check(parts))
		writeComparison(stdout, shown, *wide)
		writePerGPU(stdout, cmp, o, *wide)
	}
	if *fail && outliers > 0 {
		return fmt.Errorf("%d GPU median(s) flagged as outliers", outliers)
	}
	return nil
}

// writeComparison prints one block per configuration.
func writeComparison(w io.Writer, cmp []fleet.Comparison, wide bool) {
	for i := 0; i < len(cmp); {
		j := i
		for j < len(cmp) && sameConfig(cmp[j], cmp[i]) {
			j++
		}
		c := cmp[i]
		head := fmt.Sprintf("%s · %s · %s — %s, fleet median %.4g over %d GPUs (MAD %.2f %%)",
			c.Label, c.Platform, c.Mode, c.Metric, c.FleetMedian, c.FleetN, c.MADPct)
		if !wide && len([]rune(head)) > 120 {
			head = strings.Replace(head, " — ", "\n  ", 1)
		}
		fmt.Fprintln(w, head)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		uuidHead := ""
		if wide {
			uuidHead = "gpu_uuid\t"
		}
		fmt.Fprintln(tw, "  host\tgpu\t"+uuidHead+"n\tmedian\tcv_pct\tdev_pct\trobust_z\tflags\t")
		for _, x := range cmp[i:j] {
			uuid := ""
			if wide {
				uuid = orUnknown(x.UUID) + "\t"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s%d\t%.4g\t%s\t%s\t%+.2f\t%s\t\n", orUnknown(x.Host), x.GPU, uuid, x.N,
				x.Median, fixed(x.CVPct, "%.2f"), fixed(x.DevPct, "%+.2f"), x.RobustZ, strings.Join(x.Flags, ","))
		}
		tw.Flush()
		fmt.Fprintln(w)
		i = j
	}
}

func sameConfig(a, b fleet.Comparison) bool {
	return a.Label == b.Label && a.Platform == b.Platform && a.Mode == b.Mode && a.FleetMedian == b.FleetMedian && a.Metric == b.Metric
}

func fixed(v float64, f string) string {
	if math.IsNaN(v) {
		return ""
	}
	return fmt.Sprintf(f, v)
}

func writePerGPU(w io.Writer, cmp []fleet.Comparison, o fleet.CompareOptions, wide bool) {
	sum := fleet.PerGPU(cmp)
	fmt.Fprintln(w, "per GPU (median deviation: positive is better, whatever the metric):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	uuidHead := ""
	if wide {
		uuidHead = "gpu_uuid\t"
	}
	fmt.Fprintln(tw, "  part\t"+uuidHead+"configurations\toutliers\tslow\tfast\tmedian_dev_pct\t")
	flagged := 0
	for _, s := range sum {
		uuid := ""
		if wide {
			uuid = orUnknown(s.UUID) + "\t"
		}
		fmt.Fprintf(tw, "  %s\t%s%d\t%d\t%d\t%d\t%s\t\n", s.Part, uuid, s.Configurations, s.Outliers, s.Slow, s.Fast, fixed(s.MedianDevPct, "%+.2f"))
		if s.Outliers > 0 {
			flagged++
		}
	}
	tw.Flush()
	crit := []string{}
	if o.TolerancePct > 0 {
		crit = append(crit, fmt.Sprintf("beyond ±%g %% of the fleet median", o.TolerancePct))
	}
	if o.MaxZ > 0 {
		crit = append(crit, fmt.Sprintf("|robust z| > %g", o.MaxZ))
	}
	fmt.Fprintf(w, "%d of %d GPUs flagged (%s)\n", flagged, len(sum), strings.Join(crit, " or "))
}
