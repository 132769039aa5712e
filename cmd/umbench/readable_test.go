package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func maxWidth(s string) int {
	w := 0
	for _, l := range strings.Split(s, "\n") {
		w = max(w, len([]rune(l)))
	}
	return w
}

func TestCompareDataset(t *testing.T) {
	args := []string{"compare", "--dataset", "h200x2-2026-11-29-isolated"}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "compare", out, "fleet median", "over 2 GPUs", "per GPU", "of 2 GPUs flagged")
	if w := maxWidth(out); w > 120 {
		t.Errorf("compare table is %d columns wide", w)
	}
	args = []string{"compare", "--dataset", "h200x2-2026-11-29-isolated", "--wide"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "compare --wide", out, "gpu_uuid", "GPU-57761561-1aea-8f36-e5e2-6476bd8c0380")

	// Both embedded runs: isolated and concurrent are compared apart.
	args = []string{"compare", "--dataset", "h200x2-2026-11-29-isolated,h200x2-2026-11-29-concurrent", "--group", "hbm"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "compare both", out, "· isolated —", "· concurrent (2 at once) —", "h200x2-2026-11-29-concurrent:")

	args = []string{"compare", "--dataset", "no-such-dataset"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 2, code, out, errs)
	contains(t, "stderr", errs, "no-such-dataset")
}

func TestSummaryFleet(t *testing.T) {
	args := []string{"summary", "--dataset", "h200x2-2026-11-29-isolated", "--group", "hbm"}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "summary", out, "gpu", "57761561", "bb5ca406", "256 MiB")
	if w := maxWidth(out); w > 120 {
		t.Errorf("summary is %d columns wide", w)
	}

	// A directory holding both fleet modes of the same GPUs: never pooled.
	dir := t.TempDir()
	var csv []byte
	for i, d := range []string{"h200x2-2026-11-29-isolated", "h200x2-2026-11-29-concurrent"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "datasets", d, "results.csv"))
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			b = b[strings.IndexByte(string(b), '\n')+1:]
		}
		csv = append(csv, b...)
	}
	os.WriteFile(filepath.Join(dir, "results.csv"), csv, 0o644)
	meta, _ := os.ReadFile(filepath.Join("..", "..", "datasets", "h200x2-2026-11-29-isolated", "meta.json"))
	os.WriteFile(filepath.Join(dir, "meta.json"), meta, 0o644)
	args = []string{"summary", dir, "--group", "hbm"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "mixed summary", out, "fleet=isolated", "fleet=concurrent")
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "hbm ") && strings.Contains(l, "  10  ") {
			t.Errorf("isolated and concurrent trials pooled (n = 10): %q", l)
		}
	}
	args = []string{"summary", dir, "--format", "csv"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 2, code, out, errs)
	contains(t, "stderr", errs, "never pooled", "--fleet")
	args = []string{"summary", dir, "--format", "csv", "--fleet", "concurrent"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)

	// Every embedded dataset's default table fits 120 columns.
	for _, d := range []string{"h200-2026-11-30-suite", "h200-2026-11-29-full", "paper-gb200"} {
		code, out, errs := umbench(t, "summary", "--dataset", d)
		wantCode(t, []string{"summary", d}, 0, code, out, errs)
		if w := maxWidth(out); w > 120 {
			t.Errorf("summary --dataset %s is %d columns wide", d, w)
		}
	}
}
