package fleet_test

import (
	"path/filepath"
	"testing"

	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/results"
)

// The six quick runs of one H200 node, the canonical quick run of
// another and three runs of a third, compared as a fleet of ten
// processes, flag nothing (without the variation model, the first seven
// were each flagged in 36 to 53 of 130 configurations); the same runs with one run's GPU-memory
// configurations planted 8 % slower flag that run, as the GPU's.
func TestCompareH200RepeatsQuiet(t *testing.T) {
	var dirs []string
	for _, r := range []string{"run1", "run2", "run3", "run4", "run5", "run6"} {
		dirs = append(dirs, filepath.Join("..", "datasets", "h200-2026-12-03-repeat", r))
	}
	dirs = append(dirs, filepath.Join("..", "datasets", "h200-2026-12-03-quick"))
	for _, r := range []string{"run1", "run2", "run3"} {
		dirs = append(dirs, filepath.Join("..", "datasets", "h200-2026-12-03-thirdnode", r))
	}
	load := func() []fleet.Part {
		parts, _, err := fleet.Load(dirs, nil)
		if err != nil || len(parts) != 10 {
			t.Fatalf("%d parts: %v", len(parts), err)
		}
		return parts
	}
	cmp, err := fleet.Compare(load(), h200Options())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmp {
		if c.Outlier {
			t.Errorf("healthy: %s %s (%s) %+.1f %% beyond ±%.1f %%", c.Part, c.Label, c.Resource, c.DevPct, c.TolPct)
		}
	}
	parts := load()
	if err := parts[2].LoadRows(); err != nil {
		t.Fatal(err)
	}
	slowed := parts[2].Label
	rows := parts[2].Rows
	for i := range rows {
		if rows[i].Bound == results.BoundGPUMemory {
			rows[i].GBps *= 0.92
			rows[i].KernelMs /= 0.92
			rows[i].TotalMs /= 0.92
		}
	}
	parts[2] = fleet.Part{Label: slowed, Host: parts[2].Host, GPU: parts[2].GPU, UUID: parts[2].UUID, RunID: parts[2].RunID, Rows: rows}
	cmp, err = fleet.Compare(parts, h200Options())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range fleet.PerGPU(cmp) {
		if (s.Part == slowed) != (s.GPUOutliers > 0) || s.HostOutliers > 0 {
			t.Errorf("8 %% slower memory in %s: %+v", slowed, s)
		}
	}
}
