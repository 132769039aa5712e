package model_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/model"
)

// AdviceFrame: one row per platform and workload, typed columns, the
// runner-up and break-even R filled where the advisor has them.
func TestAdviceFrame(t *testing.T) {
	rows, _, err := datasets.Load("paper-gb200")
	if err != nil {
		t.Fatal(err)
	}
	fits := model.FitEach(rows, model.Options{})
	df := model.AdviceFrame(fits, []model.Workload{{SizeBytes: 1 << 30, Reuse: 1}, {SizeBytes: 1 << 30, Reuse: 32}})
	if df.Err != nil {
		t.Fatal(df.Err)
	}
	want := []string{"platform", "size_bytes", "reuse_passes", "fastest", "fastest_ms", "runner_up", "runner_up_ms", "break_even_r", "parameters"}
	if got := df.Names(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("columns %v, want %v", got, want)
	}
	if df.Nrow() != 2 || df.Col("size_bytes").Type() != "int" || df.Col("fastest_ms").Type() != "float" {
		t.Fatalf("%d rows, types %s %s", df.Nrow(), df.Col("size_bytes").Type(), df.Col("fastest_ms").Type())
	}
	for i := 0; i < 2; i++ {
		if df.Col("fastest").Elem(i).String() == "" || df.Col("runner_up").Elem(i).String() == "" || !(df.Col("fastest_ms").Elem(i).Float() > 0) {
			t.Errorf("row %d: %v", i, df.Subset(i))
		}
	}
	if df := model.AdviceFrame(nil, nil); !errors.Is(df.Err, model.ErrBadInput) {
		t.Errorf("no fits: %v", df.Err)
	}
}
