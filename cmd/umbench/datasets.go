package main

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

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
			for _, d := range datasets.List() {
				fmt.Fprintln(w)
				rows, m, err := datasets.Load(d.Name)
				if err != nil {
					fmt.Fprintf(w, "%s  unreadable: %v\n", d.Name, err)
					continue
				}
				for _, line := range describeDataset(d, rows, m) {
					fmt.Fprintln(w, wrap(line, results.TableWidth, "      "))
				}
			}
			return nil
		},
	}
}

// describeDataset says what a dataset is, in lines of at most about 120
// columns: name, GPU, date of the run, rows; groups and settings; the
// command that measured it.
func describeDataset(d datasets.Info, rows []results.Row, m results.Metadata) []string {
	gpus, modes, configs := map[string]bool{}, map[string]bool{}, map[string]bool{}
	var groups []string
	trials, warmups := map[string]int{}, map[int64]int{}
	var minSize, maxSize int64
	start := m.Start
	for _, r := range rows {
		gpus[r.GPUUUID] = true
		if !slices.Contains(groups, r.Group) {
			groups = append(groups, r.Group)
		}
		if fm, _ := results.FleetMode(r.Note); fm != "" {
			modes[fm] = true
		}
		k := results.ConfigKey(r)
		configs[k] = true
		trials[k+"|"+fmt.Sprint(r.Repetition)]++
		warmups[r.Warmups]++
		if r.SizeBytes > 0 {
			if minSize == 0 || r.SizeBytes < minSize {
				minSize = r.SizeBytes
			}
			maxSize = max(maxSize, r.SizeBytes)
		}
		// A resumed run's metadata names its last segment; the run IDs of
		// its rows (20261129T235618Z-...) name every segment's start.
		if t, err := time.Parse("20060102T150405Z", strings.SplitN(r.RunID, "-", 2)[0]); err == nil && (start.IsZero() || t.Before(start)) {
			start = t
		}
	}
	gpu := cmp.Or(m.Device.Name, d.Platform)
	if len(gpus) > 1 {
		gpu = fmt.Sprintf("%d × %s", len(gpus), gpu)
	}
	when := "date unknown"
	if !start.IsZero() {
		when = "measured " + start.UTC().Format("2006-01-02 15:04") + " UTC"
	}
	if d.Kind == datasets.Published {
		when = "published figures"
	}
	out := []string{fmt.Sprintf("%s  %s, %s, %d rows", d.Name, gpu, when, len(rows))}
	if m.Device.DriverVersion != "" && d.Kind != datasets.Published {
		out[0] += ", driver " + m.Device.DriverVersion
	}
	set := fmt.Sprintf("    %s; %d configurations", strings.Join(groups, ", "), len(configs))
	if d.Kind == datasets.Measured {
		tc := map[int]int{}
		for _, n := range trials {
			tc[n]++
		}
		set += fmt.Sprintf("; mostly %d trials, %d warm-ups", results.MostCommon(tc), results.MostCommon(warmups))
	}
	if maxSize > 0 {
		set += "; sizes " + results.FormatBytes(minSize)
		if maxSize != minSize {
			set += "–" + results.FormatBytes(maxSize)
		}
	}
	if len(modes) > 0 {
		set += "; fleet " + strings.Join(slices.Sorted(maps.Keys(modes)), ", ")
	}
	out = append(out, set)
	switch {
	case d.Kind == datasets.Published:
		out = append(out, "    source: "+m.Source)
	case m.Command != "":
		out = append(out, "    command: "+m.Command)
	}
	return out
}
