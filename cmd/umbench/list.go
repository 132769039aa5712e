package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/umlab/umlab/check"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
)

func newListCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "the benchmarks, with what each isolates and how summary labels its rows",
		Args:  noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			out, done := fitted(c.OutOrStdout(), false)
			defer done()
			writeList(out)
			return nil
		},
	}
}

// writeList prints each registry entry: its --bench name, its rows'
// labels in umbench summary, what it measures, its bytes per iteration.
func writeList(w io.Writer) {
	configs := map[string][]umkit.Config{} // registry entry → its default configurations
	for _, d := range umkit.Definitions() {
		for _, c := range d.Configs() {
			configs[c.Entry] = append(configs[c.Entry], c)
		}
	}
	fmt.Fprintln(w, "Benchmarks, by the name run --bench takes, with the labels summary gives their rows:")
	for _, b := range umkit.Registry {
		fmt.Fprintf(w, "\n%s  (in summary: %s)\n", b.Name, summaryNames(configs[b.Name]))
		fmt.Fprintf(w, "    %s\n", b.Description)
		fmt.Fprintf(w, "    useful bytes per iteration: %s; by default %s\n", b.Useful, bytesPerIteration(configs[b.Name]))
	}
}

// summaryNames are the distinct group and label words, without sizes,
// that summary shows for these configurations: "hbm triad explicit".
func summaryNames(cs []umkit.Config) string {
	var names []string
	for _, c := range cs {
		r := results.NewRow()
		r.Group, r.Benchmark, r.Mode = c.Group, c.Benchmark, c.Mode
		// A stream benchmark's variants (oversub.strided) are its rows' pattern.
		if v := strings.TrimPrefix(c.Entry, c.Group+"."); c.Benchmark == "stream" && v != c.Entry && v != c.Benchmark {
			r.Pattern = v
		}
		n := strings.TrimSpace(c.Group + " " + check.Label(r))
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if len(names) > 3 {
		names = append(names[:2], "…", names[len(names)-1])
	}
	return strings.Join(names, ", ")
}

// bytesPerIteration lists the distinct bytes per iteration of a benchmark's
// configurations, with the sizes they belong to.
func bytesPerIteration(cs []umkit.Config) string {
	var parts []string
	for _, c := range cs {
		p := "depends on the device's free memory"
		if c.BytesPerIteration > 0 {
			p = results.FormatBytes(c.BytesPerIteration)
			if c.SizeBytes > 0 {
				p += " at " + results.FormatBytes(c.SizeBytes)
			}
		}
		if !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return "no configurations"
	}
	if len(parts) > 4 {
		parts = []string{parts[0], "…", parts[len(parts)-1]}
	}
	return fmt.Sprintf("%d configurations: %s", len(cs), strings.Join(parts, ", "))
}
