package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/umlab/umlab/umkit"
	"github.com/umlab/umlab/umkit/simgpu"
)

// TestCIUmbenchSimulated is not a test of its own: .ci/slurm.sh runs this
// package's test binary as "umbench" on the simulated GPU of
// umkit/simgpu, so that its two-node Slurm job produces real results
// directories (written by run's own code) to merge and compare across
// hosts, on a machine without a GPU. The umbench arguments come, split on
// spaces, from UMBENCH_CI_ARGS; the process exits with umbench's exit code.
// Each host gets a GPU UUID of its own, derived from its host name, as on
// a real fleet. Without UMBENCH_CI_ARGS the test is skipped.
//
// .ci/slurm.sh uses it only while umbench itself has no simulated mode
// (umbench run --simulate, issue 14).
func TestCIUmbenchSimulated(t *testing.T) {
	args := os.Getenv("UMBENCH_CI_ARGS")
	if args == "" {
		t.Skip("UMBENCH_CI_ARGS is not set: this is .ci/slurm.sh's simulated umbench")
	}
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	d := simgpu.New()
	info := d.Info()
	h := sha256.Sum256([]byte(host))
	info.UUID = fmt.Sprintf("GPU-%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
	d.SetInfo(info)
	openDevice = func(int) (umkit.Device, error) { return d, nil }
	os.Exit(run(strings.Fields(args), os.Stdout, os.Stderr))
}
