package umkit_test

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/umlab/umlab/internal/fakegpu"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
)

func handoffSmall() umkit.HandoffConfig {
	return umkit.HandoffConfig{Common: umkit.Common{Trials: umkit.N(3), Warmups: umkit.N(2)}, Repetitions: 2, Sizes: []int64{1 << 20, 4 << 20},
		Reuse: []int{1, 4}, CPU: -2}
}

// TestHandoffInterleaved: the default order interleaves configurations
// within each repetition, records order, seed and position, and fills the
// alternating trial's parts; sequential keeps the old layout.
func TestHandoffInterleaved(t *testing.T) {
	dev := fakegpu.New()
	df, err := umkit.Handoff(ctx, dev, handoffSmall())
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := results.Rows(df)
	const configs = 4 * 2 * 4 // policies × sizes × (cpu, gpu, R=1, R=4)
	if len(rows) != configs*2*3 {
		t.Fatalf("%d rows, want %d", len(rows), configs*2*3)
	}
	type blk struct {
		key string
		rep int64
	}
	index := map[blk]int64{}
	var order []blk
	policyOf := map[blk]string{}
	for _, r := range rows {
		if r.Order != "interleaved" || r.OrderSeed != 1 || r.CPUThreads != 1 {
			t.Fatalf("row order %q seed %d threads %d", r.Order, r.OrderSeed, r.CPUThreads)
		}
		b := blk{results.ConfigKey(r), r.Repetition}
		if i, ok := index[b]; ok && i != r.OrderIndex {
			t.Fatalf("block %v has two positions", b)
		}
		if _, ok := index[b]; !ok {
			order = append(order, b)
			policyOf[b] = r.Policy
		}
		index[b] = r.OrderIndex
		if r.Phase == "alternating" {
			parts := r.CPUMs + r.KernelMs + nz(r.PrefetchMs) + nz(r.TransferMs) + r.SyncMs
			if math.IsNaN(r.KernelMs) || math.IsNaN(r.SyncMs) || math.Abs(parts-r.TotalMs) > 1e-9 {
				t.Errorf("%s R=%d: parts %v (cpu %v kernel %v prefetch %v transfer %v sync %v) do not add up to total %v",
					r.Policy, r.ReusePasses, parts, r.CPUMs, r.KernelMs, r.PrefetchMs, r.TransferMs, r.SyncMs, r.TotalMs)
			}
			if (r.Policy == "explicit_copy") == math.IsNaN(r.TransferMs) || (r.Policy == "managed_prefetch") == math.IsNaN(r.PrefetchMs) {
				t.Errorf("%s: transfer %v prefetch %v", r.Policy, r.TransferMs, r.PrefetchMs)
			}
		}
	}
	// Blocks are emitted in measurement order: repetition 0 first, then 1,
	// positions 0, 1, 2, ... within each; policies are mixed.
	var policies []string
	for i, b := range order {
		if b.rep != int64(i/configs) || index[b] != int64(i%configs) {
			t.Fatalf("block %d: repetition %d position %d", i, b.rep, index[b])
		}
		if i < 8 {
			policies = append(policies, policyOf[b])
		}
	}
	slices.Sort(policies)
	if len(slices.Compact(policies)) < 3 {
		t.Errorf("first blocks come from too few policies: %v", policies)
	}
	// A different seed gives a different order; sequential the old layout.
	cfg := handoffSmall()
	cfg.OrderSeed, cfg.Order = 7, "sequential"
	df, err = umkit.Handoff(ctx, fakegpu.New(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	rows, _ = results.Rows(df)
	for i := 1; i < len(rows); i++ {
		a, b := rows[i-1], rows[i]
		if results.ConfigKey(a) != results.ConfigKey(b) && a.Repetition != 1 {
			t.Fatalf("sequential: configuration changed after repetition %d", a.Repetition)
		}
	}
}

func nz(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return x
}

// TestHandoffCPUThreads: the thread count reaches the device and the rows.
func TestHandoffCPUThreads(t *testing.T) {
	cfg := handoffSmall()
	cfg.Policies, cfg.Sizes, cfg.Reuse, cfg.CPUThreads = []string{"host_mapped"}, []int64{1 << 20}, []int{1}, 4
	dev := fakegpu.New()
	df, err := umkit.Handoff(ctx, dev, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(dev.Calls, "SetUpdateCPUs(4)") {
		t.Error("device not told of 4 threads")
	}
	rows, _ := results.Rows(df)
	for _, r := range rows {
		if r.CPUThreads != 4 {
			t.Fatalf("row cpu_threads %d", r.CPUThreads)
		}
	}
	cfg.CPUThreads = 0
	cfg.Order = "random"
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "interleaved") {
		t.Errorf("bad order: %v", err)
	}
	cfg.Order, cfg.CPUThreads = "", 999
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "CPU threads 999") {
		t.Errorf("bad thread count: %v", err)
	}
}

// TestHandoffResumeRepetitions: a results file holding only repetition 0
// of every configuration resumes with repetitions 1 and 2 alone.
func TestHandoffResumeRepetitions(t *testing.T) {
	full := t.TempDir()
	var last umkit.Progress
	steps := 0
	o := umkit.Options{Groups: []string{"handoff"}, Sizes: []int64{1 << 20}, Trials: umkit.N(2), Warmups: umkit.N(1), Out: full, Device: fakegpu.New(),
		Progress: func(p umkit.Progress) { last = p; steps++ }}
	if _, err := umkit.Run(ctx, o); err != nil {
		t.Fatal(err)
	}
	// One progress step per block: 4 policies × (cpu, gpu, 6 R) × 3 repetitions.
	if last.Done != last.Total || last.Total != 4*8*3 || steps != last.Total {
		t.Errorf("progress: %d steps, last %d of %d; want %d of %d", steps, last.Done, last.Total, 4*8*3, 4*8*3)
	}
	all, _, err := results.LoadDir(full)
	if err != nil {
		t.Fatal(err)
	}
	var rep0 []results.Row
	for _, r := range all {
		if r.Repetition == 0 {
			rep0 = append(rep0, r)
		}
	}
	part := t.TempDir()
	f, err := os.Create(filepath.Join(part, results.CSVName))
	if err != nil {
		t.Fatal(err)
	}
	results.WriteCSV(f, rep0)
	f.Close()
	// --resume identifies the run by its meta.json (refused without one).
	if b, err := os.ReadFile(filepath.Join(full, results.MetaName)); err == nil {
		os.WriteFile(filepath.Join(part, results.MetaName), b, 0o644)
	}
	o.Out, o.Resume, o.Device = part, true, fakegpu.New()
	var earlier int
	o.Progress = func(p umkit.Progress) {
		if strings.HasSuffix(p.Config, "(done earlier)") {
			earlier++
		}
	}
	if _, err := umkit.Run(ctx, o); err != nil {
		t.Fatal(err)
	}
	// The finished repetitions are kept, not set aside and measured again
	// (on the H200 a bug here re-measured every finished block of a resumed
	// full suite).
	if _, err := os.Stat(filepath.Join(part, "results.partial.csv")); err == nil {
		t.Error("finished repetitions were set aside as partial")
	}
	if earlier != 4*8 {
		t.Errorf("%d blocks reported as done earlier, want the %d of repetition 0", earlier, 4*8)
	}
	got, _, err := results.LoadDir(part)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(all) {
		t.Fatalf("resumed run has %d rows, the full one %d", len(got), len(all))
	}
	seen := map[string]int{}
	for _, r := range got {
		seen[results.ConfigKey(r)+"|"+string(rune('0'+r.Repetition))]++
	}
	for k, n := range seen {
		if n != 2 {
			t.Errorf("%s: %d trials, want 2", k, n)
		}
	}
}

// TestHandoffFits: sizes whose buffers cannot all be resident at once are
// refused before anything is allocated, with the numbers.
func TestHandoffFits(t *testing.T) {
	cfg := handoffSmall()
	cfg.Sizes = []int64{32 << 30} // 3 device-resident policies × 32 GiB > the fake's 80 GiB
	dev := fakegpu.New()
	_, err := umkit.Handoff(ctx, dev, cfg)
	if err == nil || !strings.Contains(err.Error(), "96 GiB of device memory") {
		t.Fatalf("got %v, want a refusal naming 96 GiB", err)
	}
	for _, c := range dev.Calls {
		if strings.HasPrefix(c, "Alloc") {
			t.Fatalf("allocated before refusing: %v", dev.Calls)
		}
	}
}

// TestRunHandoffBehindWatchdog: umkit.Run wraps the device in the hang
// watchdog; the handoff group must still find the device's optional
// interfaces through it (on the H200 the wrapper once hid them: no trial
// parts, and --cpu-threads 8 refused as "one thread only").
func TestRunHandoffBehindWatchdog(t *testing.T) {
	dev := fakegpu.New()
	dir := filepath.Join(t.TempDir(), "out")
	opts := umkit.Options{Device: dev, Out: dir, Groups: []string{"handoff"}, Quick: true,
		Sizes: []int64{1 << 20}, CPUThreads: 2, Warn: func(string) {}}
	if _, err := umkit.Run(ctx, opts); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(dev.Calls, "SetUpdateCPUs(2)") {
		t.Error("the device behind the watchdog was not told of 2 update threads")
	}
	rows, _, err := results.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	alt := 0
	for _, r := range rows {
		if r.Phase != "alternating" {
			continue
		}
		alt++
		if math.IsNaN(r.KernelMs) || math.IsNaN(r.SyncMs) {
			t.Fatalf("%s R=%d: no trial parts behind the watchdog (kernel %v, sync %v)", r.Policy, r.ReusePasses, r.KernelMs, r.SyncMs)
		}
	}
	if alt == 0 {
		t.Fatal("no alternating rows")
	}
}
