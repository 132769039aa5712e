package results_test

import (
	"strings"
	"testing"

	"github.com/umlab/umlab/results"
)

// TestLegacyBoundOnRead: a file written before the bound column gets each
// row's bound from the legacy table; a file with the column keeps its
// values, and a value that is not a resource is refused.
func TestLegacyBoundOnRead(t *testing.T) {
	old := "group,benchmark,mode,phase,policy,size_bytes,useful_bytes\n" +
		"hbm,triad,explicit,,,1048576,3145728\n" +
		"hbm,triad,explicit,,,268435456,805306368\n" +
		"managed,stream,managed_cold,,,1048576,2097152\n" +
		"handoff,handoff,,cpu_only,managed,1048576,2097152\n" +
		"handoff,handoff,,gpu_only,host_mapped,1048576,2097152\n"
	rows, err := results.ReadCSV(strings.NewReader(old), "old.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{results.BoundGPULaunch, results.BoundGPUMemory, results.BoundFaults, results.BoundHostCPU, results.BoundHostLink}
	for i, r := range rows {
		if r.Bound != want[i] {
			t.Errorf("row %d: bound %q, want %q", i+2, r.Bound, want[i])
		}
	}
	rows, err = results.ReadCSV(strings.NewReader("group,benchmark,mode,size_bytes,bound\nhbm,triad,explicit,16,mixed\n"), "new.csv")
	if err != nil || rows[0].Bound != results.BoundMixed {
		t.Errorf("a file's own bound: %+v, %v", rows, err)
	}
	_, err = results.ReadCSV(strings.NewReader("group,benchmark,mode,size_bytes,bound\nhbm,triad,explicit,16,gpu\n"), "bad.csv")
	if err == nil || !strings.Contains(err.Error(), "bad.csv:2") || !strings.Contains(err.Error(), "gpu_memory") {
		t.Errorf("bound gpu: %v", err)
	}
}
