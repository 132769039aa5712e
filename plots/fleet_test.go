package plots_test

import (
	"fmt"
	"log"
	"testing"

	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/plots"
	"github.com/umlab/umlab/results"
)

// syntheticFleet makes two nodes of four GPUs with made-up numbers (not
// measurements): every GPU within 1 % of the others except node1/gpu2,
// 10 % slower.
func syntheticFleet() []fleet.Part {
	noise := []float64{1.000, 0.992, 1.008, 0.995, 1.004, 0.997, 0.9, 1.001}
	var parts []fleet.Part
	for i, s := range noise {
		host, gpu := fmt.Sprintf("node%d", i/4), i%4
		p := fleet.Part{Label: fmt.Sprintf("%s/gpu%d", host, gpu), Host: host, GPU: fmt.Sprintf("gpu%d", gpu), Index: gpu,
			UUID: fmt.Sprintf("GPU-%08d-0000-0000-0000-000000000000", i)}
		add := func(group, bench, mode string, size int64, gbps, ms float64) {
			for t := 0; t < 5; t++ {
				r := results.NewRow()
				r.Group, r.Benchmark, r.Mode, r.SizeBytes, r.Trial = group, bench, mode, size, int64(t)
				r.GBps, r.TotalMs, r.KernelMs = gbps, ms, ms
				r.Platform, r.GPUUUID, r.Host, r.Verified = "H200", p.UUID, host, true
				p.Rows = append(p.Rows, r)
			}
		}
		for j, size := range []int64{1 << 26, 1 << 28, 1 << 30} {
			f := 1 + 0.002*float64(j)
			add("hbm", "triad", "explicit", size, 4000*s*f, 1)
			add("managed", "stream", "managed_prefetch", size, 3800*s*f, 1)
			add("transfer", "copy", "pinned", size, 52*s*f, 1)
		}
		add("handoff", "handoff", "", 1<<28, float64Nan(), 10/s)
		parts = append(parts, p)
	}
	return parts
}

func float64Nan() float64 { return results.NewRow().GBps }

// Every GPU of a (synthetic) fleet against the fleet median: one row per
// GPU, one point per configuration; node1/gpu2 stands out, its points
// ringed as flagged beyond the ±5 % band.
func ExampleFleetDeviation() {
	cmp, err := fleet.Compare(syntheticFleet(), fleet.CompareOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fig, err := plots.FleetDeviation(cmp, 5, plots.Options{})
	if err != nil {
		log.Fatal(err)
	}
	save("fleet_deviation", fig)
	for _, s := range fleet.PerGPU(cmp) {
		if s.Outliers > 0 {
			fmt.Printf("%s: %d of %d configurations flagged, median %+.1f %%\n", s.Part, s.Outliers, s.Configurations, s.MedianDevPct)
		}
	}
	fmt.Println(fig.LegendNames())
	// Output:
	// node1/gpu2: 10 of 10 configurations flagged, median -9.9 %
	// [hbm managed transfer handoff flagged]
}

func TestFleetDeviationGolden(t *testing.T) {
	checkGolden(t, ExampleFleetDeviation, "fleet_deviation")
}

func TestFleetDeviationEmpty(t *testing.T) {
	if _, err := plots.FleetDeviation(nil, 5, plots.Options{}); err == nil {
		t.Error("no error for no comparisons")
	}
}
