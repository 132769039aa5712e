package umkit_test

import (
	"os"
	"sort"
	"sync"
	"testing"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
)

var (
	gpuOnce sync.Once
	gpuDev  umkit.Device
	gpuErr  error
)

// gpu opens GPU 0 or skips; UMLAB_REQUIRE_GPU=1 turns the skip into a failure.
func gpu(t *testing.T) umkit.Device {
	t.Helper()
	gpuOnce.Do(func() { gpuDev, gpuErr = umkit.Open(0) })
	if gpuErr != nil {
		if os.Getenv("UMLAB_REQUIRE_GPU") == "1" {
			t.Fatalf("UMLAB_REQUIRE_GPU=1 but no GPU: %v", gpuErr)
		}
		t.Skipf("no GPU: %v", gpuErr)
	}
	return gpuDev
}

func medians(t *testing.T, rows []results.Row, key func(results.Row) string) map[string]float64 {
	t.Helper()
	by := map[string][]float64{}
	for _, r := range rows {
		if !r.Verified && !r.Waived {
			t.Fatalf("unverified row: %+v", r)
		}
		by[key(r)] = append(by[key(r)], r.GBps)
	}
	out := map[string]float64{}
	for k, v := range by {
		out[k] = results.Describe(v).Median
	}
	return out
}

func TestGPUEveryGroupSmall(t *testing.T) {
	dev := gpu(t)
	c := umkit.Common{Warmups: umkit.N(2), Trials: umkit.N(3)}
	check := func(name string, n int, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if n == 0 {
			t.Fatalf("%s: no rows", name)
		}
		t.Logf("%s: %d rows", name, n)
	}
	df, err := umkit.Measure(ctx, dev, umkit.HBMConfig{Common: c, Sizes: []int64{64 << 10, 64 << 20}})
	check("hbm", df.Nrow(), err)
	df, err = umkit.Measure(ctx, dev, umkit.HostConfig{Common: c, Sizes: []int64{1 << 20}})
	check("host", df.Nrow(), err)
	df, err = umkit.Measure(ctx, dev, umkit.TransferConfig{Common: c, Sizes: []int64{1 << 20, 16 << 20}})
	check("transfer", df.Nrow(), err)
	df, err = umkit.Measure(ctx, dev, umkit.ManagedConfig{Common: c, Sizes: []int64{4 << 20}})
	check("managed", df.Nrow(), err)
	df, err = umkit.Measure(ctx, dev, umkit.PatternConfig{Common: c, FootprintBytes: 16 << 20, Strides: []int64{1, 64}})
	check("pattern", df.Nrow(), err)
	df, err = umkit.Measure(ctx, dev, umkit.OversubConfig{Common: c, CapacityBytes: 512 << 20, Percents: []float64{25, 90}})
	check("oversub", df.Nrow(), err)
	df, err = umkit.Measure(ctx, dev, umkit.HandoffConfig{Common: c, Repetitions: 1, Sizes: []int64{4 << 20}, Reuse: []int{1, 4}})
	check("handoff", df.Nrow(), err)
	rows, _ := results.Rows(df)
	for _, r := range rows {
		if r.Phase == "alternating" && !(r.TotalMs > r.CPUMs && r.CPUMs > 0) {
			t.Errorf("handoff times: %+v", r)
		}
	}
}

// TestGPUPhysicalSanity checks the orderings the paper's physics implies, on
// 256 MiB as the issue specifies.
func TestGPUPhysicalSanity(t *testing.T) {
	dev := gpu(t)
	c := umkit.Common{Warmups: umkit.N(2), Trials: umkit.N(5)}
	df, err := umkit.Measure(ctx, dev, umkit.ManagedConfig{Common: c, Sizes: []int64{256 << 20},
		Modes: []string{"explicit", "managed_cold", "managed_prefetch", "managed_reuse"}})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := results.Rows(df)
	m := medians(t, rows, func(r results.Row) string { return r.Mode })
	t.Logf("256 MiB streaming GB/s: %v", m)
	for _, mode := range []string{"managed_prefetch", "managed_reuse"} {
		if !(m[mode] >= 20*m["managed_cold"]) {
			t.Errorf("%s %.1f GB/s is not ≥ 20× cold %.1f GB/s", mode, m[mode], m["managed_cold"])
		}
	}
	strides := []int64{1, 4, 16, 64, 256, 1024}
	df, err = umkit.Measure(ctx, dev, umkit.PatternConfig{Common: c, FootprintBytes: 256 << 20, Strides: strides,
		Benchmarks: []string{"strided", "page_touch"}, Modes: []string{"explicit", "managed_cold"}})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ = results.Rows(df)
	type key struct {
		bench, mode string
		x           int64
	}
	by := map[key][]float64{}
	for _, r := range rows {
		x := r.StrideElements
		if r.Benchmark == "page_touch" {
			x = r.PageIntervalBytes
		}
		k := key{r.Benchmark, r.Mode, x}
		by[k] = append(by[k], r.GBps)
	}
	med := func(k key) float64 { return results.Describe(by[k]).Median }
	// Explicit strided bandwidth does not increase with stride (5 % slack for noise).
	for i := 1; i < len(strides); i++ {
		a, b := med(key{"strided", "explicit", strides[i-1]}), med(key{"strided", "explicit", strides[i]})
		t.Logf("explicit stride %d: %.1f GB/s", strides[i], b)
		if b > 1.05*a {
			t.Errorf("explicit useful bandwidth rose from %.1f (stride %d) to %.1f GB/s (stride %d)", a, strides[i-1], b, strides[i])
		}
	}
	// Page-touch useful bandwidth falls as the interval grows.
	intervals := []int64{4 << 10, 64 << 10, 2 << 20}
	for _, mode := range []string{"explicit", "managed_cold"} {
		var ks []float64
		for _, p := range intervals {
			ks = append(ks, med(key{"page_touch", mode, p}))
		}
		t.Logf("%s page-touch GB/s at 4K/64K/2M: %v", mode, ks)
		if !sort.IsSorted(sort.Reverse(sort.Float64Slice(ks))) || ks[0] <= ks[2] {
			t.Errorf("%s page-touch bandwidth does not fall with the interval: %v", mode, ks)
		}
	}
}
