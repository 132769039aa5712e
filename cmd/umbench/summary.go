package main

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/umlab/umlab/check"
	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/internal/sanitize"
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/stats"
)

// screenRows is how many configurations a default summary shows at most
// (one screen); --all shows every one.
const screenRows = 40

type summaryFlags struct {
	data                *dataFlags
	format, group, mode string
	wide, all           bool
}

func newSummaryCmd() *cobra.Command {
	f := &summaryFlags{}
	c := &cobra.Command{
		Use:   "summary [DIR | --dataset NAME]",
		Short: "medians with 95 % intervals, spread and quality flags of a run or dataset",
		Long: "Summarises a results directory or an embedded dataset: each configuration's median bandwidth\n" +
			"with its 95 % bootstrap interval, spread and quality flags, explained below the table. By default\n" +
			"one screen: each group's headline configurations; --all or --group shows every one.",
		Args: maxArgs(1),
	}
	f.data = addData(c, false)
	addFormat(c, &f.format, "table", "csv")
	c.Flags().StringVar(&f.group, "group", "", "only this `GROUP`, every configuration of it")
	c.Flags().BoolVar(&f.all, "all", false, "every configuration, and where each group's time went")
	c.Flags().BoolVar(&f.wide, "wide", false, "table: every configuration column, GPU UUIDs, kernel and total times, interval bounds")
	c.Flags().StringVar(&f.mode, "fleet", "", "fleet data: only rows of this fleet `MODE` (isolated or concurrent)")
	c.RunE = f.run
	return c
}

func (f *summaryFlags) run(c *cobra.Command, args []string) error {
	sums, rows, meta, err := fleetSummary(f.data, args, f.group, c.ErrOrStderr())
	if sums == nil && err == nil {
		var src datasets.Source
		src, err = f.data.one(args)
		rows, meta = src.Rows, src.Meta
	}
	if err != nil {
		return err
	}
	if f.group != "" {
		if rows = results.OfGroup(rows, f.group); len(rows) == 0 {
			return fmt.Errorf("no rows of group %q", f.group)
		}
		meta.GroupTimes = results.GroupTimesOf(meta.GroupTimes, f.group)
		meta.Unverified = unverifiedOf(meta.Unverified, func(r results.Row) bool { return r.Group == f.group })
	}
	tc, opts := newTrialCounts(meta), meta.Device.SummaryOptions()
	modes, byMode := splitFleetModes(rows)
	summarize := func(m string) []results.SummaryRow {
		sum := sums[m] // a fleet's, finished with each part's own device
		if sums == nil {
			sum = results.Summarize(byMode[m], opts)
		}
		tc.flag(sum)
		return sum
	}
	if f.mode != "" {
		if byMode[f.mode] == nil {
			return usagef("--fleet %q: this data has %s", f.mode, describeModes(modes))
		}
		modes = []string{f.mode}
	}
	w, table := c.OutOrStdout(), f.format == "table"
	if !table && len(modes) > 1 {
		return usagef("the data mixes fleet runs (%s), which are never pooled: choose one with --fleet", describeModes(modes))
	}
	announce(c, rows, table, meta.Unverified)
	if !table {
		return model.WriteFrameCSV(w, results.SummaryFrame(summarize(modes[0])))
	}
	writeRunHeader(w, meta, f.all)
	for i, m := range modes {
		if len(modes) > 1 {
			fmt.Fprintf(w, "%sfleet=%s\n", map[bool]string{true: "\n"}[i > 0], m)
		}
		if err := f.writeMode(w, results.ReadingOrder(summarize(m)), byMode[m], opts, tc); err != nil {
			return err
		}
	}
	return nil
}

// writeMode prints one fleet mode's table: every configuration with --all,
// --group or --wide, else one screen of headlines; then the flags' legend.
func (f *summaryFlags) writeMode(w io.Writer, sum []results.SummaryRow, rows []results.Row, o results.SummaryOptions, tc trialCounts) error {
	if f.wide {
		cols := []string{results.ColGroup, results.ColBenchmark, results.ColMode, results.ColPattern, results.ColPolicy,
			results.ColPhase, results.ColDirection, results.ColSizeBytes, results.ColStrideElements, results.ColPageIntervalBytes,
			results.ColOversubPct, results.ColReusePasses, results.ColGPUUUID, results.ColN, results.ColMedianGBps, results.ColMedianGBpsLo,
			results.ColMedianGBpsHi, results.ColCVPct, results.ColMedianKernelMs, results.ColMedianTotalMs, results.ColMedianTotalMsLo,
			results.ColMedianTotalMsHi, results.ColPctOfPeak, results.ColFlags}
		return writeTable(w, results.SummaryFrame(sum).Select(cols))
	}
	shown := sum
	if !f.all && f.group == "" && len(sum) > screenRows {
		shown = results.Headlines(sum, 3)
	}
	if err := writeSummary(w, shown, rows, tc); err != nil {
		return err
	}
	var notes []string
	if len(shown) < len(sum) {
		notes = append(notes, fmt.Sprintf("%d of %d configurations shown: each group's largest size, highest and lowest median; "+
			"--all shows every one, --group GROUP one group", len(shown), len(sum)))
	}
	if legend := append(results.FlagLegend(shown, o), tc.legend(shown)...); len(legend) > 0 {
		notes = append(notes, "flags:")
		for _, l := range legend {
			notes = append(notes, "  "+l)
		}
	}
	for _, n := range notes {
		fmt.Fprintln(w, wrap(n, results.TableWidth, "    "))
	}
	return nil
}

// writeRunHeader names the device, driver and run, and where the time went.
func writeRunHeader(w io.Writer, meta results.Metadata, parts bool) {
	if meta.Device.Name == "" {
		return
	}
	t := sanitize.Terminal // a line break in meta.json must not forge a line
	fmt.Fprintf(w, "%s, %s", t(meta.Device.Name), t(meta.Platform))
	if meta.Device.DriverVersion != "" {
		fmt.Fprintf(w, ", driver %s", t(meta.Device.DriverVersion))
	}
	if meta.RunID != "" {
		fmt.Fprintf(w, ", run %s", t(meta.RunID))
	}
	fmt.Fprintln(w)
	printGroupTimes(w, meta.GroupTimes, parts)
}

// splitFleetModes splits rows by their fleet mode (results.FleetMode; "" outside
// fleet runs), in order of first appearance, so that isolated and
// concurrent measurements are never summarised together.
func splitFleetModes(rows []results.Row) ([]string, map[string][]results.Row) {
	var modes []string
	by := map[string][]results.Row{}
	for _, r := range rows {
		m, _ := results.FleetMode(r.Note)
		if _, ok := by[m]; !ok {
			modes = append(modes, m)
		}
		by[m] = append(by[m], r)
	}
	return modes, by
}

func describeModes(modes []string) string {
	var d []string
	for _, m := range modes {
		d = append(d, cmp.Or(m, "rows outside fleet runs"))
	}
	return strings.Join(d, ", ")
}

// when is s, or nothing unless ok.
func when(ok bool, s ...string) []string {
	if ok {
		return s
	}
	return nil
}

// writeSummary prints a summary table within 120 columns: a label, gpu
// and host columns only for rows of several, the median bandwidth with its
// 95 % interval; kernel_ms, then cv_pct, left out where too wide.
func writeSummary(w io.Writer, sum []results.SummaryRow, rows []results.Row, tc trialCounts) error {
	gpus, hosts, hostOf := map[string]bool{}, map[string]bool{}, map[string]string{}
	for _, r := range rows {
		gpus[r.GPUUUID], hosts[r.Host], hostOf[r.GPUUUID] = true, true, r.Host
	}
	showGPU, showHost := len(gpus) > 1, len(hosts) > 1
	t := textTable{head: []string{"group", "configuration"}, cut: 1}
	t.head = append(t.head, when(showHost, "host")...)
	t.head = append(t.head, when(showGPU, "gpu")...)
	n := len(t.head)
	t.head = append(t.head, "n", "median_gbps [95% CI]", "cv_pct", "kernel_ms", "%peak", "flags")
	t.optional = []int{n + 3, n + 2}
	for _, s := range sum {
		c := s.Config
		f := []string{c.Group, strings.TrimPrefix(check.Label(c), c.Group+" ")}
		f = append(f, when(showHost, results.CutRunes(hostOf[c.GPUUUID], 10))...)
		f = append(f, when(showGPU, results.ShortGPU(c.GPUUUID))...)
		ci := s.GBpsCI
		if s.N < 2 {
			ci = stats.NaN()
		}
		f = append(f, tc.n(s), withCI(s.GBps.Median, ci), fixed(s.GBps.CVPct, "%.2f"), results.Sig4(s.KernelMs), fixed(s.PctOfPeak, "%.1f"),
			strings.Join(s.Flags, ","))
		t.rows = append(t.rows, f)
	}
	dropped, err := t.write(w, results.TableWidth)
	if err == nil && len(dropped) > 0 {
		fmt.Fprintf(w, "(%s left out to fit %d columns: --wide shows every column)\n", strings.Join(dropped, " and "), results.TableWidth)
	}
	return err
}
