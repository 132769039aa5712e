package main

import (
	"fmt"
	"io"

	"github.com/go-gota/gota/dataframe"
	"github.com/spf13/cobra"

	"github.com/umlab/umlab/check"
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

func newCountersCmd() *cobra.Command {
	var format string
	var wide bool
	c := &cobra.Command{
		Use:   "counters [DIR | --dataset NAME]",
		Short: "a --counters run's migrated bytes, page faults and PCIe bytes beside its medians",
		Args:  maxArgs(1),
	}
	data := addData(c, false)
	addFormat(c, &format, "table", "csv")
	c.Flags().BoolVar(&wide, "wide", false, "table: every configuration column, counters_collected and pcie_tx_bytes")
	c.RunE = func(c *cobra.Command, args []string) error {
		src, err := data.one(args)
		if err != nil {
			return err
		}
		counted, err := src.Counters()
		if err != nil {
			return err
		}
		if len(counted) == 0 {
			return fmt.Errorf("%s has no counter passes: measure with umbench run --counters", src.Name)
		}
		sum := results.Summarize(src.Rows, src.Meta.Device.SummaryOptions())
		df, err := results.JoinCounters(sum, counted) // row i is sum[i]
		if err != nil {
			return err
		}
		w, table := c.OutOrStdout(), format == "table"
		announce(c, src.Rows, table)
		if !table {
			return model.WriteFrameCSV(w, df)
		}
		if wide {
			cols := []string{results.ColGroup, results.ColBenchmark, results.ColMode, results.ColPattern, results.ColSizeBytes,
				results.ColStrideElements, results.ColPageIntervalBytes, results.ColOversubPct, results.ColMedianGBps,
				results.ColCountersCollected, results.ColUMHtoDBytes, results.ColUMDtoHBytes, results.ColGPUFaultGroups, results.ColCPUPageFaults,
				results.ColMigratedPerUseful, results.ColPCIeRXBytes, results.ColPCIeTXBytes}
			return writeTable(w, df.Select(cols))
		}
		return writeCountersCompact(w, df, sum)
	}
	return c
}

// writeCountersCompact prints the default counters table.
func writeCountersCompact(w io.Writer, df dataframe.DataFrame, sum []results.SummaryRow) error {
	if df.Err != nil {
		return df.Err
	}
	cols := []struct{ name, head string }{
		{results.ColMedianGBps, "GB/s"}, {results.ColUMHtoDBytes, "htod"}, {results.ColUMDtoHBytes, "dtoh"},
		{results.ColGPUFaultGroups, "gpu_faults"}, {results.ColCPUPageFaults, "cpu_faults"},
		{results.ColMigratedPerUseful, "migr/useful"}, {results.ColPCIeRXBytes, "pcie_rx"},
	}
	t := textTable{head: []string{"configuration"}, cut: -1}
	for _, c := range cols {
		t.head = append(t.head, c.head)
	}
	collected := df.Col(results.ColCountersCollected)
	uncounted := 0
	for i := 0; i < df.Nrow(); i++ {
		counted := collected.Elem(i).String() == "true"
		f := []string{results.CutRunes(check.Label(sum[i].Config), 40)}
		for k, c := range cols {
			cell := results.TableCell(df.Col(c.name), i, c.name)
			if k > 0 && !counted {
				cell = "-"
			}
			f = append(f, cell)
		}
		if !counted {
			uncounted++
		}
		t.rows = append(t.rows, f)
	}
	t.write(w, results.TableWidth)
	if uncounted > 0 {
		fmt.Fprintf(w, "(-: %d configurations without a counter pass: waived, or not counted)\n", uncounted)
	}
	return nil
}
