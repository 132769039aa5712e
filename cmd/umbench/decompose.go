package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/umlab/umlab/check"
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

func newDecomposeCmd() *cobra.Command {
	var format string
	var wide bool
	c := &cobra.Command{
		Use:   "decompose [DIR | --dataset NAME]",
		Short: "split measured times into compute, access, fault, migration, eviction and sync",
		Long: "Splits each configuration's median time into the terms of paper Section VIII-A: compute,\n" +
			"access to HBM and CPU memory, fault, migration, eviction, sync and the residual; migration from\n" +
			"counter passes where the run has them.",
		Args: maxArgs(1),
	}
	data := addData(c, false)
	addFormat(c, &format, "table", "csv")
	c.Flags().BoolVar(&wide, "wide", false, "table: every term in ms and the dominant one")
	c.RunE = func(c *cobra.Command, args []string) error {
		src, err := data.one(args)
		if err != nil {
			return err
		}
		counters, err := src.Counters()
		if err != nil {
			return err
		}
		counted := model.Collected(counters)
		ds, err := model.DecomposeCounted(src.Rows, counted)
		if err != nil {
			return fmt.Errorf("%s: %w", src.Name, err)
		}
		announce(c, src.Rows, format == "table", src.Meta.Unverified)
		if format == "csv" {
			return model.WriteFrameCSV(c.OutOrStdout(), model.DecompositionFrame(ds))
		}
		w, done := fitted(c.OutOrStdout(), wide)
		defer done()
		fmt.Fprintf(w, "== %s: time split into the terms of paper Section VIII-A (medians, ms)", src.Name)
		if len(counted) > 0 {
			fmt.Fprintf(w, "; migration from %d counter passes where present", len(counted))
		}
		fmt.Fprintln(w)
		if wide {
			return model.WriteDecomposition(w, ds)
		}
		return writeDecompositionCompact(w, ds)
	}
	return c
}

// decompHeads head the compact table's terms, in model.TermNames' order.
var decompHeads = []string{"comp", "hbm", "cpu", "fault", "migr", "evict", "sync", "resid"}

// writeDecompositionCompact prints the default decomposition table within
// 120 columns: a label, the total ms and each term in % of it (* for a
// measured term), no column for a term zero in every row.
func writeDecompositionCompact(w io.Writer, ds []model.Decomposition) error {
	t := textTable{head: []string{"configuration", "total_ms"}, cut: 0}
	var shown []int
	var zero []string
	for i, head := range decompHeads {
		if slices.ContainsFunc(ds, func(d model.Decomposition) bool { v := d.Terms()[i]; return v != 0 && !math.IsNaN(v) }) {
			shown = append(shown, i)
			t.head = append(t.head, head+"%")
		} else {
			zero = append(zero, model.TermNames[i])
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
		terms := d.Terms()
		for _, i := range shown {
			v := "-"
			if ms := terms[i]; !math.IsNaN(ms) && d.TotalMs > 0 {
				v = strconv.FormatFloat(100*ms/d.TotalMs, 'f', 0, 64)
				if v == "-0" {
					v = "0"
				}
				if slices.Contains(d.Measured, model.TermNames[i]) {
					v += "*"
					starred = true
				}
			}
			f = append(f, v)
		}
		t.rows = append(t.rows, f)
	}
	if _, err := t.write(w, results.TableWidth); err != nil {
		return err
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
