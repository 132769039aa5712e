package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/umlab/umlab/check"
	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

type compareFlags struct {
	data                  *dataFlags
	format, metric, group string
	tol, maxZ, floor, fdr float64
	only, fail, wide      bool
	strict                bool
}

func newCompareCmd() *cobra.Command {
	f := &compareFlags{}
	c := &cobra.Command{
		Use:   "compare [DIR... | --dataset NAME[,NAME]]",
		Short: "each GPU's medians against the fleet median, outliers flagged",
		Long: "Compares each GPU's median with the median of every GPU that measured the same configuration\n" +
			"(a fleet run's root, node or GPU directories, a merged directory, or embedded datasets).",
	}
	f.data = addData(c, true)
	fs := c.Flags()
	addFormat(c, &f.format, "table", "csv")
	fs.Float64Var(&f.tol, "tolerance", 5, "flag a GPU more than this many percent from the fleet median (negative: off)")
	fs.Float64Var(&f.maxZ, "max-z", 3.5, "flag a GPU whose robust z-score (median absolute deviation) exceeds this (negative: off)")
	fs.Float64Var(&f.floor, "mad-floor", 0.5, "smallest spread the robust z-score divides by, in percent of the fleet median")
	fs.Float64Var(&f.fdr, "fdr", 0.05, "false-discovery rate at which differences beyond the variation are claimed, per class (0 < fdr < 1)")
	fs.StringVar(&f.metric, "metric", "", "column to compare: "+strings.Join(fleet.Metrics, ", ")+" (default gbps where measured, else total_ms)")
	fs.StringVar(&f.group, "group", "", "only this `GROUP`")
	fs.BoolVar(&f.only, "outliers", false, "show only flagged GPUs")
	fs.BoolVar(&f.fail, "fail-on-outliers", false, "exit with status 1 when a GPU is flagged in its own resources (memory, launch, link)")
	fs.BoolVar(&f.strict, "strict", false, "with --fail-on-outliers: the host's resources too (pageable memory, faults, CPU)")
	fs.BoolVar(&f.wide, "wide", false, "table: add each GPU's full UUID (lines may pass 120 columns)")
	c.RunE = f.run
	return c
}

func (f *compareFlags) run(c *cobra.Command, args []string) error {
	if err := finite(map[string]float64{"tolerance": f.tol, "max-z": f.maxZ, "mad-floor": f.floor, "fdr": f.fdr}); err != nil {
		return err
	}
	if f.fdr <= 0 || f.fdr >= 1 {
		return usagef("--fdr %g: want a rate between 0 and 1, e.g. 0.05", f.fdr)
	}
	if f.floor < 0 {
		return usagef("--mad-floor must not be negative")
	}
	refs, err := f.data.refs(args)
	if err != nil {
		return err
	}
	parts, err := loadParts(c, refs, nil, f.format == "table")
	if err != nil {
		return err
	}
	sayUnverified(c, f.format == "table", "", screenParts(parts)...)
	if err := keepGroup(parts, f.group); err != nil {
		return err
	}
	// Zero means "off" to fleet.CompareOptions but literally zero here.
	nz := func(v float64) float64 {
		if v == 0 {
			return math.SmallestNonzeroFloat64
		}
		return v
	}
	o := fleet.CompareOptions{TolerancePct: nz(f.tol), MaxZ: nz(f.maxZ), MADFloorPct: nz(f.floor), Metric: f.metric, FDR: f.fdr,
		Spread: func(r results.Row) float64 { return check.PriorFor(r.Platform).NodeSpread(r) }}
	cmp, err := fleet.Compare(parts, o)
	if err != nil {
		return usageError{err.Error()}
	}
	if len(cmp) == 0 {
		return fmt.Errorf("nothing to compare: %d part(s) and no configuration measured on two or more GPUs", len(parts))
	}
	return f.write(c.OutOrStdout(), parts, cmp, o)
}

// write prints the comparison (flagged GPUs only with --outliers) and
// fails with --fail-on-outliers when any GPU is flagged.
func (f *compareFlags) write(w io.Writer, parts []fleet.Part, cmp []fleet.Comparison, o fleet.CompareOptions) error {
	var flagged []fleet.Comparison
	failing := 0
	for _, c := range cmp {
		if c.Outlier {
			flagged = append(flagged, c)
			if c.Class == results.ClassGPU || f.strict {
				failing++
			}
		}
	}
	shown := cmp
	if f.only {
		shown = flagged
	}
	if f.format == "csv" {
		if err := model.WriteFrameCSV(w, fleet.Frame(shown)); err != nil {
			return err
		}
	} else {
		writeProblems(w, fleet.Check(parts))
		writeComparison(w, shown, f.wide)
		writePerGPU(w, cmp, o, f.wide)
	}
	if f.fail && failing > 0 {
		return fmt.Errorf("%d GPU median(s) flagged as outliers", failing)
	}
	return nil
}

// finite checks numeric flags: NaN and ±Inf are never allowed.
func finite(vals map[string]float64) error {
	for name, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return usagef("--%s %v: want a finite number", name, v)
		}
	}
	return nil
}

// writeComparison prints one block per configuration.
func writeComparison(w io.Writer, cmp []fleet.Comparison, wide bool) {
	for i := 0; i < len(cmp); {
		j := i
		for j < len(cmp) && sameConfig(cmp[j], cmp[i]) {
			j++
		}
		c := cmp[i]
		head := fmt.Sprintf("%s · %s · %s — %s (%s), fleet median %.4g over %d GPUs (MAD %.2f %%)",
			c.Label, c.Platform, c.Mode, c.Metric, c.Resource, c.FleetMedian, c.FleetN, c.MADPct)
		if !wide && len([]rune(head)) > 120 {
			head = strings.Replace(head, " — ", "\n  ", 1)
		}
		fmt.Fprintln(w, head)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "  host\tgpu\t"+uuidCell(wide, "gpu_uuid")+"n\tmedian\tcv_pct\tdev_pct\ttol_pct\trobust_z\tflags\t")
		for _, x := range cmp[i:j] {
			fmt.Fprintf(tw, "  %s\t%s\t%s%d\t%.4g\t%s\t%s\t%s\t%+.2f\t%s\t\n", orUnknown(x.Host), x.GPU, uuidCell(wide, x.UUID), x.N,
				x.Median, fixed(x.CVPct, "%.2f"), fixed(x.DevPct, "%+.2f"), fixed(x.TolPct, "±%.1f"), x.RobustZ, strings.Join(x.Flags, ","))
		}
		tw.Flush()
		fmt.Fprintln(w)
		i = j
	}
}

// priorSources names the calibrations the comparisons' variation came from.
func priorSources(cmp []fleet.Comparison) string {
	var out []string
	seen := map[string]bool{}
	for _, c := range cmp {
		if !seen[c.Platform] {
			seen[c.Platform] = true
			p := check.PriorFor(c.Platform)
			s := "calibrated on " + p.GPU
			if p.Configs == nil {
				s = p.GPU + "'s per-resource spreads: " + c.Platform + " has no calibration"
			}
			out = append(out, c.Platform+": "+s)
		}
	}
	return strings.Join(out, "; ")
}

// uuidCell is a GPU UUID's cell of a tab-separated line with --wide, else nothing.
func uuidCell(wide bool, uuid string) string {
	if !wide {
		return ""
	}
	return orUnknown(uuid) + "\t"
}

func sameConfig(a, b fleet.Comparison) bool {
	return a.Label == b.Label && a.Platform == b.Platform && a.Mode == b.Mode && a.FleetMedian == b.FleetMedian && a.Metric == b.Metric
}

func fixed(v float64, f string) string {
	if math.IsNaN(v) {
		return ""
	}
	return fmt.Sprintf(f, v)
}

func writePerGPU(w io.Writer, cmp []fleet.Comparison, o fleet.CompareOptions, wide bool) {
	sum := fleet.PerGPU(cmp)
	fmt.Fprintln(w, "per GPU (median deviation: positive is better, whatever the metric):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "  part\t"+uuidCell(wide, "gpu_uuid")+"configurations\toutliers\tgpu\thost\tslow\tfast\tmedian_dev_pct\t")
	flagged := 0
	for _, s := range sum {
		fmt.Fprintf(tw, "  %s\t%s%d\t%d\t%d\t%d\t%d\t%d\t%s\t\n", s.Part, uuidCell(wide, s.UUID), s.Configurations,
			s.Outliers, s.GPUOutliers, s.HostOutliers, s.Slow, s.Fast, fixed(s.MedianDevPct, "%+.2f"))
		if s.Outliers > 0 {
			flagged++
		}
	}
	tw.Flush()
	crit := []string{}
	if o.TolerancePct > 0 {
		crit = append(crit, fmt.Sprintf("beyond ±%g %% of the fleet median", o.TolerancePct))
	}
	if o.MaxZ > 0 {
		crit = append(crit, fmt.Sprintf("|robust z| > %g", o.MaxZ))
	}
	fmt.Fprintf(w, "%d of %d GPUs flagged (%s)\n", flagged, len(sum), strings.Join(crit, " or "))
	fmt.Fprintf(w, "a difference counts only beyond the variation of healthy GPUs (tol_pct; %s),\n"+
		"claimed at a %g %% false-discovery rate over each class (gpu: memory, launch, link; host: pageable, faults, CPU)\n",
		priorSources(cmp), 100*o.FDR)
}
