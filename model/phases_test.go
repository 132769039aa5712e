package model

import (
	"testing"

	"github.com/umlab/umlab/results"
)

func TestHandoffPhasesAndCollected(t *testing.T) {
	var rows []results.Row
	for _, p := range []struct{ group, phase string }{
		{"handoff", "cpu_only"}, {"handoff", "gpu_only"}, {"handoff", "alternating"}, {"handoff", "baseline"},
		{"handoff", "extra"}, {"hbm", ""},
	} {
		r := results.NewRow()
		r.Group, r.Phase = p.group, p.phase
		rows = append(rows, r)
	}
	if got := HandoffPhases(rows); len(got) != 3 || got[0].Phase != "cpu_only" || got[2].Phase != "alternating" {
		t.Errorf("HandoffPhases kept %d rows: %+v", len(got), got)
	}
	cs := []results.CounterRow{{Collected: true, HtoDBytes: 1}, {Collected: false, HtoDBytes: 2}, {Collected: true, HtoDBytes: 3}}
	if got := Collected(cs); len(got) != 2 || got[0].HtoDBytes != 1 || got[1].HtoDBytes != 3 {
		t.Errorf("Collected = %+v", got)
	}
}
