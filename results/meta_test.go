package results_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/umlab/umlab/results"
)

// listRewrite is PlanRewrite as it was, with the list of definition names
// that a new state benchmark could be missing from.
func listRewrite(config any) string {
	b, _ := json.Marshal(config)
	var plan map[string]map[string]any
	if json.Unmarshal(b, &plan) != nil {
		return ""
	}
	var ways []string
	for _, g := range []string{"managed", "pattern", "pattern.sparse", "oversub"} {
		if c, ok := plan[g]; ok {
			w, _ := c["Rewrite"].(string)
			if w == "" {
				w = "home"
			}
			if !slices.Contains(ways, w) {
				ways = append(ways, w)
			}
		}
	}
	return strings.Join(ways, "+")
}

// TestPlanRewriteOlderRuns: on every committed run that predates
// Metadata.Rewrites, PlanRewrite reads what the list-based reading did;
// and a run's record wins over its plan, a state benchmark it names
// counting though no list knows it.
func TestPlanRewriteOlderRuns(t *testing.T) {
	paths, _ := filepath.Glob("../datasets/*/meta.json")
	runs, _ := filepath.Glob("../datasets/*/*/meta.json")
	older := 0
	for _, p := range append(paths, runs...) {
		m, err := results.ReadMetadata(p)
		if err != nil {
			t.Fatal(err)
		}
		if m.Rewrites != nil {
			continue
		}
		older++
		if got, want := results.PlanRewrite(m), listRewrite(m.Config); got != want {
			t.Errorf("%s: %q, the list said %q", p, got, want)
		}
	}
	if older < 10 {
		t.Fatalf("%d committed runs from before Metadata.Rewrites found, want at least 10", older)
	}
	m := results.Metadata{Config: map[string]any{"managed": map[string]any{"Rewrite": "reallocate"}},
		Rewrites: map[string]string{"managed": "reallocate", "pattern.dense": "home"}}
	if got := results.PlanRewrite(m); got != "reallocate+home" {
		t.Errorf("recorded rewrites: %q", got)
	}
}
