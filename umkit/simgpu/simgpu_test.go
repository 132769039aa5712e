package simgpu_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/stats"
	"github.com/umlab/umlab/umkit"
	"github.com/umlab/umlab/umkit/simgpu"
)

// medians runs a plan that has a configuration of every bound on dev and
// returns each configuration's median GB/s and its bound.
func medians(t *testing.T, dev *simgpu.Device) (map[string]float64, map[string]string) {
	t.Helper()
	out := t.TempDir()
	o := umkit.Options{Device: dev, Out: out, Quick: true, Trials: umkit.N(3), Warmups: umkit.N(1), Sizes: []int64{umkit.MiB, 64 * umkit.MiB},
		Benchmarks: []string{"hbm.triad", "host.mapped_triad", "transfer", "managed", "handoff"}, Warn: func(string) {}}
	if _, err := umkit.Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	rows, _, err := results.LoadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	by, bound := map[string][]float64{}, map[string]string{}
	for _, r := range rows {
		k := fmt.Sprintf("%s %s %s %s %s %s %d R=%d", r.Group, r.Benchmark, r.Mode, r.Direction, r.Policy, r.Phase, r.SizeBytes, r.ReusePasses)
		by[k], bound[k] = append(by[k], r.GBps), r.Bound
	}
	med := map[string]float64{}
	for k, v := range by {
		med[k] = stats.Median(v)
	}
	return med, bound
}

// TestSlow: each resource's knob slows the configurations bound by it,
// by about its fraction where the resource is all of their time, and
// leaves those of the other side (GPU or host) within 0.5 % of where they
// were; a slower launch, part of every kernel's time, within a quarter of
// its fraction.
func TestSlow(t *testing.T) {
	base, bounds := medians(t, simgpu.New())
	gpu := map[string]bool{results.BoundGPUMemory: true, results.BoundGPULaunch: true, results.BoundHostLink: true}
	for _, tc := range []struct {
		r     simgpu.Resource
		bound string
		f     float64
	}{
		{simgpu.HBM, results.BoundGPUMemory, 0.05}, {simgpu.Launch, results.BoundGPULaunch, 0.05}, {simgpu.Link, results.BoundHostLink, 0.05},
		{simgpu.Pageable, results.BoundHostPageable, 0.1}, {simgpu.Faults, results.BoundFaults, 0.3}, {simgpu.CPU, results.BoundHostCPU, 0.2},
	} {
		dev := simgpu.New()
		dev.Slow[tc.r] = tc.f
		slow, _ := medians(t, dev)
		slowest, other := 0.0, 0.005
		if tc.r == simgpu.Launch {
			other = tc.f / 4
		}
		for k, b := range bounds {
			ratio := slow[k] / base[k]
			switch {
			case b == tc.bound:
				slowest = max(slowest, 1-ratio)
				if ratio > 1-tc.f/4 {
					t.Errorf("%s:%g: %s (%s) at %.4f of its speed", tc.r, tc.f, k, b, ratio)
				}
			case b != results.BoundMixed && gpu[b] != gpu[tc.bound] && math.Abs(ratio-1) > other:
				t.Errorf("%s:%g: %s (%s), on the other side, at %.4f of its speed", tc.r, tc.f, k, b, ratio)
			}
		}
		if math.Abs(slowest-tc.f) > tc.f/10 {
			t.Errorf("%s:%g: the most slowed %s configuration lost %.4f of its speed", tc.r, tc.f, tc.bound, slowest)
		}
	}
}

// TestNoise: a seed gives the same rows every time; seeds differ, by more
// for fault servicing and the host CPU than for HBM, and a 5 % slower HBM
// stays below every repeat of a healthy one.
func TestNoise(t *testing.T) {
	const hbm, cold, cpu = "hbm triad explicit    67108864 R=0", "managed stream managed_cold    67108864 R=0", "handoff handoff   managed cpu_only 67108864 R=0"
	run := func(seed uint64, slow float64) map[string]float64 {
		dev := simgpu.New()
		dev.SetNoise(seed)
		dev.Slow[simgpu.HBM] = slow
		m, _ := medians(t, dev)
		return m
	}
	a, b := run(7, 0), run(7, 0)
	if a[hbm] != b[hbm] || a[cold] != b[cold] {
		t.Errorf("seed 7 twice: %v and %v", a[hbm], b[hbm])
	}
	spread := func(k string, xs []map[string]float64) (cv, lo float64) {
		var v []float64
		for _, x := range xs {
			v = append(v, x[k])
		}
		mean, sd := stat.MeanStdDev(v, nil)
		return sd / mean, floats.Min(v)
	}
	var repeats []map[string]float64
	for seed := uint64(1); seed <= 8; seed++ {
		repeats = append(repeats, run(seed, 0))
	}
	cvHBM, lowest := spread(hbm, repeats)
	cvCold, _ := spread(cold, repeats)
	cvCPU, _ := spread(cpu, repeats)
	if !(cvHBM < 0.01 && cvCold > 3*cvHBM && cvCPU > 3*cvHBM) {
		t.Errorf("spread between seeds: HBM %.4f, cold %.4f, CPU %.4f", cvHBM, cvCold, cvCPU)
	}
	for seed := uint64(11); seed <= 14; seed++ {
		if s := run(seed, 0.05)[hbm]; s >= lowest {
			t.Errorf("5 %% slower HBM, seed %d: %.1f GB/s, the slowest healthy repeat %.1f", seed, s, lowest)
		}
	}
}

// TestFromEnv: the knobs reach the device, and bad values name the
// variable and what is allowed.
func TestFromEnv(t *testing.T) {
	t.Setenv(simgpu.EnvSlow, "hbm:0.05, faults:0.3")
	t.Setenv(simgpu.EnvNoise, "3")
	t.Setenv(simgpu.EnvGPUs, "2")
	k, err := simgpu.FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	d, err := k.Open(1)
	if err != nil || d.Slow[simgpu.HBM] != 0.05 || d.Slow[simgpu.Faults] != 0.3 || d.Slow[simgpu.Link] != 0 || k.Noise != 3 {
		t.Errorf("knobs %+v, device slow %v, %v", k, d.Slow, err)
	}
	if _, err := k.Open(2); err == nil || !strings.Contains(err.Error(), "ordinals 0 to 1") {
		t.Errorf("GPU 2 of 2: %v", err)
	}
	for env, bad := range map[string][]string{
		simgpu.EnvSlow:  {"gpu:0.1", "hbm:0.95", "hbm", "hbm:-0.1", "hbm:0.1,hbm:0.2", "hbm:x"},
		simgpu.EnvNoise: {"x", "-1"},
	} {
		for _, v := range bad {
			t.Setenv(env, v)
			_, err := simgpu.FromEnv()
			if err == nil || !strings.Contains(err.Error(), env) || !strings.Contains(err.Error(), "want") {
				t.Errorf("%s=%s: %v", env, v, err)
			}
		}
		t.Setenv(env, "")
	}
}
