package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/spf13/cobra"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// advisePatterns are the access patterns umbench advise knows (the model is
// calibrated on streaming; the others come with a warning).
var advisePatterns = []string{"streaming", "strided", "random", "page_touch"}

type adviseFlags struct {
	data          *dataFlags
	size, pattern string
	reuse         float64
	wide          bool
}

func newAdviseCmd() *cobra.Command {
	f := &adviseFlags{}
	c := &cobra.Command{
		Use:   "advise --size SIZE [--reuse R] [DIR | --dataset NAME]",
		Short: "rank placement policies for a working set and reuse count",
		Long: "Ranks the placement policies for a working set of --size bytes that the GPU passes over --reuse\n" +
			"times per CPU update, with the reuse model calibrated on the data named (by default the newest\n" +
			"embedded handoff run, else the paper's GB200 figures).",
		Args: maxArgs(1),
	}
	f.data = addData(c, false)
	c.Flags().StringVar(&f.size, "size", "", "working-set `SIZE`, e.g. 1GiB (required)")
	c.Flags().Float64Var(&f.reuse, "reuse", 1, "GPU passes per CPU update")
	c.Flags().StringVar(&f.pattern, "pattern", "streaming", "access pattern: "+strings.Join(advisePatterns, ", "))
	c.Flags().BoolVar(&f.wide, "wide", false, "lines as long as they come (by default prose is broken at 120 columns)")
	c.RunE = f.run
	return c
}

func (f *adviseFlags) run(c *cobra.Command, args []string) error {
	if f.size == "" {
		return usagef("--size is required, e.g. --size 1GiB")
	}
	b, err := results.ParseBytes(f.size)
	if err != nil {
		return usagef("--size: %v", err)
	}
	if err := oneOf("pattern", f.pattern, advisePatterns...); err != nil {
		return err
	}
	if !(f.reuse >= 1) || math.IsInf(f.reuse, 0) {
		return usagef("--reuse %v: at least 1 GPU pass per CPU update", f.reuse)
	}
	defaulted := false
	if len(args) == 0 && f.data.dataset == "" && f.data.data == "" {
		f.data.dataset, defaulted = datasets.ForModel(), true // said below
	}
	src, err := f.data.one(args)
	if err != nil {
		return err
	}
	m, err := model.Calibrate(model.HandoffPhases(src.Rows))
	if err != nil {
		params, perr := datasets.ModelParameters(src.Name)
		if perr != nil || len(params) == 0 {
			return err
		}
		m, err = model.NewModel(model.Params(params))
		if err != nil {
			return err
		}
	}
	a, err := model.Advise(m, model.Workload{SizeBytes: b, Reuse: f.reuse, Pattern: f.pattern})
	if err != nil {
		return err
	}
	w, done := fitted(c.OutOrStdout(), f.wide)
	defer done()
	announce(c, src.Rows, true)
	fmt.Fprintf(w, "calibrated on %s%s\n", src.Name, map[bool]string{true: " (none named: the newest embedded handoff run; name data with DIR or --dataset)"}[defaulted])
	if err := a.WriteText(w); err != nil {
		return err
	}
	if v := measuredBreakEven(src.Rows, a); v != "" {
		fmt.Fprintf(w, "Measured at %s (95%% bootstrap intervals): %s\n", results.FormatBytes(b), v)
	}
	return nil
}

// measuredBreakEven is the fitted model's verdict on the advice's
// break-even where the rows measured its size with enough trials, else "".
func measuredBreakEven(rows []results.Row, a *model.Advice) string {
	be := a.BreakEven
	if be.A == "" || be.B == "" {
		return ""
	}
	rep, err := model.Fit(model.HandoffPhases(rows), model.Options{})
	if err != nil || math.IsNaN(rep.MedianAPECI.Lo) { // no trials to resample: no interval to add
		return ""
	}
	for _, c := range rep.Crossovers {
		if c.SizeBytes == a.Workload.SizeBytes && c.Verdict != "" && (c.A == be.A && c.B == be.B || c.A == be.B && c.B == be.A) {
			return c.Verdict
		}
	}
	return ""
}
