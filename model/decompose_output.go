package model

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/go-gota/gota/dataframe"

	"github.com/umlab/umlab/results"
)

// DecompositionFrame returns decompositions as a DataFrame: the
// configuration columns of the results schema (group, benchmark, mode,
// pattern, policy, size_bytes, stride_elements, page_interval_bytes,
// oversub_pct, reuse_passes, useful_bytes, total_ms), then the reference
// bandwidths used (hbm_gbps, cpu_gbps), compute_ms, access_hbm_ms,
// access_cpu_ms, access_ms, fault_ms, migration_ms, eviction_ms, sync_ms,
// residual_ms, what a counter pass counted (counted_htod_bytes,
// counted_gpu_fault_groups), dominant, note and measured_terms (the terms
// taken from a measured time; the others are inferred).
func DecompositionFrame(ds []Decomposition) dataframe.DataFrame {
	type D = Decomposition
	str := func(name string, f func(*D) string) results.Field[D] { return results.StringField(name, f) }
	integer := func(name string, f func(*D) int64) results.Field[D] { return results.IntField(name, f) }
	float := func(name string, f func(*D) float64) results.Field[D] { return results.FloatField(name, f) }
	return results.Build(ds,
		str(results.ColGroup, func(d *D) string { return d.Group }),
		str(results.ColBenchmark, func(d *D) string { return d.Benchmark }),
		str(results.ColMode, func(d *D) string { return d.Mode }),
		str(results.ColPattern, func(d *D) string { return d.Pattern }),
		str(results.ColPolicy, func(d *D) string { return d.Policy }),
		integer(results.ColSizeBytes, func(d *D) int64 { return d.SizeBytes }),
		integer(results.ColStrideElements, func(d *D) int64 { return d.StrideElements }),
		integer(results.ColPageIntervalBytes, func(d *D) int64 { return d.PageIntervalBytes }),
		float(results.ColOversubPct, func(d *D) float64 { return d.OversubPct }),
		integer(results.ColReusePasses, func(d *D) int64 { return d.ReusePasses }),
		integer(results.ColUsefulBytes, func(d *D) int64 { return d.UsefulBytes }),
		float(results.ColTotalMs, func(d *D) float64 { return d.TotalMs }),
		float("hbm_gbps", func(d *D) float64 { return d.HBMGBps }),
		float("cpu_gbps", func(d *D) float64 { return d.CPUGBps }),
		float("compute_ms", func(d *D) float64 { return d.ComputeMs }),
		float("access_hbm_ms", func(d *D) float64 { return d.AccessHBMMs }),
		float("access_cpu_ms", func(d *D) float64 { return d.AccessCPUMs }),
		float("access_ms", func(d *D) float64 { return d.AccessMs() }),
		float("fault_ms", func(d *D) float64 { return d.FaultMs }),
		float("migration_ms", func(d *D) float64 { return d.MigrationMs }),
		float("eviction_ms", func(d *D) float64 { return d.EvictionMs }),
		float("sync_ms", func(d *D) float64 { return d.SyncMs }),
		float("residual_ms", func(d *D) float64 { return d.ResidualMs }),
		float("counted_htod_bytes", func(d *D) float64 { return d.CountedHtoDBytes }),
		float("counted_gpu_fault_groups", func(d *D) float64 { return d.CountedGPUFaultGroups }),
		str("dominant", func(d *D) string { return d.Dominant }),
		str(results.ColNote, func(d *D) string { return strings.Join(d.Notes, "; ") }),
		str("measured_terms", func(d *D) string { return strings.Join(d.Measured, ";") }),
	)
}

// WriteDecomposition writes decompositions as a plain-text table, one
// configuration a line, times in ms ("-" for NaN).
func WriteDecomposition(w io.Writer, ds []Decomposition) error {
	ew := &errWriter{w: w}
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "configuration\ttotal\tcompute\taccess HBM\taccess CPU\tfault\tmigration\teviction\tsync\tresidual\tdominant")
	ms := func(x float64) string {
		if math.IsNaN(x) {
			return "-"
		}
		return fmt.Sprintf("%.4g", x)
	}
	for _, d := range ds {
		fmt.Fprintf(tw, "%s\t", d.Label())
		for _, t := range append([]float64{d.TotalMs}, append(d.terms(), d.ResidualMs)...) {
			fmt.Fprintf(tw, "%s\t", ms(t))
		}
		fmt.Fprintf(tw, "%s\n", d.Dominant)
	}
	tw.Flush()
	return ew.err
}
