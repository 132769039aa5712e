package fleet_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/umlab/umlab/check"
	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/results"
)

// h200Fleet makes n GPUs from the canonical quick H200 run: each GPU's
// configurations move by a factor drawn from the variation the check's
// H200 calibration knows between nodes (a healthy fleet), then slow(gpu,
// row) scales what a planted fault slows (1: nothing).
func h200Fleet(t *testing.T, n int, seed uint64, slow func(gpu int, r *results.Row) float64) []fleet.Part {
	t.Helper()
	rows, _, err := datasets.Load(datasets.CanonicalQuick)
	if err != nil {
		t.Fatal(err)
	}
	prior := check.PriorFor("H200")
	rng := rand.New(rand.NewPCG(seed, 7))
	parts := make([]fleet.Part, n)
	for g := range parts {
		host := fmt.Sprintf("node%02d", g)
		p := fleet.Part{Label: host + "/gpu0", Host: host, GPU: "gpu0", UUID: fmt.Sprintf("GPU-%08d-0000-0000-0000-000000000000", g)}
		factor := map[string]float64{}
		for _, r := range rows {
			k := results.ConfigKey(r)
			f, ok := factor[k]
			if !ok {
				f = math.Exp(rng.NormFloat64() * prior.NodeSpread(r))
				factor[k] = f
			}
			f *= slow(g, &r)
			r.GBps *= f
			r.KernelMs, r.TotalMs, r.CPUMs, r.PrefetchMs, r.TransferMs = r.KernelMs/f, r.TotalMs/f, r.CPUMs/f, r.PrefetchMs/f, r.TransferMs/f
			r.GPUUUID, r.Host = p.UUID, host
			p.Rows = append(p.Rows, r)
		}
		parts[g] = p
	}
	return parts
}

func h200Options() fleet.CompareOptions {
	return fleet.CompareOptions{Spread: func(r results.Row) float64 { return check.PriorFor(r.Platform).NodeSpread(r) }}
}

// Healthy fleets of 12 H200s, varying as the calibration says healthy
// nodes do, are not flagged: at a 5 % false-discovery rate per class, at
// most one of ten fleets may flag anything.
func TestCompareHealthyFleetQuiet(t *testing.T) {
	noisy := 0
	for seed := range uint64(10) {
		cmp, err := fleet.Compare(h200Fleet(t, 12, seed, func(int, *results.Row) float64 { return 1 }), h200Options())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cmp {
			if c.Outlier {
				t.Logf("seed %d: %s %s (%s) %+.1f %% beyond ±%.1f %%", seed, c.Part, c.Label, c.Resource, c.DevPct, c.TolPct)
				noisy++
				break
			}
		}
	}
	if noisy > 1 {
		t.Errorf("%d of 10 healthy fleets flagged", noisy)
	}
}

// A GPU whose memory is 10 % slower is flagged in its GPU-memory
// configurations, as the GPU's; a GPU whose host CPU is five times as
// slow (CPU-bound phases vary by 25–120 % between healthy processes) is
// flagged as the host's, never the GPU's; nobody else is flagged.
func TestCompareTellsGPUFromHost(t *testing.T) {
	parts := h200Fleet(t, 12, 42, func(g int, r *results.Row) float64 {
		switch {
		case g == 3 && r.Bound == results.BoundGPUMemory:
			return 0.9
		case g == 7 && r.Bound == results.BoundHostCPU:
			return 0.2
		}
		return 1
	})
	cmp, err := fleet.Compare(parts, h200Options())
	if err != nil {
		t.Fatal(err)
	}
	memory, flagged := 0, 0
	for _, c := range cmp {
		if c.Part == parts[3].Label && c.Resource == results.BoundGPUMemory {
			memory++
			if c.Outlier {
				flagged++
			}
		}
	}
	if memory == 0 || 2*flagged < memory {
		t.Errorf("the slow memory flagged in %d of %d GPU-memory configurations", flagged, memory)
	}
	for _, s := range fleet.PerGPU(cmp) {
		switch s.Part {
		case parts[3].Label:
			if s.GPUOutliers == 0 || s.HostOutliers > 0 {
				t.Errorf("slow memory: %+v", s)
			}
		case parts[7].Label:
			if s.GPUOutliers > 0 || s.HostOutliers == 0 {
				t.Errorf("slow host CPU: %+v", s)
			}
		default:
			if s.Outliers > 0 {
				t.Errorf("a healthy GPU flagged: %+v", s)
			}
		}
	}
}
