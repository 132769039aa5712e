package results_test

import (
	"fmt"
	"log"
	"math"
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
	// group,benchmark,mode,pattern,policy,phase,direction,size_bytes,footprint_bytes,useful_bytes,active_elements,stride_elements,page_interval_bytes,oversub_pct,reuse_passes,repetition,trial,warmups,kernel_ms,prefetch_ms,transfer_ms,cpu_ms,total_ms,gbps,verified,placement,waived,note,platform,gpu_uuid,host,run_id,source,reported
	// hbm,copy,explicit,,,,,64,0,0,0,0,0,,0,0,0,0,1.5e-07,,,,,,false,,false,,,,,,,false
}

func ExampleFormatBytes() {
	for _, b := range []int64{0, 1000, 4096, 65536, 2 << 20, 256 << 20, 1 << 30, 3 << 29, 2145393050} {
		fmt.Println(results.FormatBytes(b))
	}
	// Output:
	// 0 B
	// 1000 B
	// 4 KiB
	// 64 KiB
	// 2 MiB
	// 256 MiB
	// 1 GiB
	// 1.5 GiB
	// 1.998 GiB
}

func ExampleFormatRate() {
	for _, v := range []float64{4337.4, 21.63, 0.0431, math.NaN()} {
		fmt.Printf("%q %q\n", results.FormatNumber(v), results.FormatRate(v))
	}
	// Output:
	// "4337" "4337 GB/s"
	// "21.6" "21.6 GB/s"
	// "0.0431" "0.0431 GB/s"
	// "" ""
}

// Medians of kernel time per benchmark, in the order the benchmarks first
// appear; NaN (not measured) is ignored.
func ExampleGroupStats() {
	rows := []results.Row{
		{Benchmark: "triad", KernelMs: 1.0}, {Benchmark: "copy", KernelMs: 2.0},
		{Benchmark: "triad", KernelMs: 3.0}, {Benchmark: "triad", KernelMs: math.NaN()},
	}
	bench := func(r *results.Row) string { return r.Benchmark }
	kernel := func(r *results.Row) float64 { return r.KernelMs }
	for _, g := range results.GroupStats(rows, bench, kernel) {
		fmt.Printf("%s: median %g ms of %d\n", g.Key, g.Median, g.N)
	}
	fmt.Println(results.Medians(rows, bench, kernel)["triad"])
	// Output:
	// triad: median 2 ms of 2
	// copy: median 2 ms of 1
	// 2
}
