package model_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// The memo fits each distinct input once: the same rows in another slice
// give the same report; other rows or options fit again; the report is
// model.Fit's.
func TestFitMemo(t *testing.T) {
	rows, _, err := datasets.Load(datasets.CanonicalQuick)
	if err != nil {
		t.Fatal(err)
	}
	var h []results.Row
	for _, r := range rows {
		if r.Group == "handoff" {
			h = append(h, r)
		}
	}
	o := model.Options{Resamples: 50}
	m := model.NewFitMemo(2)
	a, errA := m.Fit(h, o)
	b, errB := m.Fit(slices.Clone(h), o)
	if errA != nil || errB != nil || a != b || m.Made != 1 {
		t.Fatalf("the same rows twice: %v, %v, same report %v, %d fits", errA, errB, a == b, m.Made)
	}
	want, _ := model.Fit(h, o)
	if !reflect.DeepEqual(a.CalibrationFrame().Records(), want.CalibrationFrame().Records()) || a.MedianAPE != want.MedianAPE {
		t.Error("the memo's report differs from model.Fit's")
	}
	changed := slices.Clone(h)
	changed[0].TotalMs *= 1.01
	if c, _ := m.Fit(changed, o); c == a || m.Made != 2 {
		t.Errorf("a changed row: same report %v, %d fits", c == a, m.Made)
	}
	if c, _ := m.Fit(h, model.Options{Resamples: 60}); c == a || m.Made != 3 {
		t.Errorf("other options: same report %v, %d fits", c == a, m.Made)
	}
	if c, _ := m.Fit(h, o); c == a || m.Made != 4 { // evicted: capacity 2
		t.Errorf("after eviction: same report %v, %d fits", c == a, m.Made)
	}
}
