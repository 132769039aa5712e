package plots_test

import (
	"errors"
	"fmt"
	"log"
	"testing"

	"github.com/umlab/umlab/check"
	"github.com/umlab/umlab/plots"
	"github.com/umlab/umlab/results"
)

// syntheticCheck makes a baseline and a run of six configurations with
// made-up numbers (not measurements), 1 % noise, the run's hbm copy 8 %
// slower and its pinned transfer 4 % slower.
func syntheticCheck() (run, base check.Side) {
	noise := []float64{1.004, 0.993, 1.011, 0.998, 1.006, 0.989, 1.001}
	mk := func(uuid string, shift map[string]float64, phase int) []results.Row {
		var rows []results.Row
		for _, c := range []struct {
			group, bench, mode string
			gbps               float64
		}{{"hbm", "triad", "explicit", 4300}, {"hbm", "copy", "explicit", 4000}, {"managed", "stream", "managed_prefetch", 3900},
			{"managed", "stream", "managed_cold", 21.6}, {"transfer", "copy", "pinned", 55.3}, {"host", "triad", "host_mapped", 73.6}} {
			for t := 0; t < 7; t++ {
				r := results.NewRow()
				r.Group, r.Benchmark, r.Mode, r.SizeBytes = c.group, c.bench, c.mode, 256<<20
				r.Trial, r.Verified, r.Platform, r.GPUUUID = int64(t), true, "H200", uuid
				s, ok := shift[c.group+c.bench]
				if !ok {
					s = 1
				}
				r.GBps = c.gbps * s * noise[(t+phase)%len(noise)]
				rows = append(rows, r)
			}
		}
		return rows
	}
	base = check.Side{Name: "baseline", Rows: mk("GPU-a", nil, 0)}
	run = check.Side{Name: "run", Rows: mk("GPU-a", map[string]float64{"hbmcopy": 0.92, "transfercopy": 0.96}, 3)}
	return run, base
}

// A check's ratios with their intervals: the 8 % slower copy fails, the
// 4 % slower transfer warns, the rest pass.
func ExampleCheckRatios() {
	run, base := syntheticCheck()
	rep, err := check.Compare(run, base, check.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fig, err := plots.CheckRatios(rep, plots.Options{})
	if err != nil {
		log.Fatal(err)
	}
	save("check_ratios", fig)
	fmt.Println(rep.Counts.Fail, rep.Counts.Inconclusive, rep.Counts.Pass)
	// Output: 1 1 4
}

func TestCheckRatiosGolden(t *testing.T) { checkGolden(t, ExampleCheckRatios, "check_ratios") }

func TestCheckRatiosNoData(t *testing.T) {
	if _, err := plots.CheckRatios(nil, plots.Options{}); !errors.Is(err, plots.ErrNoData) {
		t.Fatalf("err = %v", err)
	}
}

// A check per resource, with every device-memory configuration of the
// run 6 % slower: GPU memory fails, beyond its interval and its tolerance.
func ExampleCheckResources() {
	run, base := syntheticCheck()
	for i, r := range run.Rows {
		if r.Group == "hbm" || r.Mode == "managed_prefetch" {
			run.Rows[i].GBps *= 0.94
		}
	}
	rep, err := check.Compare(run, base, check.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fig, err := plots.CheckResources(rep, plots.Options{})
	if err != nil {
		log.Fatal(err)
	}
	save("check_resources", fig)
	for _, r := range rep.Resources {
		fmt.Println(r.Resource, r.Verdict)
	}
	// Output:
	// gpu_memory fail
	// host_link pass
	// fault_servicing pass
}

func TestCheckResourcesGolden(t *testing.T) { checkGolden(t, ExampleCheckResources, "check_resources") }
