package main

import (
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/stats"
)

// Every reading command's default output fits 120 columns on every
// embedded dataset it can read (issue 17); --wide is for the rest.
func TestDefaultOutputFits120Columns(t *testing.T) {
	fake(t) // info reads the simulated GPU
	cmds := [][]string{{"info"}, {"list"}, {"datasets"},
		{"advise", "--size", "1GiB", "--reuse", "4"},
		{"advise", "--size", "300MiB", "--reuse", "2", "--dataset", "paper-gb200"},
		{"check", "--baseline", "h200-2026-12-02-setuploops", "--dataset", "h200live-2026-12-01"},
		{"merge", "--out", filepath.Join(t.TempDir(), "merged"), filepath.Join("..", "..", "datasets", "h200x2-2026-11-29-isolated"),
			"h200-2026-12-03-quick"},
	}
	for _, d := range canonical {
		for _, c := range []string{"summary", "decompose", "compare", "model", "counters"} {
			cmds = append(cmds, []string{c, "--dataset", d})
		}
		cmds = append(cmds, []string{"summary", d, "--all"}, []string{"model", d, "--points"})
	}
	ran := 0
	for _, args := range cmds {
		code, out, errs := umbench(t, args...)
		if code == 2 {
			t.Errorf("umbench %s: usage error: %s", strings.Join(args, " "), errs)
			continue
		}
		if code == 0 {
			ran++
		}
		for i, l := range strings.Split(out, "\n") {
			if n := len([]rune(l)); n > results.TableWidth {
				t.Errorf("umbench %s: line %d is %d columns wide:\n%s", strings.Join(args, " "), i+1, n, l)
			}
		}
	}
	if ran < len(cmds)/2 {
		t.Errorf("only %d of %d commands succeeded", ran, len(cmds))
	}
}

// The default summary shows each median with its 95 % bootstrap interval,
// the bounds those of the summary frame; --wide has the bounds as columns.
func TestSummaryShowsIntervals(t *testing.T) {
	args := []string{"summary", "--dataset", "h200-2026-12-02-setuploops", "--group", "hbm"}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "summary", out, "median_gbps [95% CI]")
	re := regexp.MustCompile(`triad explicit 1 GiB\s+25\s+(\S+) \[(\S+), (\S+)\]`)
	m := re.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no triad 1 GiB row with an interval:\n%s", out)
	}
	var v [3]float64
	for i := range v {
		v[i], _ = strconv.ParseFloat(m[i+1], 64)
	}
	if !(v[1] <= v[0] && v[0] <= v[2] && v[1] > 1000) {
		t.Errorf("triad 1 GiB: median %g, interval [%g, %g]", v[0], v[1], v[2])
	}
	args = []string{"summary", "--dataset", "h200-2026-12-02-setuploops", "--group", "hbm", "--wide"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "summary --wide", out, "median_gbps_lo", "median_gbps_hi", "median_total_ms_lo", "median_total_ms_hi", "median_kernel_ms")

	// Published figures (one value each) have no interval; a wide dataset
	// drops kernel_ms and cv_pct and says so, never cutting a label.
	code, out, errs = umbench(t, "summary", "--dataset", "paper-gb200")
	wantCode(t, []string{"summary", "paper-gb200"}, 0, code, out, errs)
	if regexp.MustCompile(`\d \[`).MatchString(out) {
		t.Errorf("published figures shown with an interval:\n%s", out)
	}
	code, out, errs = umbench(t, "summary", "--dataset", "h200-2026-12-02-setuploops", "--all")
	wantCode(t, []string{"summary", "setuploops"}, 0, code, out, errs)
	contains(t, "suite summary", out, "left out to fit 120 columns", "page_touch managed_cold 256 MiB every 64 KiB", "e-4 [")
	if strings.Contains(out, "…") {
		t.Errorf("a configuration label was cut:\n%s", out)
	}
}

func TestModelPointsAndAdviseIntervals(t *testing.T) {
	args := []string{"model", "--dataset", "h200-2026-12-02-setuploops", "--points"}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "model --points", out, "Validation points", "measured ms [95% CI]", "APE % [95% CI]")
	if !regexp.MustCompile(`explicit_copy\s+1 GiB\s+32\s+\S+ \[\S+, \S+\]`).MatchString(out) {
		t.Errorf("no interval on the explicit_copy 1 GiB R=32 point:\n%s", out)
	}
	args = []string{"advise", "--size", "1GiB", "--reuse", "4", "--dataset", "h200-2026-12-02-setuploops"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "advise", out, "Measured at 1 GiB (95% bootstrap intervals):", "95 % CI")
	// Published parameters have no trials: no measured line.
	args = []string{"advise", "--size", "1GiB", "--reuse", "4", "--dataset", "paper-gb200"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	if strings.Contains(out, "Measured at") {
		t.Errorf("advise on published figures claims a measured interval:\n%s", out)
	}
}

func TestDecomposeCompact(t *testing.T) {
	args := []string{"decompose", "--dataset", "h200counters-2026-12-03-quick"}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "decompose", out, "total_ms", "migr%", "managed stream managed_cold 256 MiB", "terms in % of total_ms", "* measured")
	if strings.Contains(out, "…") {
		t.Errorf("a configuration label was cut:\n%s", out)
	}
	// Percentages of one row add up to 100 (residual included).
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "managed stream managed_cold 256 MiB ") {
			continue
		}
		sum := 0.0
		for _, f := range strings.Fields(l)[6:] {
			v, err := strconv.ParseFloat(strings.TrimSuffix(f, "*"), 64)
			if err == nil {
				sum += v
			}
		}
		if math.Abs(sum-100) > 4 { // each rounded to a whole percent
			t.Errorf("terms add up to %g %%: %s", sum, l)
		}
	}
	args = append(args, "--wide")
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "decompose --wide", out, "access HBM", "dominant")
}

func TestCheckDatasetRun(t *testing.T) {
	args := []string{"check", "--baseline", "h200-2026-12-02-setuploops", "--dataset", "h200live-2026-12-01"}
	code, out, errs := umbench(t, args...)
	if code != 0 && code != 1 {
		t.Fatalf("umbench %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errs)
	}
	contains(t, "check", out, "run h200live-2026-12-01 against baseline h200-2026-12-02-setuploops", "configurations on NVIDIA H200")
	code, out, errs = umbench(t, "check", "--baseline", "h200-2026-12-02-setuploops", "--dataset", "h200live-2026-12-01", "somedir")
	wantCode(t, []string{"check", "two runs"}, 2, code, out, errs)
}

func TestWidthHelpers(t *testing.T) {
	for _, c := range []struct {
		m    float64
		ci   stats.Interval
		want string
	}{
		{4355.2, stats.Interval{Lo: 4353.1, Hi: 4356.4}, "4355 [4353, 4356]"},
		{12.97, stats.Interval{Lo: 12.5, Hi: 13.4}, "12.97 [12.50, 13.40]"},
		{0.0007063, stats.Interval{Lo: 0.0006933, Hi: 0.0007384}, "7.06e-4 [6.93e-4, 7.38e-4]"},
		{155, stats.NaN(), "155.0"},
		{math.NaN(), stats.NaN(), ""},
	} {
		if got := withCI(c.m, c.ci); got != c.want {
			t.Errorf("withCI(%g, %v) = %q, want %q", c.m, c.ci, got, c.want)
		}
	}
	for v, want := range map[float64]string{4355.2: "4355", 0.00416: "0.00416", 12345.6: "12346", 999.96: "1000"} {
		if got := results.Sig4(v); got != want {
			t.Errorf("sig4(%g) = %q, want %q", v, got, want)
		}
	}
	// Prose breaks under the last column, never inside a size.
	line := "1 GiB    explicit_copy  managed  " + strings.Repeat("word ", 20) + "at R* = 72483, outside 64 KiB"
	got := fitLines(line, 60)
	for _, l := range strings.Split(got, "\n") {
		if len([]rune(l)) > 60 {
			t.Errorf("line %q longer than 60", l)
		}
	}
	if lines := strings.Split(got, "\n"); len(lines) < 2 || !strings.HasPrefix(lines[1], strings.Repeat(" ", 33)+"word") {
		t.Errorf("continuation not under the last column:\n%s", got)
	}
	if strings.Contains(got, "64\n") {
		t.Errorf("broke inside a size:\n%s", got)
	}
}

// An interleaved handoff run's summary reads in order (policy, phase, size,
// R), not in the shuffled order the configurations were measured in.
func TestSummaryHandoffOrder(t *testing.T) {
	args := []string{"summary", "--dataset", "h200-2026-12-02-setuploops", "--group", "handoff"}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	var labels []string
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 2 && f[0] == "handoff" {
			labels = append(labels, strings.Join(f[1:3], " "))
		}
	}
	if len(labels) < 10 || labels[0] != "explicit_copy cpu_only" || labels[len(labels)-1] != "managed_prefetch alternating" {
		t.Fatalf("handoff rows out of order: first %q, last %q", labels[0], labels[len(labels)-1])
	}
	if i, j := strings.Index(out, "explicit_copy alternating 16 MiB R=2 "), strings.Index(out, "explicit_copy alternating 16 MiB R=4 "); i < 0 || j < i {
		t.Errorf("R=2 not before R=4 (%d, %d)", i, j)
	}
}
