package results_test

import (
	"errors"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"time"

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
	// group,benchmark,mode,pattern,policy,phase,direction,size_bytes,footprint_bytes,useful_bytes,active_elements,stride_elements,page_interval_bytes,oversub_pct,reuse_passes,repetition,trial,warmups,kernel_ms,prefetch_ms,transfer_ms,cpu_ms,total_ms,gbps,verified,placement,waived,note,platform,gpu_uuid,host,run_id,source,reported,cpu_threads,sync_ms,order,order_seed,order_index,simulated,round_position,bound
	// hbm,copy,explicit,,,,,64,0,0,0,0,0,,0,0,0,0,1.5e-07,,,,,,false,,false,,,,,,,false,0,,,0,0,false,0,
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
// appear; NaN (not measured) is ignored by the statistics and kept in Values.
func ExampleGroupStats() {
	rows := []results.Row{
		{Benchmark: "triad", KernelMs: 1.0}, {Benchmark: "copy", KernelMs: 2.0},
		{Benchmark: "triad", KernelMs: 3.0}, {Benchmark: "triad", KernelMs: math.NaN()},
	}
	bench := func(r *results.Row) string { return r.Benchmark }
	kernel := func(r *results.Row) float64 { return r.KernelMs }
	for _, g := range results.GroupStats(rows, bench, kernel) {
		fmt.Printf("%s: median %g ms of %d, values %v\n", g.Key, g.Median, g.N, g.Values)
	}
	fmt.Println(results.Medians(rows, bench, kernel)["triad"])
	// Output:
	// triad: median 2 ms of 2, values [1 3 NaN]
	// copy: median 2 ms of 1, values [2]
	// 2
}

// The column table says each column's kind, unit and meaning.
func ExampleColumnOf() {
	for _, name := range []string{results.ColSizeBytes, results.ColGBps, results.ColKernelMs, "speed"} {
		c, ok := results.ColumnOf(name)
		fmt.Printf("%s %v unit=%q: %s\n", name, ok, c.Unit, c.Description)
	}
	// Output:
	// size_bytes true unit="bytes": working-set size of one array
	// gbps true unit="GB/s": useful_bytes / time, 1 GB = 1e9 bytes
	// kernel_ms true unit="ms": GPU time of the measured region
	// speed false unit="":
}

// Build makes a typed DataFrame from any slice: schema columns take their
// kind from the column table, others name theirs.
func ExampleBuild() {
	rows := []results.Row{
		{Benchmark: "triad", SizeBytes: 1 << 30, GBps: 4337},
		{Benchmark: "copy", SizeBytes: 1 << 30, GBps: 4054},
	}
	fields := results.RowFields(results.ColBenchmark, results.ColSizeBytes, results.ColGBps)
	fields = append(fields, results.Field[results.Row]{Name: "fast", Kind: results.Bool,
		Value: func(r *results.Row) any { return r.GBps > 4100 }})
	df := results.Build(rows, fields...)
	fmt.Println(df.Err, df.Names(), df.Col("size_bytes").Type(), df.Col("fast").Records())
	// Output:
	// <nil> [benchmark size_bytes gbps fast] int [true false]
}

// DescribeTrials gives the statistics of one group of trials, as the
// summaries use them.
func ExampleDescribeTrials() {
	var trials []results.Row
	for _, g := range []float64{3900, 3910, 3890, 3950} {
		r := results.NewRow()
		r.GBps, r.KernelMs, r.Verified = g, 0.27, true
		trials = append(trials, r)
	}
	s := results.DescribeTrials(trials)
	fmt.Printf("n %d, median %g GB/s (min %g, max %g), kernel %g ms, verified %v\n",
		s.N, s.GBps.Median, s.GBps.Min, s.GBps.Max, s.KernelMs, s.AllVerified)
	// Output:
	// n 4, median 3905 GB/s (min 3890, max 3950), kernel 0.27 ms, verified true
}

// WriteDir writes a results directory in one go; LoadDir and ReadJSON read
// it back.
func ExampleWriteDir() {
	dir, err := os.MkdirTemp("", "results-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	r := results.NewRow()
	r.Group, r.Benchmark, r.Mode, r.SizeBytes = "hbm", "triad", "explicit", 1<<20
	if err := results.WriteDir(dir, []results.Row{r}, results.Metadata{RunID: "r1", Platform: "H200"}); err != nil {
		log.Fatal(err)
	}
	rows, _, err := results.LoadDir(dir)
	if err != nil {
		log.Fatal(err)
	}
	m, err := results.ReadJSON[results.Metadata](filepath.Join(dir, results.MetaName))
	if err != nil {
		log.Fatal(err)
	}
	_, err = results.ReadJSON[results.Metadata](filepath.Join(dir, results.CSVName))
	fmt.Println(len(rows), rows[0].Benchmark, m.RunID, m.Platform, err != nil)
	// Output:
	// 1 triad r1 H200 true
}

// The usual trial count of a run: the count most configurations have.
func ExampleMostCommon() {
	fmt.Println(results.MostCommon(map[int]int{5: 12, 10: 3, 3: 12}))
	// Output: 3
}

// FormatGroupWall adds up each group's spans over a run's segments: here
// handoff ran in two processes, the first stopped inside it.
func ExampleFormatGroupWall() {
	at := func(m, s int) time.Time { return time.Date(2026, 12, 1, 18, m, s, 0, time.UTC) }
	ts := []results.GroupTime{
		{Group: "hbm", Segment: "a", Start: at(45, 7), End: at(45, 10)},
		{Group: "handoff", Segment: "a", Start: at(45, 10), End: at(50, 0), Stopped: true},
		{Group: "handoff", Segment: "b", Start: at(51, 0), End: at(56, 30)},
	}
	fmt.Println(results.FormatGroupWall(ts))
	// Output: hbm 3s, handoff 10m20s (10m23s in groups over 2 segments, 1 stopped inside a group)
}

// FormatGroupParts says what each group's wall time went on; the parts of a
// group's segments add up, and what no part accounts for is "other".
func ExampleFormatGroupParts() {
	at := func(m, s int) time.Time { return time.Date(2026, 12, 1, 18, m, s, 0, time.UTC) }
	ts := []results.GroupTime{
		{Group: "hbm", Segment: "a", Start: at(45, 7), End: at(45, 10)},    // from before parts were recorded
		{Group: "oversub", Segment: "o", Start: at(40, 0), End: at(44, 0)}, // the same: left out
		{Group: "oversub", Segment: "a", Start: at(45, 10), End: at(46, 40), Stopped: true,
			Parts: &results.GroupParts{TimedS: 30, RewriteS: 40, SettleS: 2.5, VerifyS: 1.5}},
		{Group: "oversub", Segment: "b", Start: at(50, 0), End: at(51, 19),
			Parts: &results.GroupParts{TimedS: 26, RewriteS: 33, SettleS: 2.5, VerifyS: 1.5}},
	}
	fmt.Println(results.FormatGroupParts(ts))
	// Output: oversub 2m49s: timed 56s, rewrite 1m13s, settle 5s, verify 3s, other 32s
}

// PlanRewrite reads how a run re-established its memory states: from
// the run's record, or in an older run from its plan; a plan from before
// the setting brought data home.
func ExamplePlanRewrite() {
	fmt.Println(results.PlanRewrite(results.Metadata{Rewrites: map[string]string{"managed": "reallocate", "pattern": "reallocate"}}))
	fmt.Println(results.PlanRewrite(results.Metadata{Config: map[string]any{"managed": map[string]any{"Rewrite": "home"}}}))
	fmt.Println(results.PlanRewrite(results.Metadata{Config: map[string]any{"managed": map[string]any{"Modes": []string{"managed_cold"}}}}))
	fmt.Printf("%q\n", results.PlanRewrite(results.Metadata{Config: map[string]any{"hbm": map[string]any{"Trials": 25}}}))
	// Output:
	// reallocate
	// home
	// home
	// ""
}

// Unverified trials are left out of every statistic, counted, and named
// with their configuration; a command asked to keep them restores them.
func ExampleScreenUnverified() {
	var rows []results.Row
	for trial, ok := range []bool{true, false, true, true, false} {
		r := results.NewRow()
		r.Group, r.Benchmark, r.Mode, r.SizeBytes = "hbm", "triad", "explicit", 64<<20
		r.Trial, r.GBps, r.Verified = int64(trial), 4000, ok
		rows = append(rows, r)
	}
	kept, left := results.ScreenUnverified(rows)
	fmt.Println(len(kept), "trials for statistics")
	fmt.Println(left)
	fmt.Println(len(left.Restore(kept)), "with --keep-unverified")
	// Output:
	// 3 trials for statistics
	// 2 unverified trials left out of every statistic: hbm triad explicit 64 MiB (2 of 5)
	// 5 with --keep-unverified
}

// A command's own output file may not be one of a run's files, nor a link,
// device or FIFO: CheckOutput refuses them before anything is written.
func ExampleCheckOutput() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	fmt.Println(results.CheckOutput(filepath.Join(dir, "report.html")) == nil)
	err := results.CheckOutput(filepath.Join(dir, results.CSVName))
	fmt.Println(errors.Is(err, results.ErrRunData))
	os.Symlink("/etc/passwd", filepath.Join(dir, "link.html"))
	err = results.CheckOutput(filepath.Join(dir, "link.html"))
	fmt.Println(errors.Is(err, results.ErrNotRegular))
	// Output:
	// true
	// true
	// true
}

// Sig4 and Decimals4 round to four significant digits; a median that
// rounds up to the next power of ten keeps four digits (999.96 is 1000,
// not 1000.0).
func ExampleDecimals4() {
	for _, v := range []float64{4355.2, 12.97, 999.96, 99.996} {
		fmt.Println(results.Sig4(v), strconv.FormatFloat(v, 'f', results.Decimals4(v), 64))
	}
	// Output:
	// 4355 4355
	// 12.97 12.97
	// 1000 1000
	// 100 100.0
}

// AlignLines lays out a text table; CutRunes shortens a cell to fit.
func ExampleAlignLines() {
	rows := [][]string{{"configuration", "verdict"}, {results.CutRunes("hbm stream managed_cold 1 GiB", 12), "pass"}}
	for _, l := range results.AlignLines(rows) {
		fmt.Println(l)
	}
	// Output:
	// configuration  verdict
	// hbm stream …   pass
}
