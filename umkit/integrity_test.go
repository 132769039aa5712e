package umkit_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
	"github.com/umlab/umlab/umkit/simgpu"
)

func quickHBM(dev umkit.Device, dir string) umkit.Options {
	return umkit.Options{Device: dev, Out: dir, Groups: []string{"hbm"}, Trials: umkit.N(3), Warmups: umkit.N(1),
		Sizes: []int64{1 << 20, 2 << 20}, Warn: func(string) {}}
}

func loadRows(t *testing.T, dir string) []results.Row {
	t.Helper()
	rows, _, err := results.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// A kernel that never returns: the watchdog fires, Run returns a HangError
// naming the call and configuration, the finished configurations stay.
func TestRunHungKernel(t *testing.T) {
	// Count the launches of the first configuration, then hang just after.
	probe := simgpu.New()
	o := quickHBM(probe, t.TempDir())
	o.Sizes = o.Sizes[:1]
	o.Benchmarks, o.Groups = []string{"hbm.copy"}, nil
	if _, err := umkit.Run(ctx, o); err != nil {
		t.Fatal(err)
	}
	launches := callCount(probe, "Launch")
	dev := simgpu.New()
	dev.HangAfter = launches + 1
	defer dev.Release()
	dir := t.TempDir()
	o = quickHBM(dev, dir)
	o.KernelTimeout = 200 * time.Millisecond
	start := time.Now()
	meta, err := umkit.Run(context.Background(), o)
	var h *umkit.HangError
	if !errors.As(err, &h) || !errors.Is(err, umkit.ErrHung) {
		t.Fatalf("Run = %v, want a HangError", err)
	}
	if time.Since(start) > 10*time.Second {
		t.Errorf("the watchdog took %s", time.Since(start))
	}
	if !strings.Contains(h.Call, "Kernel") && !strings.Contains(h.Call, "Launch") || !strings.HasPrefix(h.Config, "hbm ") {
		t.Errorf("hang names call %q, configuration %q", h.Call, h.Config)
	}
	rows := loadRows(t, dir)
	if len(rows) == 0 || len(rows)%3 != 0 {
		t.Errorf("%d rows kept, want whole configurations of 3", len(rows))
	}
	if !strings.Contains(strings.Join(meta.Notes, "\n"), "stopped early") {
		t.Errorf("meta notes: %q", meta.Notes)
	}
	m, err := results.ReadMetadata(filepath.Join(dir, results.MetaName))
	if err != nil || !strings.Contains(strings.Join(m.Notes, "\n"), "did not return") {
		t.Errorf("meta.json after the hang: %v %q", err, m.Notes)
	}
}

// --resume continues only an identical run, naming each difference.
func TestResumeRefusesADifferentRun(t *testing.T) {
	dir := t.TempDir()
	if _, err := umkit.Run(ctx, quickHBM(simgpu.New(), dir)); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, results.CSVName))
	cases := []struct {
		name string
		edit func(o *umkit.Options)
		want string
	}{
		{"trials", func(o *umkit.Options) { o.Trials = umkit.N(4) }, "plan.hbm.Trials: on disk 3, now 4"},
		{"warmups", func(o *umkit.Options) { o.Warmups = umkit.N(2) }, "plan.hbm.Warmups: on disk 1, now 2"},
		{"sizes", func(o *umkit.Options) { o.Sizes = []int64{1 << 20} }, "plan.hbm.Sizes: on disk [1048576,2097152], now [1048576]"},
		{"groups", func(o *umkit.Options) { o.Groups = []string{"hbm", "managed"} }, "plan.managed: not in the run on disk"},
		{"quick", func(o *umkit.Options) { o.Quick, o.Sizes = true, nil }, "plan.hbm.Sizes"},
		{"gpu", func(o *umkit.Options) { o.Device = simgpu.NewGPU(1) }, "GPU: on disk GPU-00000000-0000-0000-0000-000000000000"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := quickHBM(simgpu.New(), dir)
			o.Resume = true
			c.edit(&o)
			_, err := umkit.Run(ctx, o)
			if !errors.Is(err, umkit.ErrNotSameRun) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "umbench merge") {
				t.Errorf("got %v\nwant ErrNotSameRun with %q", err, c.want)
			}
			if after, _ := os.ReadFile(filepath.Join(dir, results.CSVName)); !bytes.Equal(before, after) {
				t.Error("a refused resume changed results.csv")
			}
		})
	}
	// A different schema (a file of an older umbench without the last column).
	t.Run("schema", func(t *testing.T) {
		d2 := t.TempDir()
		if _, err := umkit.Run(ctx, quickHBM(simgpu.New(), d2)); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(d2, results.CSVName)
		b, _ := os.ReadFile(p)
		var lines []string
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			lines = append(lines, l[:strings.LastIndexByte(l, ',')])
		}
		os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		o := quickHBM(simgpu.New(), d2)
		o.Resume = true
		if _, err := umkit.Run(ctx, o); !errors.Is(err, umkit.ErrNotSameRun) || !strings.Contains(err.Error(), "results.csv columns") {
			t.Errorf("schema change: %v", err)
		}
	})
	// An unreadable meta.json stops the resume and overwrites nothing.
	t.Run("meta", func(t *testing.T) {
		mp := filepath.Join(dir, results.MetaName)
		good, _ := os.ReadFile(mp)
		defer os.WriteFile(mp, good, 0o644)
		os.WriteFile(mp, []byte("{torn"), 0o644)
		o := quickHBM(simgpu.New(), dir)
		o.Resume = true
		if _, err := umkit.Run(ctx, o); !errors.Is(err, umkit.ErrNotSameRun) || !strings.Contains(err.Error(), "cannot be read") {
			t.Errorf("unreadable meta.json: %v", err)
		}
		if b, _ := os.ReadFile(mp); string(b) != "{torn" {
			t.Error("meta.json was overwritten")
		}
	})
	// The identical run resumes and measures nothing again.
	o := quickHBM(simgpu.New(), dir)
	o.Resume = true
	if _, err := umkit.Run(ctx, o); err != nil {
		t.Fatalf("identical resume: %v", err)
	}
	if n := len(loadRows(t, dir)); n != 2*2*3 {
		t.Errorf("%d rows after resuming a finished run, want 12", n)
	}
}

// A configuration cut short (a kill between rows) is measured again whole;
// its rows go to results.partial.csv.
func TestResumeRemeasuresPartialConfiguration(t *testing.T) {
	dir := t.TempDir()
	if _, err := umkit.Run(ctx, quickHBM(simgpu.New(), dir)); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, results.CSVName)
	b, _ := os.ReadFile(p)
	lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	// Drop the last whole row and cut the one before in half.
	keep := strings.Join(lines[:len(lines)-2], "") + lines[len(lines)-2][:10]
	os.WriteFile(p, []byte(keep), 0o644)
	o := quickHBM(simgpu.New(), dir)
	o.Resume = true
	var warned []string
	o.Warn = func(s string) { warned = append(warned, s) }
	if _, err := umkit.Run(ctx, o); err != nil {
		t.Fatal(err)
	}
	rows := loadRows(t, dir)
	if len(rows) != 12 {
		t.Errorf("%d rows, want 12", len(rows))
	}
	seen := map[string]bool{}
	for _, r := range rows {
		k := results.ConfigKey(r) + r.RunID + string(rune('0'+r.Trial))
		if seen[k] {
			t.Errorf("duplicate trial %s", k)
		}
		seen[k] = true
	}
	pb, err := os.ReadFile(filepath.Join(dir, results.PartialName))
	if err != nil {
		t.Fatal(err)
	}
	aside, err := results.ReadCSV(bytes.NewReader(pb), results.PartialName)
	if err != nil || len(aside) != 1 {
		t.Errorf("%s holds %d rows (%v), want the 1 whole row of the cut configuration", results.PartialName, len(aside), err)
	}
	if tb, _ := os.ReadFile(filepath.Join(dir, results.TornName)); len(tb) == 0 {
		t.Error("the torn line was not kept")
	}
	if len(warned) == 0 || !strings.Contains(warned[0], "measured again whole") {
		t.Errorf("warnings %q", warned)
	}
}

// A second run on a directory in use is refused with the holder's PID.
func TestRunLocksOut(t *testing.T) {
	dir := t.TempDir()
	l, err := results.LockDir(dir, "umbench run --out elsewhere")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	_, err = umkit.Run(ctx, quickHBM(simgpu.New(), dir))
	if !errors.Is(err, results.ErrLocked) || !strings.Contains(err.Error(), "PID") {
		t.Errorf("Run on a locked directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, results.CSVName)); err == nil {
		t.Error("the refused run wrote results.csv")
	}
}

// Rows and metadata of a simulated device say so.
func TestSimulatedMarked(t *testing.T) {
	dir := t.TempDir()
	meta, err := umkit.Run(ctx, quickHBM(simgpu.New(), dir))
	if err != nil {
		t.Fatal(err)
	}
	if meta.Kind != results.KindSimulated {
		t.Errorf("meta kind %q", meta.Kind)
	}
	for _, r := range loadRows(t, dir) {
		if !r.Simulated {
			t.Fatal("a row of the simulated device is not marked simulated")
		}
	}
}

// An injected allocation failure stops the run with an error, keeping
// what finished.
func TestRunFailingAllocation(t *testing.T) {
	dev := simgpu.New()
	dev.FailAllocAfter = 3 // the first configuration's three arrays
	dir := t.TempDir()
	_, err := umkit.Run(ctx, quickHBM(dev, dir))
	if err == nil || !strings.Contains(err.Error(), "injected failure") {
		t.Fatalf("Run = %v", err)
	}
	if n := len(loadRows(t, dir)); n != 3 {
		t.Errorf("%d rows kept, want the first configuration's 3", n)
	}
}

// TestRunTimeLimit: a run with a time limit stops before a configuration
// or handoff block, never inside one, returns ErrTimeLimit, and resumed
// runs under the same limit finish the suite with every row of an
// uninterrupted run and nothing set aside as partial.
func TestRunTimeLimit(t *testing.T) {
	opts := func(dir string, dev *simgpu.Device) umkit.Options {
		return umkit.Options{Device: dev, Out: dir, Groups: []string{"managed", "handoff"}, Trials: umkit.N(2), Warmups: umkit.N(1),
			Sizes: []int64{1 << 20, 2 << 20}, Warn: func(string) {}}
	}
	// Kernels of 200 µs of real time: the wall clock, which the limit
	// follows, is then dominated by the launches, as on a GPU.
	slow := func() *simgpu.Device { d := simgpu.New(); d.KernelDelay = 200 * time.Microsecond; return d }
	t0 := time.Now()
	if _, err := umkit.Run(ctx, opts(t.TempDir(), slow())); err != nil {
		t.Fatal(err)
	}
	whole := time.Since(t0) // the uninterrupted run on the wall clock
	wholeRows := 0
	dir := t.TempDir()
	o := opts(dir, slow())
	o.TimeLimit = whole / 4
	segments := 0
	for ; segments < 12; segments++ {
		_, err := umkit.Run(ctx, o)
		if err == nil {
			break
		}
		if !errors.Is(err, umkit.ErrTimeLimit) {
			t.Fatalf("segment %d: %v, want ErrTimeLimit", segments, err)
		}
		if _, err := os.Stat(filepath.Join(dir, results.PartialName)); err == nil {
			t.Fatalf("segment %d left rows set aside as partial", segments)
		}
		rows := loadRows(t, dir)
		if len(rows) <= wholeRows {
			t.Fatalf("segment %d measured nothing (%d rows)", segments, len(rows))
		}
		wholeRows = len(rows)
		o.Resume, o.Device = true, slow()
	}
	if segments < 2 || segments >= 12 {
		t.Fatalf("%d segments stopped at the limit of a quarter of the run, want a few", segments)
	}
	// meta.json says where the wall time went, segment by segment, oldest
	// first: each segment that hit the limit stopped inside its last group.
	meta, err := results.ReadMetadata(filepath.Join(dir, results.MetaName))
	if err != nil {
		t.Fatal(err)
	}
	var segs []string
	last := map[string]results.GroupTime{}
	for i, g := range meta.GroupTimes {
		if i > 0 && g.Start.Before(meta.GroupTimes[i-1].End) {
			t.Errorf("group time %d (%s) starts before the one before it ends", i, g.Group)
		}
		if g.End.Before(g.Start) || (g.Group != "managed" && g.Group != "handoff") {
			t.Errorf("group time %+v", g)
		}
		if len(segs) == 0 || segs[len(segs)-1] != g.Segment {
			segs = append(segs, g.Segment)
		}
		last[g.Segment] = g
	}
	if len(segs) != segments+1 || segs[len(segs)-1] != meta.RunID {
		t.Errorf("group times of %d segments (%v), want %d ending with this run's %s", len(segs), segs, segments+1, meta.RunID)
	}
	for i, s := range segs {
		if stopped := last[s].Stopped; stopped != (i < len(segs)-1) {
			t.Errorf("segment %d (%s) of %d: last group %s stopped=%v", i, s, len(segs), last[s].Group, stopped)
		}
	}
	if groups, _ := results.GroupWall(meta.GroupTimes); !slices.Equal(groups, []string{"managed", "handoff"}) {
		t.Errorf("groups with wall time: %v", groups)
	}
	if _, err := os.Stat(filepath.Join(dir, results.PartialName)); err == nil {
		t.Error("resuming set rows aside as partial: a segment stopped inside a configuration")
	}
	ref := t.TempDir()
	if _, err := umkit.Run(ctx, opts(ref, simgpu.New())); err != nil {
		t.Fatal(err)
	}
	got, want := loadRows(t, dir), loadRows(t, ref)
	keys := func(rows []results.Row) map[string]int {
		m := map[string]int{}
		for _, r := range rows {
			m[fmt.Sprintf("%s|%d|%d", results.ConfigKey(r), r.Repetition, r.Trial)]++
		}
		return m
	}
	if g, w := keys(got), keys(want); len(got) != len(want) || !maps.Equal(g, w) {
		t.Errorf("after %d segments: %d rows, want the uninterrupted run's %d, the same trials", segments+1, len(got), len(want))
	}
}

// meta.json splits each group's wall time into its parts: on the simulated
// GPU every kernel takes 2 ms of real time, so the timed kernels and the
// settling passes before them (at least 4 each) can be counted from below.
func TestRunGroupParts(t *testing.T) {
	const delay = 2 * time.Millisecond
	dev := simgpu.New()
	dev.KernelDelay = delay
	dir := t.TempDir()
	o := umkit.Options{Device: dev, Out: dir, Groups: []string{"managed"}, Trials: umkit.N(2), Warmups: umkit.N(1),
		Sizes: []int64{1 << 20}, Warn: func(string) {}}
	if _, err := umkit.Run(ctx, o); err != nil {
		t.Fatal(err)
	}
	meta, err := results.ReadMetadata(filepath.Join(dir, results.MetaName))
	if err != nil {
		t.Fatal(err)
	}
	if len(meta.GroupTimes) != 1 || meta.GroupTimes[0].Parts == nil {
		t.Fatalf("group times %+v, want managed's with its parts", meta.GroupTimes)
	}
	g := meta.GroupTimes[0]
	p := *g.Parts
	kernels := float64(len(umkit.ManagedModes) * 3) // warm-up and trials of each mode, one size
	if min := kernels * delay.Seconds(); p.TimedS < min {
		t.Errorf("timed %.3f s, want ≥ %.3f s for %g kernels of %s", p.TimedS, min, kernels, delay)
	}
	if min := 4 * kernels * delay.Seconds(); p.SettleS < min {
		t.Errorf("settle %.3f s, want ≥ %.3f s (4 passes before each timed kernel)", p.SettleS, min)
	}
	if p.RewriteS <= 0 || p.VerifyS <= 0 {
		t.Errorf("rewrite %g s, verify %g s: want both counted", p.RewriteS, p.VerifyS)
	}
	if wall := g.End.Sub(g.Start).Seconds(); p.Other(wall) < 0 {
		t.Errorf("parts %+v add up to more than the span's %.3f s", p, wall)
	}
	if s := results.FormatGroupParts(meta.GroupTimes); !strings.HasPrefix(s, "managed ") || !strings.Contains(s, ": timed ") {
		t.Errorf("FormatGroupParts = %q", s)
	}
}
