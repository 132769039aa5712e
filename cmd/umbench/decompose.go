package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

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
		fmt.Fprintf(w, "caveat (%s): %s\n", name, strings.Join(strings.Fields(c), " "))
	}
}

func cmdCounters(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("counters", stderr)
	dataset := fs.String("dataset", "", "an embedded dataset with counter passes, e.g. h200-2026-11-29-counters")
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
	cols := []string{results.ColGroup, results.ColBenchmark, results.ColMode, results.ColPattern, results.ColSizeBytes,
		results.ColStrideElements, results.ColPageIntervalBytes, results.ColOversubPct, results.ColMedianGBps,
		umkit.ColCountersCollected, umkit.ColUMHtoDBytes, umkit.ColUMDtoHBytes, umkit.ColGPUFaultGroups, umkit.ColCPUPageFaults,
		umkit.ColMigratedPerUseful, umkit.ColPCIeRXBytes, umkit.ColPCIeTXBytes}
	return writeTable(stdout, df.Select(cols))
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
