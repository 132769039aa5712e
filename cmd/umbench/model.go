package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// modelTerms opens umbench model's table: what its letters mean.
const modelTerms = `The reuse model T = F + R·G: R GPU passes follow each CPU update, G is one pass's time with the
data in place and F each handoff's fixed cost (moving or mapping what the CPU wrote). APE is a
prediction's absolute percentage error; R* is the R at which two policies cost the same.`

type modelFlags struct {
	data                         *dataFlags
	format, minSize, countersArg string
	withoutCPU, wide, points     bool
}

func newModelCmd() *cobra.Command {
	f := &modelFlags{}
	c := &cobra.Command{
		Use:   "model [DIR | --dataset NAME]",
		Short: "calibrate and validate the reuse model T = F + R·G on handoff data",
		Long:  modelTerms,
		Args:  maxArgs(1),
	}
	f.data = addData(c, false)
	fs := c.Flags()
	addFormat(c, &f.format, "table", "csv")
	fs.StringVar(&f.minSize, "min-size", "16MiB", "smallest `SIZE` counted in the aggregate error and policy matches")
	fs.BoolVar(&f.withoutCPU, "without-cpu", false, "diagnostic: take each alternating trial's median CPU-only time of the same "+
		"policy, size and repetition out before fitting (shows whether misses come from the CPU update's drift)")
	fs.BoolVar(&f.wide, "wide", false, "table: lines as long as they come (by default prose is broken at 120 columns)")
	fs.BoolVar(&f.points, "points", false, "table: also each validation point: measured median with its 95% interval, prediction, error")
	fs.StringVar(&f.countersArg, "counters", "", "counter passes of other handoff runs of the same machine (`NAMES` or DIRs, "+
		"comma-separated; the later wins), quoted where F depends on R or a policy misses by more than 2 %")
	c.RunE = f.run
	return c
}

func (f *modelFlags) run(c *cobra.Command, args []string) error {
	ms, err := results.ParseBytes(f.minSize)
	if err != nil {
		return usagef("--min-size: %v", err)
	}
	src, err := f.data.one(args)
	if err != nil {
		return err
	}
	opts := model.Options{MinSizeBytes: ms}
	if cs, err := src.Counters(); err == nil {
		opts.Counted = model.Collected(cs)
	}
	if f.countersArg != "" {
		more, err := countersOf(f.countersArg, src.Rows)
		if err != nil {
			return err
		}
		opts.Counted = append(opts.Counted, more...)
	}
	reports, titles, published, err := f.reports(c.ErrOrStderr(), src, opts)
	if err != nil {
		return err
	}
	announce(c, src.Rows, f.format == "table", src.Meta.Unverified)
	if f.format == "csv" {
		// One CSV table: a dataset's published parameters when it has them
		// (Table III for paper-gb200), else the calibration from measurements.
		return reports[0].WriteCSV(c.OutOrStdout())
	}
	w, done := fitted(c.OutOrStdout(), f.wide)
	defer done()
	fmt.Fprint(w, modelTerms+"\n\n")
	for i, r := range reports {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, "== "+titles[i])
		if err := r.WriteTable(w); err != nil {
			return err
		}
		if f.points {
			writePoints(w, r.Points)
		}
		if i == 0 && len(published) > 0 {
			writePublishedErrors(w, published)
		}
	}
	return nil
}

// reports are the model's reports on src: from the published parameters
// where the dataset has them, and calibrated on its measurements.
func (f *modelFlags) reports(stderr io.Writer, src datasets.Source, opts model.Options) ([]*model.Report, []string, []model.Calibration, error) {
	var reports []*model.Report
	var titles []string
	published, _ := datasets.ModelParameters(src.Name)
	if len(published) > 0 {
		rep, err := model.FromParams(model.Params(published), opts)
		if err != nil {
			return nil, nil, nil, err
		}
		reports, titles = append(reports, rep), append(titles, "Published model parameters ("+published[0].Source+")")
	}
	name, rows := src.Name, model.HandoffPhases(src.Rows)
	if f.withoutCPU {
		rows = model.WithoutCPU(rows)
		name += ", CPU-update time taken out (diagnostic)"
	}
	rep, err := model.Fit(rows, opts)
	switch {
	case err == nil:
		reports, titles = append(reports, rep), append(titles, "Calibrated on "+name+" (G from GPU-only, F from R = 1; validated on R > 1)")
	case len(reports) == 0:
		return nil, nil, nil, err
	default:
		fmt.Fprintf(stderr, "umbench: not recalibrating from %s: %v\n", name, err)
	}
	return reports, titles, published, nil
}

func writePublishedErrors(w io.Writer, published []model.Calibration) {
	fmt.Fprintln(w, "\nPublished validation errors over R = 2, 4, 8, 16, 32")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "policy\tsize\tmedian APE (%)\tmax APE (%)")
	for _, p := range published {
		fmt.Fprintf(tw, "%s\t%s\t%.2f\t%.2f\n", p.Policy, results.FormatBytes(p.SizeBytes), p.MedianAPE, p.MaxAPE)
	}
	tw.Flush()
}

// countersOf loads the collected counter passes of --counters' runs, which
// must come from the rows' platform; where two hold a configuration, the
// later named is quoted.
func countersOf(names string, rows []results.Row) ([]model.Counted, error) {
	platform := ""
	if i := slices.IndexFunc(rows, func(r results.Row) bool { return r.Platform != "" }); i >= 0 {
		platform = rows[i].Platform
	}
	var out []model.Counted
	for _, name := range strings.Split(names, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			return nil, usagef("--counters %q: an empty name (allowed: datasets or results directories, comma separated)", names)
		}
		counters, err := datasets.Counters(name)
		if err != nil {
			return nil, fmt.Errorf("--counters %s: %w", name, err)
		}
		n := len(out)
		for _, c := range counters {
			if p := c.Config.Platform; platform != "" && p != "" && p != platform {
				return nil, usagef("--counters %s: its passes were measured on %s, the rows on %s: counters only explain a run of the same machine", name, p, platform)
			}
			if c.Collected {
				k := model.CountedOf(c)
				k.Source = name
				out = append(out, k)
			}
		}
		if len(out) == n {
			return nil, usagef("--counters %s: no collected counter passes in it (measure with umbench run --counters)", name)
		}
	}
	return out, nil
}

// writePoints prints a model's validation points with their intervals.
func writePoints(w io.Writer, ps []model.Point) {
	if len(ps) == 0 {
		return
	}
	t := textTable{head: []string{"policy", "size", "R", "measured ms [95% CI]", "predicted ms", "APE % [95% CI]"}, cut: -1}
	for _, p := range ps {
		t.rows = append(t.rows, []string{p.Policy, results.FormatBytes(p.SizeBytes), fmt.Sprint(p.R),
			withCI(p.MeasuredMs, p.MeasuredCI), results.Sig4(p.PredictedMs), pctWithCI(p.APE, p.APECI)})
	}
	fmt.Fprintln(w, "\nValidation points (median over trials and repetitions)")
	t.write(w, results.TableWidth)
}
