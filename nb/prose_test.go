package nb_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// methodFigures are the numbers the notebooks' fixed prose may state:
// settings and definitions, which hold on any data. A measured figure
// belongs in a cell's output, computed from the data shown.
var methodFigures = map[string]string{
	"95 %":  "the interval's level",
	"50 µs": "short_kernel's threshold (results.SummaryOptions)",
	"5 %":   "high_cv's threshold",
	"100 %": "the capacity boundary, by definition",
	"90 %":  "umlab's oversubscription limit without opt-in",
	"16×":   "4 KiB to 64 KiB page intervals: arithmetic of the settings",
	"32×":   "64 KiB to 2 MiB page intervals: arithmetic of the settings",
}

// TestNotebookProseStatesNoMeasuredFigures reads every markdown cell of
// every notebook: a number with a unit of bandwidth, time, ratio or share
// must be one of methodFigures, so that no fixed sentence states what
// only the data can say (the false statements of issue 34 were such).
func TestNotebookProseStatesNoMeasuredFigures(t *testing.T) {
	paths, _ := filepath.Glob("../notebooks/*.ipynb")
	if len(paths) < 6 {
		t.Fatalf("%d notebooks, want 6", len(paths))
	}
	figure := regexp.MustCompile(`\d[\d,.]*\s*(GB/s|TB/s|%|×|ms\b|µs\b)`)
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var nb struct {
			Cells []struct {
				Type   string   `json:"cell_type"`
				Source []string `json:"source"`
			} `json:"cells"`
		}
		if err := json.Unmarshal(b, &nb); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for i, c := range nb.Cells {
			if c.Type != "markdown" {
				continue
			}
			for _, f := range figure.FindAllString(strings.Join(c.Source, ""), -1) {
				if _, ok := methodFigures[f]; !ok {
					t.Errorf("%s, markdown cell %d states %q: compute it from the data, or add it to methodFigures with why it holds on any data", filepath.Base(p), i, f)
				}
			}
		}
	}
}
