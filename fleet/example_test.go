package fleet_test

import (
	"fmt"
	"log"
	"os"

	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/fleet/internal/fleettest"
)

// Five GPUs of two nodes (synthetic results, not measurements), one of
// them 10 % slower: Load walks the fleet's results directory, Check finds
// nothing that differs between the runs, and Compare flags the slow GPU in
// each configuration.
func ExampleCompare() {
	root, err := os.MkdirTemp("", "fleet-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(root)
	for i, scale := range []float64{1.002, 0.998, 0.9, 1.0, 1.004} {
		fleettest.WritePart(fleettest.Exit{}, root, fleettest.Spec{Host: fmt.Sprintf("node%d", i/3), Index: i % 3, Scale: scale})
	}
	parts, _, err := fleet.Load([]string{root}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(parts), "parts,", len(fleet.Check(parts)), "differences")
	cmp, err := fleet.Compare(parts, fleet.CompareOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range cmp {
		if c.Outlier {
			fmt.Printf("%s %s: %s %.4g against %.4g (%+.1f %%, z %+.1f) %v\n",
				c.Part, c.Label, c.Metric, c.Median, c.FleetMedian, c.DevPct, c.RobustZ, c.Flags)
		}
	}
	// Output:
	// 5 parts, 0 differences
	// node0/gpu2 hbm triad explicit streaming size=1 GiB: gbps 900 against 1000 (-10.0 %, z -13.5) [slow robust_z]
	// node0/gpu2 hbm copy explicit streaming size=1 GiB: gbps 900 against 1000 (-10.0 %, z -13.5) [slow robust_z]
	// node0/gpu2 handoff managed alternating size=256 MiB reuse=4: total_ms 11.11 against 10 (+11.1 %, z +15.0) [slow robust_z]
}
