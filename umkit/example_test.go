package umkit_test

import (
	"context"
	"fmt"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/stats"
	"github.com/umlab/umlab/umkit"
	"github.com/umlab/umlab/umkit/simgpu"
)

// Measure runs a whole benchmark group, here the HBM group's copy and
// triad at two sizes, on the simulated GPU (made-up numbers): each
// configuration's rows say what it is, what bounds it and how fast it
// went, every trial verified.
func ExampleMeasure() {
	cfg := umkit.HBMConfig{Common: umkit.Common{Warmups: umkit.N(1), Trials: umkit.N(3)},
		Sizes: []int64{umkit.MiB, 256 * umkit.MiB}}
	df, err := umkit.Measure(context.Background(), simgpu.New(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	rows, _ := results.Rows(df)
	for i := 0; i < len(rows); i += 3 {
		trials := rows[i : i+3]
		gbps := []float64{trials[0].GBps, trials[1].GBps, trials[2].GBps}
		verified := trials[0].Verified && trials[1].Verified && trials[2].Verified
		r := trials[0]
		fmt.Printf("%s %s %s (%s): trials verified %t, median %.0f GB/s, simulated %t\n", r.Group, r.Benchmark,
			results.FormatBytes(r.SizeBytes), r.Bound, verified, stats.Median(gbps), r.Simulated)
	}
	// Output:
	// hbm copy 1 MiB (gpu_launch): trials verified true, median 380 GB/s, simulated true
	// hbm copy 256 MiB (gpu_memory): trials verified true, median 3856 GB/s, simulated true
	// hbm triad 1 MiB (gpu_launch): trials verified true, median 544 GB/s, simulated true
	// hbm triad 256 MiB (gpu_memory): trials verified true, median 3903 GB/s, simulated true
}
