package umkit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/umlab/umlab/cuda"
	"github.com/umlab/umlab/results"
)

// Options configure Run, the whole-suite driver behind `umbench run`.
type Options struct {
	Groups     []string // group names (see Groups); empty with no Benchmarks = all
	Benchmarks []string // benchmark names or prefixes (see Registry)
	Quick      bool     // few sizes and trials: every group in a couple of minutes
	Trials     Count    // overrides every group's trial count when set
	Warmups    Count    // overrides every group's warm-up count when set (N(0): none)
	Sizes      []int64  // overrides the size sweep of the groups that have one
	Out        string   // results directory (required)
	Resume     bool     // keep the directory's results and skip their configurations
	Ordinal    int      // GPU ordinal
	// AllowOversubscription allows oversub percentages above 90.
	AllowOversubscription bool
	OversubPercents       []float64 // overrides the oversub sweep
	Command               string    // recorded in the metadata
	// HandoffOrder, OrderSeed and CPUThreads set HandoffConfig's Order,
	// OrderSeed and CPUThreads; zero values take its defaults.
	HandoffOrder string
	OrderSeed    uint64
	CPUThreads   int
	// Rewrite is the memory-state groups' StateSetup.Rewrite; empty takes
	// RewriteReallocate.
	Rewrite  string
	Progress func(Progress)
	Warn     func(string) // default: stderr
	// Device runs on this device instead of opening GPU Ordinal (tests).
	Device Device
	// Counters, when set, adds a counter pass after every configuration's
	// timed trials, written to counters.csv. Open it with OpenCounters
	// before the device exists.
	Counters *Counters
	// KernelTimeout is the hang watchdog's limit on one device wait:
	// 0 takes DefaultKernelTimeout, a negative value turns it off.
	KernelTimeout time.Duration
	// TimeLimit, when positive, makes the run start no configuration and
	// no handoff block once this much wall-clock time has passed. Run then
	// returns ErrTimeLimit with nothing measured in part, so that a job
	// with a wall-time limit stops cleanly and continues with Resume.
	TimeLimit time.Duration
}

// ErrTimeLimit is returned by Run when it stopped at Options.TimeLimit.
var ErrTimeLimit = errors.New("umkit: the run reached its time limit")

// Progress reports a finished configuration.
type Progress struct {
	Done, Total int
	Config      string
	Elapsed     time.Duration
	ETA         time.Duration // 0 when unknown
}

// repKey identifies one block of handoff trials: one repetition of a
// configuration, or of a sweep (every R of its policy and size).
func repKey(r results.Row) string {
	if inSweep(r) {
		r.ReusePasses = 0
		return fmt.Sprintf("%s|sweep|rep=%d", results.ConfigKey(r), r.Repetition)
	}
	return fmt.Sprintf("%s|rep=%d", results.ConfigKey(r), r.Repetition)
}

// inSweep reports whether a handoff row was measured in a sweep.
func inSweep(r results.Row) bool {
	return r.Group == results.GroupHandoff && r.Phase == results.PhaseAlternating && r.RoundPosition > 0
}

// resumeNote starts the metadata note for each earlier segment of a resumed run.
const resumeNote = "resumes run "

// Run measures the selected benchmarks and appends each finished
// configuration to o.Out/results.csv, with the run's metadata in
// o.Out/meta.json. An interrupted run (ctx cancelled, an error) keeps every
// configuration it finished; with Resume a later run skips them.
func Run(ctx context.Context, o Options) (meta results.Metadata, err error) {
	if o.Out == "" {
		return meta, errors.New("umkit: Run needs an output directory (--out)")
	}
	lock, err := results.LockDir(o.Out, o.Command)
	if err != nil {
		return meta, err
	}
	defer lock.Unlock()
	dev := o.Device
	if dev == nil {
		if dev, err = Open(o.Ordinal); err != nil {
			return meta, err
		}
		defer dev.Close()
	}
	plan, err := NewPlan(o, dev.Info())
	if err != nil {
		return meta, err
	}
	r := newRunner(dev, "")
	if o.Warn != nil {
		r.warn = o.Warn
	}
	hung := false
	defer func() {
		if !hung { // a hung device's free would hang too
			r.close()
		}
	}()
	meta = Describe(dev, r.runID, o.Command, plan)
	app, earlier, err := r.openResults(o, plan, &meta)
	if err != nil {
		return meta, err
	}
	defer app.Close()
	metaPath := filepath.Join(o.Out, results.MetaName)
	if err := results.WriteMetadata(metaPath, meta); err != nil {
		return meta, err
	}
	if o.Counters != nil {
		if err := r.attachCounters(o, &meta); err != nil {
			return meta, err
		}
	}
	err = r.execute(ctx, o, plan, app)
	hung = errors.Is(err, ErrHung)
	if hung {
		app.Abandon() // the run goroutine may still be blocked in the device
	}
	meta.End = time.Now().UTC()
	meta.GroupTimes = slices.Concat(earlier, r.groups.snapshot())
	if err != nil {
		meta.Notes = append(meta.Notes, "stopped early: "+err.Error())
	}
	if werr := results.WriteMetadata(metaPath, meta); err == nil {
		err = werr
	}
	return meta, err
}

// openResults opens the results directory for appending; on resume it
// checks that the run is the same, carries the earlier segments' notes and
// group times into meta (so a process killed before its last write keeps
// them) and sets incomplete configurations aside.
func (r *runner) openResults(o Options, plan Plan, meta *results.Metadata) (*results.Appender, []results.GroupTime, error) {
	if o.Resume {
		if err := checkResume(o.Out, *meta); err != nil {
			return nil, nil, err
		}
	}
	app, err := results.OpenAppender(o.Out, o.Resume)
	if err != nil {
		return nil, nil, err
	}
	r.groups = &groupClock{segment: r.runID}
	if !o.Resume {
		return app, nil, nil
	}
	var earlier []results.GroupTime
	if old, err := results.ReadMetadata(filepath.Join(o.Out, results.MetaName)); err == nil {
		earlier = old.GroupTimes
		// Keep the whole chain: every earlier segment of the run, oldest first.
		for _, n := range old.Notes {
			if strings.HasPrefix(n, resumeNote) {
				meta.Notes = append(meta.Notes, n)
			}
		}
		meta.Notes = append(meta.Notes, fmt.Sprintf("%s%s started %s, ended %s (%s)", resumeNote, old.RunID,
			old.Start.Format(time.RFC3339), old.End.Format(time.RFC3339), old.Command))
	}
	key, complete := completeFor(plan)
	n, err := app.SetAsidePartial(key, complete)
	if err != nil {
		app.Close()
		return nil, nil, err
	}
	if n > 0 {
		msg := fmt.Sprintf("%d configuration(s) or handoff repetition(s) found incomplete on disk are measured again whole; "+
			"their rows are kept in %s", n, results.PartialName)
		meta.Notes = append(meta.Notes, msg)
		r.warn(msg)
	}
	meta.GroupTimes = earlier
	return app, earlier, nil
}

func (r *runner) attachCounters(o Options, meta *results.Metadata) error {
	if err := o.Counters.attach(o.Out, o.Resume, r.dev.Info().UUID, r.warn); err != nil {
		return err
	}
	if err := o.Counters.prime(r.dev); err != nil {
		r.warn(fmt.Sprintf("the counters' first collection was not primed (%v): the first counter pass may undercount", err))
	}
	r.counters = o.Counters
	meta.Notes = append(meta.Notes, fmt.Sprintf("counter passes (%s) in %s: %s", results.PassCounters, results.CountersName, o.Counters))
	return nil
}

// execute measures the plan into app under the hang watchdog, the time
// limit and progress reporting.
func (r *runner) execute(ctx context.Context, o Options, plan Plan, app *results.Appender) error {
	total, done, start := plan.Configurations(), 0, time.Now()
	var wd *watchdog
	if o.KernelTimeout >= 0 {
		wd = newWatchdog(cmp.Or(o.KernelTimeout, DefaultKernelTimeout))
		if a, ok := r.dev.(interface{ Abort() }); ok {
			wd.abort = a.Abort
		}
		r.dev = watchedDevice{Device: r.dev, w: wd}
	}
	// Past the time limit, soft is cancelled where a configuration or a
	// handoff block is about to start. limited is atomic: a declared hang
	// leaves the run's goroutine running. The limit is a job's wall time,
	// never the device's clock (simulated on the simulated GPU).
	soft, cancelSoft := context.WithCancel(ctx)
	defer cancelSoft()
	var limited atomic.Bool
	starting := func(what string) {
		if o.TimeLimit > 0 && !limited.Load() && time.Since(start) >= o.TimeLimit {
			limited.Store(true)
			cancelSoft()
		}
		if wd != nil {
			wd.setConfig(what)
		}
	}
	r.skip = func(row results.Row) bool {
		if app.Done(row) {
			return true
		}
		starting(describeRow(row))
		return false
	}
	// Handoff blocks are emitted one repetition at a time.
	doneReps := map[string]bool{}
	for _, row := range app.Rows() {
		doneReps[repKey(row)] = true
	}
	r.skipRep = func(row results.Row) bool {
		if doneReps[repKey(row)] {
			return true
		}
		starting(describeBlock(row))
		return false
	}
	r.emit = func(rows []results.Row) error { return app.Append(rows...) }
	r.step = func(label string) {
		done++
		if o.Progress == nil {
			return
		}
		el := time.Since(start)
		var eta time.Duration
		if done > 0 && done < total {
			eta = el / time.Duration(done) * time.Duration(total-done)
		}
		o.Progress(Progress{Done: done, Total: total, Config: label, Elapsed: el, ETA: eta})
	}
	err := runWatched(soft, r, plan, wd)
	if limited.Load() && ctx.Err() == nil && errors.Is(err, context.Canceled) {
		err = fmt.Errorf("%w (%s) with %d of %d configurations done", ErrTimeLimit, o.TimeLimit, done, total)
	}
	return err
}

func (r *runner) runPlan(ctx context.Context, p Plan) error {
	for _, b := range p.Waived {
		_, why := b.Supported(r.info)
		row := r.row(b.Group, b.suffix(), "")
		if err := r.waive(row, b.Name, why); err != nil {
			return err
		}
	}
	// One span per group, over all of its definitions (they run together).
	group := func(i int) string { return p.Groups[i].Entries()[0].Group }
	for i, d := range p.Groups {
		if i == 0 || group(i-1) != group(i) {
			r.groups.start(group(i))
		}
		if err := r.runDefinition(ctx, d); err != nil {
			return err
		}
		if i == len(p.Groups)-1 || group(i+1) != group(i) {
			r.groups.end()
		}
	}
	return nil
}

// Describe collects a run's provenance: the device (driver and NVML), the
// UVM module parameters, the host, the build, the command and the plan.
func Describe(dev Device, runID, command string, plan Plan) results.Metadata {
	info := dev.Info()
	host, _ := os.Hostname()
	m := results.Metadata{
		RunID: runID, Platform: PlatformName(info.Name), Kind: "measured", Command: command, Config: plan,
		Host: host, Start: time.Now().UTC(), UVMParams: uvmParameters(),
	}
	if b := results.ReadBuild(); b.GoVersion != "" { // "": no build information
		m.Module, m.Commit = b.Module, b.Commit
		if b.Modified {
			m.Notes = append(m.Notes, "built from a modified working tree")
		}
	}
	for _, d := range plan.Groups {
		if s, ok := d.(stateful); ok {
			if m.Rewrites == nil {
				m.Rewrites = map[string]string{}
			}
			m.Rewrites[d.Name()] = s.setup().Rewrite
		}
	}
	if info.Simulated {
		m.Kind = results.KindSimulated
		m.Notes = append(m.Notes, "SIMULATED: every number was made up by the simulated GPU (umkit/simgpu); none is a measurement")
	}
	d := &m.Device
	d.Name, d.UUID, d.Index, d.MemoryBytes = info.Name, info.UUID, info.Ordinal, info.TotalMemory
	d.SMs, d.PeakMemoryGBps = info.Multiprocessors, info.PeakMemoryGBps
	d.ManagedMemory, d.ConcurrentManagedAccess = info.ManagedMemory, info.ConcurrentManagedAccess
	d.PageableMemoryAccess, d.CanMapHostMemory = info.PageableMemoryAccess, info.CanMapHostMemory
	d.NUMANode = -1
	if free, _, err := dev.MemInfo(); err == nil {
		d.FreeMemoryBytes = free
	}
	if cd, ok := dev.(*cudaDevice); ok { // the driver's own facts, for a real GPU
		a := cd.c.Attributes()
		d.ComputeCapability = a.ComputeCapability()
		d.PageableUsesHostPageTables = a.PageableUsesHostPageTables
		d.HostNativeAtomics = a.HostNativeAtomics
		d.DirectManagedAccessFromHost = a.DirectManagedAccessFromHost
		if v, err := cuda.DriverVersion(); err == nil {
			d.CUDADriverVersion = v
		}
		m.Notes = append(m.Notes, hostCPUNote())
		load, jit := cd.c.ModuleLoadTime()
		m.Notes = append(m.Notes, fmt.Sprintf("kernel module load %.1f ms (JIT %.1f ms), outside every measurement",
			float64(load.Microseconds())/1000, float64(jit.Microseconds())/1000))
		if cpus, err := readNVML(info.UUID, d); err == nil {
			d.CPUAffinity = fmt.Sprint(cpus)
			d.PeakHostLinkGBps = pcieGBps(d.PCIeGeneration, d.PCIeWidth)
		} else {
			m.Notes = append(m.Notes, err.Error())
		}
	}
	return m
}

// hostCPUNote names the CPU and the build of the set-up loops it ran.
func hostCPUNote() string {
	model := cmp.Or(cuda.CPUModel(), "model not named by /proc/cpuinfo")
	return fmt.Sprintf("host CPU: %s, %d logical CPUs; set-up fills and checks ran their %s build", model, runtime.NumCPU(), cuda.SetupLoops())
}

// pcieGBps is the raw per-direction bandwidth of a PCIe link, in GB/s.
func pcieGBps(gen, width int) float64 {
	perLane := map[int]float64{1: 0.25, 2: 0.5, 3: 0.985, 4: 1.969, 5: 3.938, 6: 7.563}[gen]
	return perLane * float64(width)
}
