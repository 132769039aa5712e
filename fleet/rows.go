package fleet

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/umlab/umlab/results"
)

// FromRows makes parts of rows that are already loaded, such as an embedded
// dataset: one part per host and GPU, sorted and labelled as [Load] does
// for a results directory, each with its rows. name stands for the
// directory in Part.Dir.
func FromRows(name string, rows []results.Row, meta results.Metadata) []Part {
	head := results.Names(results.Columns)
	split := byHostGPU()
	ds, _ := digestParts(rows, split, true)
	byPart := make([][]results.Row, len(ds))
	split = byHostGPU()
	for _, r := range rows {
		i, _ := split(&r)
		byPart[i] = append(byPart[i], r)
	}
	parts := plainParts(name, head, ds, meta)
	for i := range parts {
		parts[i].Rows, parts[i].csv, parts[i].mine = byPart[i], "", nil
	}
	sortParts(parts)
	labelParts(parts)
	return parts
}

// NotMixed refuses parts that hold no rows at all, or that mix simulated
// with measured (or published) rows, as results.CheckNotMixed refuses
// rows: no comparison may combine them. name says where they came from.
func NotMixed(parts []Part, name string) error {
	rows, sim := 0, 0
	for i := range parts {
		d := parts[i].digest()
		rows += d.Rows
		sim += d.Simulated
	}
	switch {
	case rows == 0:
		return fmt.Errorf("%s hold no rows: nothing to show", name)
	case sim > 0 && sim < rows:
		s, m := bySimulated(parts)
		return fmt.Errorf("%s: %w (simulated: %s; measured: %s): keep simulated runs in their own directories",
			name, results.ErrMixedSimulated, listLabels(s), listLabels(m))
	}
	return nil
}

// bySimulated lists the labels of the parts with simulated rows and of
// those with measured rows (a part that mixes them is in both).
func bySimulated(parts []Part) (sim, measured []string) {
	for i := range parts {
		s := parts[i].Simulated()
		if s != "none" {
			sim = append(sim, parts[i].Label)
		}
		if s != "all" {
			measured = append(measured, parts[i].Label)
		}
	}
	return sim, measured
}

// Simulated reports whether any part's rows were made up by the simulated
// GPU (a table of them carries results.SimulatedBanner).
func Simulated(parts []Part) bool {
	for i := range parts {
		if parts[i].digest().Simulated > 0 {
			return true
		}
	}
	return false
}

// IsFleet reports whether dir is read part by part: a merged directory
// (one with fleet.json), or a directory without a results.csv of its own
// above results directories (the root of a fleet run, say).
func IsFleet(dir string) bool {
	if isMerged(dir) {
		return true
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return false
	}
	if _, err := os.Stat(filepath.Join(dir, results.CSVName)); err == nil {
		return false
	}
	dirs, _, err := Find([]string{dir}, nil)
	return err == nil && len(dirs) > 0
}
