package umkit_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
	"github.com/umlab/umlab/umkit/simgpu"
)

// TestHostCopy runs host.mapped_copy on the simulated GPU as `umbench run
// --bench host.mapped_copy` does: its rows are the copy on mapped memory,
// two arrays' bytes per iteration, bound by the link, every trial
// verified; a copy that writes a wrong value fails, a device that cannot
// map host memory gets a waived row, and bad sizes are refused.
func TestHostCopy(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	o := umkit.Options{Device: simgpu.New(), Out: out, Benchmarks: []string{"host.mapped_copy"}, Quick: true}
	if _, err := umkit.Run(ctx, o); err != nil {
		t.Fatal(err)
	}
	rows, _, err := results.LoadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2*umkit.QuickTrials {
		t.Fatalf("%d rows, want %d (two sizes)", len(rows), 2*umkit.QuickTrials)
	}
	for _, r := range rows {
		if r.Group != results.GroupHost || r.Benchmark != results.BenchCopy || r.Mode != results.ModeHostMapped ||
			r.UsefulBytes != 2*r.SizeBytes || r.FootprintBytes != 3*r.SizeBytes || r.Bound != results.BoundHostLink ||
			!r.Verified || r.Placement != "mapped" || !(r.GBps > 0) {
			t.Errorf("row %+v", r)
		}
	}
	if got := rows[0].SizeBytes; got != umkit.MiB {
		t.Errorf("first size %d, want --quick's 1 MiB", got)
	}

	bad := simgpu.New()
	bad.CorruptKernels = true
	cfg := umkit.HostCopyConfig{Common: small(), Sizes: []int64{umkit.MiB}}
	if _, err := umkit.Measure(ctx, bad, cfg); err == nil || !strings.Contains(err.Error(), "verification failed (host copy)") {
		t.Errorf("corrupted copy: %v", err)
	}

	unmapped := simgpu.New()
	info := unmapped.Info()
	info.CanMapHostMemory = false
	unmapped.SetInfo(info)
	out = filepath.Join(t.TempDir(), "waived")
	if _, err := umkit.Run(ctx, umkit.Options{Device: unmapped, Out: out, Benchmarks: []string{"host.mapped_copy"}, Quick: true}); err != nil {
		t.Fatal(err)
	}
	if rows, _, err := results.LoadDir(out); err != nil || len(rows) != 1 || !rows[0].Waived || !strings.Contains(rows[0].Note, "cannot map host memory") {
		t.Errorf("without mapping: %+v, %v", rows, err)
	}

	for _, sizes := range [][]int64{{1000}, {32 << 30}} {
		if err := (umkit.HostCopyConfig{Sizes: sizes}).Validate(); err == nil || !strings.Contains(err.Error(), "allowed multiples of 16 bytes") {
			t.Errorf("sizes %v: %v", sizes, err)
		}
	}
}
