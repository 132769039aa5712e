package umkit_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
	"github.com/umlab/umlab/umkit/simgpu"
)

func handoffSmall() umkit.HandoffConfig {
	return umkit.HandoffConfig{Common: umkit.Common{Trials: umkit.N(3), Warmups: umkit.N(2)}, Repetitions: 2, Sizes: []int64{1 << 20, 4 << 20},
		Reuse: []int{1, 4}, CPU: -2}
}

// TestHandoffInterleaved: the default order interleaves blocks within each
// repetition (CPU-only, GPU-only and the alternating sweep of each policy
// and size), records order, seed and position, runs a sweep's R round by
// round in a seeded shuffled order (every R once a round), and fills the
// alternating trial's parts; sequential keeps the old layout.
func TestHandoffInterleaved(t *testing.T) {
	dev := simgpu.New()
	df, err := umkit.Measure(ctx, dev, handoffSmall())
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := results.Rows(df)
	const configs = 4 * 2 * 4 // policies × sizes × (cpu, gpu, R=1, R=4)
	const blocks = 4 * 2 * 3  // policies × sizes × (cpu, gpu, sweep)
	if len(rows) != configs*2*3 {
		t.Fatalf("%d rows, want %d", len(rows), configs*2*3)
	}
	type blk struct {
		key string
		rep int64
	}
	blockOf := func(r results.Row) blk {
		if r.Phase == "alternating" {
			r.ReusePasses = 0
		}
		return blk{results.ConfigKey(r), r.Repetition}
	}
	index := map[blk]int64{}
	var order []blk
	policyOf := map[blk]string{}
	type round struct {
		b     blk
		trial int64
	}
	rounds := map[round][]int64{} // R in measurement order
	for _, r := range rows {
		if r.Order != "interleaved" || r.OrderSeed != 1 || r.CPUThreads != 1 {
			t.Fatalf("row order %q seed %d threads %d", r.Order, r.OrderSeed, r.CPUThreads)
		}
		b := blockOf(r)
		if i, ok := index[b]; ok && i != r.OrderIndex {
			t.Fatalf("block %v has two positions", b)
		}
		if _, ok := index[b]; !ok {
			order = append(order, b)
			policyOf[b] = r.Policy
		}
		index[b] = r.OrderIndex
		if (r.Phase == "alternating") != (r.RoundPosition > 0) {
			t.Fatalf("%s R=%d: round position %d", r.Phase, r.ReusePasses, r.RoundPosition)
		}
		if r.Phase == "alternating" {
			k := round{b, r.Trial}
			rounds[k] = append(rounds[k], r.ReusePasses)
			if int64(len(rounds[k])) != r.RoundPosition {
				t.Fatalf("%s R=%d trial %d: round position %d, measured %d. in its round", r.Policy, r.ReusePasses, r.Trial, r.RoundPosition, len(rounds[k]))
			}
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
		if b.rep != int64(i/blocks) || index[b] != int64(i%blocks) {
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
	// Every round runs each R once; the rounds do not all share one order.
	firsts := map[int64]int{}
	for k, rs := range rounds {
		if s := slices.Sorted(slices.Values(rs)); !slices.Equal(s, []int64{1, 4}) {
			t.Fatalf("round %v ran R %v", k, rs)
		}
		firsts[rs[0]]++
	}
	if len(rounds) != 4*2*2*3 || len(firsts) != 2 {
		t.Errorf("%d rounds (want %d), first R of a round: %v", len(rounds), 4*2*2*3, firsts)
	}
	// The same seed measures in the same order; a different seed in another;
	// sequential keeps the old layout.
	again, err := umkit.Measure(ctx, simgpu.New(), handoffSmall())
	if err != nil {
		t.Fatal(err)
	}
	rows2, _ := results.Rows(again)
	layout := func(rows []results.Row) []string {
		var out []string
		for _, r := range rows {
			out = append(out, fmt.Sprintf("%s/%s/%d/%d/%d/%d", r.Policy, r.Phase, r.ReusePasses, r.Repetition, r.OrderIndex, r.RoundPosition))
		}
		return out
	}
	if !slices.Equal(layout(rows), layout(rows2)) {
		t.Error("the same seed measured in another order")
	}
	cfg := handoffSmall()
	cfg.OrderSeed = 7
	other, err := umkit.Measure(ctx, simgpu.New(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	rows3, _ := results.Rows(other)
	if slices.Equal(layout(rows), layout(rows3)) {
		t.Error("seeds 1 and 7 measured in the same order")
	}
	cfg.Order = "sequential"
	df, err = umkit.Measure(ctx, simgpu.New(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	rows, _ = results.Rows(df)
	for i := 1; i < len(rows); i++ {
		a, b := rows[i-1], rows[i]
		if b.RoundPosition != 0 {
			t.Fatalf("sequential row with round position %d", b.RoundPosition)
		}
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
	dev := simgpu.New()
	df, err := umkit.Measure(ctx, dev, cfg)
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
	o := umkit.Options{Groups: []string{"handoff"}, Sizes: []int64{1 << 20}, Trials: umkit.N(2), Warmups: umkit.N(1), Out: full, Device: simgpu.New(),
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
	o.Out, o.Resume, o.Device = part, true, simgpu.New()
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
	dev := simgpu.New()
	_, err := umkit.Measure(ctx, dev, cfg)
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
	dev := simgpu.New()
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

// TestHandoffResumeTornSweep: a sweep block cut short on disk (some of its
// R's rows missing, as a kill in the middle of its append leaves it) is set
// aside whole and measured again whole; every other block is kept.
func TestHandoffResumeTornSweep(t *testing.T) {
	full := t.TempDir()
	o := umkit.Options{Groups: []string{"handoff"}, Sizes: []int64{1 << 20}, Trials: umkit.N(2), Warmups: umkit.N(1), Out: full,
		Device: simgpu.New(), Quick: true, Warn: func(string) {}}
	if _, err := umkit.Run(ctx, o); err != nil {
		t.Fatal(err)
	}
	all, _, err := results.LoadDir(full)
	if err != nil {
		t.Fatal(err)
	}
	// Keep every row but those of the managed sweep after its first R = 32
	// row, and put the managed sweep last, as a torn append leaves it.
	var kept, sweep []results.Row
	cut := false
	for _, r := range all {
		switch {
		case r.Policy == "managed" && r.Phase == "alternating":
			cut = cut || r.ReusePasses == 32
			if !cut {
				sweep = append(sweep, r)
			}
		default:
			kept = append(kept, r)
		}
	}
	if len(sweep) == 0 || len(sweep) == 2*3 {
		t.Fatalf("%d managed sweep rows kept: the cut must leave part of it", len(sweep))
	}
	part := t.TempDir()
	f, err := os.Create(filepath.Join(part, results.CSVName))
	if err != nil {
		t.Fatal(err)
	}
	results.WriteCSV(f, append(kept, sweep...))
	f.Close()
	b, err := os.ReadFile(filepath.Join(full, results.MetaName))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(part, results.MetaName), b, 0o644)
	var measured []string
	o.Out, o.Resume, o.Device = part, true, simgpu.New()
	o.Progress = func(p umkit.Progress) {
		if !strings.HasSuffix(p.Config, "(done earlier)") {
			measured = append(measured, p.Config)
		}
	}
	if _, err := umkit.Run(ctx, o); err != nil {
		t.Fatal(err)
	}
	want := []string{"handoff managed 1 MiB alternating R=1 (repetition 0)", "handoff managed 1 MiB alternating R=4 (repetition 0)",
		"handoff managed 1 MiB alternating R=32 (repetition 0)"}
	if !slices.Equal(measured, want) {
		t.Errorf("measured again %q, want the managed sweep %q", measured, want)
	}
	pb, err := os.ReadFile(filepath.Join(part, results.PartialName))
	if err != nil {
		t.Fatal(err)
	}
	aside, err := results.ReadCSV(bytes.NewReader(pb), results.PartialName)
	if err != nil || len(aside) != len(sweep) {
		t.Errorf("set aside %d rows (%v), want the torn sweep's %d", len(aside), err, len(sweep))
	}
	got, _, err := results.LoadDir(part) // refuses duplicated trials
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(all) {
		t.Errorf("resumed run has %d rows, the whole one %d", len(got), len(all))
	}
}

// TestHandoffBlockEndCheck: the handoff group checks each block once, at
// its end, and that check catches any single kernel that silently did
// nothing, in warm-ups, settling or trials alike: the run stops with a
// verification error naming the block, and only the blocks finished before
// it are returned.
func TestHandoffBlockEndCheck(t *testing.T) {
	cfg := handoffSmall()
	cfg.Sizes, cfg.Repetitions, cfg.Reuse = []int64{1 << 20}, 2, []int{1, 2}
	cfg.Trials, cfg.Warmups = umkit.N(2), umkit.N(1)
	key := func(r results.Row) string {
		return fmt.Sprintf("%s|%d|%d|%d", results.ConfigKey(r), r.Repetition, r.Trial, r.RoundPosition)
	}
	for _, order := range []string{"interleaved", "sequential"} {
		cfg.Order = order
		clean := simgpu.New()
		df, err := umkit.Measure(ctx, clean, cfg)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := results.Rows(df)
		launches, checks := 0, 0
		for _, c := range clean.Calls {
			switch {
			case strings.HasPrefix(c, "Launch("):
				launches++
			case strings.HasPrefix(c, "Check("), strings.HasPrefix(c, "CheckHost("):
				checks++
			}
		}
		// One check per block: 4 policies × (CPU-only, GPU-only, and the
		// sweep or, in sequential order, one block per R) × repetitions.
		blocks := 4 * 3 * cfg.Repetitions
		if order == "sequential" {
			blocks = 4 * (2 + len(cfg.Reuse)) * cfg.Repetitions
		}
		if checks != blocks {
			t.Errorf("%s: %d checks, want one per block (%d)", order, checks, blocks)
		}
		step := 1
		if raceEnabled {
			step = 17 // every launch takes minutes under -race; the plain go test drops each
		}
		for drop := 1; drop <= launches; drop += step {
			dev := simgpu.New()
			dev.DropLaunch = drop
			df, err := umkit.Measure(ctx, dev, cfg)
			if err == nil || !strings.Contains(err.Error(), "verification failed (the block's accumulated data)") {
				t.Fatalf("%s: launch %d of %d dropped: got %v, want the block's verification error", order, drop, launches, err)
			}
			got, _ := results.Rows(df)
			if len(got) >= len(want) {
				t.Fatalf("%s: launch %d dropped: %d rows, want fewer than a clean run's %d", order, drop, len(got), len(want))
			}
			for i, r := range got {
				if key(r) != key(want[i]) {
					t.Fatalf("%s: launch %d dropped: row %d is %s, want the clean run's %s", order, drop, i, key(r), key(want[i]))
				}
			}
		}
	}
}
