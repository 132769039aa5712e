package main

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/results"
)

func newDatasetsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "datasets",
		Short: "the embedded datasets: the paper's figures and measured runs, to read without a GPU",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			w := c.OutOrStdout()
			fmt.Fprintln(w, "Embedded datasets (read one with DIR or --dataset NAME; provenance in datasets/README.md):")
			for _, e := range datasets.Index() {
				fmt.Fprintln(w)
				if e.Rows == 0 { // the index's entry of a dataset that did not load says nothing of it
					if _, _, err := datasets.Load(e.Name); err != nil {
						fmt.Fprintf(w, "%s  unreadable: %v\n", e.Name, err)
						continue
					}
				}
				for _, line := range describeDataset(e) {
					fmt.Fprintln(w, wrap(line, results.TableWidth, "      "))
				}
			}
			return nil
		},
	}
}

// describeDataset says what a dataset is (its datasets.Index entry), in
// lines of at most about 120 columns: name, GPU, date of the run, rows;
// groups and settings; the command that measured it.
func describeDataset(e datasets.Entry) []string {
	gpu := cmp.Or(e.GPU, e.Platform)
	if e.GPUs > 1 {
		gpu = fmt.Sprintf("%d × %s", e.GPUs, gpu)
	}
	when := "date unknown"
	if !e.Measured.IsZero() {
		when = "measured " + e.Measured.UTC().Format("2006-01-02 15:04") + " UTC"
	}
	if e.Kind == datasets.Published {
		when = "published figures"
	}
	out := []string{fmt.Sprintf("%s  %s, %s, %d rows", e.Name, gpu, when, e.Rows)}
	if e.Driver != "" && e.Kind != datasets.Published {
		out[0] += ", driver " + e.Driver
	}
	set := fmt.Sprintf("    %s; %d configurations", strings.Join(e.Groups, ", "), e.Configs)
	if e.Kind == datasets.Measured {
		set += fmt.Sprintf("; mostly %d trials, %d warm-ups", e.Trials, e.Warmups)
	}
	if e.MaxSize > 0 {
		set += "; sizes " + results.FormatBytes(e.MinSize)
		if e.MaxSize != e.MinSize {
			set += "–" + results.FormatBytes(e.MaxSize)
		}
	}
	if len(e.Modes) > 0 {
		set += "; fleet " + strings.Join(e.Modes, ", ")
	}
	out = append(out, set)
	switch {
	case e.Kind == datasets.Published:
		out = append(out, "    source: "+e.Source)
	case e.Command != "":
		out = append(out, "    command: "+e.Command)
	}
	return out
}
