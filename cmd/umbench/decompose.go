package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/go-gota/gota/dataframe"

	"github.com/umlab/umlab/check"
	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// counterSource loads the counter passes of what source loaded: the
// counters.csv of a results directory or of an embedded dataset. A run
// without --counters gives (nil, nil).
func counterSource(data, dataset string, args []string) ([]results.CounterRow, error) {
	name := data
	switch {
	case name == "" && dataset != "":
		name = dataset
	case name == "" && len(args) == 1:
		name = args[0]
	}
	return datasets.Counters(name)
}

// caveats prints what datasets.Caveats knows about the dataset name.
func caveats(w io.Writer, name string) {
	if c := datasets.Caveats(name); c != "" {
		for _, l := range wrap(fmt.Sprintf("caveat (%s): %s", name, strings.Join(strings.Fields(c), " ")), 120, "  ") {
			fmt.Fprintln(w, l)
		}
	}
}

func cmdCounters(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("counters", stderr)
	dataset := fs.String("dataset", "", "an embedded dataset with counter passes, e.g. h200-2026-11-29-counters")
	wide := fs.Bool("wide", false, "table: every configuration column, counters_collected and pcie_tx_bytes (wider than 120 columns)")
	data := fs.String("data", "", "a results directory written by umbench run --counters")
	format := fs.String("format", "table", "table or csv")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *format != "table" && *format != "csv" {
		return usagef("--format %q: table or csv", *format)
	}
	rows, meta, name, err := source(*data, *dataset, fs.Args())
	if err != nil {
		return err
	}
	counted, err := counterSource(*data, *dataset, fs.Args())
	if err != nil {
		return err
	}
	if len(counted) == 0 {
		return fmt.Errorf("%s has no counter passes: measure with umbench run --counters", name)
	}
	sum := results.Summarize(rows, results.SummaryOptions{
		PeakMemoryGBps: meta.Device.PeakMemoryGBps, PeakHostLinkGBps: meta.Device.PeakHostLinkGBps,
		ThrottleReasons: meta.Device.ThrottleReasons,
	})
	df, err := results.JoinCounters(sum, counted)
	if err != nil {
		return err
	}
	if *format == "csv" {
		caveats(stderr, name)
		return model.WriteFrameCSV(stdout, df)
	}
	caveats(stdout, name)
	if *wide {
		cols := []string{results.ColGroup, results.ColBenchmark, results.ColMode, results.ColPattern, results.ColSizeBytes,
			results.ColStrideElements, results.ColPageIntervalBytes, results.ColOversubPct, results.ColMedianGBps,
			results.ColCountersCollected, results.ColUMHtoDBytes, results.ColUMDtoHBytes, results.ColGPUFaultGroups, results.ColCPUPageFaults,
			results.ColMigratedPerUseful, results.ColPCIeRXBytes, results.ColPCIeTXBytes}
		return writeTable(stdout, df.Select(cols))
	}
	// 120 columns: the configuration as one label, short headers, sizes in
	// binary units, counts as integers; --wide for every column.
	return writeCountersCompact(stdout, df)
}

// writeCountersCompact prints the default counters table.
func writeCountersCompact(w io.Writer, df dataframe.DataFrame) error {
	if df.Err != nil {
		return df.Err
	}
	rows := configRows(df)
	cols := []struct{ name, head string }{
		{results.ColMedianGBps, "GB/s"}, {results.ColUMHtoDBytes, "htod"}, {results.ColUMDtoHBytes, "dtoh"},
		{results.ColGPUFaultGroups, "gpu_faults"}, {results.ColCPUPageFaults, "cpu_faults"},
		{results.ColMigratedPerUseful, "migr/useful"}, {results.ColPCIeRXBytes, "pcie_rx"},
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	head := []string{"configuration"}
	for _, c := range cols {
		head = append(head, c.head)
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	collected := df.Col(results.ColCountersCollected)
	for i := 0; i < df.Nrow(); i++ {
		f := []string{cutRunes(check.Label(rows[i]), 46)}
		for _, c := range cols {
			f = append(f, results.TableCell(df.Col(c.name), i, c.name))
		}
		if collected.Elem(i).String() != "true" {
			f = append(f, "(not counted)")
		}
		fmt.Fprintln(tw, strings.Join(f, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		if line != "" {
			fmt.Fprintln(w, strings.TrimRight(line, " \n"))
		}
	}
	return nil
}

// configRows reads the configuration columns of df's rows (those present)
// into rows, for labels.
func configRows(df dataframe.DataFrame) []results.Row {
	have := map[string]bool{}
	for _, n := range df.Names() {
		have[n] = true
	}
	str := func(col string, i int) string {
		if !have[col] {
			return ""
		}
		return df.Col(col).Elem(i).String()
	}
	num := func(col string, i int) int64 {
		if !have[col] {
			return 0
		}
		v, err := df.Col(col).Elem(i).Int()
		if err != nil {
			return 0
		}
		return int64(v)
	}
	out := make([]results.Row, df.Nrow())
	for i := range out {
		r := results.NewRow()
		r.Group, r.Benchmark, r.Mode, r.Pattern = str(results.ColGroup, i), str(results.ColBenchmark, i), str(results.ColMode, i), str(results.ColPattern, i)
		r.Policy, r.Phase, r.Direction = str(results.ColPolicy, i), str(results.ColPhase, i), str(results.ColDirection, i)
		r.SizeBytes, r.FootprintBytes = num(results.ColSizeBytes, i), num(results.ColFootprintBytes, i)
		r.StrideElements, r.PageIntervalBytes = num(results.ColStrideElements, i), num(results.ColPageIntervalBytes, i)
		r.ReusePasses = num(results.ColReusePasses, i)
		if have[results.ColOversubPct] {
			r.OversubPct = df.Col(results.ColOversubPct).Elem(i).Float()
		}
		out[i] = r
	}
	return out
}
func cmdDecompose(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("decompose", stderr)
	dataset := fs.String("dataset", "", "an embedded dataset, e.g. h200-2026-11-29-full")
	data := fs.String("data", "", "a results directory")
	format := fs.String("format", "table", "table or csv")
	wide := fs.Bool("wide", false, "table: every term as model.WriteDecomposition writes it, full precision labels (wider than 120 columns)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *format != "table" && *format != "csv" {
		return usagef("--format %q: table or csv", *format)
	}
	rows, _, name, err := source(*data, *dataset, fs.Args())
	if err != nil {
		return err
	}
	counters, err := counterSource(*data, *dataset, fs.Args())
	if err != nil {
		return err
	}
	counted := make([]model.Counted, 0, len(counters))
	for _, c := range counters {
		if c.Collected {
			counted = append(counted, model.CountedOf(c))
		}
	}
	ds, err := model.DecomposeCounted(rows, counted)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if *format == "csv" {
		caveats(stderr, name)
		return model.WriteFrameCSV(stdout, model.DecompositionFrame(ds))
	}
	if !*wide {
		stdout = fitTo(stdout)
		defer stdout.(*fitWriter).flush()
	}
	caveats(stdout, name)
	fmt.Fprintf(stdout, "== %s: time split into the terms of paper Section VIII-A (medians, ms)", name)
	if len(counted) > 0 {
		fmt.Fprintf(stdout, "; migration from %d counter passes where present", len(counted))
	}
	fmt.Fprintln(stdout)
	if *wide {
		return model.WriteDecomposition(stdout, ds)
	}
	return writeDecompositionCompact(stdout, ds)
}

// decompTerms are the decomposition's terms as the compact table heads them.
var decompTerms = []struct {
	term, head string
	ms         func(d *model.Decomposition) float64
}{
	{model.TermCompute, "comp", func(d *model.Decomposition) float64 { return d.ComputeMs }},
	{model.TermAccessHBM, "hbm", func(d *model.Decomposition) float64 { return d.AccessHBMMs }},
	{model.TermAccessCPU, "cpu", func(d *model.Decomposition) float64 { return d.AccessCPUMs }},
	{model.TermFault, "fault", func(d *model.Decomposition) float64 { return d.FaultMs }},
	{model.TermMigration, "migr", func(d *model.Decomposition) float64 { return d.MigrationMs }},
	{model.TermEviction, "evict", func(d *model.Decomposition) float64 { return d.EvictionMs }},
	{model.TermSync, "sync", func(d *model.Decomposition) float64 { return d.SyncMs }},
	{model.TermResidual, "resid", func(d *model.Decomposition) float64 { return d.ResidualMs }},
}

// writeDecompositionCompact prints the default decomposition table within
// 120 columns: the configuration as one readable label, the total time in
// ms and each term as a percentage of it (a * marks a term taken from a
// measured time; the others are inferred), no column for a term that is
// zero in every row (a closing line names them). --wide prints
// model.WriteDecomposition's table: every term in ms and the dominant one.
func writeDecompositionCompact(w io.Writer, ds []model.Decomposition) error {
	t := textTable{head: []string{"configuration", "total_ms"}, cut: 0}
	var shown []int
	var zero []string
	for i, dt := range decompTerms {
		used := false
		for j := range ds {
			if v := dt.ms(&ds[j]); v != 0 && !math.IsNaN(v) {
				used = true
				break
			}
		}
		if used {
			shown = append(shown, i)
			t.head = append(t.head, dt.head+"%")
		} else {
			zero = append(zero, dt.term)
		}
	}
	starred := false
	for j := range ds {
		d := &ds[j]
		r := results.NewRow()
		r.Group, r.Benchmark, r.Mode, r.Pattern, r.Policy = d.Group, d.Benchmark, d.Mode, d.Pattern, d.Policy
		r.SizeBytes, r.StrideElements, r.PageIntervalBytes, r.OversubPct, r.ReusePasses = d.SizeBytes, d.StrideElements, d.PageIntervalBytes, d.OversubPct, d.ReusePasses
		if d.Group == "oversub" {
			r.SizeBytes = 0 // the percentage names it
		}
		f := []string{d.Group + " " + check.Label(r), sig3(d.TotalMs)}
		for _, i := range shown {
			v := "-"
			if ms := decompTerms[i].ms(d); !math.IsNaN(ms) && d.TotalMs > 0 {
				v = strconv.FormatFloat(100*ms/d.TotalMs, 'f', 0, 64)
				if v == "-0" {
					v = "0"
				}
				if slices.Contains(d.Measured, decompTerms[i].term) {
					v += "*"
					starred = true
				}
			}
			f = append(f, v)
		}
		t.rows = append(t.rows, f)
	}
	lines, _ := t.fit(maxColumns)
	for _, l := range lines {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return err
		}
	}
	fmt.Fprint(w, "terms in % of total_ms: comp(ute), access to hbm and cpu memory, fault, migr(ation), evict(ion), sync, resid(ual)")
	if starred {
		fmt.Fprint(w, "\n* measured (a prefetch, copy or handoff part timed on its own); the others are inferred")
	}
	fmt.Fprintln(w)
	if len(zero) > 0 {
		fmt.Fprintf(w, "zero in every row: %s; --wide shows every term in ms and the dominant one\n", strings.Join(zero, ", "))
	} else {
		fmt.Fprintln(w, "--wide shows every term in ms and the dominant one")
	}
	return nil
}

// sig3 writes a time to three significant digits, "-" for NaN: 19.4,
// 0.00241, 1230; below 0.001 in short scientific notation, 1.37e-7.
func sig3(v float64) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case v == 0:
		return "0"
	case math.Abs(v) >= 1000:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case math.Abs(v) < 0.001:
		return shortExp(v)
	}
	d := max(2-int(math.Floor(math.Log10(math.Abs(v)))), 0)
	return strconv.FormatFloat(v, 'f', d, 64)
}
