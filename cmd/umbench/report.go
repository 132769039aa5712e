package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/umlab/umlab/claims"
	"github.com/umlab/umlab/report"
)

func cmdReport(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("report", stderr)
	dataset := fs.String("dataset", "", "embedded dataset(s), comma-separated runs of one machine (a group comes from the first that has it)")
	against := fs.String("against", "", "a second platform's dataset or directory for the cross-platform claims")
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
	run, err := claimsRun(*dataset, fs.Args())
	if err != nil {
		return err
	}
	var o report.Options
	if *against != "" {
		if o.Against, err = claims.Load(*against); err != nil {
			return err
		}
	}
	var buf bytes.Buffer
	if err := report.Write(&buf, run, o); err != nil {
		return err
	}
	// Write beside the target and rename, so a failed run never leaves half a file.
	tmp, err := os.CreateTemp(filepath.Dir(*out), ".umbench-report-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), *out); err != nil {
		os.Remove(tmp.Name())
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
