package umkit_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
	"github.com/umlab/umlab/umkit/simgpu"
)

// rewriteRun runs the memory-state groups with one way of re-establishing
// the CPU-written state and returns the device and the rows.
func rewriteRun(t *testing.T, rewrite string) (*simgpu.Device, string, []results.Row) {
	t.Helper()
	dev := simgpu.New()
	dir := t.TempDir()
	o := umkit.Options{Device: dev, Out: dir, Groups: []string{"managed", "pattern", "oversub"}, Quick: true,
		Trials: umkit.N(2), Warmups: umkit.N(1), Rewrite: rewrite, Warn: func(string) {}}
	if _, err := umkit.Run(ctx, o); err != nil {
		t.Fatalf("rewrite %s: %v", rewrite, err)
	}
	return dev, dir, loadRows(t, dir)
}

// Reallocating before each trial reaches the state bringing the data home
// does: on the simulated GPU, whose cold kernels pay for pages not on the
// GPU, every row's times and placement are the same, and only the calls
// that made the state differ.
func TestRewriteReallocate(t *testing.T) {
	homeDev, _, home := rewriteRun(t, umkit.RewriteHome)
	reDev, dir, re := rewriteRun(t, "") // the default
	if len(re) != len(home) || len(re) == 0 {
		t.Fatalf("%d rows reallocating, %d bringing home", len(re), len(home))
	}
	for i := range re {
		a, b := re[i], home[i]
		if a.Group != b.Group || a.Mode != b.Mode || a.Pattern != b.Pattern || a.SizeBytes != b.SizeBytes || a.Trial != b.Trial {
			t.Fatalf("row %d: %s %s %s %d #%d, home has %s %s %s %d #%d", i, a.Group, a.Mode, a.Pattern, a.SizeBytes, a.Trial,
				b.Group, b.Mode, b.Pattern, b.SizeBytes, b.Trial)
		}
		if a.KernelMs != b.KernelMs || a.Placement != b.Placement || !a.Verified {
			t.Errorf("row %d (%s %s %s %d): kernel %g ms placement %q verified %t, home: %g ms %q", i, a.Group, a.Mode, a.Pattern,
				a.SizeBytes, a.KernelMs, a.Placement, a.Verified, b.KernelMs, b.Placement)
		}
	}
	if n := callCount(reDev, "HomeFillHost"); n != 0 {
		t.Errorf("%d HomeFillHost calls reallocating", n)
	}
	if n := callCount(homeDev, "HomeFillHost"); n == 0 {
		t.Error("no HomeFillHost bringing home")
	}
	// Each home becomes one more managed allocation, and the home of an
	// advised buffer one more Advise.
	homes := callCount(homeDev, "HomeFillHost")
	if a, h := callCount(reDev, "Alloc(managed"), callCount(homeDev, "Alloc(managed"); a != h+homes {
		t.Errorf("%d managed allocations reallocating, want %d bringing home + %d homes", a, h, homes)
	}
	advised := map[string]bool{} // buffers bringing home advised, e.g. "managed#7"
	for _, c := range homeDev.Calls {
		if rest, ok := strings.CutPrefix(c, "Advise("); ok {
			advised[strings.Split(rest, ",")[0]] = true
		}
	}
	advisedHomes := 0
	for _, c := range homeDev.Calls {
		if rest, ok := strings.CutPrefix(c, "HomeFillHost("); ok && advised[strings.TrimSuffix(rest, ")")] {
			advisedHomes++
		}
	}
	if a, h := callCount(reDev, "Advise("), callCount(homeDev, "Advise("); advisedHomes == 0 || a != h+advisedHomes {
		t.Errorf("%d Advise calls reallocating, want %d bringing home + %d homes of advised buffers", a, h, advisedHomes)
	}
	if reDev.Live() != 0 {
		t.Errorf("%d buffers left allocated", reDev.Live())
	}
	b, err := os.ReadFile(filepath.Join(dir, results.MetaName))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), `"Rewrite": "reallocate"`); n != 4 { // managed, pattern, pattern.sparse, oversub
		t.Errorf("meta.json records the rewrite %d times, want 4", n)
	}
}

// managedRun is a small run of the managed group, with rewrite.
func managedRun(dev *simgpu.Device, dir, rewrite string) umkit.Options {
	return umkit.Options{Device: dev, Out: dir, Groups: []string{"managed"}, Sizes: []int64{1 << 20},
		Trials: umkit.N(2), Warmups: umkit.N(1), Rewrite: rewrite, Warn: func(string) {}}
}

// An allocation that fails while reallocating stops the run with its
// reason, keeps the configurations that finished, and leaks nothing.
func TestRewriteReallocateFails(t *testing.T) {
	dev := simgpu.New()
	dev.FailAllocAfter = 20
	dir := t.TempDir()
	_, err := umkit.Run(ctx, managedRun(dev, dir, "")) // reallocating, the default
	if err == nil || !strings.Contains(err.Error(), "injected failure") || !strings.Contains(err.Error(), "trial") && !strings.Contains(err.Error(), "warm-up") {
		t.Fatalf("err = %v, want the injected allocation failure inside a trial's reallocation", err)
	}
	if strings.Contains(err.Error(), "double free") {
		t.Errorf("the failed reallocation freed a buffer twice: %v", err)
	}
	if dev.Live() != 0 {
		t.Errorf("%d buffers left allocated after the failure", dev.Live())
	}
	rows := loadRows(t, dir)
	if len(rows) == 0 || len(rows)%2 != 0 {
		t.Errorf("%d rows kept, want whole configurations of 2 trials", len(rows))
	}
}

// A run measured one way does not resume the other way.
func TestRewriteResumeRefused(t *testing.T) {
	dir := t.TempDir()
	o := managedRun(simgpu.New(), dir, umkit.RewriteHome)
	if _, err := umkit.Run(ctx, o); err != nil {
		t.Fatal(err)
	}
	o.Device, o.Resume, o.Rewrite = simgpu.New(), true, "" // the default: reallocate
	_, err := umkit.Run(ctx, o)
	if !errors.Is(err, umkit.ErrNotSameRun) || !strings.Contains(err.Error(), "plan.managed.Rewrite") ||
		!strings.Contains(err.Error(), "resume it with --rewrite home") {
		t.Fatalf("got %v, want ErrNotSameRun naming plan.managed.Rewrite and how to resume", err)
	}
}

// A run recorded before the plans named their rewrite was measured bringing
// data home: it resumes that way, and only that way.
func TestRewriteResumeOlderRun(t *testing.T) {
	dir := t.TempDir()
	o := managedRun(simgpu.New(), dir, umkit.RewriteHome)
	if _, err := umkit.Run(ctx, o); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, results.MetaName)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	old := strings.ReplaceAll(string(b), `"Rewrite": "home",`, "")
	if old == string(b) {
		t.Fatal("meta.json records no rewrite")
	}
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	o.Device, o.Resume, o.Rewrite = simgpu.New(), true, "" // the default: reallocate
	if _, err := umkit.Run(ctx, o); !errors.Is(err, umkit.ErrNotSameRun) || !strings.Contains(err.Error(), "plan.managed.Rewrite: not in the run on disk") ||
		!strings.Contains(err.Error(), "resume it with --rewrite home") {
		t.Fatalf("reallocating: got %v, want ErrNotSameRun", err)
	}
	o.Device, o.Rewrite = simgpu.New(), umkit.RewriteHome
	if _, err := umkit.Run(ctx, o); err != nil {
		t.Fatalf("resuming the older run the home way: %v", err)
	}
}
