package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/results"
)

func newMergeCmd() *cobra.Command {
	var out string
	var strict bool
	c := &cobra.Command{
		Use:   "merge --out DIR [DIR... | --dataset NAME[,NAME]]",
		Short: "combine per-node and per-GPU results into one directory, saying what differs",
		Long: "Merges results directories (every directory below a DIR with results.csv and meta.json is a\n" +
			"part) and embedded datasets into one results directory, listing how the parts differ.",
	}
	data := addData(c, true)
	c.Flags().StringVar(&out, "out", "", "the merged results `DIR` to write (required; must not hold results)")
	c.Flags().BoolVar(&strict, "strict", false, "refuse to merge parts that differ in anything but their GPU (commits, plans, trials)")
	c.RunE = func(c *cobra.Command, args []string) error {
		refs, err := data.refs(args)
		if err != nil {
			return usagef("name the results directories to merge, e.g. umbench merge --out merged results/run1")
		}
		if out == "" {
			return usagef("--out is required: the merged results directory to write")
		}
		parts, err := loadParts(c, refs, []string{out}, true)
		if err != nil {
			return err
		}
		problems := fleet.Check(parts)
		writeProblems(c.OutOrStdout(), problems)
		if strict && len(problems) > 0 {
			return fmt.Errorf("--strict: %d difference(s) between the parts; nothing written", len(problems))
		}
		man, err := fleet.Merge(out, parts, problems, commandLine(c))
		if errors.Is(err, results.ErrResultsExist) {
			return usageError{err.Error()}
		} else if err != nil {
			return err
		}
		rows, hosts := 0, map[string]bool{}
		for _, p := range man.Parts {
			rows += p.Rows
			hosts[p.Host] = true
		}
		fmt.Fprintf(c.OutOrStdout(), "merged %d part(s) from %d host(s), %d rows, into %s\ncompare the GPUs with: umbench compare %s\n",
			len(man.Parts), len(hosts), rows, out, out)
		return nil
	}
	return c
}

// loadParts resolves references to parts (datasets.Parts), printing its
// warnings; simulated parts get the banner, mixed with measured ones an error.
func loadParts(c *cobra.Command, refs, skip []string, table bool) ([]fleet.Part, error) {
	parts, warns, err := datasets.Parts(refs, skip)
	for _, w := range warns {
		fmt.Fprintln(c.ErrOrStderr(), "umbench: warning:", w)
	}
	if err != nil {
		return nil, err
	}
	if err := fleet.NotMixed(parts, "the parts given"); err != nil {
		return nil, err
	}
	if fleet.Simulated(parts) {
		announce(c, []results.Row{{Simulated: true}}, table)
	}
	return parts, nil
}

func writeProblems(w io.Writer, ps []fleet.Problem) {
	if len(ps) == 0 {
		return
	}
	fmt.Fprintf(w, "differences between the parts (%d):\n", len(ps))
	for _, p := range ps {
		fmt.Fprintln(w, wrap(fmt.Sprintf("  - %s: %s", p.Kind, p.Message), results.TableWidth, "    "))
	}
	fmt.Fprintln(w)
}
