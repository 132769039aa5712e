package results_test

import (
	"fmt"
	"log"
	"os"

	"github.com/umlab/umlab/results"
)

// Three trials of one configuration become one summary row: the median, the
// spread and the flags a reader needs before trusting the number.
func ExampleSummarize() {
	var rows []results.Row
	for trial, gbps := range []float64{4010, 4150, 3990} {
		r := results.NewRow()
		r.Group, r.Benchmark, r.Mode, r.SizeBytes = "hbm", "triad", "explicit", 1<<30
		r.Trial, r.GBps, r.KernelMs, r.Verified = int64(trial), gbps, 0.8, true
		rows = append(rows, r)
	}
	for _, s := range results.Summarize(rows, results.SummaryOptions{PeakMemoryGBps: 4800}) {
		fmt.Printf("%s %s n=%d median %.0f GB/s (min %.0f, max %.0f), cv %.1f %%, %.1f %% of peak, flags %v\n",
			s.Config.Group, s.Config.Benchmark, s.N, s.GBps.Median, s.GBps.Min, s.GBps.Max, s.GBps.CVPct, s.PctOfPeak, s.Flags)
	}
	// Output:
	// hbm triad n=3 median 4010 GB/s (min 3990, max 4150), cv 2.2 %, 83.5 % of peak, flags []
}

// Describe ignores NaN (a value that was not measured) and takes the mean of
// the two middle values of an even count.
func ExampleDescribe() {
	s := results.Describe([]float64{4, 1, results.NewRow().GBps, 3, 2})
	fmt.Println(s.N, s.Median, s.Min, s.Max)
	// Output:
	// 4 2.5 1 4
}

// WriteCSV keeps full float precision and writes NaN as an empty field.
func ExampleWriteCSV() {
	r := results.NewRow()
	r.Group, r.Benchmark, r.Mode, r.SizeBytes, r.KernelMs = "hbm", "copy", "explicit", 64, 1.5e-7
	if err := results.WriteCSV(os.Stdout, []results.Row{r}); err != nil {
		log.Fatal(err)
	}
	// Output:
	// group,benchmark,mode,pattern,policy,phase,direction,size_bytes,footprint_bytes,useful_bytes,active_elements,stride_elements,page_interval_bytes,oversub_pct,reuse_passes,repetition,trial,warmups,kernel_ms,prefetch_ms,transfer_ms,cpu_ms,total_ms,gbps,verified,placement,waived,note,platform,gpu_uuid,host,run_id,source,reported,simulated
	// hbm,copy,explicit,,,,,64,0,0,0,0,0,,0,0,0,0,1.5e-07,,,,,,false,,false,,,,,,,false,false
}
