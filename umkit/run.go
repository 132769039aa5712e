package umkit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/umlab/umlab/cuda"
	"github.com/umlab/umlab/results"
)

// Options configure Run, the whole-suite driver behind `umbench run`.
type Options struct {
	Groups     []string // group names (see Groups); empty with no Benchmarks = all
	Benchmarks []string // benchmark names or prefixes (see Registry)
	Quick      bool     // few sizes and trials: every group in a couple of minutes
	Trials     int      // overrides every group's trial count when > 0
	Warmups    int      // overrides every group's warm-up count when > 0
	Sizes      []int64  // overrides the size sweep of the groups that have one
	Out        string   // results directory (required)
	Resume     bool     // keep the directory's results and skip their configurations
	Ordinal    int      // GPU ordinal
	// AllowOversubscription allows oversub percentages above 90.
	AllowOversubscription bool
	OversubPercents       []float64 // overrides the oversub sweep
	Command               string    // recorded in the metadata
	Progress              func(Progress)
	Warn                  func(string) // default: stderr
	// Device runs on this device instead of opening GPU Ordinal (tests).
	Device Device
	// Counters, when set, runs every configuration once more after its
	// timed trials with CUPTI's Unified Memory counters on, and writes the
	// counts to counters.csv beside results.csv. Open it with OpenCounters
	// before the device exists (before Open, or before Run opens one).
	Counters *Counters
	// KernelTimeout is the hang watchdog's limit on one device wait:
	// 0 takes DefaultKernelTimeout, a negative value turns it off.
	KernelTimeout time.Duration
}

// Progress reports a finished configuration.
type Progress struct {
	Done, Total int
	Config      string
	Elapsed     time.Duration
	ETA         time.Duration // 0 when unknown
}

// Plan is the effective configuration of every selected group.
type Plan struct {
	HBM      *HBMConfig      `json:"hbm,omitempty"`
	Host     *HostConfig     `json:"host,omitempty"`
	Transfer *TransferConfig `json:"transfer,omitempty"`
	Managed  *ManagedConfig  `json:"managed,omitempty"`
	Pattern  *PatternConfig  `json:"pattern,omitempty"`
	Oversub  *OversubConfig  `json:"oversub,omitempty"`
	Handoff  *HandoffConfig  `json:"handoff,omitempty"`
	Waived   []Benchmark     `json:"-"`
}

// Configurations counts the configurations the plan measures (each becomes
// trials rows, or one waived row).
func (p Plan) Configurations() int {
	n := len(p.Waived)
	if c := p.HBM; c != nil {
		n += len(c.Benchmarks) * len(c.Sizes)
	}
	if c := p.Host; c != nil {
		n += len(c.Modes) * len(c.Sizes)
	}
	if c := p.Transfer; c != nil {
		n += len(c.Modes) * 2 * len(c.Sizes)
	}
	if c := p.Managed; c != nil {
		n += len(c.Modes) * len(c.Sizes)
	}
	if c := p.Pattern; c != nil {
		w := 0
		for _, b := range c.Benchmarks {
			switch b {
			case "strided":
				w += len(c.Strides)
			case "page_touch":
				w += len(c.PageIntervals)
			default:
				w++
			}
		}
		n += w * len(c.Modes)
	}
	if c := p.Oversub; c != nil {
		n += len(c.Patterns) * len(c.Modes) * len(c.Percents)
	}
	if c := p.Handoff; c != nil {
		n += len(c.Policies) * len(c.Sizes) * (2 + len(c.Reuse))
	}
	return n
}

// resumeNote starts the metadata note for each earlier segment of a resumed run.
const resumeNote = "resumes run "

// NewPlan turns options into validated group configurations for a device.
// It touches no GPU.
func NewPlan(o Options, info DeviceInfo) (Plan, error) {
	var p Plan
	pats := append(slices.Clone(o.Groups), o.Benchmarks...)
	for _, g := range o.Groups {
		if !slices.Contains(Groups, g) {
			return p, fmt.Errorf("umkit: unknown group %q: groups are %s", g, strings.Join(Groups, ", "))
		}
	}
	sel, err := Select(pats)
	if err != nil {
		return p, err
	}
	if o.Trials < 0 || o.Warmups < 0 {
		return p, fmt.Errorf("umkit: trials %d and warmups %d must not be negative", o.Trials, o.Warmups)
	}
	common := Common{Trials: o.Trials, Warmups: o.Warmups}
	if o.Quick {
		common = Common{Trials: or(o.Trials, 5), Warmups: or(o.Warmups, 2)}
	}
	names := map[string][]string{} // group → selected benchmark suffixes
	for _, b := range sel {
		if ok, _ := b.Supported(info); !ok && b.Name != "host.system_triad" {
			p.Waived = append(p.Waived, b)
			continue
		}
		names[b.Group] = append(names[b.Group], strings.TrimPrefix(strings.TrimPrefix(b.Name, b.Group), "."))
	}
	sizes := func(def []int64) []int64 {
		if o.Sizes != nil {
			return o.Sizes
		}
		return def
	}
	if s, ok := names["hbm"]; ok {
		c := HBMConfig{Common: common, Benchmarks: s, Sizes: sizes(quick(o.Quick, []int64{MiB, 256 * MiB}))}
		p.HBM = &c
	}
	if s, ok := names["host"]; ok {
		var modes []string
		for _, b := range s {
			modes = append(modes, map[string]string{"mapped_triad": "host_mapped", "system_triad": "system"}[b])
		}
		c := HostConfig{Common: common, Modes: modes, Sizes: sizes(quick(o.Quick, []int64{MiB, 256 * MiB}))}
		p.Host = &c
	}
	if s, ok := names["transfer"]; ok {
		var modes []string
		if slices.Contains(s, "copy") {
			modes = append(modes, "pinned", "pageable")
		}
		if slices.Contains(s, "prefetch") {
			modes = append(modes, "managed")
		}
		c := TransferConfig{Common: common, Modes: modes, Sizes: sizes(quick(o.Quick, []int64{MiB, 256 * MiB}))}
		p.Transfer = &c
	}
	if _, ok := names["managed"]; ok {
		c := ManagedConfig{Common: common, Sizes: sizes(quick(o.Quick, []int64{MiB, 256 * MiB}))}
		p.Managed = &c
	}
	if s, ok := names["pattern"]; ok {
		c := PatternConfig{Common: common, Benchmarks: s}
		if o.Quick {
			c.FootprintBytes, c.Strides = 64*MiB, []int64{1, 16, 1024}
		}
		p.Pattern = &c
	}
	if s, ok := names["oversub"]; ok {
		c := OversubConfig{Common: common, Patterns: s, Percents: o.OversubPercents, AllowOversubscription: o.AllowOversubscription}
		if o.Quick {
			c.CapacityBytes = GiB
			if c.Percents == nil {
				c.Percents = []float64{25, 90}
			}
		}
		p.Oversub = &c
	}
	if _, ok := names["handoff"]; ok {
		c := HandoffConfig{Common: common, Sizes: sizes(nil)}
		if o.Quick {
			c.Trials, c.Repetitions = or(o.Trials, 5), 1
			c.Sizes, c.Reuse = sizes([]int64{16 * MiB, 256 * MiB}), []int{1, 4, 32}
		}
		p.Handoff = &c
	}
	return p, p.validate()
}

func (p *Plan) validate() error {
	var errs []error
	if p.HBM != nil {
		d := p.HBM.Defaults()
		p.HBM, errs = &d, append(errs, d.Validate())
	}
	if p.Host != nil {
		d := p.Host.Defaults()
		p.Host, errs = &d, append(errs, d.Validate())
	}
	if p.Transfer != nil {
		d := p.Transfer.Defaults()
		p.Transfer, errs = &d, append(errs, d.Validate())
	}
	if p.Managed != nil {
		d := p.Managed.Defaults()
		p.Managed, errs = &d, append(errs, d.Validate())
	}
	if p.Pattern != nil {
		d := p.Pattern.Defaults()
		p.Pattern, errs = &d, append(errs, d.Validate())
	}
	if p.Oversub != nil {
		d := p.Oversub.Defaults()
		p.Oversub, errs = &d, append(errs, d.Validate())
	}
	if p.Handoff != nil {
		d := p.Handoff.Defaults()
		p.Handoff, errs = &d, append(errs, d.Validate())
	}
	return errors.Join(errs...)
}

func or(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

func quick(q bool, sizes []int64) []int64 {
	if q {
		return sizes
	}
	return nil
}

// Run measures the selected benchmarks and appends each finished
// configuration to o.Out/results.csv, with the run's metadata in
// o.Out/meta.json. An interrupted run (ctx cancelled, an error) keeps every
// configuration it finished; with Resume a later run skips them.
func Run(ctx context.Context, o Options) (results.Metadata, error) {
	var meta results.Metadata
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
		var err error
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
	if o.Resume {
		if err := checkResume(o.Out, meta); err != nil {
			return meta, err
		}
	}
	app, err := results.OpenAppender(o.Out, o.Resume)
	if err != nil {
		return meta, err
	}
	defer app.Close()
	if o.Resume {
		if old, err := results.ReadMetadata(filepath.Join(o.Out, results.MetaName)); err == nil {
			// Keep the whole chain: every earlier segment of the run, oldest first.
			for _, n := range old.Notes {
				if strings.HasPrefix(n, resumeNote) {
					meta.Notes = append(meta.Notes, n)
				}
			}
			meta.Notes = append(meta.Notes, fmt.Sprintf("%s%s started %s, ended %s (%s)", resumeNote, old.RunID,
				old.Start.Format(time.RFC3339), old.End.Format(time.RFC3339), old.Command))
		}
		n, err := app.SetAsidePartial(completeFor(plan))
		if err != nil {
			return meta, err
		}
		if n > 0 {
			msg := fmt.Sprintf("%d configuration(s) found incomplete on disk are measured again whole; their rows are kept in %s", n, results.PartialName)
			meta.Notes = append(meta.Notes, msg)
			r.warn(msg)
		}
	}
	metaPath := filepath.Join(o.Out, results.MetaName)
	if err := results.WriteMetadata(metaPath, meta); err != nil {
		return meta, err
	}
	total := plan.Configurations()
	done := 0
	start := time.Now()
	var wd *watchdog
	if o.KernelTimeout >= 0 {
		wd = newWatchdog(cmp.Or(o.KernelTimeout, DefaultKernelTimeout))
		if a, ok := dev.(interface{ Abort() }); ok {
			wd.abort = a.Abort
		}
		r.dev = watchedDevice{Device: dev, w: wd}
	}
	r.skip = func(row results.Row) bool {
		if app.Done(row) {
			return true
		}
		if wd != nil {
			wd.setConfig(describeRow(row))
		}
		return false
	}
	r.emit = func(rows []results.Row) error { return app.Append(rows...) }
	if o.Counters != nil {
		if err := o.Counters.attach(o.Out, o.Resume, dev.Info().UUID, r.warn); err != nil {
			return meta, err
		}
		if err := o.Counters.prime(dev); err != nil {
			r.warn(fmt.Sprintf("the counters' first collection was not primed (%v): the first counter pass may undercount", err))
		}
		r.counters = o.Counters
		meta.Notes = append(meta.Notes, fmt.Sprintf("counter passes (%s) in %s: %s", PassCounters, CountersName, o.Counters))
	}
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
	err = runWatched(ctx, r, plan, wd)
	hung = errors.Is(err, ErrHung)
	if hung {
		app.Abandon() // the run goroutine may still be blocked in the device
	}
	meta.End = time.Now().UTC()
	if err != nil {
		meta.Notes = append(meta.Notes, "stopped early: "+err.Error())
	}
	if werr := results.WriteMetadata(metaPath, meta); err == nil {
		err = werr
	}
	return meta, err
}

func (r *runner) runPlan(ctx context.Context, p Plan) error {
	for _, b := range p.Waived {
		_, why := b.Supported(r.info)
		row := r.row(b.Group, strings.TrimPrefix(strings.TrimPrefix(b.Name, b.Group), "."), "")
		if err := r.waive(row, b.Name, why); err != nil {
			return err
		}
	}
	steps := []func() error{
		func() error { return ifSet(p.HBM, func(c HBMConfig) error { return r.hbm(ctx, c) }) },
		func() error { return ifSet(p.Host, func(c HostConfig) error { return r.hostGroup(ctx, c) }) },
		func() error { return ifSet(p.Transfer, func(c TransferConfig) error { return r.transfer(ctx, c) }) },
		func() error { return ifSet(p.Managed, func(c ManagedConfig) error { return r.managed(ctx, c) }) },
		func() error { return ifSet(p.Pattern, func(c PatternConfig) error { return r.patterns(ctx, c) }) },
		func() error { return ifSet(p.Oversub, func(c OversubConfig) error { return r.oversub(ctx, c) }) },
		func() error { return ifSet(p.Handoff, func(c HandoffConfig) error { return r.handoff(ctx, c) }) },
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return err
		}
	}
	return nil
}

func ifSet[T any](c *T, f func(T) error) error {
	if c == nil {
		return nil
	}
	return f(*c)
}

// Describe collects a run's provenance: the device (from the driver and
// NVML), the UVM module parameters, the host, the module version and commit,
// the command and the plan.
func Describe(dev Device, runID, command string, plan Plan) results.Metadata {
	info := dev.Info()
	host, _ := os.Hostname()
	m := results.Metadata{
		RunID: runID, Platform: PlatformName(info.Name), Kind: "measured", Command: command, Config: plan,
		Host: host, Start: time.Now().UTC(), UVMParams: uvmParameters(),
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		m.Module = bi.Main.Version
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				m.Commit = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					m.Notes = append(m.Notes, "built from a modified working tree")
				}
			}
		}
	}
	if info.Simulated {
		m.Kind = results.KindSimulated
		m.Notes = append(m.Notes, "SIMULATED: every number was made up by the simulated GPU (internal/fakegpu); none is a measurement")
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
	if c := Context(dev); c != nil {
		a := c.Attributes()
		d.ComputeCapability = a.ComputeCapability()
		d.PageableUsesHostPageTables = a.PageableUsesHostPageTables
		d.HostNativeAtomics = a.HostNativeAtomics
		d.DirectManagedAccessFromHost = a.DirectManagedAccessFromHost
		if v, err := cuda.DriverVersion(); err == nil {
			d.CUDADriverVersion = v
		}
		load, jit := c.ModuleLoadTime()
		m.Notes = append(m.Notes, fmt.Sprintf("kernel module load %.1f ms (JIT %.1f ms), outside every measurement",
			float64(load.Microseconds())/1000, float64(jit.Microseconds())/1000))
		if f, err := readNVML(info.UUID); err == nil {
			d.DriverVersion, d.PCIeGeneration, d.PCIeWidth, d.NUMANode = f.DriverVersion, f.PCIeGen, f.PCIeWidth, f.NUMANode
			d.CPUAffinity = fmt.Sprint(f.CPUs)
			d.SMClockMHz, d.MemClockMHz, d.MaxSMClockMHz, d.ThrottleReasons = f.SMClockMHz, f.MemClkMHz, f.MaxSMClockMHz, f.Throttle
			d.PeakHostLinkGBps = pcieGBps(f.PCIeGen, f.PCIeWidth)
		} else {
			m.Notes = append(m.Notes, err.Error())
		}
	}
	return m
}

// pcieGBps is the raw per-direction bandwidth of a PCIe link, in GB/s.
func pcieGBps(gen, width int) float64 {
	perLane := map[int]float64{1: 0.25, 2: 0.5, 3: 0.985, 4: 1.969, 5: 3.938, 6: 7.563}[gen]
	return perLane * float64(width)
}
