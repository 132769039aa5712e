package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/umlab/umlab/claims"
)

// claimSources are the flags with which reproduce and report name their
// runs: positional results directories or dataset names, or --dataset with
// one or more comma-separated names (runs of one machine, combined group by
// group), and --against for the cross-platform claims.
type claimSources struct {
	fs               *flag.FlagSet
	dataset, against *string
}

func addClaimSources(fs *flag.FlagSet) *claimSources {
	return &claimSources{fs,
		fs.String("dataset", "", "embedded dataset(s), comma-separated runs of one machine (a group comes from the first that has it)"),
		fs.String("against", "", "a second platform's dataset or directory for the cross-platform claims (GB200 against GH200)")}
}

// load resolves the parsed flags: the run and, with --against, the other
// platform's (nil without).
func (c *claimSources) load() (run, against *claims.Run, err error) {
	var names []string
	if *c.dataset != "" {
		for _, n := range strings.Split(*c.dataset, ",") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
	}
	names = append(names, c.fs.Args()...)
	if len(names) == 0 {
		return nil, nil, usagef("name a results directory or an embedded dataset (--dataset NAME); see umbench datasets")
	}
	if run, err = claims.Load(names...); err != nil {
		return nil, nil, err
	}
	if *c.against != "" {
		if against, err = claims.Load(*c.against); err != nil {
			return nil, nil, err
		}
	}
	return run, against, nil
}

func cmdReproduce(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("reproduce", stderr)
	src := addClaimSources(fs)
	format := fs.String("format", "table", "table, md or csv")
	section := fs.String("section", "", "only claims whose section starts with this (V-C, VI, Table III)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: umbench reproduce DIR... | --dataset NAME[,NAME...] [--format table|md|csv]\n\n"+
			"Checks every finding of the paper on a run: the paper's figure beside the measured one, a verdict\n"+
			"(reproduces, reproduces qualitatively, differs for a known reason, differs unexplained, inconclusive,\n"+
			"not measured) from the figure's 95 % interval, the reason computed from the run's device facts and data,\n"+
			"and the runs the figure rests on.\n\nFlags:")
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
	run, against, err := src.load()
	if err != nil {
		return err
	}
	o := claims.Options{Against: against}
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
