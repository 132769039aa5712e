package main

import (
	"bytes"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/umlab/umlab/claims"
	"github.com/umlab/umlab/report"
	"github.com/umlab/umlab/results"
)

func newReportCmd() *cobra.Command {
	var out string
	c := &cobra.Command{
		Use:   "report [DIR... | --dataset NAME[,NAME]] --out FILE.html",
		Short: "one self-contained HTML report of a run: provenance, summary, figures, model, claims",
		Long: "Writes one self-contained HTML file (figures embedded, no network): device and provenance, the\n" +
			"summary with quality flags, the figures of the notebooks, the reuse model with its validation\n" +
			"and the paper's claims checked on the run.",
	}
	src := addClaimSources(c)
	c.Flags().StringVar(&out, "out", "", "the HTML `FILE` to write (required)")
	c.RunE = func(c *cobra.Command, args []string) error {
		if out == "" {
			return usagef("--out FILE.html is required")
		}
		if err := results.CheckOutput(out); err != nil {
			return usageError{err.Error()}
		}
		run, against, err := src.load(args)
		if err != nil {
			return err
		}
		announce(c, run.Rows, true)
		var buf bytes.Buffer
		if err := report.Write(&buf, run, against); err != nil {
			return err
		}
		// A failed run never leaves half a file.
		if err := results.WriteOutput(out, buf.Bytes()); err != nil {
			return err
		}
		fmt.Fprintf(c.OutOrStdout(), "wrote %s (%d KiB): %s\n", out, buf.Len()>>10, claimsSummary(run, against))
		return nil
	}
	return c
}

func claimsSummary(run *claims.Run, against *claims.Run) string {
	xs, err := claims.Evaluate(run, claims.Options{Against: against})
	if err != nil {
		return err.Error()
	}
	return claims.CountsText(xs)
}
