package umkit_test

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/umlab/umlab/cuda"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
	"github.com/umlab/umlab/umkit/simgpu"
)

var ctx = context.Background()

func small() umkit.Common { return umkit.Common{Warmups: umkit.N(1), Trials: umkit.N(3)} }

func TestConfigValidation(t *testing.T) {
	bad := map[string]interface{ Validate() error }{
		"negative warmups":     umkit.HBMConfig{Common: umkit.Common{Warmups: umkit.N(-1)}},
		"huge trials":          umkit.HBMConfig{Common: umkit.Common{Trials: umkit.N(1 << 30)}},
		"odd size":             umkit.HBMConfig{Sizes: []int64{1000}},
		"size too large":       umkit.HBMConfig{Sizes: []int64{128 << 30}},
		"hbm benchmark":        umkit.HBMConfig{Benchmarks: []string{"scale"}},
		"negative warmup time": umkit.HBMConfig{MinWarmupMs: -1},
		"host mode":            umkit.HostConfig{Modes: []string{"pinned"}},
		"transfer mode":        umkit.TransferConfig{Modes: []string{"unified"}},
		"managed mode":         umkit.ManagedConfig{Modes: []string{"managed_hot"}},
		"managed size":         umkit.ManagedConfig{Sizes: []int64{0}},
		"pattern footprint":    umkit.PatternConfig{FootprintBytes: 1000},
		"pattern stride":       umkit.PatternConfig{Strides: []int64{0}},
		"stride beyond":        umkit.PatternConfig{FootprintBytes: 64 << 10, Strides: []int64{1 << 20}},
		"page interval":        umkit.PatternConfig{PageIntervals: []int64{12}},
		"pattern name":         umkit.PatternConfig{Benchmarks: []string{"zigzag"}},
		"oversub above 90":     umkit.OversubConfig{Percents: []float64{95}},
		"oversub zero":         umkit.OversubConfig{Percents: []float64{0}},
		"oversub above 200":    umkit.OversubConfig{Percents: []float64{250}, AllowOversubscription: true},
		"oversub capacity":     umkit.OversubConfig{CapacityBytes: 1 << 20},
		"oversub mode":         umkit.OversubConfig{Modes: []string{"explicit"}},
		"handoff no R=1":       umkit.HandoffConfig{Reuse: []int{2, 4}},
		"handoff R=0":          umkit.HandoffConfig{Reuse: []int{0, 1}},
		"handoff policy":       umkit.HandoffConfig{Policies: []string{"zero_copy"}},
		"handoff reps":         umkit.HandoffConfig{Repetitions: -1},
		"handoff cpu":          umkit.HandoffConfig{CPU: -3},
	}
	for name, c := range bad {
		err := c.Validate()
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if !strings.Contains(err.Error(), "allowed") && !strings.Contains(err.Error(), "must") &&
			!strings.Contains(err.Error(), "lacks") && !strings.Contains(err.Error(), "needs") {
			t.Errorf("%s: %q does not say what is allowed", name, err)
		}
	}
	good := []interface{ Validate() error }{
		umkit.HBMConfig{}, umkit.HostConfig{}, umkit.TransferConfig{}, umkit.ManagedConfig{},
		umkit.PatternConfig{}, umkit.OversubConfig{}, umkit.HandoffConfig{},
		umkit.OversubConfig{Percents: []float64{105}, AllowOversubscription: true},
	}
	for _, c := range good {
		if err := c.Validate(); err != nil {
			t.Errorf("%T zero value (paper defaults) rejected: %v", c, err)
		}
	}
	// Validation happens before the device is touched.
	dev := simgpu.New()
	if _, err := umkit.Measure(ctx, dev, umkit.HBMConfig{Sizes: []int64{7}}); err == nil || len(dev.Calls) != 0 {
		t.Errorf("invalid config reached the device: %v, calls %v", err, dev.Calls)
	}
}

func TestPaperDefaults(t *testing.T) {
	h := umkit.HBMConfig{}.Defaults()
	if h.Warmups.Int() != 5 || h.Trials.Int() != 25 || h.Sizes[0] != 64<<10 || h.Sizes[len(h.Sizes)-1] != 4<<30 {
		t.Errorf("hbm defaults %+v", h)
	}
	p := umkit.PatternConfig{}.Defaults()
	if p.FootprintBytes != 256<<20 || len(p.Strides) != 11 || p.Strides[10] != 1024 || len(p.PageIntervals) != 3 {
		t.Errorf("pattern defaults %+v", p)
	}
	o := umkit.OversubConfig{}.Defaults()
	if !slices.Equal(o.Percents, []float64{25, 50, 75, 90}) {
		t.Errorf("oversub defaults %v", o.Percents)
	}
	ho := umkit.HandoffConfig{}.Defaults()
	if ho.Warmups.Int() != 5 || ho.Trials.Int() != 20 || ho.Repetitions != 3 || len(ho.Sizes) != 6 || !slices.Equal(ho.Reuse, []int{1, 2, 4, 8, 16, 32}) {
		t.Errorf("handoff defaults %+v", ho)
	}
}

// sequence returns the calls of the last trial: everything after the last
// state-establishing call that starts a trial.
func lastTrial(calls []string, start string) []string {
	i := -1
	for j, c := range calls {
		if strings.HasPrefix(c, start) {
			i = j
		}
	}
	if i < 0 {
		return nil
	}
	return calls[i:]
}

// callCount is how many of d's calls start with prefix.
func callCount(d *simgpu.Device, prefix string) int {
	n := 0
	for _, c := range d.Calls {
		if strings.HasPrefix(c, prefix) {
			n++
		}
	}
	return n
}

func names(calls []string) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i], _, _ = strings.Cut(c, "(")
	}
	return out
}

// TestManagedStateMachine pins down, per memory mode, which calls happen in
// a trial and in which order: what is timed, what re-establishes the state,
// and that verification comes after the timed region.
func TestManagedStateMachine(t *testing.T) {
	// Every trial ends with settling passes on a scratch buffer (the fake's
	// identical passes stop at the minimum of four), then the timed kernel,
	// held so that it runs back to back with its events, and the check.
	var tail []string
	for range 4 {
		tail = append(tail, "StartTimer", "Launch", "StopTimer")
	}
	tail = append(tail, "Hold", "StartTimer", "Launch", "StopTimer", "Check")
	// By default the data are freed and allocated again in one Reallocate
	// (with the mode's advice after it) and written on the CPU; a device
	// without Reallocator (the wrapper that hides HomeFiller hides it too)
	// frees and allocates.
	fresh, advised := []string{"Reallocate", "Free", "Alloc", "FillHost"}, []string{"Reallocate", "Free", "Alloc", "Advise", "FillHost"}
	want := map[string][]string{
		"explicit":             {"StartTimer", "Copy", "StopTimer"},
		"managed_cold":         fresh,
		"managed_prefetch":     append(slices.Clone(fresh), "StartTimer", "Prefetch", "StopTimer"),
		"managed_reuse":        {"Fill", "Launch", "Sync"}, // on the GPU: the kernel touches every page
		"advise_preferred_gpu": advised,
		"advise_accessed_by":   advised,
		"advise_preferred_cpu": advised,
	}
	for mode, head := range want {
		testStateCalls(t, mode, simgpu.New(), false, umkit.StateSetup{}, append(slices.Clone(head), tail...))
		plain := slices.DeleteFunc(slices.Clone(head), func(c string) bool { return c == "Reallocate" })
		testStateCalls(t, mode, simgpu.New(), true, umkit.StateSetup{}, append(plain, tail...))
	}
	// With RewriteHome managed data come home and are rewritten on the CPU
	// in one overlapped call where the device offers it (HomeFiller), else
	// by a prefetch and the CPU fill; the state is the same.
	home := []string{"HomeFillHost"}
	want = map[string][]string{
		"explicit":             {"StartTimer", "Copy", "StopTimer"},
		"managed_cold":         home,
		"managed_prefetch":     append(slices.Clone(home), "StartTimer", "Prefetch", "StopTimer"),
		"managed_reuse":        {"Fill", "Launch", "Sync"},
		"advise_preferred_gpu": home,
		"advise_accessed_by":   home,
		"advise_preferred_cpu": home,
	}
	setup := umkit.StateSetup{Rewrite: umkit.RewriteHome}
	for mode, head := range want {
		testStateCalls(t, mode, simgpu.New(), false, setup, append(slices.Clone(head), tail...))
		if len(head) > 0 && head[0] == "HomeFillHost" {
			fallback := slices.Replace(slices.Clone(head), 0, 1, "Prefetch", "Sync", "FillHost")
			testStateCalls(t, mode, simgpu.New(), true, setup, append(fallback, tail...))
		}
	}
}

// noHomeFill is a device without the optional HomeFiller.
type noHomeFill struct{ umkit.Device }

// testStateCalls checks the calls of the last trial of mode on fake (behind
// noHomeFill when hide is set).
func testStateCalls(t *testing.T, mode string, fake *simgpu.Device, hide bool, setup umkit.StateSetup, seq []string) {
	t.Helper()
	var dev umkit.Device = fake
	what := mode + " " + setup.Rewrite
	if hide {
		dev, what = noHomeFill{fake}, what+" without HomeFiller"
	}
	df, err := umkit.Measure(ctx, dev, umkit.ManagedConfig{Common: small(), StateSetup: setup, Sizes: []int64{1 << 20}, Modes: []string{mode}})
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if df.Nrow() != 3 {
		t.Errorf("%s: %d rows, want 3 trials", what, df.Nrow())
	}
	got := names(fake.Calls)
	for len(got) > 0 && got[len(got)-1] == "Free" {
		got = got[:len(got)-1]
	}
	got = got[max(0, len(got)-len(seq)):]
	if !slices.Equal(got, seq) {
		t.Errorf("%s: trial calls %v, want %v", what, got, seq)
	}
	launches := slices.DeleteFunc(slices.Clone(fake.Calls), func(c string) bool { return !strings.HasPrefix(c, "Launch") })
	if n := len(launches); n < 2 || launches[n-1] == launches[n-2] {
		t.Errorf("%s: the settling pass and the timed kernel use the same buffer: %v", what, launches[max(0, n-2):])
	}
	if strings.HasPrefix(mode, "advise_") && !slices.ContainsFunc(fake.Calls, func(c string) bool { return strings.HasPrefix(c, "Advise") }) {
		t.Errorf("%s: no advice given", what)
	}
	if fake.Live() != 0 {
		t.Errorf("%s: %d buffers leaked", what, fake.Live())
	}
}

// firstHost is the index of the first CPU write among calls, or -1.
func firstHost(calls []string) int {
	return slices.IndexFunc(calls, func(c string) bool { return c == "FillHost" || c == "HomeFillHost" })
}

// TestReuseStateSetUp: where the kernel touches every 4 KiB page (stride
// 512 elements and below) the first iteration writes the data on the CPU
// and later ones rewrite it on the GPU, in place; a sparser kernel keeps
// the CPU write and the migrating untimed pass every time, so that only
// its pages are resident.
func TestReuseStateSetUp(t *testing.T) {
	const iterations = 4 // small(): 1 warm-up, 3 trials
	for _, tc := range []struct {
		stride              int64
		hostFills, gpuFills int
	}{{1, 1, iterations - 1}, {512, 1, iterations - 1}, {1024, iterations, 0}} {
		dev := simgpu.New()
		_, err := umkit.Measure(ctx, dev, umkit.PatternConfig{Common: small(), FootprintBytes: 8 << 20,
			Benchmarks: []string{"strided"}, Strides: []int64{tc.stride}, Modes: []string{"managed_reuse"}})
		if err != nil {
			t.Fatal(err)
		}
		calls := names(dev.Calls)
		host, gpu := 0, 0
		for _, c := range calls {
			host += b2i(c == "FillHost" || c == "HomeFillHost")
			gpu += b2i(c == "Fill")
		}
		if host != tc.hostFills || gpu != tc.gpuFills || firstHost(calls) > max(slices.Index(calls, "Fill"), 0) && gpu > 0 {
			t.Errorf("stride %d: %d CPU writes and %d GPU writes (first at %d, %d), want %d and %d, the CPU's first",
				tc.stride, host, gpu, firstHost(calls), slices.Index(calls, "Fill"), tc.hostFills, tc.gpuFills)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestSchemaAndUnits(t *testing.T) {
	dev := simgpu.New()
	df, err := umkit.Measure(ctx, dev, umkit.ManagedConfig{Common: small(), Sizes: []int64{1 << 20, 4 << 20}, Modes: []string{"managed_cold", "managed_prefetch"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range results.Columns {
		if df.Col(c.Name).Err != nil {
			t.Errorf("column %s missing", c.Name)
		}
	}
	rows, err := results.Rows(df)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 12 {
		t.Fatalf("%d rows, want 2 modes × 2 sizes × 3 trials", len(rows))
	}
	for _, r := range rows {
		if !r.Verified || r.Group != "managed" || r.Benchmark != "stream" || r.Platform == "" || r.RunID == "" || r.GPUUUID == "" {
			t.Fatalf("row identity: %+v", r)
		}
		if r.UsefulBytes != 2*r.SizeBytes || r.Warmups != 1 {
			t.Errorf("useful %d size %d warmups %d", r.UsefulBytes, r.SizeBytes, r.Warmups)
		}
		if got := float64(r.UsefulBytes) / (r.KernelMs * 1e6); math.Abs(got-r.GBps) > 1e-9*got {
			t.Errorf("gbps %v, useful/kernel_ms gives %v", r.GBps, got)
		}
		if r.Mode == "managed_prefetch" && !(r.PrefetchMs > 0) {
			t.Errorf("prefetch mode without prefetch_ms: %+v", r)
		}
		if r.Mode == "managed_cold" && !math.IsNaN(r.PrefetchMs) {
			t.Errorf("cold mode has prefetch_ms %v", r.PrefetchMs)
		}
		if !(r.CPUMs >= 0) || r.Placement == "" {
			t.Errorf("cpu_ms %v placement %q", r.CPUMs, r.Placement)
		}
	}
}

// TestFakePhysics runs groups on the fake and checks the orderings the
// state machine must produce: cold managed pays for migration in the kernel,
// prefetched and reused data do not.
func TestFakePhysics(t *testing.T) {
	dev := simgpu.New()
	df, err := umkit.Measure(ctx, dev, umkit.ManagedConfig{Common: small(), Sizes: []int64{8 << 20},
		Modes: []string{"explicit", "managed_cold", "managed_prefetch", "managed_reuse"}})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := results.Rows(df)
	med := map[string]float64{}
	for _, s := range results.Summarize(rows, results.SummaryOptions{}) {
		med[s.Config.Mode] = s.GBps.Median
	}
	if !(med["managed_prefetch"] > 20*med["managed_cold"] && med["managed_reuse"] > 20*med["managed_cold"]) {
		t.Errorf("resident modes should beat cold by far: %v", med)
	}
	if math.Abs(med["explicit"]-med["managed_prefetch"]) > 0.01*med["explicit"] {
		t.Errorf("prefetched should match explicit: %v", med)
	}
}

func TestVerificationFailureIsAnError(t *testing.T) {
	for name, run := range map[string]func(umkit.Device) error{
		"hbm": func(d umkit.Device) error {
			_, err := umkit.Measure(ctx, d, umkit.HBMConfig{Common: small(), Sizes: []int64{1 << 20}, Benchmarks: []string{"triad"}})
			return err
		},
		"managed": func(d umkit.Device) error {
			_, err := umkit.Measure(ctx, d, umkit.ManagedConfig{Common: small(), Sizes: []int64{1 << 20}, Modes: []string{"managed_cold"}})
			return err
		},
		"pattern": func(d umkit.Device) error {
			_, err := umkit.Measure(ctx, d, umkit.PatternConfig{Common: small(), FootprintBytes: 4 << 20, Benchmarks: []string{"random"}, Modes: []string{"explicit"}})
			return err
		},
		"handoff": func(d umkit.Device) error {
			_, err := umkit.Measure(ctx, d, umkit.HandoffConfig{Common: small(), Repetitions: 1, Sizes: []int64{1 << 20}, Reuse: []int{1}, Policies: []string{"managed"}, CPU: -2})
			return err
		},
	} {
		dev := simgpu.New()
		dev.CorruptKernels = true
		err := run(dev)
		if err == nil || !strings.Contains(err.Error(), "verification failed") {
			t.Errorf("%s: corrupted kernels gave %v, want a verification error", name, err)
		}
	}
}

func TestAllGroupsOnFake(t *testing.T) {
	dev := simgpu.New()
	type run struct {
		name string
		f    func() (int, error)
		want int
	}
	frame := func(df interface{ Nrow() int }, err error) (int, error) { return df.Nrow(), err }
	runs := []run{
		{"hbm", func() (int, error) {
			return frame(umkit.Measure(ctx, dev, umkit.HBMConfig{Common: small(), Sizes: []int64{64 << 10, 1 << 20}}))
		}, 2 * 2 * 3},
		{"host", func() (int, error) {
			return frame(umkit.Measure(ctx, dev, umkit.HostConfig{Common: small(), Sizes: []int64{1 << 20}}))
		}, 3 + 1}, // system mode is waived: the fake reports no pageable access
		{"transfer", func() (int, error) {
			return frame(umkit.Measure(ctx, dev, umkit.TransferConfig{Common: small(), Sizes: []int64{1 << 20}}))
		}, 3 * 2 * 3},
		{"pattern", func() (int, error) {
			return frame(umkit.Measure(ctx, dev, umkit.PatternConfig{Common: small(), FootprintBytes: 4 << 20, Strides: []int64{1, 8}, PageIntervals: []int64{4096, 65536}}))
		}, (1 + 2 + 1 + 2) * 4 * 3},
		{"oversub", func() (int, error) {
			return frame(umkit.Measure(ctx, dev, umkit.OversubConfig{Common: small(), CapacityBytes: 64 << 20, Percents: []float64{25, 90}}))
		}, 3 * 3 * 2 * 3},
		{"handoff", func() (int, error) {
			return frame(umkit.Measure(ctx, dev, umkit.HandoffConfig{Common: small(), Repetitions: 2, Sizes: []int64{1 << 20}, Reuse: []int{1, 4}, CPU: -2}))
		}, 4 * (2 + 2) * 3 * 2},
	}
	for _, r := range runs {
		n, err := r.f()
		if err != nil {
			t.Errorf("%s: %v", r.name, err)
		} else if n != r.want {
			t.Errorf("%s: %d rows, want %d", r.name, n, r.want)
		}
	}
	if dev.Live() != 0 {
		t.Errorf("%d buffers leaked", dev.Live())
	}
}

func TestOversubscriptionGuard(t *testing.T) {
	dev := simgpu.New()
	// The fake refuses managed memory beyond free - margin, like the cuda layer.
	_, err := dev.Alloc(umkit.ManagedMem, 80<<30)
	if !errors.Is(err, cuda.ErrWouldOversubscribe) {
		t.Fatalf("fake allowed an oversubscribed allocation: %v", err)
	}
	// Above 90 % needs the opt-in, checked before anything runs.
	if _, err := umkit.Measure(ctx, dev, umkit.OversubConfig{Percents: []float64{105}}); err == nil || len(dev.Calls) != 0 {
		t.Fatalf("105 %% without opt-in: %v (calls %v)", err, dev.Calls)
	}
	// With the opt-in the warning is printed and the device allows it for that allocation only.
	var warned []string
	dir := t.TempDir()
	_, err = umkit.Run(ctx, umkit.Options{Device: dev, Out: dir, Groups: []string{"oversub"}, Trials: umkit.N(1), Warmups: umkit.N(1),
		AllowOversubscription: true, OversubPercents: []float64{105}, Benchmarks: nil,
		Warn: func(s string) { warned = append(warned, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(warned) == 0 || !strings.Contains(warned[0], "hang") {
		t.Errorf("no warning before oversubscribing: %v", warned)
	}
	if !slices.Contains(dev.Calls, "AllowOversubscription(true)") || dev.Calls[len(dev.Calls)-1] == "AllowOversubscription(true)" {
		t.Errorf("oversubscription not enabled and disabled around the allocation")
	}
}

func TestRunInterruptAndResume(t *testing.T) {
	dir := t.TempDir()
	opts := umkit.Options{Device: simgpu.New(), Out: dir, Groups: []string{"hbm", "managed"}, Quick: true, Trials: umkit.N(2)}
	plan, err := umkit.NewPlan(opts, opts.Device.Info())
	if err != nil {
		t.Fatal(err)
	}
	total := plan.Configurations()
	if total != 2*2+7*2 {
		t.Fatalf("plan has %d configurations", total)
	}
	// Interrupt after three configurations.
	c, cancel := context.WithCancel(ctx)
	seen := 0
	opts.Progress = func(p umkit.Progress) {
		seen++
		if p.Total != total || p.Done != seen {
			t.Errorf("progress %+v", p)
		}
		if p.Done == 3 {
			cancel()
		}
	}
	if _, err := umkit.Run(c, opts); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run returned %v", err)
	}
	rows, meta, err := results.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3*2 {
		t.Fatalf("interrupted run kept %d rows, want 3 configurations × 2 trials", len(rows))
	}
	if meta.RunID == "" || meta.End.IsZero() || !strings.Contains(strings.Join(meta.Notes, " "), "stopped early") {
		t.Errorf("metadata of an interrupted run: %+v", meta)
	}
	// Without --resume the directory is protected.
	opts.Progress = nil
	if _, err := umkit.Run(ctx, opts); !errors.Is(err, results.ErrResultsExist) {
		t.Fatalf("rerun without resume: %v", err)
	}
	// Resume measures only the rest.
	dev := simgpu.New()
	opts.Device, opts.Resume = dev, true
	if _, err := umkit.Run(ctx, opts); err != nil {
		t.Fatal(err)
	}
	rows, _, _ = results.LoadDir(dir)
	if len(rows) != total*2 {
		t.Fatalf("after resume %d rows, want %d", len(rows), total*2)
	}
	keys := map[string]int{}
	for _, r := range rows {
		keys[results.ConfigKey(r)]++
	}
	for k, n := range keys {
		if n != 2 {
			t.Errorf("configuration %s has %d trials after resume", k, n)
		}
	}
	launches := 0
	for _, c := range dev.Calls {
		if strings.HasPrefix(c, "Launch(triad") || strings.HasPrefix(c, "Launch(copy") {
			launches++
		}
	}
	if launches != (2*2-3)*(2+2) {
		// hbm has 4 configurations, 3 done before; the 4th runs warm-ups and trials.
		t.Logf("hbm launches after resume: %d", launches)
	}
	// A second resume keeps the whole chain of segments in the notes.
	opts.Device = simgpu.New()
	if _, err := umkit.Run(ctx, opts); err != nil {
		t.Fatal(err)
	}
	_, meta3, err := results.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var chain []string
	for _, n := range meta3.Notes {
		if strings.HasPrefix(n, "resumes run ") {
			chain = append(chain, n)
		}
	}
	if len(chain) != 2 || !strings.Contains(chain[0], meta.RunID) {
		t.Errorf("resume chain %q, want two segments, the first run %s", chain, meta.RunID)
	}
}

func TestRunWritesProvenance(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	meta, err := umkit.Run(ctx, umkit.Options{Device: simgpu.New(), Out: dir, Benchmarks: []string{"transfer.prefetch"}, Quick: true, Command: "umbench run --bench transfer.prefetch"})
	if err != nil {
		t.Fatal(err)
	}
	m2, err := results.ReadMetadata(filepath.Join(dir, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	if m2.RunID != meta.RunID || m2.Command == "" || m2.Device.Name != "Fake GPU" || m2.Config == nil || m2.End.IsZero() {
		t.Errorf("metadata %+v", m2)
	}
	rows, _, _ := results.LoadDir(dir)
	for _, r := range rows {
		if r.Benchmark != "prefetch" {
			t.Errorf("selection leaked benchmark %s", r.Benchmark)
		}
	}
	if len(rows) != 2*2*5 {
		t.Errorf("%d rows", len(rows))
	}
	if _, err := os.Stat(filepath.Join(dir, "results.csv")); err != nil {
		t.Error(err)
	}
}

func TestWaivedWhenUnsupported(t *testing.T) {
	dev := simgpu.New()
	info := dev.Info()
	info.ConcurrentManagedAccess = false
	dev.SetInfo(info)
	dir := t.TempDir()
	if _, err := umkit.Run(ctx, umkit.Options{Device: dev, Out: dir, Benchmarks: []string{"transfer.prefetch", "host.system_triad"}, Quick: true}); err != nil {
		t.Fatal(err)
	}
	rows, _, _ := results.LoadDir(dir)
	if len(rows) == 0 {
		t.Fatal("no rows")
	}
	for _, r := range rows {
		if !r.Waived || r.Note == "" || r.Verified {
			t.Errorf("expected a waived row with a reason: %+v", r)
		}
	}
}

func TestSelect(t *testing.T) {
	for pat, want := range map[string][]string{
		"pattern":   {"pattern.streaming", "pattern.strided", "pattern.random", "pattern.page_touch"},
		"hbm.triad": {"hbm.triad"}, "pattern.s": {"pattern.streaming", "pattern.strided"},
		"handoff": {"handoff"}, "oversub.r": {"oversub.random"},
	} {
		bs, err := umkit.Select([]string{pat})
		var got []string
		for _, b := range bs {
			got = append(got, b.Name)
			if !strings.HasPrefix(b.Name, pat) {
				t.Errorf("Select(%q) gave %s", pat, b.Name)
			}
		}
		// A definition added to a group (sparse.go) joins its selections.
		for _, w := range want {
			if err != nil || !slices.Contains(got, w) {
				t.Errorf("Select(%q) = %v, %v; want %s among them", pat, got, err, w)
			}
		}
	}
	all, _ := umkit.Select(nil)
	if len(all) != len(umkit.Registry) {
		t.Errorf("Select(nil) = %d", len(all))
	}
	_, err := umkit.Select([]string{"nope"})
	if err == nil || !strings.Contains(err.Error(), "hbm.triad") {
		t.Errorf("unknown benchmark: %v", err)
	}
	for _, b := range umkit.Registry {
		if b.Description == "" || b.Useful == "" || b.Supported == nil || !slices.Contains(umkit.Groups, b.Group) {
			t.Errorf("registry entry %s incomplete", b.Name)
		}
	}
	if _, err := umkit.NewPlan(umkit.Options{Groups: []string{"hbmx"}}, simgpu.New().Info()); err == nil {
		t.Error("unknown group accepted")
	}
}

func TestHandoffCallsPerPolicy(t *testing.T) {
	for policy, want := range map[string][]string{
		"managed":          {"UpdateHost", "Launch", "Launch", "Sync", "Check"},
		"managed_prefetch": {"Prefetch", "Sync", "UpdateHost", "Prefetch", "Launch", "Launch", "Sync", "Check"},
		"host_mapped":      {"UpdateHost", "Launch", "Launch", "Sync", "Check"},
		"explicit_copy":    {"UpdateHost", "Copy", "Launch", "Launch", "Copy", "Sync", "Check"},
	} {
		dev := simgpu.New()
		df, err := umkit.Measure(ctx, dev, umkit.HandoffConfig{Common: small(), Repetitions: 1, Sizes: []int64{1 << 20}, Reuse: []int{1, 2}, Policies: []string{policy}, CPU: -2, Order: "sequential"})
		if err != nil {
			t.Fatalf("%s: %v", policy, err)
		}
		dev.Calls = slices.DeleteFunc(dev.Calls, func(c string) bool { return strings.HasPrefix(c, "Mark(") })
		got := names(lastTrial(dev.Calls, want[0]))
		if policy == "managed_prefetch" {
			got = names(dev.Calls[len(dev.Calls)-len(want)-1:])
			got = got[:len(want)]
		}
		got = got[:min(len(got), len(want))]
		if !slices.Equal(got, want) {
			t.Errorf("%s: iteration %v, want %v", policy, got, want)
		}
		rows, _ := results.Rows(df)
		phases := map[string]int{}
		for _, r := range rows {
			phases[r.Phase+"/"+string(rune('0'+r.ReusePasses))]++
			if r.Phase == "alternating" && !(r.TotalMs > 0 && r.CPUMs > 0 && r.CPUMs < r.TotalMs) {
				t.Errorf("%s: alternating times %+v", policy, r)
			}
		}
		if phases["cpu_only/0"] != 3 || phases["gpu_only/1"] != 3 || phases["alternating/1"] != 3 || phases["alternating/2"] != 3 {
			t.Errorf("%s: phases %v", policy, phases)
		}
	}
}

// TestTransferPrefetchCalls pins the calls of every managed prefetch trial,
// warm-ups included: CPU-written pages go to the GPU, and GPU-written pages,
// brought back to the GPU by a prefetch before the fill, go to the CPU; each
// is checked where it arrived, after the timed region.
func TestTransferPrefetchCalls(t *testing.T) {
	fake := simgpu.New()
	c := small()
	cfg := umkit.TransferConfig{Common: c, Sizes: []int64{1 << 20}, Modes: []string{"managed"}}
	if _, err := umkit.Measure(ctx, fake, cfg); err != nil {
		t.Fatal(err)
	}
	// One allocation per direction, h2d first; calls named without the
	// buffer, and the allocations and frees that bound them dropped.
	var dirs [][]string
	strip := regexp.MustCompile(`managed#\d+,?`)
	for _, call := range fake.Calls {
		switch {
		case strings.HasPrefix(call, "Alloc("):
			dirs = append(dirs, nil)
		case strings.HasPrefix(call, "Free("):
		case len(dirs) > 0:
			dirs[len(dirs)-1] = append(dirs[len(dirs)-1], strings.TrimSuffix(strip.ReplaceAllString(call, ""), "()"))
		}
	}
	trial := [][]string{
		{"FillHost", "StartTimer", "Prefetch(gpu)", "StopTimer", "Check"},
		{"Prefetch(gpu)", "Fill", "Sync", "StartTimer", "Prefetch(cpu)", "StopTimer", "CheckHost"},
	}
	if len(dirs) != len(trial) {
		t.Fatalf("%d allocations, want one per direction: %v", len(dirs), fake.Calls)
	}
	for i, got := range dirs {
		var want []string
		for range c.Warmups.Int() + c.Trials.Int() {
			want = append(want, trial[i]...)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: calls %v, want %v", []string{"h2d", "d2h"}[i], got, want)
		}
	}
}
