package check_test

import (
	"fmt"

	"github.com/umlab/umlab/check"
	"github.com/umlab/umlab/results"
)

func Example() {
	mk := func(uuid string, gbps ...float64) []results.Row {
		var rows []results.Row
		for i, g := range gbps {
			r := results.NewRow()
			r.Group, r.Benchmark, r.Mode, r.SizeBytes = "hbm", "triad", "explicit", 1<<30
			r.Trial, r.Verified, r.Platform, r.GPUUUID, r.GBps = int64(i), true, "H200", uuid, g
			rows = append(rows, r)
		}
		return rows
	}
	base := check.Side{Name: "baseline", Rows: mk("GPU-a", 4330, 4337, 4340, 4335, 4338, 4331, 4336)}
	run := check.Side{Name: "after-upgrade", Rows: mk("GPU-a", 3990, 3985, 3995, 3992, 3988)}
	rep, err := check.Compare(run, base, check.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := rep.Results[0]
	fmt.Printf("%s: %s, %+.1f %%\n", r.Configuration, r.Verdict, r.ChangePct())
	fmt.Println(rep.OK(false))
	// Output:
	// triad explicit 1 GiB: fail, -8.0 %
	// false
}
