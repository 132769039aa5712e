package check_test

import (
	"fmt"

	"github.com/umlab/umlab/check"
	"github.com/umlab/umlab/results"
)

// A node checked after a driver upgrade against a baseline of three
// runs of the same node before it: the triad is 8 % slower, beyond the
// spread the three runs show and beyond the 4 % threshold.
func Example() {
	mk := func(run string, gbps ...float64) []results.Row {
		var rows []results.Row
		for i, g := range gbps {
			r := results.NewRow()
			r.Group, r.Benchmark, r.Mode, r.SizeBytes = "hbm", "triad", "explicit", 1<<30
			r.Trial, r.Verified, r.Platform, r.GPUUUID, r.RunID, r.GBps = int64(i), true, "H200", "GPU-a", run, g
			rows = append(rows, r)
		}
		return rows
	}
	var before []results.Row
	before = append(before, mk("r1", 4330, 4337, 4340, 4335, 4338)...)
	before = append(before, mk("r2", 4331, 4336, 4333, 4339, 4334)...)
	before = append(before, mk("r3", 4329, 4338, 4336, 4332, 4337)...)
	base := check.Side{Name: "before", Rows: before}
	run := check.Side{Name: "after-upgrade", Rows: mk("r4", 3990, 3985, 3995, 3992, 3988)}
	rep, err := check.Compare(run, base, check.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := rep.Results[0]
	fmt.Printf("%s (%s): %s, %+.1f %%\n", r.Configuration, r.Resource, r.Verdict, r.ChangePct())
	fmt.Println("GPU", rep.GPU, "- exit status 0:", rep.OK(false))
	// Output:
	// triad explicit 1 GiB (gpu_memory): fail, -8.0 %
	// GPU fail - exit status 0: false
}
