package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/go-gota/gota/dataframe"
	"github.com/umlab/umlab/check"
	"github.com/umlab/umlab/cuda"
	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/stats"
	"github.com/umlab/umlab/umkit"
)

// openDevice opens a GPU; tests replace it with a simulated device.
var openDevice = umkit.Open

// openCounters opens the Unified Memory counters; tests replace it.
var openCounters = umkit.OpenCounters

func cmdInfo(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("info", stderr)
	gpu := fs.Int("gpu", 0, "GPU ordinal")
	sim := fs.Bool("simulate", false, "show the simulated GPU that umbench run --simulate uses")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if *gpu < 0 {
		return usagef("--gpu %d: a GPU ordinal is 0 or more", *gpu)
	}
	open, _, err := deviceOpener(*sim)
	if err != nil {
		return err
	}
	dev, err := open(*gpu)
	if err != nil {
		return fmt.Errorf("no usable GPU: %w", err)
	}
	defer dev.Close()
	m := umkit.Describe(dev, "", "", umkit.Plan{})
	d := m.Device
	fit := fitTo(stdout) // notes such as the simulated GPU's are long prose
	defer fit.flush()
	stdout = fit
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "device\t%s (GPU %d, %s)\n", d.Name, d.Index, d.UUID)
	fmt.Fprintf(w, "compute capability\t%s, %d SMs\n", d.ComputeCapability, d.SMs)
	fmt.Fprintf(w, "memory\t%s total, %s free, peak %.0f GB/s\n", results.FormatBytes(int64(d.MemoryBytes)), results.FormatBytes(int64(d.FreeMemoryBytes)), d.PeakMemoryGBps)
	fmt.Fprintf(w, "driver\t%s (CUDA %d.%d); kernels need %s or newer\n", orUnknown(d.DriverVersion), d.CUDADriverVersion/1000, d.CUDADriverVersion%1000/10, cuda.MinDriverBranch)
	if d.PCIeGeneration > 0 {
		fmt.Fprintf(w, "host link\tPCIe Gen%d x%d (%.0f GB/s per direction raw)\n", d.PCIeGeneration, d.PCIeWidth, d.PeakHostLinkGBps)
	}
	fmt.Fprintf(w, "NUMA node / CPUs\t%d / %s\n", d.NUMANode, orUnknown(d.CPUAffinity))
	fmt.Fprintf(w, "clocks\tSM %d MHz (max %d), memory %d MHz\n", d.SMClockMHz, d.MaxSMClockMHz, d.MemClockMHz)
	fmt.Fprintf(w, "managed memory\t%t\n", d.ManagedMemory)
	fmt.Fprintf(w, "concurrent managed access\t%t\n", d.ConcurrentManagedAccess)
	fmt.Fprintf(w, "pageable memory access\t%t (via host page tables: %t)\n", d.PageableMemoryAccess, d.PageableUsesHostPageTables)
	fmt.Fprintf(w, "host native atomics\t%t\n", d.HostNativeAtomics)
	fmt.Fprintf(w, "direct managed access from host\t%t\n", d.DirectManagedAccessFromHost)
	fmt.Fprintf(w, "can map host memory\t%t\n", d.CanMapHostMemory)
	for _, n := range m.Notes {
		fmt.Fprintf(w, "note\t%s\n", n)
	}
	w.Flush()
	fmt.Fprintln(stdout, "\nwaived on this system:")
	none := true
	for _, b := range umkit.Registry {
		if ok, why := b.Supported(dev.Info()); !ok {
			fmt.Fprintf(stdout, "  %-20s %s\n", b.Name, why)
			none = false
		}
	}
	if none {
		fmt.Fprintln(stdout, "  nothing: every benchmark can run")
	}
	return nil
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func cmdList(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("list", stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	configs := map[string][]umkit.Config{} // registry entry → its default configurations
	for _, d := range umkit.Definitions() {
		for _, c := range d.Configs() {
			configs[c.Entry] = append(configs[c.Entry], c)
		}
	}
	stdout = fitTo(stdout)
	defer stdout.(*fitWriter).flush()
	for _, b := range umkit.Registry {
		fmt.Fprintf(stdout, "%s  (group %s)\n", b.Name, b.Group)
		fmt.Fprintf(stdout, "    %s\n", b.Description)
		fmt.Fprintf(stdout, "    useful bytes per iteration: %s; by default %s\n\n", b.Useful, bytesPerIteration(configs[b.Name]))
	}
	return nil
}

// bytesPerIteration lists the distinct bytes per iteration of a benchmark's
// configurations, with the sizes they belong to.
func bytesPerIteration(cs []umkit.Config) string {
	var parts []string
	seen := map[string]bool{}
	for _, c := range cs {
		p := "depends on the device's free memory"
		if c.BytesPerIteration > 0 {
			p = results.FormatBytes(c.BytesPerIteration)
			if c.SizeBytes > 0 {
				p += " at " + results.FormatBytes(c.SizeBytes)
			}
		}
		if !seen[p] {
			seen[p] = true
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return "no configurations"
	}
	if len(parts) > 4 {
		parts = []string{parts[0], "…", parts[len(parts)-1]}
	}
	return fmt.Sprintf("%d configurations: %s", len(cs), strings.Join(parts, ", "))
}

func cmdRun(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", stderr)
	groups := fs.String("groups", "", "comma-separated groups: "+strings.Join(umkit.Groups, ", ")+" (default all)")
	bench := fs.String("bench", "", "comma-separated benchmark names or prefixes: "+benchNames()+" (umbench list describes them)")
	quick := fs.Bool("quick", false, fmt.Sprintf("few sizes and trials (%d warm-ups, %d trials)",
		umkit.QuickWarmups, umkit.QuickTrials))
	trials := fs.Int("trials", 0, fmt.Sprintf("trials per configuration, at least 1 (default: the paper's, %d; handoff %d × %d)",
		umkit.DefaultTrials, umkit.HandoffTrials, umkit.DefaultHandoffReps))
	warmups := fs.Int("warmups", 0, fmt.Sprintf("warm-up iterations; 0 runs none (default %d)", umkit.DefaultWarmups))
	sizes := fs.String("sizes", "", "comma-separated sizes per array, e.g. 64MiB,1GiB (default: each group's sweep; "+
		"the pattern group's footprint is fixed, 256 MiB or 64 MiB with --quick, and oversub's follows --oversub-pcts)")
	out := fs.String("out", "", "results directory (default results/<date>-<time>)")
	resume := fs.Bool("resume", false, "continue the run in --out, skipping configurations it already has")
	gpu := fs.Int("gpu", 0, "GPU ordinal")
	allow := fs.Bool("allow-oversubscription", false, "allow oversubscription sweeps above 90% of free device memory (can hang the GPU on some drivers)")
	pcts := fs.String("oversub-pcts", "", "comma-separated oversubscription percentages (default 25,50,75,90)")
	counters := fs.Bool("counters", false, "after each configuration's timed trials, run it once more, untimed, with CUPTI's "+
		"Unified Memory counters (page faults, migrated bytes) and NVML's PCIe byte counters on; rows go to counters.csv. "+
		"Needs libcupti (CUDA toolkit, or pip nvidia-cuda-cupti); UMLAB_CUPTI=/path/libcupti.so.N points at one")
	order := fs.String("order", "interleaved", "handoff measurement order: interleaved (each repetition's blocks in a shuffled order, "+
		"the alternating trials of every R of a policy and size round by round, so host drift falls on all policies and R alike) "+
		"or sequential (policy by policy, R by R); other groups always run configuration by configuration")
	orderSeed := fs.Uint64("order-seed", 1, "seed of the interleaved handoff order (recorded in the rows)")
	cpuThreads := fs.Int("cpu-threads", 1, "threads of the handoff CPU update (default 1, the paper's single-threaded update); recorded in the rows")
	rewrite := fs.String("rewrite", umkit.RewriteReallocate, "how managed, pattern and oversub re-establish the CPU-written state before each cold, "+
		"prefetched or advised trial: reallocate (free, allocate again and write on the CPU: the paper's cold start before every trial) "+
		"or home (bring the data home, overlapped with the CPU's rewrite; under preferred location CPU the GPU keeps its mappings "+
		"from the trial before); recorded in meta.json")
	gpus := fs.String("gpus", "", "measure several GPUs of this node, one worker process each: all, or ordinals such as 0,1 or 0-3; results in --out/<host>/gpu<N>")
	concurrent := fs.Bool("concurrent", false, "with --gpus: run the workers all at once (shows contention for host memory and PCIe) instead of one at a time")
	workerTimeout := fs.Duration("worker-timeout", 0, "with --gpus: stop a worker that runs longer than this, e.g. 6h (default: no limit)")
	workerStall := fs.Duration("worker-stall", time.Hour, "with --gpus: stop a worker that reports no progress for this long (0: never)")
	sim := fs.Bool("simulate", false, "run on the simulated GPU (made-up numbers, marked simulated; no driver needed); "+EnvSimulate+"=1 does the same")
	kernelTimeout := fs.Duration("kernel-timeout", umkit.DefaultKernelTimeout, "declare the GPU hung when one device wait takes longer "+
		"(or 20 times the slowest wait of the same configuration, if larger); the run stops, keeps what finished and exits non-zero (0: never)")
	timeLimit := fs.Duration("time-limit", 0, "start no configuration (and no handoff block) once the run has taken this long, e.g. 9m30s; "+
		"the run then exits with status 3, every finished configuration kept and none cut short, to be continued with --resume (default: no limit)")
	dryRun := fs.Bool("dry-run", false, "print what the run would measure (groups, configurations, trials) and a rough time estimate, and touch no GPU")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := checkRunFlags(fs, *gpu, *kernelTimeout); err != nil {
		return err
	}
	open, simulate, err := deviceOpener(*sim)
	if err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("run takes no arguments (got %q); select with --groups or --bench", fs.Args())
	}
	if *gpus == "" && (*concurrent || isSet(fs, "worker-timeout") || isSet(fs, "worker-stall")) {
		return usagef("--concurrent, --worker-timeout and --worker-stall go with --gpus")
	}
	if *gpus != "" && isSet(fs, "time-limit") {
		return usagef("--time-limit measures one GPU's run; with --gpus use --worker-timeout (a worker past it is stopped) and --resume")
	}
	sz, err := sizeList(*sizes)
	if err != nil {
		return usagef("--sizes: %v", err)
	}
	pc, err := floatList(*pcts, "--oversub-pcts")
	if err != nil {
		return usageError{err.Error()}
	}
	dir := *out
	if dir == "" {
		if *resume {
			return usagef("--resume needs --out: the directory of the run to continue")
		}
		dir = filepath.Join("results", time.Now().Format("20060102-150405"))
	}
	groupList, benchList, err := selection(fs, *groups, *bench)
	if err != nil {
		return err
	}
	opts := umkit.Options{
		Groups: groupList, Benchmarks: benchList, Quick: *quick, Trials: count(fs, "trials", *trials),
		Warmups: count(fs, "warmups", *warmups),
		Sizes:   sz, Out: dir, Resume: *resume, Ordinal: *gpu, AllowOversubscription: *allow, OversubPercents: pc,
		HandoffOrder: *order, OrderSeed: *orderSeed, CPUThreads: *cpuThreads, Rewrite: *rewrite,
		Command: "umbench " + strings.Join(append([]string{"run"}, args...), " "),
		Warn:    func(s string) { fmt.Fprintln(stderr, "umbench: warning:", s) },
	}
	// Check the selection and every value before any GPU is touched; a
	// device that can do everything, so that only the command line is judged.
	plan, err := umkit.NewPlan(opts, umkit.DeviceInfo{ManagedMemory: true, ConcurrentManagedAccess: true,
		PageableMemoryAccess: true, CanMapHostMemory: true})
	if err != nil {
		return usageError{err.Error()}
	}
	opts.TimeLimit = *timeLimit
	opts.KernelTimeout = *kernelTimeout
	if *kernelTimeout == 0 {
		opts.KernelTimeout = -1 // never
	}
	if *dryRun {
		return dryRunPlan(stdout, opts, simulate)
	}
	if *gpus != "" {
		if simulate {
			old := discoverGPUs
			discoverGPUs = discoverSimulated
			defer func() { discoverGPUs = old }()
		}
		return runFleet(fs, args, *gpus, dir, *concurrent, *workerTimeout, *workerStall, stdout, stderr)
	}
	if risky(plan) && os.Getenv(envChild) == "" {
		return runInChild(args, dir, stdout, stderr)
	}
	annotate, err := fleetWorker(stderr)
	if err != nil {
		return err
	}
	ctx, stop := interruptible(stderr, dir)
	defer stop()
	if *counters {
		// Before the device: CUPTI configures its counters before the CUDA context exists.
		c, err := openCounters()
		if err != nil {
			return fmt.Errorf("--counters: %w", err)
		}
		defer c.Close()
		opts.Counters = c
	}
	dev, err := open(*gpu)
	if err != nil {
		return fmt.Errorf("no usable GPU: %w", err)
	}
	hung := false
	defer func() {
		if !hung { // closing a hung context would hang too
			dev.Close()
		}
	}()
	opts.Device = dev
	bar := newProgress(stderr)
	opts.Progress = bar.update
	start := time.Now()
	meta, err := umkit.Run(ctx, opts)
	bar.finish()
	annotate(dir)
	if hung = errors.Is(err, umkit.ErrHung); hung {
		return fmt.Errorf("%w\nevery configuration finished before it is kept in %s; check the GPU (nvidia-smi) before resuming with: umbench run --out %s --resume",
			err, dir, dir)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%w after %s: every finished configuration is in %s; continue with: umbench run --out %s --resume",
			errInterrupted, time.Since(start).Round(time.Second), dir, dir)
	}
	if errors.Is(err, umkit.ErrTimeLimit) {
		return fmt.Errorf("%w; every finished configuration is in %s; continue with: umbench run --out %s --resume", err, dir, dir)
	}
	if err != nil {
		if errors.Is(err, results.ErrResultsExist) || errors.Is(err, results.ErrLocked) || errors.Is(err, umkit.ErrNotSameRun) {
			return usageError{err.Error()}
		}
		return fmt.Errorf("%w (finished configurations are kept in %s)", err, dir)
	}
	self := selfCommand()
	fmt.Fprintf(stdout, "done in %s; results in %s\n", time.Since(start).Round(time.Second), dir)
	printGroupTimes(stdout, meta.GroupTimes)
	fmt.Fprintf(stdout, "next: %s summary %s\n", self, dir)
	if self != "umbench" {
		fmt.Fprintln(stdout, "(to type umbench instead: go install ./cmd/umbench, with $(go env GOPATH)/bin on your PATH)")
	}
	return nil
}

// selfCommand is how the user can run umbench again: "umbench" for an
// installed binary, "go run ./cmd/umbench" when this one was built by go
// run into a temporary directory.
func selfCommand() string {
	exe, err := os.Executable()
	if err != nil {
		return "umbench"
	}
	if strings.Contains(exe, string(filepath.Separator)+"go-build") {
		return "go run ./cmd/umbench"
	}
	return "umbench"
}

// progress draws a one-line bar with ETA on a terminal, or a line per
// configuration otherwise.
type progress struct {
	w    io.Writer
	tty  bool
	last int
}

func newProgress(w io.Writer) *progress {
	tty := false
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil {
			tty = st.Mode()&os.ModeCharDevice != 0
		}
	}
	return &progress{w: w, tty: tty}
}

func (p *progress) update(pr umkit.Progress) {
	eta := "?"
	if pr.ETA > 0 {
		eta = pr.ETA.Round(time.Second).String()
	}
	if !p.tty {
		fmt.Fprintf(p.w, "[%d/%d] %s (elapsed %s, ETA %s)\n", pr.Done, pr.Total, pr.Config, pr.Elapsed.Round(time.Second), eta)
		return
	}
	const width = 30
	filled := width * pr.Done / max(pr.Total, 1)
	line := fmt.Sprintf("\r[%s%s] %d/%d ETA %s  %s", strings.Repeat("#", filled), strings.Repeat(".", width-filled), pr.Done, pr.Total, eta, pr.Config)
	pad := max(p.last-len(line), 0)
	fmt.Fprint(p.w, line+strings.Repeat(" ", pad))
	p.last = len(line)
}

func (p *progress) finish() {
	if p.tty && p.last > 0 {
		fmt.Fprintln(p.w)
	}
}

// source resolves --data / --dataset / a positional argument to rows.
func source(data, dataset string, args []string) ([]results.Row, results.Metadata, string, error) {
	rows, m, name, err := source1(data, dataset, args)
	if err == nil {
		err = checkSource(rows, name)
	}
	return rows, m, name, err
}

func source1(data, dataset string, args []string) ([]results.Row, results.Metadata, string, error) {
	name := ""
	switch {
	case data != "" && dataset != "":
		return nil, results.Metadata{}, "", usagef("give --data or --dataset, not both")
	case data != "":
		rows, m, err := datasets.LoadDir(data)
		return rows, m, data, err
	case dataset != "":
		name = dataset
	case len(args) == 1:
		name = args[0]
	case len(args) > 1:
		return nil, results.Metadata{}, "", usagef("one results directory or dataset, got %d", len(args))
	default:
		return nil, results.Metadata{}, "", usagef("name a results directory (--data DIR) or an embedded dataset (--dataset NAME); see umbench datasets")
	}
	return datasets.Resolve(name)
}

func cmdSummary(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("summary", stderr)
	dataset := fs.String("dataset", "", "an embedded dataset (see umbench datasets)")
	data := fs.String("data", "", "a results directory")
	format := fs.String("format", "table", "table or csv")
	group := fs.String("group", "", "only this group")
	wide := fs.Bool("wide", false, "table: every configuration column separately, GPU UUIDs, kernel and total times, the 95% intervals' bounds (wider than 120 columns)")
	fleetMode := fs.String("fleet", "", "fleet data: only rows of this fleet mode (isolated or concurrent); the table shows each mode separately")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *format != "table" && *format != "csv" {
		return usagef("--format %q: table or csv", *format)
	}
	sums, rows, meta, err := fleetSummary(*data, *dataset, fs.Args(), *group, stderr)
	if sums == nil && err == nil {
		rows, meta, _, err = source(*data, *dataset, fs.Args())
	}
	if err != nil {
		return err
	}
	if *group != "" {
		var keep []results.Row
		for _, r := range rows {
			if r.Group == *group {
				keep = append(keep, r)
			}
		}
		if len(keep) == 0 {
			return fmt.Errorf("no rows of group %q", *group)
		}
		rows = keep
		var times []results.GroupTime
		for _, g := range meta.GroupTimes {
			if g.Group == *group || strings.HasPrefix(g.Group, *group+".") { // a set of extra benchmarks: group.set
				times = append(times, g)
			}
		}
		meta.GroupTimes = times
	}
	sopts := results.SummaryOptions{
		PeakMemoryGBps: meta.Device.PeakMemoryGBps, PeakHostLinkGBps: meta.Device.PeakHostLinkGBps,
		ThrottleReasons: meta.Device.ThrottleReasons,
	}
	modes, byMode := splitFleetModes(rows)
	summarize := func(m string) []results.SummaryRow {
		if sums != nil {
			return sums[m]
		}
		return results.Summarize(byMode[m], sopts)
	}
	if *fleetMode != "" {
		if byMode[*fleetMode] == nil {
			return usagef("--fleet %q: this data has %s", *fleetMode, describeModes(modes))
		}
		modes = []string{*fleetMode}
	}
	if *format == "csv" {
		if len(modes) > 1 {
			return usagef("the data mixes fleet runs (%s), which are never pooled: choose one with --fleet", describeModes(modes))
		}
		return model.WriteFrameCSV(stdout, results.SummaryFrame(summarize(modes[0])))
	}
	banner(stdout, rows)
	if meta.Device.Name != "" {
		fmt.Fprintf(stdout, "%s, %s", meta.Device.Name, meta.Platform)
		if meta.Device.DriverVersion != "" {
			fmt.Fprintf(stdout, ", driver %s", meta.Device.DriverVersion)
		}
		if meta.RunID != "" {
			fmt.Fprintf(stdout, ", run %s", meta.RunID)
		}
		fmt.Fprintln(stdout)
		printGroupTimes(stdout, meta.GroupTimes)
	}
	for i, m := range modes {
		if len(modes) > 1 {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			fmt.Fprintf(stdout, "fleet=%s\n", m)
		}
		sum := displayOrder(summarize(m))
		if *wide {
			cols := []string{results.ColGroup, results.ColBenchmark, results.ColMode, results.ColPattern, results.ColPolicy,
				results.ColPhase, results.ColDirection, results.ColSizeBytes, results.ColStrideElements, results.ColPageIntervalBytes,
				results.ColOversubPct, results.ColReusePasses, results.ColGPUUUID, results.ColN, results.ColMedianGBps, results.ColMedianGBpsLo,
				results.ColMedianGBpsHi, results.ColCVPct, results.ColMedianKernelMs, results.ColMedianTotalMs, results.ColMedianTotalMsLo,
				results.ColMedianTotalMsHi, results.ColPctOfPeak, results.ColFlags}
			if err := writeTable(stdout, results.SummaryFrame(sum).Select(cols)); err != nil {
				return err
			}
			continue
		}
		if err := writeSummary(stdout, sum, byMode[m]); err != nil {
			return err
		}
	}
	return nil
}

// displayOrder sorts summaries for reading: groups in the order they
// first appear, and within the handoff group (whose interleaved runs
// measure in a shuffled order) by policy, phase (cpu_only, gpu_only,
// alternating), size and R. Other groups keep the run's order.
func displayOrder(sum []results.SummaryRow) []results.SummaryRow {
	first := map[string]int{}
	for i, s := range sum {
		if _, ok := first[s.Config.Group]; !ok {
			first[s.Config.Group] = i
		}
	}
	phase := map[string]int{results.PhaseCPUOnly: 0, results.PhaseGPUOnly: 1, results.PhaseAlternating: 2}
	out := slices.Clone(sum)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Config, out[j].Config
		if a.Group != b.Group {
			return first[a.Group] < first[b.Group]
		}
		if a.Group != results.GroupHandoff {
			return false
		}
		pa, oka := phase[a.Phase]
		pb, okb := phase[b.Phase]
		switch {
		case a.Policy != b.Policy:
			return a.Policy < b.Policy
		case oka && okb && pa != pb:
			return pa < pb
		case a.Phase != b.Phase:
			return a.Phase < b.Phase
		case a.SizeBytes != b.SizeBytes:
			return a.SizeBytes < b.SizeBytes
		}
		return a.ReusePasses < b.ReusePasses
	})
	return out
}

// splitFleetModes splits rows by the fleet mode in their note (isolated,
// concurrent; "" outside fleet runs), in order of first appearance, so that
// isolated and concurrent measurements are never summarised together.
func splitFleetModes(rows []results.Row) ([]string, map[string][]results.Row) {
	var modes []string
	by := map[string][]results.Row{}
	for _, r := range rows {
		m, _ := fleet.ModeOf(r.Note)
		if _, ok := by[m]; !ok {
			modes = append(modes, m)
		}
		by[m] = append(by[m], r)
	}
	return modes, by
}

func describeModes(modes []string) string {
	var d []string
	for _, m := range modes {
		if m == "" {
			m = "rows outside fleet runs"
		}
		d = append(d, m)
	}
	return strings.Join(d, ", ")
}

// writeSummary prints the default summary table within 120 columns: the
// configuration as one readable label, a gpu column (and host) only when
// the rows come from several GPUs (or hosts), the median bandwidth with its
// 95 % bootstrap interval. Where that is too wide, kernel_ms and then
// cv_pct are left out (a closing line says so; --wide shows them).
func writeSummary(w io.Writer, sum []results.SummaryRow, rows []results.Row) error {
	gpus, hosts := map[string]bool{}, map[string]bool{}
	for _, r := range rows {
		gpus[r.GPUUUID], hosts[r.Host] = true, true
	}
	hostOf := map[string]string{}
	for _, r := range rows {
		hostOf[r.GPUUUID] = r.Host
	}
	showGPU, showHost := len(gpus) > 1, len(hosts) > 1
	t := textTable{head: []string{"group", "configuration"}, cut: 1}
	if showHost {
		t.head = append(t.head, "host")
	}
	if showGPU {
		t.head = append(t.head, "gpu")
	}
	n := len(t.head)
	t.head = append(t.head, "n", "median_gbps [95% CI]", "cv_pct", "kernel_ms", "%peak", "flags")
	t.optional = []int{n + 3, n + 2}
	for _, s := range sum {
		c := s.Config
		label := check.Label(c)
		if g := c.Group + " "; strings.HasPrefix(label, g) {
			label = strings.TrimPrefix(label, g)
		}
		f := []string{c.Group, label}
		if showHost {
			f = append(f, cutRunes(hostOf[c.GPUUUID], 10))
		}
		if showGPU {
			f = append(f, shortUUID(c.GPUUUID))
		}
		ci := s.GBpsCI
		if s.N < 2 {
			ci = stats.NaN()
		}
		f = append(f, fmt.Sprint(s.N), withCI(s.GBps.Median, ci), fixed(s.GBps.CVPct, "%.2f"), sig4(s.KernelMs), fixed(s.PctOfPeak, "%.1f"),
			strings.Join(s.Flags, ","))
		t.rows = append(t.rows, f)
	}
	lines, dropped := t.fit(maxColumns)
	for _, l := range lines {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return err
		}
	}
	if len(dropped) > 0 {
		fmt.Fprintf(w, "(%s left out to fit %d columns: --wide shows every column)\n", strings.Join(dropped, " and "), maxColumns)
	}
	return nil
}

func cutRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// shortUUID is the first 8 hex digits of a GPU UUID.
func shortUUID(u string) string {
	u = strings.TrimPrefix(u, "GPU-")
	if len(u) > 8 {
		return u[:8]
	}
	return u
}

// writeTable prints a frame as aligned text (results.TableCells).
func writeTable(w io.Writer, df dataframe.DataFrame) error {
	head, rows, err := results.TableCells(df)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, f := range rows {
		fmt.Fprintln(tw, strings.Join(f, "\t"))
	}
	return tw.Flush()
}

func cmdModel(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("model", stderr)
	dataset := fs.String("dataset", "", "an embedded dataset, e.g. paper-gb200")
	data := fs.String("data", "", "a results directory with a handoff sweep")
	format := fs.String("format", "table", "table or csv")
	minSize := fs.String("min-size", "16MiB", "smallest size counted in the aggregate error and policy matches")
	withoutCPU := fs.Bool("without-cpu", false, "diagnostic: subtract from each alternating trial the median CPU-only time (the update's compute) of the same policy, size and "+
		"repetition before fitting; CPU-side fault and migration time stays. Shows whether misses come from the CPU update's own drift "+
		"rather than the handoff or per-pass costs")
	wide := fs.Bool("wide", false, "table: lines as long as they come (by default prose is broken to fit 120 columns)")
	points := fs.Bool("points", false, "table: also each validation point, its measured median time with a 95% bootstrap interval, "+
		"the model's prediction and the error with its interval")
	countersFrom := fs.String("counters", "", "counter passes from other handoff runs of the same platform (datasets or results directories "+
		"written with umbench run --counters, comma separated; where two cover a configuration the later is quoted), "+
		"quoted where F depends on R or a policy misses by more than 2 %")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *format != "table" && *format != "csv" {
		return usagef("--format %q: table or csv", *format)
	}
	if *format == "table" && !*wide {
		stdout = fitTo(stdout)
		defer stdout.(*fitWriter).flush()
	}
	ms, err := ParseSize(*minSize)
	if err != nil {
		return usagef("--min-size: %v", err)
	}
	rows, _, name, err := source(*data, *dataset, fs.Args())
	if err != nil {
		return err
	}
	opts := model.Options{MinSizeBytes: ms}
	if counters, err := counterSource(*data, *dataset, fs.Args()); err == nil {
		for _, c := range counters {
			if c.Collected {
				opts.Counted = append(opts.Counted, model.CountedOf(c))
			}
		}
	}
	if *countersFrom != "" {
		more, err := countersOf(*countersFrom, rows)
		if err != nil {
			return err
		}
		opts.Counted = append(opts.Counted, more...)
	}
	var reports []*model.Report
	var titles []string
	var published []model.Calibration
	if *dataset != "" {
		if params, err := datasets.ModelParameters(*dataset); err == nil && len(params) > 0 {
			rep, err := model.FromParams(model.Params(params), opts)
			if err != nil {
				return err
			}
			reports, titles = append(reports, rep), append(titles, "Published model parameters ("+params[0].Source+")")
			published = params
		}
	}
	fitRows := handoffPhases(rows)
	if *withoutCPU {
		fitRows = model.WithoutCPU(fitRows)
		name += ", CPU-update time taken out (diagnostic)"
	}
	rep, ferr := model.Fit(fitRows, opts)
	if ferr == nil {
		reports, titles = append(reports, rep), append(titles, "Calibrated on "+name+" (G from GPU-only, F from R = 1; validated on R > 1)")
	} else if len(reports) == 0 {
		return ferr
	} else {
		fmt.Fprintf(stderr, "umbench: not recalibrating from %s: %v\n", name, ferr)
	}
	if *format != "csv" {
		banner(stdout, rows)
	}
	if *format == "csv" {
		// One CSV table: a dataset's published parameters when it has them
		// (Table III for paper-gb200), else the calibration from measurements.
		return reports[0].WriteCSV(stdout)
	}
	for i, r := range reports {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintln(stdout, "== "+titles[i])
		if err := r.WriteTable(stdout); err != nil {
			return err
		}
		if *points {
			writePoints(stdout, r.Points)
		}
		if i == 0 && len(published) > 0 {
			fmt.Fprintln(stdout, "\nPublished validation errors over R = 2, 4, 8, 16, 32")
			tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "policy\tsize\tmedian APE (%)\tmax APE (%)")
			for _, p := range published {
				fmt.Fprintf(tw, "%s\t%s\t%.2f\t%.2f\n", p.Policy, results.FormatBytes(p.SizeBytes), p.MedianAPE, p.MaxAPE)
			}
			tw.Flush()
		}
	}
	return nil
}

// countersOf loads the collected counter passes of the runs named, comma
// separated (for umbench model --counters), and checks that they come from
// the platform the rows were measured on. Where two runs hold passes of
// the same configuration the later one named is quoted.
func countersOf(names string, rows []results.Row) ([]model.Counted, error) {
	platform := ""
	for _, r := range rows {
		if r.Platform != "" {
			platform = r.Platform
			break
		}
	}
	var out []model.Counted
	for _, name := range strings.Split(names, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, usagef("--counters %q: an empty name (allowed: datasets or results directories, comma separated)", names)
		}
		counters, err := datasets.Counters(name)
		if err != nil {
			return nil, fmt.Errorf("--counters %s: %w", name, err)
		}
		n := len(out)
		for _, c := range counters {
			if p := c.Config.Platform; platform != "" && p != "" && p != platform {
				return nil, usagef("--counters %s: its passes were measured on %s, the rows on %s: counters only explain a run of the same machine", name, p, platform)
			}
			if c.Collected {
				k := model.CountedOf(c)
				k.Source = name
				out = append(out, k)
			}
		}
		if len(out) == n {
			return nil, usagef("--counters %s: no collected counter passes in it (measure with umbench run --counters)", name)
		}
	}
	return out, nil
}

// writePoints prints a model's validation points with their intervals.
func writePoints(w io.Writer, ps []model.Point) {
	if len(ps) == 0 {
		return
	}
	t := textTable{head: []string{"policy", "size", "R", "measured ms [95% CI]", "predicted ms", "APE % [95% CI]"}, cut: -1}
	for _, p := range ps {
		t.rows = append(t.rows, []string{p.Policy, results.FormatBytes(p.SizeBytes), fmt.Sprint(p.R),
			withCI(p.MeasuredMs, p.MeasuredCI), sig4(p.PredictedMs), pctWithCI(p.APE, p.APECI)})
	}
	fmt.Fprintln(w, "\nValidation points (median over trials and repetitions)")
	lines, _ := t.fit(maxColumns)
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}

// handoffPhases keeps the handoff rows the model reads: the measured
// phases, not the derived baseline and extra-cost rows of a dataset.
func handoffPhases(rows []results.Row) []results.Row {
	var out []results.Row
	for _, r := range rows {
		switch r.Phase {
		case "cpu_only", "gpu_only", "alternating":
			out = append(out, r)
		}
	}
	return out
}

func cmdAdvise(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("advise", stderr)
	size := fs.String("size", "", "working-set size, e.g. 1GiB (required)")
	reuse := fs.Float64("reuse", 1, "GPU passes per CPU update")
	pattern := fs.String("pattern", "streaming", "access pattern: "+strings.Join(advisePatterns, ", "))
	dataset := fs.String("dataset", "", "calibrate on an embedded dataset (default: the newest measured one, else paper-gb200)")
	data := fs.String("data", "", "calibrate on a results directory")
	wide := fs.Bool("wide", false, "lines as long as they come (by default prose is broken to fit 120 columns)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if !*wide {
		stdout = fitTo(stdout)
		defer stdout.(*fitWriter).flush()
	}
	if *size == "" {
		return usagef("--size is required, e.g. --size 1GiB")
	}
	b, err := ParseSize(*size)
	if err != nil {
		return usagef("--size: %v", err)
	}
	if !slices.Contains(advisePatterns, *pattern) {
		return usagef("--pattern %q: one of %s", *pattern, strings.Join(advisePatterns, ", "))
	}
	if !(*reuse >= 1) || math.IsInf(*reuse, 0) {
		return usagef("--reuse %v: at least 1 GPU pass per CPU update", *reuse)
	}
	if *data == "" && *dataset == "" {
		*dataset = defaultDataset()
	}
	rows, _, name, err := source(*data, *dataset, fs.Args())
	if err != nil {
		return err
	}
	m, err := model.Calibrate(handoffPhases(rows))
	if err != nil && *dataset != "" {
		params, perr := datasets.ModelParameters(*dataset)
		if perr != nil || len(params) == 0 {
			return err
		}
		m, err = model.NewModel(model.Params(params))
	}
	if err != nil {
		return err
	}
	a, err := model.Advise(m, model.Workload{SizeBytes: b, Reuse: *reuse, Pattern: *pattern})
	if err != nil {
		return err
	}
	banner(stdout, rows)
	fmt.Fprintf(stdout, "calibrated on %s\n", name)
	if err := a.WriteText(stdout); err != nil {
		return err
	}
	if v := measuredBreakEven(rows, a); v != "" {
		fmt.Fprintf(stdout, "Measured at %s (95%% bootstrap intervals): %s\n", results.FormatBytes(b), v)
	}
	return nil
}

// measuredBreakEven is the fitted model's verdict, with its interval, on
// the advice's break-even where the rows measured the workload's size with
// enough trials; "" otherwise.
func measuredBreakEven(rows []results.Row, a *model.Advice) string {
	be := a.BreakEven
	if be.A == "" || be.B == "" {
		return ""
	}
	rep, err := model.Fit(handoffPhases(rows), model.Options{})
	if err != nil || math.IsNaN(rep.MedianAPECI.Lo) { // no trials to resample: no interval to add
		return ""
	}
	for _, c := range rep.Crossovers {
		if c.SizeBytes == a.Workload.SizeBytes && c.Verdict != "" && (c.A == be.A && c.B == be.B || c.A == be.B && c.B == be.A) {
			return c.Verdict
		}
	}
	return ""
}

// defaultDataset is the newest measured dataset with a handoff sweep
// (datasets.ByAge's rule), or the paper's GB200 when none has one.
func defaultDataset() string {
	if name, ok := datasets.NewestOf(datasets.Query{Group: "handoff", Phase: "gpu_only"}); ok {
		return name
	}
	return "paper-gb200"
}

func cmdDatasets(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("datasets", stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "Embedded datasets (use with --dataset NAME; provenance in datasets/README.md):")
	for _, d := range datasets.List() {
		fmt.Fprintln(stdout)
		rows, m, err := datasets.Load(d.Name)
		if err != nil {
			fmt.Fprintf(stdout, "%s  unreadable: %v\n", d.Name, err)
			continue
		}
		for _, line := range describeDataset(d, rows, m) {
			for _, l := range wrap(line, 120, "      ") {
				fmt.Fprintln(stdout, l)
			}
		}
	}
	return nil
}

// describeDataset says what a dataset is, in lines of at most about 120
// columns: name, GPU, date of the run, rows; groups and settings; the
// command that measured it.
func describeDataset(d datasets.Info, rows []results.Row, m results.Metadata) []string {
	gpus, groups, modes := map[string]bool{}, []string{}, map[string]bool{}
	seenGroup := map[string]bool{}
	configs := map[string]bool{}
	trials, warm := map[string]int{}, map[int64]int{}
	var minSize, maxSize int64
	start := m.Start
	for _, r := range rows {
		gpus[r.GPUUUID] = true
		if !seenGroup[r.Group] {
			seenGroup[r.Group] = true
			groups = append(groups, r.Group)
		}
		if fm, _ := fleet.ModeOf(r.Note); fm != "" {
			modes[fm] = true
		}
		k := results.ConfigKey(r)
		configs[k] = true
		trials[k+"|"+fmt.Sprint(r.Repetition)]++
		warm[r.Warmups]++
		if r.SizeBytes > 0 {
			if minSize == 0 || r.SizeBytes < minSize {
				minSize = r.SizeBytes
			}
			maxSize = max(maxSize, r.SizeBytes)
		}
		// A resumed run's metadata names its last segment; the run IDs of
		// its rows (20261129T235618Z-...) name every segment's start.
		if t, err := time.Parse("20060102T150405Z", strings.SplitN(r.RunID, "-", 2)[0]); err == nil && (start.IsZero() || t.Before(start)) {
			start = t
		}
	}
	gpu := m.Device.Name
	if gpu == "" {
		gpu = d.Platform
	}
	if len(gpus) > 1 {
		gpu = fmt.Sprintf("%d × %s", len(gpus), gpu)
	}
	when := "date unknown"
	if !start.IsZero() {
		when = "measured " + start.UTC().Format("2006-01-02 15:04") + " UTC"
	}
	if d.Kind == datasets.Published {
		when = "published figures"
	}
	out := []string{fmt.Sprintf("%s  %s, %s, %d rows", d.Name, gpu, when, len(rows))}
	if m.Device.DriverVersion != "" && d.Kind != datasets.Published {
		out[0] += ", driver " + m.Device.DriverVersion
	}
	set := fmt.Sprintf("    %s; %d configurations", strings.Join(groups, ", "), len(configs))
	if d.Kind == datasets.Measured {
		tc := map[int]int{}
		for _, n := range trials {
			tc[n]++
		}
		set += fmt.Sprintf("; mostly %d trials, %d warm-ups", results.MostCommon(tc), results.MostCommon(warm))
	}
	if maxSize > 0 {
		set += "; sizes " + results.FormatBytes(minSize)
		if maxSize != minSize {
			set += "–" + results.FormatBytes(maxSize)
		}
	}
	if len(modes) > 0 {
		var ms []string
		for k := range modes {
			ms = append(ms, k)
		}
		sort.Strings(ms)
		set += "; fleet " + strings.Join(ms, ", ")
	}
	out = append(out, set)
	switch {
	case d.Kind == datasets.Published:
		out = append(out, "    source: "+m.Source)
	case m.Command != "":
		out = append(out, "    command: "+m.Command)
	}
	return out
}

// wrap breaks a line at spaces so that no piece is longer than width
// (unless one word is), continuing with indent.
func wrap(line string, width int, indent string) []string {
	var out []string
	for len([]rune(line)) > width {
		r := []rune(line)
		cut := lastBreak(r, width)
		if cut <= len([]rune(indent)) {
			break
		}
		out = append(out, strings.TrimRight(string(r[:cut]), " "))
		line = indent + strings.TrimLeft(string(r[cut:]), " ")
	}
	return append(out, line)
}

// count is a flag's value as an iteration count: unset when the flag was
// not given, so that an explicit 0 is honoured.
func count(fs *flag.FlagSet, name string, v int) umkit.Count {
	if !isSet(fs, name) {
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

// printGroupTimes says where a run's wall time went: each group's span and,
// where recorded, what it was spent on, in lines of at most 120 columns; a
// merged directory's parts one after another, each named (they may have run
// at the same time, so their spans are never added up).
func printGroupTimes(w io.Writer, ts []results.GroupTime) {
	parts, spans := results.ByPart(ts)
	for _, part := range parts {
		head := "wall time by group"
		if part != "" {
			head += ", " + part
		}
		if s := results.FormatGroupWall(spans[part]); s != "" {
			for _, l := range wrap(head+": "+s, 120, "  ") {
				fmt.Fprintln(w, l)
			}
		}
		if s := results.FormatGroupParts(spans[part]); s != "" {
			fmt.Fprintln(w, "spent on:")
			for _, l := range strings.Split(s, "\n") {
				for _, p := range wrap("  "+l, 120, "    ") {
					fmt.Fprintln(w, p)
				}
			}
		}
	}
}
