package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
)

// runFlags are umbench run's flags.
type runFlags struct {
	groups, bench, sizes, out, pcts, order, rewrite, gpus   string
	quick, resume, allow, counters, concurrent, sim, dryRun bool
	trials, warmups, gpu, cpuThreads, repeat                int
	orderSeed                                               uint64
	workerTimeout, workerStall, kernelTimeout, timeLimit    time.Duration
}

func (f *runFlags) define(fs *pflag.FlagSet) {
	fs.StringVar(&f.groups, "groups", "", "comma-separated `GROUPS`: "+strings.Join(umkit.Groups, ", ")+" (default all)")
	fs.StringVar(&f.bench, "bench", "", "comma-separated benchmark `NAMES` or prefixes (umbench list): "+benchNames())
	fs.BoolVar(&f.quick, "quick", false, fmt.Sprintf("few sizes and trials (%d warm-ups, %d trials)", umkit.QuickWarmups, umkit.QuickTrials))
	fs.IntVar(&f.trials, "trials", 0, fmt.Sprintf("trials per configuration, at least 1 (default: the paper's, %d; handoff %d × %d)",
		umkit.DefaultTrials, umkit.HandoffTrials, umkit.DefaultHandoffReps))
	fs.IntVar(&f.warmups, "warmups", 0, fmt.Sprintf("warm-up iterations; 0 runs none (default %d)", umkit.DefaultWarmups))
	fs.StringVar(&f.sizes, "sizes", "", "comma-separated `SIZES` per array, e.g. 64MiB,1GiB (default: each group's sweep; pattern's "+
		"footprint is fixed, oversub's follows --oversub-pcts)")
	fs.StringVar(&f.out, "out", "", "results `DIR` (default results/<date>-<time>)")
	fs.BoolVar(&f.resume, "resume", false, "continue the run in --out, skipping the configurations it has")
	fs.IntVar(&f.gpu, "gpu", 0, "GPU ordinal")
	fs.BoolVar(&f.allow, "allow-oversubscription", false, "allow oversubscription above 90% of free device memory (can hang the GPU)")
	fs.StringVar(&f.pcts, "oversub-pcts", "", "comma-separated oversubscription `PERCENTS` (default 25,50,75,90)")
	fs.BoolVar(&f.counters, "counters", false, "after each configuration's trials, one untimed pass with CUPTI's Unified Memory "+
		"counters and NVML's PCIe counters, into counters.csv (needs libcupti; UMLAB_CUPTI=/path/libcupti.so.N)")
	fs.StringVar(&f.order, "order", "interleaved", "handoff order: interleaved (blocks shuffled, every R of a policy and size "+
		"round by round, so drift falls on all alike) or sequential")
	fs.Uint64Var(&f.orderSeed, "order-seed", 1, "seed of the interleaved handoff order (recorded in the rows)")
	fs.IntVar(&f.cpuThreads, "cpu-threads", 1, "threads of the handoff CPU update (1: the paper's single-threaded update)")
	fs.StringVar(&f.rewrite, "rewrite", umkit.RewriteReallocate, "how managed, pattern and oversub re-establish the CPU-written state "+
		"before a trial: reallocate (free, allocate, write on the CPU: the paper's cold start) or home (bring the data home "+
		"and rewrite them; under preferred location CPU the GPU keeps its mappings)")
	fs.StringVar(&f.gpus, "gpus", "", "several GPUs of this node, one worker each: all, or `ORDINALS` such as 0,1 or 0-3 (results in --out/<host>/gpu<N>)")
	fs.BoolVar(&f.concurrent, "concurrent", false, "with --gpus: all workers at once (contention for host memory and PCIe)")
	fs.DurationVar(&f.workerTimeout, "worker-timeout", 0, "with --gpus: stop a worker that runs longer, e.g. 6h (default: no limit)")
	fs.DurationVar(&f.workerStall, "worker-stall", time.Hour, "with --gpus: stop a worker silent for this long (0: never)")
	fs.BoolVar(&f.sim, "simulate", false, "run on the simulated GPU: made-up numbers, marked SIMULATED, no driver needed ("+EnvSimulate+"=1)")
	fs.DurationVar(&f.kernelTimeout, "kernel-timeout", umkit.DefaultKernelTimeout, "declare the GPU hung when one wait takes longer "+
		"(or 20 × the slowest of its configuration): the run stops and keeps what finished (0: never)")
	fs.DurationVar(&f.timeLimit, "time-limit", 0, "start nothing new once the run has taken this long, e.g. 9m30s; exit 3, "+
		"finished configurations kept, continue with --resume (default: no limit)")
	fs.BoolVar(&f.dryRun, "dry-run", false, "print the plan and a rough time estimate; touch no GPU")
	fs.IntVar(&f.repeat, "repeat", 1, "`N` passes of the run, each a process of its own, into --out/run1 … runN: a baseline "+
		"of several runs for umbench check, which measures the spread between them")
}

func newRunCmd() *cobra.Command {
	f := &runFlags{}
	c := &cobra.Command{
		Use:   "run",
		Short: "measure; results go to --out as each configuration finishes",
		Long: "Measures the benchmarks on this GPU and appends every trial to --out/results.csv as its\n" +
			"configuration finishes (provenance in meta.json). Ctrl-C keeps what finished; --resume continues.",
		Example: "  umbench run --quick                  every group at a few sizes (about a minute on an H200)\n" +
			"  umbench run --simulate --quick       the same on the simulated GPU, without a driver\n" +
			"  umbench run --groups hbm,managed     two groups at the paper's settings",
		Args: func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("run takes no arguments (got %q); select with --groups or --bench", args)
			}
			return nil
		},
	}
	f.define(c.Flags())
	c.RunE = func(c *cobra.Command, args []string) error { return f.run(c) }
	return c
}

// run is umbench run: the command line checked in full before any GPU is
// touched, then a dry run, a node run, repeats, a watched child or this process.
func (f *runFlags) run(c *cobra.Command) error {
	opts, plan, err := f.options(c)
	if err != nil {
		return err
	}
	open, simulate, err := deviceOpener(f.sim)
	if err != nil {
		return err
	}
	stdout, stderr := c.OutOrStdout(), c.ErrOrStderr()
	switch {
	case f.dryRun:
		return dryRunPlan(stdout, opts, plan, simulate)
	case f.gpus != "":
		if simulate {
			old := discoverGPUs
			discoverGPUs = discoverSimulated
			defer func() { discoverGPUs = old }()
		}
		return runFleet(c, f.gpus, opts.Out, f.concurrent, f.workerTimeout, f.workerStall)
	case f.repeat > 1:
		return runRepeats(commandArgs(c), f.repeat, opts.Out, f.resume, stdout, stderr)
	case risky(plan) && os.Getenv(envChild) == "":
		fmt.Fprintf(stderr, "umbench: oversubscription beyond 90 %% can hang the driver: measuring in a child process, watched by this one\n")
		return runInChild(commandArgs(c), opts.Out, stdout, stderr)
	}
	start := time.Now()
	meta, err := measure(opts, open, f.counters, stderr, "")
	if err != nil {
		return err
	}
	return writeDigest(stdout, opts.Out, meta, time.Since(start))
}

// options turns the flags into umkit.Options and the plan they make,
// refusing every impossible value before anything is opened or written.
func (f *runFlags) options(c *cobra.Command) (umkit.Options, umkit.Plan, error) {
	if err := f.check(c); err != nil {
		return umkit.Options{}, umkit.Plan{}, err
	}
	sz, err := sizeList(f.sizes)
	if err != nil {
		return umkit.Options{}, umkit.Plan{}, usagef("--sizes: %v", err)
	}
	pc, err := floatList(f.pcts, "--oversub-pcts")
	if err != nil {
		return umkit.Options{}, umkit.Plan{}, usageError{err.Error()}
	}
	groups, bench, err := f.selection(c)
	if err != nil {
		return umkit.Options{}, umkit.Plan{}, err
	}
	dir := cmp.Or(f.out, filepath.Join("results", time.Now().Format("20060102-150405")))
	stderr := c.ErrOrStderr()
	opts := umkit.Options{
		Groups: groups, Benchmarks: bench, Quick: f.quick, Trials: count(c, "trials", f.trials), Warmups: count(c, "warmups", f.warmups),
		Sizes: sz, Out: dir, Resume: f.resume, Ordinal: f.gpu, AllowOversubscription: f.allow, OversubPercents: pc,
		HandoffOrder: f.order, OrderSeed: f.orderSeed, CPUThreads: f.cpuThreads, Rewrite: f.rewrite,
		Command:   commandLine(c),
		Warn:      func(s string) { fmt.Fprintln(stderr, "umbench: warning:", s) },
		TimeLimit: f.timeLimit, KernelTimeout: f.kernelTimeout,
	}
	if f.kernelTimeout == 0 {
		opts.KernelTimeout = -1 // never
	}
	// A device that can do everything, so that only the command line is judged.
	plan, err := umkit.NewPlan(opts, umkit.DeviceInfo{ManagedMemory: true, ConcurrentManagedAccess: true,
		PageableMemoryAccess: true, CanMapHostMemory: true})
	if err != nil {
		return opts, plan, usageError{err.Error()}
	}
	return opts, plan, nil
}

// check rejects run's impossible numbers and combinations.
func (f *runFlags) check(c *cobra.Command) error {
	if f.gpu < 0 {
		return usagef("--gpu %d: a GPU ordinal is 0 or more (umbench info lists them)", f.gpu)
	}
	if f.kernelTimeout < 0 {
		return usagef("--kernel-timeout %s: want a duration ≥ 0 (0: never time out)", f.kernelTimeout)
	}
	for name, d := range map[string]time.Duration{"worker-timeout": f.workerTimeout, "worker-stall": f.workerStall, "time-limit": f.timeLimit} {
		if d < 0 {
			return usagef("--%s %s: want a duration ≥ 0", name, d)
		}
	}
	if !slices.Contains(umkit.Rewrites, f.rewrite) {
		return usagef("--rewrite %q: allowed %s", f.rewrite, strings.Join(umkit.Rewrites, " or "))
	}
	for name, n := range map[string]int{"trials": f.trials, "warmups": f.warmups} {
		if n < 0 || n > 100000 {
			return usagef("--%s %d: allowed 0 (the default) to 100000", name, n)
		}
	}
	switch {
	case f.resume && f.out == "":
		return usagef("--resume needs --out: the directory of the run to continue")
	case f.gpus == "" && (f.concurrent || isSet(c, "worker-timeout") || isSet(c, "worker-stall")):
		return usagef("--concurrent, --worker-timeout and --worker-stall go with --gpus")
	case f.gpus != "" && isSet(c, "time-limit"):
		return usagef("--time-limit measures one GPU's run; with --gpus use --worker-timeout (a worker past it is stopped) and --resume")
	case f.gpus != "" && isSet(c, "gpu"):
		return usagef("give --gpu (one GPU, in this process) or --gpus (a worker per GPU), not both")
	case f.repeat < 1 || f.repeat > 100:
		return usagef("--repeat %d: allowed 1 (the default) to 100 passes", f.repeat)
	case f.repeat > 1 && (f.gpus != "" || isSet(c, "time-limit")):
		return usagef("--repeat makes passes of one GPU's run; it does not go with --gpus or --time-limit")
	}
	return nil
}

// selection reads --groups and --bench: given, they must name something.
func (f *runFlags) selection(c *cobra.Command) (g, b []string, err error) {
	if isSet(c, "groups") {
		g, err = strictList("groups", f.groups)
	}
	if isSet(c, "bench") && err == nil {
		b, err = strictList("bench", f.bench)
	}
	return g, b, err
}

// measure runs opts in this process on the device open opens (saying start
// once it is open); an early end's error says what was kept and what next.
func measure(opts umkit.Options, open func(int) (umkit.Device, error), counters bool, stderr io.Writer, start string) (results.Metadata, error) {
	annotate, err := fleetWorker(stderr)
	if err != nil {
		return results.Metadata{}, err
	}
	dir := opts.Out
	ctx, stop := interruptible(stderr, dir)
	defer stop()
	if counters {
		// Before the device: CUPTI configures its counters before the CUDA context exists.
		c, err := openCounters()
		if err != nil {
			return results.Metadata{}, orNoGPU(fmt.Errorf("--counters: %w", err))
		}
		defer c.Close()
		opts.Counters = c
	}
	dev, err := openGPU(open, opts.Ordinal)
	if err != nil {
		return results.Metadata{}, err
	}
	hung := false
	defer func() {
		if !hung { // closing a hung context would hang too
			dev.Close()
		}
	}()
	opts.Device = dev
	if start != "" {
		fmt.Fprintln(stderr, start)
	}
	bar := newProgress(stderr)
	opts.Progress = bar.update
	began := time.Now()
	meta, err := umkit.Run(ctx, opts)
	bar.finish()
	// A refused run measured nothing, and the directory is another run's.
	refused := errors.Is(err, results.ErrResultsExist) || errors.Is(err, results.ErrLocked) ||
		errors.Is(err, umkit.ErrNotSameRun) || errors.Is(err, results.ErrNotRegular)
	if !refused {
		annotate(dir)
	}
	resume := fmt.Sprintf("umbench run --out %s --resume", dir)
	switch hung = errors.Is(err, umkit.ErrHung); {
	case hung:
		return meta, fmt.Errorf("%w\nevery configuration finished before it is kept in %s; check the GPU (nvidia-smi) before resuming with: %s", err, dir, resume)
	case ctx.Err() != nil:
		return meta, fmt.Errorf("%w after %s: every finished configuration is in %s; continue with: %s",
			errInterrupted, time.Since(began).Round(time.Second), dir, resume)
	case errors.Is(err, umkit.ErrTimeLimit):
		return meta, fmt.Errorf("%w; every finished configuration is in %s; continue with: %s", err, dir, resume)
	case refused:
		return meta, usageError{err.Error()}
	case errors.Is(err, results.ErrReplaced):
		return meta, err // what the run wrote is gone with the file
	case err != nil:
		return meta, fmt.Errorf("%w (finished configurations are kept in %s)", err, dir)
	}
	return meta, nil
}

// argsKey keys the command line in the context run gives every command.
type argsKey struct{}

// commandArgs are the arguments the command was given, after its name, as
// typed (for meta.json, the child process and the fleet's workers).
func commandArgs(c *cobra.Command) []string {
	args, _ := c.Context().Value(argsKey{}).([]string)
	if i := slices.Index(args, c.Name()); i >= 0 {
		return args[i+1:]
	}
	return args
}

// commandLine is the command line as typed, for the record: "umbench run ...".
func commandLine(c *cobra.Command) string {
	return strings.Join(append([]string{"umbench", c.Name()}, commandArgs(c)...), " ")
}

// count is a flag's value as an iteration count: unset when the flag was
// not given, so that an explicit 0 is honoured.
func count(c *cobra.Command, name string, v int) umkit.Count {
	if !isSet(c, name) {
		return umkit.Count{}
	}
	return umkit.N(v)
}

// benchNames lists the registry's benchmark names, from the definitions.
func benchNames() string {
	names := make([]string, len(umkit.Registry))
	for i, b := range umkit.Registry {
		names[i] = b.Name
	}
	return strings.Join(names, ", ")
}
