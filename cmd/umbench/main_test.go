package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
	"github.com/umlab/umlab/umkit/simgpu"
)

// umbench runs a command line and returns its exit code and output. It
// fails the test if the command panics.
func umbench(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("umbench %s panicked: %v", strings.Join(args, " "), p)
			}
		}()
		code = run(args, &out, &errb)
	}()
	return code, out.String(), errb.String()
}

// fake replaces openDevice with a simulated GPU for the test and counts the
// opens. Tests that use it must not run in parallel.
func fake(t *testing.T) (*simgpu.Device, *int) {
	t.Helper()
	d := simgpu.New()
	opens := 0
	old := openDevice
	openDevice = func(int) (umkit.Device, error) { opens++; return d, nil }
	t.Cleanup(func() { openDevice = old })
	return d, &opens
}

func wantCode(t *testing.T, args []string, code int, got int, stdout, stderr string) {
	t.Helper()
	if got != code {
		t.Fatalf("umbench %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), got, code, stdout, stderr)
	}
}

func contains(t *testing.T, what, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Errorf("%s does not contain %q:\n%s", what, sub, s)
		}
	}
}

func TestUsage(t *testing.T) {
	code, out, _ := umbench(t)
	wantCode(t, nil, 2, code, out, "")
	contains(t, "usage", out, "Usage: umbench <command>", "info", "run", "summary", "model", "advise", "datasets")

	for _, h := range []string{"-h", "--help", "help"} {
		code, out, errs := umbench(t, h)
		wantCode(t, []string{h}, 0, code, out, errs)
		contains(t, h, out, "Usage:")
	}

	code, out, errs := umbench(t, "frobnicate")
	wantCode(t, []string{"frobnicate"}, 2, code, out, errs)
	contains(t, "stderr", errs, `unknown command "frobnicate"`, "info, list, run, summary, model, decompose, counters, advise, datasets")

	// A command's own --help shows its flags in the shared layout, within
	// 100 columns, spelled --flag, and succeeds.
	for _, c := range newRoot().Commands() {
		args := []string{c.Name(), "--help"}
		code, out, errs := umbench(t, args...)
		wantCode(t, args, 0, code, out, errs)
		if c.Name() == "completion" || c.Name() == "help" {
			continue
		}
		contains(t, c.Name()+" --help", out, "Usage: umbench "+c.Name(), "\nFlags:\n", "  -h, --help")
		if w := maxWidth(out); w > helpWidth {
			t.Errorf("umbench %s --help is %d columns wide, want at most %d:\n%s", c.Name(), w, helpWidth, out)
		}
		if regexp.MustCompile(`(?m)^\s+-[a-z]{2,}`).MatchString(out) {
			t.Errorf("umbench %s --help spells a flag with one dash:\n%s", c.Name(), out)
		}
	}
	// An unknown flag is a usage error; so is a single-dash long flag,
	// with the spelling to use.
	code, out, errs = umbench(t, "list", "--bogus")
	wantCode(t, []string{"list", "--bogus"}, 2, code, out, errs)
	contains(t, "stderr", errs, "--bogus", "umbench list --help lists the flags")
	code, out, errs = umbench(t, "run", "-quick")
	wantCode(t, []string{"run", "-quick"}, 2, code, out, errs)
	contains(t, "stderr", errs, "flags take two dashes: --quick")
	// --version: module version, commit and Go version.
	code, out, errs = umbench(t, "--version")
	wantCode(t, []string{"--version"}, 0, code, out, errs)
	contains(t, "--version", out, "umbench ", "commit", runtime.Version())
}

// Without a driver, run, info and check say in one short paragraph what to
// do instead, at once: no GPU is no dead end.
func TestNoGPUNoDeadEnd(t *testing.T) {
	if d, err := umkit.Open(0); err == nil {
		d.Close()
		t.Skip("a GPU is present: this test checks the message without one")
	}
	t.Setenv(EnvSimulate, "")
	for _, args := range [][]string{{"info"}, {"run", "--quick", "--out", filepath.Join(t.TempDir(), "out")},
		{"run", "--gpus", "all", "--out", filepath.Join(t.TempDir(), "out")}, {"run", "--counters", "--out", filepath.Join(t.TempDir(), "out")},
		{"check", "--baseline", "h200-2026-12-03-quick", "--out", filepath.Join(t.TempDir(), "out")}} {
		start := time.Now()
		code, out, errs := umbench(t, args...)
		wantCode(t, args, 1, code, out, errs)
		contains(t, strings.Join(args, " "), errs, "no GPU to measure", "run --simulate --quick", "datasets", "notebooks", "R580")
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("umbench %s took %s to say there is no GPU", strings.Join(args, " "), took)
		}
		if n := strings.Count(strings.TrimSpace(errs), "\n") + 1; n > 6 || maxWidth(errs) > helpWidth {
			t.Errorf("umbench %s: the no-GPU message is %d lines, %d columns; want one short paragraph:\n%s", strings.Join(args, " "), n, maxWidth(errs), errs)
		}
		if strings.Contains(errs, "goroutine") || strings.Contains(errs, "panic") {
			t.Errorf("stderr looks like a panic:\n%s", errs)
		}
	}
}

func TestInfoFake(t *testing.T) {
	fake(t)
	code, out, errs := umbench(t, "info")
	wantCode(t, []string{"info"}, 0, code, out, errs)
	contains(t, "info", out, "Fake GPU", "GPU-00000000-0000-0000-0000-000000000000", "132 SMs",
		"managed memory", "concurrent managed access", "can map host memory",
		"waived on this system:", "host.system_triad", "pageable memory access")
	// Only the benchmark the fake cannot run is waived.
	waived := out[strings.Index(out, "waived on this system:"):]
	if strings.Contains(waived, "hbm.") || strings.Contains(waived, "managed.stream") {
		t.Errorf("supported benchmarks listed as waived:\n%s", waived)
	}
}

// list names each benchmark as --bench takes it and as summary labels
// its rows.
func TestList(t *testing.T) {
	code, out, errs := umbench(t, "list")
	wantCode(t, []string{"list"}, 0, code, out, errs)
	flat := strings.Join(strings.Fields(out), " ")
	for _, b := range umkit.Registry {
		contains(t, "list", flat, b.Name+" (in summary: "+b.Group)
	}
	// The labels summary gives the quick dataset's rows are those list names.
	_, sum, _ := umbench(t, "summary", "--all", "h200-2026-12-03-quick")
	for _, label := range []string{"hbm copy explicit", "host triad host_mapped", "managed stream managed_cold",
		"pattern streaming explicit", "oversub strided managed_cold"} {
		contains(t, "list", flat, label)
		if !regexp.MustCompile(`(?m)^` + strings.Replace(label, " ", `\s+`, 1) + " ").MatchString(sum) {
			t.Errorf("summary has no row labelled %q:\n%s", label, sum)
		}
	}
}

func readRows(t *testing.T, dir string) []results.Row {
	t.Helper()
	rows, _, err := results.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestRunSummaryResume(t *testing.T) {
	d, _ := fake(t)
	dir := filepath.Join(t.TempDir(), "out")
	args := []string{"run", "--quick", "--groups", "hbm,managed", "--out", dir}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "stdout", out, "results in "+dir, "umbench summary "+dir, "wall time by group: hbm ", ", managed ",
		results.SimulatedBanner, "headlines")
	if !regexp.MustCompile(`(?m)^hbm\s+triad explicit 256 MiB\s+\d+\s+\S+ \[\S+, \S+\]`).MatchString(out) {
		t.Errorf("the digest has no hbm triad median with its interval:\n%s", out)
	}
	if n := strings.Count(out, "\n"); n > 20 {
		t.Errorf("run's digest is %d lines, want a short one:\n%s", n, out)
	}
	if !regexp.MustCompile(`(?m)^managed\s+stream \S+ \d+ MiB\s+\d+\s+\S+ \[\S+, \S+\]`).MatchString(out) {
		t.Errorf("the digest has no managed median with its interval:\n%s", out)
	}
	contains(t, "progress", errs, "[1/")
	for _, f := range []string{results.CSVName, results.MetaName} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("run wrote no %s: %v", f, err)
		}
	}
	rows := readRows(t, dir)
	groups := map[string]int{}
	for _, r := range rows {
		groups[r.Group]++
		if r.Group != "hbm" && r.Group != "managed" {
			t.Errorf("row of group %q from --groups hbm,managed", r.Group)
		}
	}
	if groups["hbm"] == 0 || groups["managed"] == 0 {
		t.Fatalf("rows per group: %v", groups)
	}
	if d.Live() != 0 {
		t.Errorf("%d fake buffers still allocated after the run", d.Live())
	}
	meta, err := results.ReadMetadata(filepath.Join(dir, results.MetaName))
	if err != nil {
		t.Fatal(err)
	}
	if meta.Device.Name != "Fake GPU" || meta.Kind != results.KindSimulated || !strings.Contains(meta.Command, "--groups hbm,managed") {
		t.Errorf("metadata: device %q kind %q command %q", meta.Device.Name, meta.Kind, meta.Command)
	}

	// summary DIR: a table with both groups.
	code, out, errs = umbench(t, "summary", dir, "--all")
	wantCode(t, []string{"summary", dir}, 0, code, out, errs)
	contains(t, "summary", out, "Fake GPU", "group", "median_gbps", "flags", "wall time by group: hbm ", "spent on:\n  hbm ",
		"\n  managed ", ": timed ", ", rewrite ", ", settle ", ", verify ", ", other ")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var hbm, managed int
	for _, l := range lines {
		switch strings.Fields(l + " x")[0] {
		case "hbm":
			hbm++
		case "managed":
			managed++
		}
	}
	if hbm == 0 || managed == 0 {
		t.Errorf("summary has %d hbm and %d managed rows:\n%s", hbm, managed, out)
	}

	// Flags after the positional argument.
	sargs := []string{"summary", dir, "--group", "hbm"}
	code, out, errs = umbench(t, sargs...)
	wantCode(t, sargs, 0, code, out, errs)
	if !strings.Contains(out, "\nhbm ") || strings.Contains(out, "\nmanaged ") {
		t.Errorf("summary DIR --group hbm:\n%s", out)
	}
	sargs = []string{"summary", "--format", "csv", "--data", dir}
	code, out, errs = umbench(t, sargs...)
	wantCode(t, sargs, 0, code, out, errs)
	if !strings.HasPrefix(out, "group,benchmark,") || !strings.Contains(out, "\nmanaged,") {
		t.Errorf("summary --format csv:\n%s", out)
	}
	sargs = []string{"summary", dir, "--group", "oversub"}
	code, out, errs = umbench(t, sargs...)
	wantCode(t, sargs, 1, code, out, errs)
	contains(t, "stderr", errs, `no rows of group "oversub"`)

	// The same directory again: refused without --resume, nothing added.
	d.Reset()
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 2, code, out, errs)
	contains(t, "stderr", errs, "--resume", dir)
	if got := readRows(t, dir); len(got) != len(rows) {
		t.Errorf("a refused run changed the rows: %d, had %d", len(got), len(rows))
	}

	// With --resume: every configuration is done, nothing is measured again.
	d.Reset()
	rargs := append(args, "--resume")
	code, out, errs = umbench(t, rargs...)
	wantCode(t, rargs, 0, code, out, errs)
	if got := readRows(t, dir); len(got) != len(rows) {
		t.Errorf("resume of a finished run: %d rows, had %d", len(got), len(rows))
	}
	for _, c := range d.Calls {
		if strings.HasPrefix(c, "Launch") || strings.HasPrefix(c, "Alloc") {
			t.Errorf("resume of a finished run touched the GPU: %v", d.Calls)
			break
		}
	}
	meta, err = results.ReadMetadata(filepath.Join(dir, results.MetaName))
	if err != nil {
		t.Fatal(err)
	}
	contains(t, "resumed metadata notes", strings.Join(meta.Notes, "\n"), "resumes run")
}

// regression fails a test on a bug that was found and fixed: it must not come
// back.
func regression(t *testing.T, format string, a ...any) {
	t.Helper()
	t.Fatalf("regression: "+format, a...)
}

// A mistake on the command line is reported as such, before the GPU is
// opened: opening one takes seconds, and on a machine without a driver the
// user would be told about the driver instead of the mistake.
func TestRunBadFlagsTouchNoDevice(t *testing.T) {
	cases := []struct {
		args []string
		code int // 0: any non-zero code
		want []string
		bug  string // non-empty: the device is opened first (reported)
	}{
		{[]string{"--sizes", "1000x"}, 2, []string{"--sizes", `"1000x"`}, ""},
		{[]string{"--sizes", "64MiB,,1GiB"}, 2, []string{"--sizes"}, ""},
		{[]string{"--oversub-pcts", "half"}, 2, []string{"--oversub-pcts", `"half"`}, ""},
		{[]string{"extra"}, 2, []string{"no arguments"}, ""},
		{[]string{"--resume"}, 2, []string{"--resume needs --out"}, ""},
		{[]string{"--oversub-pcts", "95"}, 0, []string{"95", "--allow-oversubscription"}, "cmdRun validates the plan only inside umkit.Run"},
		{[]string{"--groups", "oversub", "--oversub-pcts", "95"}, 0, []string{"95", "--allow-oversubscription"}, "cmdRun validates the plan only inside umkit.Run"},
		{[]string{"--groups", "hbmx"}, 0, []string{`unknown group "hbmx"`}, "cmdRun validates the plan only inside umkit.Run"},
		{[]string{"--trials", "-1"}, 0, []string{"trials"}, "cmdRun validates the plan only inside umkit.Run"},
		{[]string{"--groups", "hbm", "--sizes", "8B"}, 0, []string{"size"}, "cmdRun validates the plan only inside umkit.Run"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			args := append([]string{"run"}, c.args...)
			if c.args[0] != "--resume" {
				args = append(args, "--out", dir)
			}
			check := func(code int, out, errs string) {
				t.Helper()
				if code == 0 || (c.code != 0 && code != c.code) {
					t.Fatalf("exit %d, want %d (0: any failure)\nstdout:\n%s\nstderr:\n%s", code, c.code, out, errs)
				}
				contains(t, "stderr", errs, c.want...)
				if strings.Contains(errs, "panic") {
					t.Errorf("stderr looks like a panic:\n%s", errs)
				}
				if _, err := os.Stat(dir); err == nil {
					t.Errorf("a bad command line created %s", dir)
				}
			}

			// With a GPU: rejected, and nothing allocated, launched or written.
			d, _ := fake(t)
			code, out, errs := umbench(t, args...)
			check(code, out, errs)
			for _, call := range d.Calls {
				if call != "Close" {
					t.Errorf("a bad command line reached the device: calls %v", d.Calls)
					break
				}
			}

			// Without one: the message is still about the command line, and
			// no device was opened.
			opens := 0
			openDevice = func(int) (umkit.Device, error) { opens++; return nil, errors.New("no GPU in this test") }
			code, out, errs = umbench(t, args...)
			if opens > 0 && c.bug != "" {
				regression(t, "%s: the GPU is opened before the mistake is found; without one the user reads %q", c.bug, strings.TrimSpace(errs))
			}
			if opens > 0 {
				t.Errorf("the device was opened %d time(s) before the command line was rejected", opens)
			}
			check(code, out, errs)
		})
	}
}

func TestSummaryDataset(t *testing.T) {
	code, out, errs := umbench(t, "summary", "--dataset", "paper-gb200")
	wantCode(t, []string{"summary", "--dataset", "paper-gb200"}, 0, code, out, errs)
	contains(t, "summary", out, "GB200", "hbm", "managed", "handoff", "median_gbps", "of 58 configurations shown", "--all shows every one")
	if n := strings.Count(out, "\n"); n > 50 {
		t.Errorf("the default summary is %d lines, want one screen:\n%s", n, out)
	}
	code, out, errs = umbench(t, "summary", "--dataset", "paper-gb200", "--all")
	if n := strings.Count(out, "\nhandoff "); code != 0 || n != 20 {
		t.Errorf("summary --all: exit %d, %d handoff rows, want all 20:\n%s%s", code, n, out, errs)
	}

	code, out, errs = umbench(t, "summary", "paper-gb200", "--format", "csv")
	wantCode(t, []string{"summary", "paper-gb200", "--format", "csv"}, 0, code, out, errs)
	contains(t, "summary csv", out, "group,benchmark,mode")

	for _, args := range [][]string{
		{"summary", "--dataset", "paper-gb200", "--format", "xml"},
		{"summary"},
		{"summary", "a", "b"},
		{"summary", "--data", "x", "--dataset", "paper-gb200"},
	} {
		code, out, errs := umbench(t, args...)
		wantCode(t, args, 2, code, out, errs)
	}
	code, out, errs = umbench(t, "summary", "--dataset", "no-such-dataset")
	wantCode(t, []string{"summary", "--dataset", "no-such-dataset"}, 1, code, out, errs)
	contains(t, "stderr", errs, "no-such-dataset")

	code, out, errs = umbench(t, "summary", t.TempDir())
	wantCode(t, []string{"summary", "EMPTYDIR"}, 1, code, out, errs)
	contains(t, "stderr", errs, "not a results directory")
}

func TestModel(t *testing.T) {
	args := []string{"model", "--dataset", "paper-gb200"}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "model", out, "Table III", "60.070", "55.090", "271.690", "79.370",
		"explicit_copy", "host_mapped", "managed_prefetch", "R* = 1.06", "Calibrated on paper-gb200")

	args = []string{"model", "--dataset", "paper-gb200", "--format", "csv"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "model csv", out, "policy,size_bytes,f_ms,g_ms", "explicit_copy,1073741824,60.07,0.415",
		"host_mapped,1073741824,55.09,5.119", "managed,1073741824,271.69,0.415", "managed_prefetch,1073741824,79.37,0.489")

	for _, args := range [][]string{
		{"model", "--dataset", "paper-gb200", "--format", "xml"},
		{"model", "--dataset", "paper-gb200", "--min-size", "lots"},
		{"model"},
	} {
		code, out, errs := umbench(t, args...)
		wantCode(t, args, 2, code, out, errs)
	}
	_, out, _ = umbench(t, "model", "paper-gb200")
	contains(t, "model", strings.SplitN(out, "\n== ", 2)[0], "T = F + R·G", "APE", "R*")
	// A dataset without handoff data fails with a message, not a panic.
	args = []string{"model", "--dataset", "paper-gh200"}
	code, out, errs = umbench(t, args...)
	if code == 0 || errs == "" {
		t.Errorf("model on a dataset without handoff rows: exit %d, stderr %q", code, errs)
	}
}

func TestAdvise(t *testing.T) {
	args := []string{"advise", "--size", "1GiB", "--reuse", "4", "--dataset", "paper-gb200"}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "advise", out, "calibrated on paper-gb200", "1 GiB", "R = 4")
	var ranks []string
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) >= 2 && len(f[0]) == 1 && f[0] >= "1" && f[0] <= "4" {
			ranks = append(ranks, f[1])
		}
	}
	if len(ranks) != 4 || ranks[0] != "explicit_copy" {
		t.Errorf("ranking %v, want explicit_copy first of four:\n%s", ranks, out)
	}
	// R = 1 is below the explicit_copy/host_mapped crossover (1.06).
	args = []string{"advise", "--size", "1GiB", "--reuse", "1", "--dataset", "paper-gb200"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "advise R=1", out, "1     host_mapped")

	for _, args := range [][]string{
		{"advise"},
		{"advise", "--reuse", "4"},
		{"advise", "--size", "big"},
		{"advise", "--size", "1GiB", "--reuse", "0"},
		{"advise", "--size", "1GiB", "--reuse", "NaN"},
	} {
		code, out, errs := umbench(t, args...)
		wantCode(t, args, 2, code, out, errs)
		if len(args) == 1 {
			contains(t, "stderr", errs, "--size")
		}
	}
}

func TestAdviseDefaultDataset(t *testing.T) {
	// Without --dataset, advise calibrates on "the newest measured one, else
	// paper-gb200" (its flag help): a measured dataset with handoff rows
	// must be preferred to the paper's GB200.
	var measured []string
	for _, d := range datasets.List() {
		if d.Kind != datasets.Measured {
			continue
		}
		rows, _, err := datasets.Load(d.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.Group == "handoff" {
				measured = append(measured, d.Name)
				break
			}
		}
	}
	args := []string{"advise", "--size", "1GiB", "--reuse", "4"}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	first, _, _ := strings.Cut(out, "\n")
	name, ok := strings.CutPrefix(first, "calibrated on ")
	if !ok || !strings.Contains(first, "none named") {
		t.Fatalf("advise output, want the default named as one:\n%s", out)
	}
	name = strings.Fields(name)[0]
	if len(measured) == 0 {
		if name != "paper-gb200" {
			t.Errorf("no measured handoff data, calibrated on %q, want paper-gb200", name)
		}
		return
	}
	if !slices.Contains(measured, name) {
		regression(t, "advise without --dataset calibrates on %s, not on a measured handoff dataset %v: "+
			"defaultDataset compares names with > and \"h200-…\" < \"paper-gb200\"", name, measured)
	}
}

func TestDatasets(t *testing.T) {
	code, out, errs := umbench(t, "datasets")
	wantCode(t, []string{"datasets"}, 0, code, out, errs)
	contains(t, "datasets", out, "--dataset NAME", "paper-gb200", "paper-gh200", "paper-gb10", "published", "measured",
		"2 × NVIDIA H200", "isolated", "command: umbench run")
	// A run's date is its first row's run ID, not its metadata's last segment.
	rows, _, err := datasets.Load("h200-2026-12-02-setuploops")
	if err != nil {
		t.Fatal(err)
	}
	first, _ := time.Parse("20060102T150405Z", strings.SplitN(rows[0].RunID, "-", 2)[0])
	contains(t, "datasets", out, "h200-2026-12-02-setuploops  NVIDIA H200, measured "+first.Format("2006-01-02 15:04")+" UTC")
	for _, l := range strings.Split(out, "\n") {
		if n := len([]rune(l)); n > 120 {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
	// Every canonical run of our own machine is listed, as measured on it.
	for _, name := range []string{datasets.CanonicalFull, datasets.CanonicalQuick, datasets.CanonicalLive,
		datasets.CanonicalTwoGPU, datasets.CanonicalCounters, datasets.CanonicalHandoffCounters} {
		found := false
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, name+" ") {
				found = true
				contains(t, name+" line", l, "H200", "measured")
			}
		}
		if !found {
			t.Errorf("%s not listed:\n%s", name, out)
		}
	}
}

func TestParseSize(t *testing.T) {
	good := []struct {
		in   string
		want int64
	}{
		{"4096", 4096},
		{"64KiB", 64 << 10},
		{"64kib", 64 << 10},
		{"256MiB", 256 << 20},
		{"1GiB", 1 << 30},
		{"2TiB", 2 << 40},
		{"1.5GB", 1500000000},
		{"1KB", 1000},
		{"3MB", 3000000},
		{"1TB", 1e12},
		{"16M", 16 << 20},
		{"1G", 1 << 30},
		{"4K", 4096},
		{"512B", 512},
		{" 1 GiB ", 1 << 30},
		{"0.5KiB", 512},
		{"1e3", 1000},
	}
	for _, c := range good {
		got, err := results.ParseBytes(c.in)
		if err != nil || got != c.want {
			t.Errorf("results.ParseBytes(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	bad := []string{"", " ", "GiB", "B", "abc", "1000x", "-1", "-1GiB", "0", "0GiB", "1GiBB", "1 2", "1,5GB",
		"Inf", "+Inf", "2PiB", "1e20"}
	for _, in := range bad {
		got, err := results.ParseBytes(in)
		if err == nil {
			t.Errorf("results.ParseBytes(%q) = %d, want an error", in, got)
			continue
		}
		contains(t, "error", err.Error(), "size", "e.g.")
	}
	// NaN passes the v <= 0 and v*mul > 1<<50 checks and converts to an
	// arbitrary int64; a fraction of a byte truncates to a zero size.
	for _, in := range []string{"NaN", "nan", "NaNGiB", "0.5", "0.4B"} {
		t.Run(in, func(t *testing.T) {
			got, err := results.ParseBytes(in)
			if err == nil {
				regression(t, "results.ParseBytes(%q) = %d, nil; want an error (flags.go)", in, got)
			}
		})
	}
}

func TestSizeAndFloatLists(t *testing.T) {
	s, err := sizeList("1MiB, 256MiB,1GiB")
	if err != nil || len(s) != 3 || s[0] != 1<<20 || s[1] != 256<<20 || s[2] != 1<<30 {
		t.Errorf("sizeList = %v, %v", s, err)
	}
	if s, err := sizeList(""); s != nil || err != nil {
		t.Errorf("sizeList(\"\") = %v, %v", s, err)
	}
	f, err := floatList("25, 50,90", "--oversub-pcts")
	if err != nil || len(f) != 3 || f[1] != 50 {
		t.Errorf("floatList = %v, %v", f, err)
	}
	if _, err := floatList("25,x", "--oversub-pcts"); err == nil || !strings.Contains(err.Error(), "--oversub-pcts") {
		t.Errorf("floatList with text: %v", err)
	}
	if got := splitList(" hbm, ,managed,"); len(got) != 2 || got[0] != "hbm" || got[1] != "managed" {
		t.Errorf("splitList = %q", got)
	}
}

// The CPU-side diagnostic fits the measured H200 sweep with the CPU update
// taken out, and commands without arguments refuse stray ones.
func TestModelWithoutCPUAndStrayArgs(t *testing.T) {
	args := []string{"model", "--dataset", "h200-2026-12-02-setuploops", "--without-cpu"}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "model --without-cpu", out, "CPU-update time taken out", "explicit_copy", "Aggregate median APE")
	for _, a := range [][]string{{"list", "extra"}, {"datasets", "x"}} {
		code, out, errs := umbench(t, a...)
		wantCode(t, a, 2, code, out, errs)
	}
}

// TestModelCountersFrom: counter passes of another run of the same machine
// explain the policies the model misses; passes of another platform, or a
// run without passes, are refused with the reason.
func TestModelCountersFrom(t *testing.T) {
	const run, passes = "h200-2026-12-02-setuploops", "h200counters-2026-12-02-sweep"
	args := []string{"model", "--dataset", run, "--counters", passes, "--wide"}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "model --counters", out, "Counter passes ("+passes+"), one iteration at ", "CPU page faults")
	// The sweep's passes split in two directories by size, named together:
	// each size's passes are quoted with the directory they come from.
	small, large, other := t.TempDir(), t.TempDir(), t.TempDir() // 256 MiB, 1 GiB, another platform
	split := func(line string) string {
		if strings.Contains(line, ",268435456,") {
			return small
		}
		return large
	}
	for _, f := range []string{"results.csv", "meta.json", "counters.csv"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "datasets", passes, f))
		if err != nil {
			t.Fatal(err)
		}
		if f != "counters.csv" {
			for _, d := range []string{small, large, other} {
				os.WriteFile(filepath.Join(d, f), b, 0o644)
			}
			continue
		}
		lines := strings.SplitAfter(string(b), "\n")
		parts := map[string]string{small: lines[0], large: lines[0]}
		for _, l := range lines[1:] {
			if l != "" {
				parts[split(l)] += l
			}
		}
		for d, text := range parts {
			os.WriteFile(filepath.Join(d, f), []byte(text), 0o644)
		}
		os.WriteFile(filepath.Join(other, f), bytes.ReplaceAll(b, []byte(",H200,"), []byte(",GB200,")), 0o644)
	}
	args = []string{"model", "--dataset", run, "--counters", small + "," + large, "--wide"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	flat := strings.Join(strings.Fields(out), " ")
	contains(t, "model --counters A,B", flat, "Counter passes ("+large+"), one iteration at 1 GiB")
	for _, bad := range []struct{ from, want string }{
		{other, "measured on GB200, the rows on H200"},
		{"paper-gb200", "no collected counter passes"},
		{passes + ",paper-gb200", "--counters paper-gb200: no collected counter passes"},
		{passes + ",", "an empty name"},
	} {
		args := []string{"model", "--dataset", run, "--counters", bad.from}
		code, out, errs := umbench(t, args...)
		wantCode(t, args, 2, code, out, errs)
		contains(t, "model --counters "+bad.from, errs, bad.want)
	}
}

func TestCountersAndDecompose(t *testing.T) {
	args := []string{"counters", "--dataset", "h200counters-2026-12-03-quick"}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "counters table", out, "htod", "gpu_faults", "migr/useful", "pcie_rx", "managed_cold", "page_touch",
		"256 MiB", "every 64 KiB")
	for _, l := range strings.Split(out, "\n") {
		if n := len([]rune(l)); n > 120 {
			t.Errorf("counters line of %d columns: %q", n, l)
		}
		// Counts are integers, byte counts in binary units.
		if f := strings.Fields(l); len(f) > 6 && strings.HasPrefix(l, "stream managed_cold 256 MiB ") {
			if !strings.Contains(l, " MiB ") || strings.Contains(l, "e+") {
				t.Errorf("counters row not in human units: %q", l)
			}
		}
	}
	args = []string{"counters", "h200counters-2026-12-03-quick", "--wide"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "counters --wide", out, "um_htod_bytes", "gpu_fault_groups", "migrated_per_useful", "pcie_rx_bytes", "pcie_tx_bytes")

	args = []string{"counters", "--dataset", "h200-2026-12-03-quick"}
	code, out, errs = umbench(t, args...)
	if code == 0 || !strings.Contains(errs, "no counter passes") {
		t.Errorf("counters of a run without them: exit %d, stderr %q", code, errs)
	}

	// With counter passes, a cold kernel's migration is the counted bytes
	// at the prefetch rate: the CSV has them beside the terms.
	args = []string{"decompose", "--dataset", "h200counters-2026-12-03-quick", "--format", "csv"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "decompose csv", out, "counted_htod_bytes", "counted host to device, at the prefetch rate")

	args = []string{"decompose", "--dataset", "h200-2026-12-03-quick"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "decompose table", out, "Section VIII-A", "oversub streaming managed_cold 25%", "fault%", "migr%")
	if strings.Contains(out, "counter passes") {
		t.Errorf("decompose claims counter passes for a run without them:\n%.300s", out)
	}
}

// TestRunWarmupsZeroAndDefinitions: --warmups 0 runs no warm-up (unset
// runs the default), --trials 0 is refused, and run --help and list come
// from the benchmark definitions.
func TestRunWarmupsZeroAndDefinitions(t *testing.T) {
	fake(t)
	dir := filepath.Join(t.TempDir(), "out")
	args := []string{"run", "--quick", "--warmups", "0", "--trials", "2", "--bench", "pattern.random,pattern.sparse_random", "--out", dir}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	bench := map[string]int{}
	for _, r := range readRows(t, dir) {
		bench[r.Benchmark]++
		if r.Warmups != 0 {
			t.Fatalf("--warmups 0 ran %d warm-ups", r.Warmups)
		}
	}
	if bench["random"] != 4*2 || bench["sparse_random"] != 4*2*2 {
		t.Errorf("rows per benchmark %v", bench)
	}
	dir2 := filepath.Join(t.TempDir(), "out")
	args = []string{"run", "--quick", "--trials", "1", "--bench", "hbm.triad", "--sizes", "1MiB", "--out", dir2}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	for _, r := range readRows(t, dir2) {
		if r.Warmups != umkit.QuickWarmups {
			t.Fatalf("unset --warmups with --quick ran %d warm-ups, want %d", r.Warmups, umkit.QuickWarmups)
		}
	}
	args = []string{"run", "--trials", "0", "--out", t.TempDir()}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 2, code, out, errs)
	contains(t, "stderr", errs, "trials 0: allowed 1")

	code, out, errs = umbench(t, "run", "--help")
	contains(t, "run --help", out+errs, "pattern.sparse_random", "0 runs none (default 5)", "handoff 20 × 3")
	for _, g := range umkit.Groups {
		contains(t, "run --help", out+errs, g)
	}
	_, out, _ = umbench(t, "list")
	// hbm.copy at 1 GiB moves 2 GiB; the sparse benchmark at 1/16 of 256 MiB, 32 MiB.
	// Lines are broken to fit 120 columns: compare the words.
	contains(t, "list", strings.Join(strings.Fields(out), " "), "2 GiB at 1 GiB", "32 MiB at 256 MiB", "depends on the device's free memory")
	if w := maxWidth(out); w > 120 {
		t.Errorf("list is %d columns wide", w)
	}
}

// --rewrite reaches the CLI's plan and meta.json (reallocate by default,
// home when asked), and summary reads the run like any other.
func TestRunRewrite(t *testing.T) {
	fake(t)
	for _, c := range []struct{ flag, want string }{{"", "reallocate"}, {"home", "home"}} {
		dir := filepath.Join(t.TempDir(), "out")
		args := []string{"run", "--quick", "--groups", "managed", "--out", dir}
		if c.flag != "" {
			args = append(args, "--rewrite", c.flag)
		}
		code, out, errs := umbench(t, args...)
		wantCode(t, args, 0, code, out, errs)
		contains(t, "stdout", out, "wall time by group: managed ")
		meta, err := results.ReadMetadata(filepath.Join(dir, results.MetaName))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(meta.Config)
		if !strings.Contains(string(b), `"Rewrite":"`+c.want+`"`) {
			t.Errorf("%v: meta.json plan %s, want Rewrite %s", args, b, c.want)
		}
		if n := len(readRows(t, dir)); n == 0 {
			t.Errorf("%v: no rows", args)
		}
		code, out, errs = umbench(t, "summary", dir)
		wantCode(t, []string{"summary", dir}, 0, code, out, errs)
		contains(t, "summary", out, "managed_cold")
	}
}
