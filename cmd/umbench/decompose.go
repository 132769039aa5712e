package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/go-gota/gota/dataframe"

	"github.com/umlab/umlab/check"
	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
)

// counterSource loads the counter passes of what source loaded: the
// counters.csv of a results directory or of an embedded dataset. A run
// without --counters gives (nil, nil).
func counterSource(data, dataset string, args []string) ([]umkit.CounterRow, error) {
	name := data
	switch {
	case name == "" && dataset != "":
		name = dataset
	case name == "" && len(args) == 1:
		name = args[0]
	}
	if st, err := os.Stat(name); err == nil && st.IsDir() {
		rows, err := umkit.LoadCounters(name)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return rows, err
	}
	r, err := datasets.CountersCSV(name)
	if err != nil {
		return nil, nil // the dataset has no counter passes (or is unknown: source has said so)
	}
	return umkit.ReadCounterCSV(r, name+"/"+umkit.CountersName)
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
	df, err := umkit.JoinCounters(sum, counted)
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
			umkit.ColCountersCollected, umkit.ColUMHtoDBytes, umkit.ColUMDtoHBytes, umkit.ColGPUFaultGroups, umkit.ColCPUPageFaults,
			umkit.ColMigratedPerUseful, umkit.ColPCIeRXBytes, umkit.ColPCIeTXBytes}
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
		{results.ColMedianGBps, "GB/s"}, {umkit.ColUMHtoDBytes, "htod"}, {umkit.ColUMDtoHBytes, "dtoh"},
		{umkit.ColGPUFaultGroups, "gpu_faults"}, {umkit.ColCPUPageFaults, "cpu_faults"},
		{umkit.ColMigratedPerUseful, "migr/useful"}, {umkit.ColPCIeRXBytes, "pcie_rx"},
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	head := []string{"configuration"}
	for _, c := range cols {
		head = append(head, c.head)
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	collected := df.Col(umkit.ColCountersCollected)
	for i := 0; i < df.Nrow(); i++ {
		f := []string{cutRunes(check.Label(rows[i]), 46)}
		for _, c := range cols {
			f = append(f, cell(df.Col(c.name), i, c.name))
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
			counted = append(counted, model.Counted{Config: c.Config, HtoDBytes: c.HtoDBytes, GPUFaultGroups: c.GPUFaultGroups})
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
	caveats(stdout, name)
	fmt.Fprintf(stdout, "== %s: time split into the terms of paper Section VIII-A (medians, ms)", name)
	if len(counted) > 0 {
		fmt.Fprintf(stdout, "; migration from %d counter passes where present", len(counted))
	}
	fmt.Fprintln(stdout)
	return model.WriteDecomposition(stdout, ds)
}
