package umkit_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
	"github.com/umlab/umlab/umkit/simgpu"
)

func TestSparseOnFake(t *testing.T) {
	dev := simgpu.New()
	const footprint = 4 << 20
	n := int64(footprint / 8)
	df, err := umkit.Measure(ctx, dev, umkit.SparseConfig{Common: small(), FootprintBytes: footprint, Densities: []float64{0.25, 1.0 / 64}})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := results.Rows(df)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4*2*3 {
		t.Fatalf("%d rows, want 4 modes × 2 densities × 3 trials", len(rows))
	}
	modes := map[string]bool{}
	for _, r := range rows {
		modes[r.Mode] = true
		k := r.StrideElements
		if k != 4 && k != 64 {
			t.Fatalf("stride_elements %d, want 1/density", k)
		}
		if r.Group != "pattern" || r.Benchmark != "sparse_random" || r.Pattern != "sparse_random" || !r.Verified {
			t.Errorf("row identity %+v", r)
		}
		if r.ActiveElements != n/k || r.UsefulBytes != 16*(n/k) || r.SizeBytes != footprint || r.FootprintBytes != 2*footprint {
			t.Errorf("density 1/%d: active %d useful %d size %d footprint %d", k, r.ActiveElements, r.UsefulBytes, r.SizeBytes, r.FootprintBytes)
		}
		if got := float64(r.UsefulBytes) / (r.KernelMs * 1e6); math.Abs(got-r.GBps) > 1e-9*got {
			t.Errorf("gbps %v, useful/kernel_ms gives %v", r.GBps, got)
		}
		if !strings.Contains(r.Note, "density 1/") {
			t.Errorf("note %q does not give the density", r.Note)
		}
	}
	if len(modes) != 4 {
		t.Errorf("modes %v, want explicit, cold, prefetch, reuse", modes)
	}
	if dev.Live() != 0 {
		t.Errorf("%d buffers leaked", dev.Live())
	}
	// Densities are different configurations.
	keys := map[string]bool{}
	for _, r := range rows {
		keys[results.ConfigKey(r)] = true
	}
	if len(keys) != 8 {
		t.Errorf("%d configurations, want 8", len(keys))
	}
}

// offByOne touches one element fewer in every timed kernel: the trial's
// data then differs from the reference.
type offByOne struct{ *simgpu.Device }

func (d offByOne) TimeKernel(k umkit.Kernel) (float64, error) {
	if k.Kind == umkit.KRandom {
		k.Active--
	}
	return d.Device.TimeKernel(k)
}

func TestSparseVerification(t *testing.T) {
	cfg := umkit.SparseConfig{Common: small(), FootprintBytes: 1 << 20, Densities: []float64{1.0 / 8}}
	for mode := range slices.Values(umkit.PatternModes) {
		cfg.Modes = []string{mode}
		// A kernel that writes wrong data fails the independent check of the reference.
		dev := simgpu.New()
		dev.CorruptKernels = true
		if _, err := umkit.Measure(ctx, dev, cfg); err == nil || !strings.Contains(err.Error(), "verification failed") {
			t.Errorf("%s: corrupted kernels gave %v", mode, err)
		}
		// A trial that misses one element fails the comparison with the reference.
		if _, err := umkit.Measure(ctx, offByOne{simgpu.New()}, cfg); err == nil || !strings.Contains(err.Error(), "verification failed") {
			t.Errorf("%s: a trial missing an element gave %v", mode, err)
		}
	}
}

func TestSparseValidation(t *testing.T) {
	for name, c := range map[string]umkit.SparseConfig{
		"density 0.3":     {Densities: []float64{0.3}},
		"density 0":       {Densities: []float64{0}},
		"density 2":       {Densities: []float64{2}},
		"density NaN":     {Densities: []float64{math.NaN()}},
		"below 1 element": {FootprintBytes: 64 << 10, Densities: []float64{1.0 / (1 << 14)}},
		"footprint":       {FootprintBytes: 1000},
		"mode":            {Modes: []string{"advise_accessed_by"}},
		"trials 0":        {Common: umkit.Common{Trials: umkit.N(0)}},
	} {
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), "allowed") {
			t.Errorf("%s: %v, want an error saying what is allowed", name, err)
		}
	}
	if err := (umkit.SparseConfig{Densities: []float64{1, 0.5, 1.0 / 1024}}).Validate(); err != nil {
		t.Error(err)
	}
	d := umkit.SparseConfig{}.Defaults()
	if d.FootprintBytes != 256<<20 || !slices.Equal(d.Densities, []float64{1.0 / 16, 1.0 / 256}) || !slices.Equal(d.Modes, umkit.PatternModes) {
		t.Errorf("defaults %+v", d)
	}
}

// TestSparseBesideDense: the definition joins the pattern group, is selected
// by it and by name, and runs next to the dense random benchmark.
func TestSparseBesideDense(t *testing.T) {
	bs, err := umkit.Select([]string{"pattern.sparse_random"})
	if err != nil || len(bs) != 1 || bs[0].Group != "pattern" {
		t.Fatalf("Select: %v %v", bs, err)
	}
	i := slices.IndexFunc(umkit.Registry, func(b umkit.Benchmark) bool { return b.Name == "pattern.sparse_random" })
	if i < 1 || umkit.Registry[i-1].Name != "pattern.page_touch" {
		t.Errorf("sparse_random is not registered right after the pattern group's benchmarks")
	}
	dir := t.TempDir()
	var labels []string
	o := umkit.Options{Device: simgpu.New(), Out: dir, Quick: true, Trials: umkit.N(2),
		Benchmarks: []string{"pattern.random", "pattern.sparse_random"}, Progress: func(p umkit.Progress) { labels = append(labels, p.Config) }}
	plan, err := umkit.NewPlan(o, o.Device.Info())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := umkit.DefinitionOf[umkit.SparseConfig](plan); plan.Configurations() != 4+4*2 || !ok {
		t.Fatalf("plan: %d configurations", plan.Configurations())
	}
	if _, err := umkit.Run(ctx, o); err != nil {
		t.Fatal(err)
	}
	rows, _, err := results.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	bench := map[string]int{}
	for _, r := range rows {
		bench[r.Benchmark]++
	}
	if bench["random"] != 4*2 || bench["sparse_random"] != 4*2*2 {
		t.Errorf("rows per benchmark %v", bench)
	}
	if !slices.Contains(labels, "pattern sparse_random managed_cold density 1/256") {
		t.Errorf("progress labels %q", labels)
	}
}

// TestGPUSparse runs the sparse benchmark on a GPU, verified, at 64 MiB:
// every row checked against the reference, a density of 1/4 and 1/256, and
// the orderings the paper reports (resident modes far above cold).
func TestGPUSparse(t *testing.T) {
	dev := gpu(t)
	df, err := umkit.Measure(ctx, dev, umkit.SparseConfig{Common: umkit.Common{Warmups: umkit.N(1), Trials: umkit.N(3)},
		FootprintBytes: 64 << 20, Densities: []float64{0.25, 1.0 / 256}})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := results.Rows(df)
	if err != nil {
		t.Fatal(err)
	}
	med := medians(t, rows, func(r results.Row) string { return fmt.Sprintf("%s 1/%d", r.Mode, r.StrideElements) })
	t.Logf("GB/s medians: %v", med)
	for _, k := range []string{"1/4", "1/256"} {
		if !(med["managed_prefetch "+k] > 5*med["managed_cold "+k] && med["explicit "+k] > 5*med["managed_cold "+k]) {
			t.Errorf("density %s: resident modes not far above cold: %v", k, med)
		}
	}
}
