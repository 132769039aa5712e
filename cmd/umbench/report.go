package main

import (
	"bytes"
	"fmt"
	"io"

	"github.com/umlab/umlab/claims"
	"github.com/umlab/umlab/report"
	"github.com/umlab/umlab/results"
)

func cmdReport(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("report", stderr)
	src := addClaimSources(fs)
	out := fs.String("out", "", "the HTML file to write (required)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: umbench report DIR... | --dataset NAME[,NAME...] --out FILE.html\n\n"+
			"Writes one self-contained HTML file (figures embedded, no network): device and provenance, the summary\n"+
			"with quality flags, the figures of the six notebooks, the reuse model with its validation and the\n"+
			"paper's claims checked on the run.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usagef("--out FILE.html is required")
	}
	if err := results.CheckOutput(*out); err != nil {
		return usageError{err.Error()}
	}
	run, against, err := src.load()
	if err != nil {
		return err
	}
	o := report.Options{Against: against}
	var buf bytes.Buffer
	if err := report.Write(&buf, run, o); err != nil {
		return err
	}
	// A failed run never leaves half a file.
	if err := results.WriteOutput(*out, buf.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (%d KiB): %s\n", *out, buf.Len()>>10, claimsSummary(run, o.Against))
	return nil
}

func claimsSummary(run *claims.Run, against *claims.Run) string {
	xs, err := claims.Evaluate(run, claims.Options{Against: against})
	if err != nil {
		return err.Error()
	}
	return claims.CountsText(xs)
}
