package model_test

import (
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

const (
	kib = int64(1) << 10
	mib = int64(1) << 20
	gib = int64(1) << 30
)

// handoffRow is one handoff trial as the benchmark library emits it.
func handoffRow(policy, phase string, size, r int64, ms float64) results.Row {
	row := results.NewRow()
	row.Group, row.Benchmark, row.Policy, row.Phase = "handoff", "handoff", policy, phase
	row.SizeBytes, row.ReusePasses, row.TotalMs = size, r, ms
	row.Platform = "GB200"
	return row
}

// tableIII is Table III of the paper: GB200, 1 GiB handoff, F in ms and G
// in ms per pass (Section VIII-C).
var tableIII = []model.Param{
	{Policy: model.ExplicitCopy, SizeBytes: gib, F: 60.07, G: 0.415},
	{Policy: model.HostMapped, SizeBytes: gib, F: 55.09, G: 5.119},
	{Policy: model.Managed, SizeBytes: gib, F: 271.69, G: 0.415},
	{Policy: model.ManagedPrefetch, SizeBytes: gib, F: 79.37, G: 0.489},
}
