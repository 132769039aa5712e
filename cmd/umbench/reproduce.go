package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/umlab/umlab/claims"
)

// claimsRun resolves the sources of reproduce and report: positional
// results directories or dataset names, or --dataset with one or more
// comma-separated names (runs of one machine, combined group by group).
func claimsRun(dataset string, args []string) (*claims.Run, error) {
	var names []string
	if dataset != "" {
		for _, n := range strings.Split(dataset, ",") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
	}
	names = append(names, args...)
	if len(names) == 0 {
		return nil, usagef("name a results directory or an embedded dataset (--dataset NAME); see umbench datasets")
	}
	return claims.Load(names...)
}

func cmdReproduce(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("reproduce", stderr)
	dataset := fs.String("dataset", "", "embedded dataset(s), comma-separated runs of one machine (a group comes from the first that has it)")
	against := fs.String("against", "", "a second platform's dataset or directory for the cross-platform claims (GB200 against GH200)")
	format := fs.String("format", "table", "table, md or csv")
	section := fs.String("section", "", "only claims whose section starts with this (V-C, VI, Table III)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: umbench reproduce DIR... | --dataset NAME[,NAME...] [--format table|md|csv]\n\n"+
			"Checks every finding of the paper on a run: the paper's figure beside the measured one, a verdict\n"+
			"(reproduces, reproduces qualitatively, differs for a known reason, differs unexplained, not measured)\n"+
			"and the reason, derived from the run's device facts and data.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	switch *format {
	case "table", "md", "csv":
	default:
		return usagef("--format %q: table, md or csv", *format)
	}
	run, err := claimsRun(*dataset, fs.Args())
	if err != nil {
		return err
	}
	var o claims.Options
	if *against != "" {
		if o.Against, err = claims.Load(*against); err != nil {
			return err
		}
	}
	cs := claims.All()
	if *section != "" {
		if cs = claims.Sections(*section); len(cs) == 0 {
			return usagef("--section %q: no claim has such a section (sections look like V-A, VI-B, VIII-C, Table III)", *section)
		}
	}
	xs, err := claims.EvaluateClaims(cs, run, o)
	if err != nil {
		return err
	}
	if *format == "table" {
		stdout = fitTo(stdout)
		defer stdout.(*fitWriter).flush()
		fmt.Fprintf(stdout, "%s: %s\n\n", run.Name, run.Facts.Describe())
	}
	return claims.Write(stdout, xs, *format)
}
