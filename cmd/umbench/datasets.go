package main

import (
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
					for _, l := range wrap(line, maxColumns, "      ") {
						fmt.Fprintln(w, l)
					}
				}
			}
			return nil
		},
	}
}

// datasetFacts are what describeDataset says of a dataset's rows.
type datasetFacts struct {
	gpus, modes, configs map[string]bool
	groups               []string
	trials               map[string]int
	warmups              map[int64]int
	minSize, maxSize     int64
	start                time.Time
}

func factsOf(rows []results.Row, m results.Metadata) datasetFacts {
	f := datasetFacts{gpus: map[string]bool{}, modes: map[string]bool{}, configs: map[string]bool{},
		trials: map[string]int{}, warmups: map[int64]int{}, start: m.Start}
	for _, r := range rows {
		f.gpus[r.GPUUUID] = true
		if !slices.Contains(f.groups, r.Group) {
			f.groups = append(f.groups, r.Group)
		}
		if fm, _ := results.FleetMode(r.Note); fm != "" {
			f.modes[fm] = true
		}
		k := results.ConfigKey(r)
		f.configs[k] = true
		f.trials[k+"|"+fmt.Sprint(r.Repetition)]++
		f.warmups[r.Warmups]++
		if r.SizeBytes > 0 {
			if f.minSize == 0 || r.SizeBytes < f.minSize {
				f.minSize = r.SizeBytes
			}
			f.maxSize = max(f.maxSize, r.SizeBytes)
		}
		// A resumed run's metadata names its last segment; the run IDs of
		// its rows (20261129T235618Z-...) name every segment's start.
		if t, err := time.Parse("20060102T150405Z", strings.SplitN(r.RunID, "-", 2)[0]); err == nil && (f.start.IsZero() || t.Before(f.start)) {
			f.start = t
		}
	}
	return f
}

// describeDataset says what a dataset is, in lines of at most about 120
// columns: name, GPU, date of the run, rows; groups and settings; the
// command that measured it.
func describeDataset(d datasets.Info, rows []results.Row, m results.Metadata) []string {
	f := factsOf(rows, m)
	gpu := m.Device.Name
	if gpu == "" {
		gpu = d.Platform
	}
	if len(f.gpus) > 1 {
		gpu = fmt.Sprintf("%d × %s", len(f.gpus), gpu)
	}
	when := "date unknown"
	if !f.start.IsZero() {
		when = "measured " + f.start.UTC().Format("2006-01-02 15:04") + " UTC"
	}
	if d.Kind == datasets.Published {
		when = "published figures"
	}
	out := []string{fmt.Sprintf("%s  %s, %s, %d rows", d.Name, gpu, when, len(rows))}
	if m.Device.DriverVersion != "" && d.Kind != datasets.Published {
		out[0] += ", driver " + m.Device.DriverVersion
	}
	set := fmt.Sprintf("    %s; %d configurations", strings.Join(f.groups, ", "), len(f.configs))
	if d.Kind == datasets.Measured {
		tc := map[int]int{}
		for _, n := range f.trials {
			tc[n]++
		}
		set += fmt.Sprintf("; mostly %d trials, %d warm-ups", results.MostCommon(tc), results.MostCommon(f.warmups))
	}
	if f.maxSize > 0 {
		set += "; sizes " + results.FormatBytes(f.minSize)
		if f.maxSize != f.minSize {
			set += "–" + results.FormatBytes(f.maxSize)
		}
	}
	if len(f.modes) > 0 {
		set += "; fleet " + strings.Join(slices.Sorted(maps.Keys(f.modes)), ", ")
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
