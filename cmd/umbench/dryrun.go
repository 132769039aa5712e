package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
	"github.com/umlab/umlab/umkit/simgpu"
)

// dryRunPlan is umbench run --dry-run: the plan of o, its size and a
// rough estimate of its GPU time from running it on the simulated GPU
// (whose model is H200-like), without opening a GPU or writing into --out.
func dryRunPlan(w io.Writer, o umkit.Options, plan umkit.Plan, simulate bool) error {
	fmt.Fprintln(w, "dry run: nothing is measured, no GPU is opened, nothing is written")
	fmt.Fprintf(w, "results would go to %s", o.Out)
	if o.Resume {
		fmt.Fprint(w, " (resuming: configurations already there are skipped)")
	}
	fmt.Fprintln(w)
	if simulate {
		fmt.Fprintln(w, "on the simulated GPU: every number would be made up and marked simulated")
	}
	fmt.Fprintln(w, "plan (for a GPU that supports every benchmark; the real one may waive some):")
	for _, d := range plan.Groups {
		if err := writePlanned(w, d); err != nil {
			return err
		}
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
	fmt.Fprintln(w, wrap(fmt.Sprintf("estimate: about %s of GPU and CPU work under the simulated H200-like model; a real run "+
		"takes longer (allocation, verification and settling are not modelled), and other GPUs differ", dev.Now().Round(time.Second)), helpWidth, "  "))
	return nil
}

// writePlanned prints a plan's definition: its configurations and trial
// rows, then its settings as words ("warmups 2; trials 5; sizes 1 MiB").
func writePlanned(w io.Writer, d umkit.Definition) error {
	rows := 0
	for _, c := range d.Configs() {
		rows += c.Rows
	}
	fmt.Fprintf(w, "  %s: %d configurations, %d trial rows\n", d.Name(), len(d.Configs()), rows)
	b, err := json.Marshal(d)
	if err != nil {
		return err
	}
	var fields map[string]any
	if err := json.Unmarshal(b, &fields); err != nil {
		return err
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		parts = append(parts, words(k)+" "+planValue(k, fields[k]))
	}
	fmt.Fprintln(w, wrap("      "+strings.Join(parts, "; "), helpWidth, "      "))
	return nil
}

// words splits a Go field name into lower-case words: MinWarmupMs → min
// warmup ms.
func words(name string) string {
	var b strings.Builder
	r := []rune(name)
	for i, c := range r {
		lowerBefore := i > 0 && !unicode.IsUpper(r[i-1])
		acronymEnds := i > 0 && i+1 < len(r) && unicode.IsUpper(r[i-1]) && unicode.IsLower(r[i+1])
		if unicode.IsUpper(c) && (lowerBefore || acronymEnds) {
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}

// planValue writes a setting: lists comma-separated, byte counts (a field
// named ...Bytes, ...Sizes or ...Intervals) in binary units.
func planValue(name string, v any) string {
	bytes := strings.HasSuffix(name, "Bytes") || strings.HasSuffix(name, "Sizes") || strings.HasSuffix(name, "Intervals")
	switch x := v.(type) {
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, planValue(name, e))
		}
		return strings.Join(out, ", ")
	case float64:
		if bytes && x >= 1 {
			return results.FormatBytes(int64(x))
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	case nil:
		return "none"
	}
	return fmt.Sprint(v)
}
