package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umlab/umlab/results"
)

// plantLost marks two of the three trials of hbm copy 1 MiB unverified
// and removes one trial of hbm triad 1 MiB from dir's results.csv.
func plantLost(t *testing.T, dir string) {
	t.Helper()
	rows, _, err := results.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var kept []results.Row
	seen := map[string]int{}
	for _, r := range rows {
		seen[r.Benchmark]++
		switch {
		case r.Group == "hbm" && r.Benchmark == "copy" && seen["copy"] > 1:
			r.Verified = false
		case r.Group == "hbm" && r.Benchmark == "triad" && seen["triad"] == 3:
			continue
		}
		kept = append(kept, r)
	}
	var buf bytes.Buffer
	if err := results.WriteCSV(&buf, kept); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteFileAtomic(filepath.Join(dir, results.CSVName), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// summaryLine returns the table or CSV line of an hbm configuration.
func summaryLine(t *testing.T, out, config string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "hbm") && strings.Contains(l, config) {
			return l
		}
	}
	t.Fatalf("no line for %s:\n%s", config, out)
	return ""
}

// Unverified trials are left out of every statistic, and every command
// that computes from trials says how many, in one line (stdout before a
// table, stderr beside CSV); summary flags the configuration that lost
// them, and one with fewer trials than the run planned (3 here), with n
// as "used/planned". check fails the configuration whose trials failed
// verification where the baseline's passed.
func TestE2EUnverifiedTrialsCounted(t *testing.T) {
	root := filepath.Join(t.TempDir(), "fleet")
	if code, _, e := umbenchBin(t, []string{"UMLAB_SIM_GPUS=2"}, "run", "--gpus", "all", "--quick", "--groups", "hbm,handoff",
		"--sizes", "1MiB", "--trials", "3", "--warmups", "1", "--out", root); code != 0 {
		t.Fatalf("fleet run: exit %d\n%s", code, e)
	}
	dir, clean := filepath.Join(root, "vm", "gpu0"), filepath.Join(root, "vm", "gpu1")
	plantLost(t, dir)
	const line = "2 unverified trials left out of every statistic: hbm copy explicit 1 MiB (2 of 3)"
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"summary", dir}, 0}, {[]string{"summary", dir, "--format", "csv"}, 0},
		{[]string{"compare", root}, 0}, {[]string{"compare", root, "--format", "csv"}, 0},
		{[]string{"model", dir}, 0}, {[]string{"model", dir, "--format", "csv"}, 0},
		{[]string{"decompose", dir}, 0}, {[]string{"decompose", dir, "--format", "csv"}, 0},
		{[]string{"reproduce", dir}, 0}, {[]string{"reproduce", dir, "--format", "csv"}, 0},
		{[]string{"check", "--baseline", clean, dir, "--all", "--wide"}, 1}, {[]string{"check", "--baseline", clean, dir, "--format", "json"}, 1},
	} {
		code, out, errs := umbenchBin(t, nil, c.args...)
		if code != c.code {
			t.Errorf("umbench %q: exit %d, want %d\n%s%s", c.args, code, c.code, out, errs)
			continue
		}
		where := out
		if slices := c.args[len(c.args)-1]; slices == "csv" || slices == "json" {
			where = errs
		}
		if strings.Count(where, line) != 1 {
			t.Errorf("umbench %q does not say %q once on its %s:\nstdout:\n%s\nstderr:\n%s", c.args, line,
				map[bool]string{true: "stdout", false: "stderr"}[where == out], out, errs)
		}
		if c.args[0] == "check" && !strings.Contains(out, "2 of 3 trials failed verification") {
			t.Errorf("check does not fail hbm copy 1 MiB for its unverified trials:\n%s", out)
		}
	}
	_, out, _ := umbenchBin(t, nil, "summary", dir, "--all")
	copyLine, triadLine := summaryLine(t, out, "copy explicit 1 MiB"), summaryLine(t, out, "triad explicit 1 MiB")
	if !strings.Contains(copyLine, " 1/3 ") || !strings.Contains(copyLine, results.FlagUnverified) {
		t.Errorf("hbm copy lost 2 of 3 trials to verification, want n 1/3 and %s: %s", results.FlagUnverified, copyLine)
	}
	if !strings.Contains(triadLine, " 2/3 ") || !strings.Contains(triadLine, flagFewerTrials) || strings.Contains(triadLine, results.FlagUnverified) {
		t.Errorf("hbm triad has 2 of 3 planned trials, want n 2/3 and %s only: %s", flagFewerTrials, triadLine)
	}
	for _, want := range []string{flagFewerTrials + ": fewer trials than the run planned", "n a/b: a trials used of the b"} {
		if !strings.Contains(out, want) {
			t.Errorf("the legend lacks %q:\n%s", want, out)
		}
	}
	_, csv, _ := umbenchBin(t, nil, "summary", dir, "--format", "csv")
	if !strings.Contains(summaryLine(t, csv, "hbm,triad,explicit,,,,,1048576"), flagFewerTrials) {
		t.Errorf("summary --format csv does not flag hbm triad 1 MiB %s:\n%s", flagFewerTrials, csv)
	}
	// A run without them says nothing of the kind.
	for _, args := range [][]string{{"summary", clean, "--all"}, {"model", clean}, {"check", "--baseline", clean, clean}} {
		_, out, errs := umbenchBin(t, nil, args...)
		if strings.Contains(out+errs, "unverified") || strings.Contains(out+errs, flagFewerTrials) || strings.Contains(out, "/3 ") {
			t.Errorf("umbench %q on a whole run:\n%s%s", args, out, errs)
		}
	}
}
