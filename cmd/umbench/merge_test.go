package main

import (
	"path/filepath"
	"regexp"
	"testing"
)

// TestMergeKeepsGroupTimes: a merged directory keeps each part's group
// times, and summary shows them part by part, never added up (parts may
// have run at the same time).
func TestMergeKeepsGroupTimes(t *testing.T) {
	root := t.TempDir()
	var parts []string
	for _, h := range []string{"a", "b"} {
		dir := filepath.Join(root, h, "gpu0")
		args := []string{"run", "--simulate", "--quick", "--groups", "hbm,host", "--out", dir}
		code, out, errs := umbench(t, args...)
		wantCode(t, args, 0, code, out, errs)
		parts = append(parts, filepath.Join(root, h))
	}
	merged := filepath.Join(root, "merged")
	args := append([]string{"merge", "--out", merged}, parts...)
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	args = []string{"summary", "--data", merged, "--all"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	heads := regexp.MustCompile(`(?m)^wall time by group, (\S+): hbm \S+, host \S+ \(\S+ in groups\)$`).FindAllStringSubmatch(out, -1)
	if len(heads) != 2 || heads[0][1] == heads[1][1] {
		t.Fatalf("summary of a merge of two runs: want each run's group times under its own label, got:\n%s", out)
	}
	if n := len(regexp.MustCompile(`(?m)^  hbm \S+: timed `).FindAllString(out, -1)); n != 2 {
		t.Errorf("summary gives %d parts' hbm time split, want 2:\n%s", n, out)
	}
}
