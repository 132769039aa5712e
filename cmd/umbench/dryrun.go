package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"time"

	"github.com/umlab/umlab/umkit"
	"github.com/umlab/umlab/umkit/simgpu"
)

// dryRunPlan is umbench run --dry-run: the plan, its size and a rough
// estimate of its GPU time from running it on the simulated GPU (whose
// model is H200-like), without opening a GPU or writing into --out.
func dryRunPlan(w io.Writer, o umkit.Options, simulate bool) error {
	all := umkit.DeviceInfo{ManagedMemory: true, ConcurrentManagedAccess: true, PageableMemoryAccess: true, CanMapHostMemory: true}
	plan, err := umkit.NewPlan(o, all)
	if err != nil {
		return usageError{err.Error()}
	}
	fmt.Fprintln(w, "dry run: nothing is measured, no GPU is opened, nothing is written")
	fmt.Fprintf(w, "results would go to %s", o.Out)
	if o.Resume {
		fmt.Fprint(w, " (resuming: configurations already there are skipped)")
	}
	fmt.Fprintln(w)
	if simulate {
		fmt.Fprintln(w, "on the simulated GPU: every number would be made up and marked simulated")
	}
	b, err := json.Marshal(plan)
	if err != nil {
		return err
	}
	var groups map[string]json.RawMessage
	if err := json.Unmarshal(b, &groups); err != nil {
		return err
	}
	names := make([]string, 0, len(groups))
	for g := range groups {
		names = append(names, g)
	}
	sort.Strings(names)
	fmt.Fprintln(w, "plan (for a GPU that supports every benchmark; the real one may waive some):")
	for _, g := range names {
		fmt.Fprintf(w, "  %-9s %s\n", g, groups[g])
	}
	fmt.Fprintf(w, "configurations: %d\n", plan.Configurations())

	// The estimate: the same plan on a simulated GPU whose buffers hold no
	// data (nothing is computed, only timed by its model).
	dev := simgpu.New()
	dev.DataLimit = 0
	tmp, err := os.MkdirTemp("", "umbench-dry-run-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	e := o
	e.Device, e.Out, e.Resume, e.Counters, e.Progress = dev, tmp, false, nil, nil
	e.Warn = func(string) {}
	if _, err := umkit.Run(context.Background(), e); err != nil {
		fmt.Fprintf(w, "estimate: not available (%v)\n", err)
		return nil
	}
	fmt.Fprintf(w, "estimate: about %s of GPU and CPU work under the simulated H200-like model; a real run takes longer "+
		"(allocation, verification and settling are not modelled), and other GPUs differ\n", dev.Now().Round(time.Second))
	return nil
}
