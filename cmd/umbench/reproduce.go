package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/umlab/umlab/claims"
	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/internal/sanitize"
	"github.com/umlab/umlab/results"
)

// claimSources are the flags with which reproduce and report name their
// runs: DIR arguments and --dataset names (runs of one machine, combined
// group by group), and --against for the cross-platform claims.
type claimSources struct {
	data    *dataFlags
	against string
}

func addClaimSources(c *cobra.Command) *claimSources {
	s := &claimSources{data: addData(c, true)}
	c.Flags().StringVar(&s.against, "against", "", "a second platform's dataset or `DIR`, for the cross-platform claims (GB200 against GH200)")
	return s
}

// load resolves the run named and, with --against, the other platform's
// (nil without).
func (s *claimSources) load(args []string) (run, against *claims.Run, err error) {
	refs, err := s.data.refs(args)
	if err != nil {
		return nil, nil, err
	}
	if run, err = claims.Load(refs...); err != nil {
		return nil, nil, err
	}
	if s.against != "" {
		if against, err = claims.Load(s.against); err != nil {
			return nil, nil, err
		}
	}
	return run, against, nil
}

// sayUnverified says how many unverified trials the loaders left out of
// the runs named. claims.Load keeps the first source's metadata: the
// others' counts are read again.
func (s *claimSources) sayUnverified(c *cobra.Command, table bool, args []string, run, against *claims.Run) error {
	us := []results.Unverified{run.Meta.Unverified}
	if against != nil {
		us = append(us, against.Meta.Unverified)
	}
	refs, err := s.data.refs(args)
	if err != nil {
		return err
	}
	for _, ref := range refs[1:] {
		_, m, _, err := datasets.Resolve(ref)
		if err != nil {
			return err
		}
		us = append(us, m.Unverified)
	}
	sayUnverified(c, table, "", us...)
	return nil
}

func newReproduceCmd() *cobra.Command {
	var format, section string
	c := &cobra.Command{
		Use:   "reproduce [DIR... | --dataset NAME[,NAME]]",
		Short: "the paper's claims on a run: paper figure, measured figure, verdict and reason",
		Long: "Checks every finding of the paper on a run: the paper's figure beside the measured one, a\n" +
			"verdict (reproduces, reproduces qualitatively, differs for a known reason, differs unexplained,\n" +
			"inconclusive, not measured) from the figure's 95 % interval, the reason computed from the run's\n" +
			"device facts and data, and the runs the figure rests on. Several runs of one machine are\n" +
			"combined group by group (a group comes from the first that has it).",
	}
	src := addClaimSources(c)
	addFormat(c, &format, "table", "md", "csv")
	c.Flags().StringVar(&section, "section", "", "only claims whose `SECTION` starts with this (V-C, VI, Table III)")
	c.RunE = func(c *cobra.Command, args []string) error {
		cs := claims.All()
		if section != "" {
			if cs = claims.Sections(section); len(cs) == 0 {
				return usagef("--section %q: no claim has such a section (sections look like V-A, VI-B, VIII-C, Table III)", section)
			}
		}
		run, against, err := src.load(args)
		if err != nil {
			return err
		}
		xs, err := claims.EvaluateClaims(cs, run, claims.Options{Against: against})
		if err != nil {
			return err
		}
		w := c.OutOrStdout()
		announce(c, run.Rows, format == "table")
		if err := src.sayUnverified(c, format == "table", args, run, against); err != nil {
			return err
		}
		if format == "table" {
			var done func()
			w, done = fitted(w, false)
			defer done()
			fmt.Fprintf(w, "%s: %s\n\n", sanitize.Terminal(run.Name), sanitize.Terminal(run.Facts.Describe()))
		}
		return claims.Write(w, xs, format)
	}
	return c
}
