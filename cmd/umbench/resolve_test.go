package main

import (
	"testing"

	"github.com/umlab/umlab/datasets"
)

// Every command that reads data resolves its argument through
// datasets.Resolve: an embedded name, a results directory, or
// newest[:GROUP]; an unknown name is an error that lists what is known.
func TestSourceResolves(t *testing.T) {
	name, ok := datasets.NewestOf(datasets.Query{Group: "hbm"})
	if !ok {
		t.Skip("no measured dataset with hbm rows is embedded")
	}
	args := []string{"summary", "--group", "hbm", "newest:hbm"}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	_, m, _ := datasets.Load(name)
	contains(t, "summary newest:hbm", out, m.RunID, "triad")

	args = []string{"summary", "--dataset", "paper-h100"}
	code, out, errs = umbench(t, args...)
	if code == 0 {
		t.Fatalf("%v succeeded:\n%s", args, out)
	}
	contains(t, "unknown dataset", errs, "paper-h100", "paper-gb200", "newest[:GROUP]")
}
