package umkit_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umlab/umlab/cuda/cupti"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
	"github.com/umlab/umlab/umkit/simgpu"
)

// stepCounts is a counter source that advances on every snapshot, so every
// counted window sees traffic.
type stepCounts struct {
	on     bool
	c      cupti.Counts
	starts int
}

func (s *stepCounts) Start() error { s.on, s.c = true, cupti.Counts{}; s.starts++; return nil }
func (s *stepCounts) Snapshot() (cupti.Counts, error) {
	if !s.on {
		return cupti.Counts{}, errors.New("off")
	}
	s.c.BytesHtoD += 4096
	s.c.GPUPageFaults++
	return s.c, nil
}
func (s *stepCounts) Stop() (cupti.Counts, error) { s.on = false; return s.c, nil }

type noPCIe struct{}

func (noPCIe) ReadPCIe() (umkit.PCIeSample, error) {
	return umkit.PCIeSample{}, errors.New("no NVML here")
}

// TestRunWithCounters: with Options.Counters, every measured configuration
// gets one counter row in counters.csv, keyed like its trials; a resumed
// run keeps them; JoinCounters joins them to the summary.
func TestRunWithCounters(t *testing.T) {
	if raceEnabled {
		t.Skip("about 20 s of simulated work, over go test's 10 min under -race; the plain go test runs it")
	}
	dir := filepath.Join(t.TempDir(), "out")
	src := &stepCounts{}
	opts := umkit.Options{Device: simgpu.New(), Out: dir, Groups: []string{"managed", "handoff"}, Quick: true,
		Counters: umkit.NewCounters(src, noPCIe{})}
	meta, err := umkit.Run(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	rows, _, err := results.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	counters, err := results.LoadCounters(dir)
	if err != nil {
		t.Fatal(err)
	}
	configs := map[string]bool{}
	for _, r := range rows {
		if !r.Waived {
			configs[results.ConfigKey(r)] = true
		}
	}
	if len(counters) != len(configs) {
		t.Fatalf("%d counter rows for %d configurations", len(counters), len(configs))
	}
	// One collection per counter pass, and one thrown away before them all.
	if src.starts != len(counters)+1 {
		t.Errorf("%d collections for %d counter rows, want one more (the priming)", src.starts, len(counters))
	}
	scopes := map[string]int{}
	for _, c := range counters {
		if !configs[results.ConfigKey(c.Config)] || !c.Collected || c.Pass != results.PassCounters {
			t.Errorf("counter row %s: collected %t pass %q", results.ConfigKey(c.Config), c.Collected, c.Pass)
		}
		scopes[c.Scope]++
		if !strings.Contains(c.Config.Note, "PCIe counters not read") {
			t.Errorf("note %q", c.Config.Note)
		}
	}
	if scopes[results.ScopeTimed] == 0 || scopes[results.ScopeTrial] == 0 {
		t.Errorf("scopes %v: managed modes are timed, handoff cpu_only and alternating are whole trials", scopes)
	}
	if !strings.Contains(strings.Join(meta.Notes, "\n"), "counters.csv") {
		t.Errorf("metadata notes %q", meta.Notes)
	}
	df, err := results.JoinCounters(results.Summarize(rows, results.SummaryOptions{}), counters)
	if err != nil {
		t.Fatal(err)
	}
	if df.Nrow() != len(results.Summarize(rows, results.SummaryOptions{})) {
		t.Errorf("table has %d rows", df.Nrow())
	}
	// Resume: nothing re-measured, the counter rows kept.
	opts.Resume, opts.Device = true, simgpu.New()
	opts.Counters = umkit.NewCounters(&stepCounts{}, noPCIe{})
	if _, err := umkit.Run(ctx, opts); err != nil {
		t.Fatal(err)
	}
	again, _ := results.LoadCounters(dir)
	if len(again) != len(counters) {
		t.Errorf("resume: %d counter rows, had %d", len(again), len(counters))
	}
}

// TestCounterPassReallocates: a counter pass re-establishes the state the
// way the timed trials did, through the device's Reallocate where it has
// one, so a footprint that a plain Free and Alloc would find refused is
// counted too. Measured with counters, the managed group reallocates
// exactly once more per reallocating configuration than without.
func TestCounterPassReallocates(t *testing.T) {
	reallocations := func(counters bool) (int, []results.CounterRow) {
		dev := simgpu.New()
		opts := umkit.Options{Device: dev, Out: filepath.Join(t.TempDir(), "out"), Groups: []string{"managed"}, Quick: true,
			Trials: umkit.N(2), Warmups: umkit.N(1)}
		if counters {
			opts.Counters = umkit.NewCounters(&stepCounts{}, noPCIe{})
		}
		if _, err := umkit.Run(ctx, opts); err != nil {
			t.Fatal(err)
		}
		rows, _ := results.LoadCounters(opts.Out)
		return callCount(dev, "Reallocate("), rows
	}
	plain, _ := reallocations(false)
	counted, rows := reallocations(true)
	want := 0
	for _, r := range rows {
		switch r.Config.Mode {
		case "managed_cold", "managed_prefetch", "advise_preferred_gpu", "advise_accessed_by", "advise_preferred_cpu":
			want++
		}
	}
	if want == 0 || counted-plain != want {
		t.Errorf("%d reallocations with counter passes, %d without: want %d more, one per pass of a reallocating mode", counted, plain, want)
	}
}
