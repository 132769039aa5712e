package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/results"
)

// dataFlags are how every reading command names its data: DIR arguments (a
// results directory, or an embedded dataset's name) and --dataset NAME,
// comma-separated where a command reads several. --data DIR, the older
// spelling of DIR, stays as a hidden alias.
type dataFlags struct{ dataset, data string }

// noneNamed is the error of a reading command given no data.
const noneNamed = "name a results directory (DIR) or an embedded dataset (--dataset NAME; umbench datasets lists them)"

func addData(c *cobra.Command, several bool) *dataFlags {
	d := &dataFlags{}
	help := "an embedded dataset (umbench datasets lists them); a `NAME` given as DIR works too"
	if several {
		help = "embedded datasets, comma-separated (umbench datasets lists them): `NAME[,NAME]`"
	}
	c.Flags().StringVar(&d.dataset, "dataset", "", help)
	c.Flags().StringVar(&d.data, "data", "", "a results `DIR` (the same as giving DIR)")
	c.Flags().MarkHidden("data")
	return d
}

// refs lists what the command line named: the arguments, --data, then each
// name of --dataset.
func (d *dataFlags) refs(args []string) ([]string, error) {
	refs := append([]string(nil), args...)
	if d.data != "" {
		refs = append(refs, d.data)
	}
	if d.dataset != "" {
		names, err := strictList("dataset", d.dataset)
		if err != nil {
			return nil, err
		}
		refs = append(refs, names...)
	}
	if len(refs) == 0 {
		return nil, usageError{noneNamed}
	}
	return refs, nil
}

// one opens the one source a command line named (datasets.Open).
func (d *dataFlags) one(args []string) (datasets.Source, error) {
	refs, err := d.refs(args)
	if err != nil {
		return datasets.Source{}, err
	}
	if len(refs) > 1 {
		return datasets.Source{}, usagef("this command reads one results directory or dataset; got %d: %s", len(refs), strings.Join(refs, ", "))
	}
	return datasets.Open(refs[0])
}

// announce prints the SIMULATED banner when rows were made up by the
// simulated GPU, then how many unverified trials the loaders left out of
// us: on stdout for a table, on stderr for csv and json, whose readers
// are scripts.
func announce(c *cobra.Command, rows []results.Row, table bool, us ...results.Unverified) {
	w := c.OutOrStdout()
	if !table {
		w = c.ErrOrStderr()
	}
	banner(w, rows)
	sayUnverified(c, table, "", us...)
}

// strictList parses a comma-separated list given on the command line: an
// empty element (--groups ,, or --groups hbm,,managed) is an error.
func strictList(flagName, s string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			return nil, usagef("--%s %q: an empty name in the list; give comma-separated names", flagName, s)
		}
		out = append(out, f)
	}
	return out, nil
}
