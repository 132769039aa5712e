package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/results"
)

func maxWidth(s string) int {
	w := 0
	for _, l := range strings.Split(s, "\n") {
		w = max(w, len([]rune(l)))
	}
	return w
}

// fleetCopy writes the two-GPU dataset into a results directory, with
// mode "concurrent" as a concurrent fleet run of another run ID (the mode
// is in each row's note).
func fleetCopy(t *testing.T, mode string) string {
	t.Helper()
	rows, meta, err := datasets.Load("h200x2-2026-11-29-isolated")
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if !strings.Contains(rows[i].Note, "fleet=isolated") {
			t.Fatalf("the two-GPU dataset's row %d names no fleet mode: %q", i, rows[i].Note)
		}
		rows[i].Note = strings.ReplaceAll(rows[i].Note, "fleet=isolated", "fleet="+mode)
		rows[i].RunID += "-" + mode
	}
	dir := t.TempDir()
	var buf bytes.Buffer
	if err := results.WriteCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, results.CSVName), buf.Bytes(), 0o644)
	if err := results.WriteMetadata(filepath.Join(dir, results.MetaName), meta); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCompareDataset(t *testing.T) {
	args := []string{"compare", "--dataset", "h200x2-2026-11-29-isolated"}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "compare", out, "fleet median", "over 2 GPUs", "per GPU", "of 2 GPUs flagged",
		"(gpu_memory)", "tol_pct", "calibrated on NVIDIA H200", "5 % false-discovery rate")
	if w := maxWidth(out); w > 120 {
		t.Errorf("compare table is %d columns wide", w)
	}
	args = []string{"compare", "h200x2-2026-11-29-isolated", "--wide"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "compare --wide", out, "gpu_uuid", "GPU-57761561-1aea-8f36-e5e2-6476bd8c0380")

	// Isolated and concurrent runs are compared apart.
	args = []string{"compare", fleetCopy(t, "concurrent"), fleetCopy(t, "isolated"), "--group", "hbm"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "compare both", out, "· isolated —", "· concurrent")

	args = []string{"compare", "--dataset", "no-such-dataset"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 1, code, out, errs)
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
	dir := fleetCopy(t, "concurrent")
	b, err := os.ReadFile(filepath.Join(fleetCopy(t, "isolated"), results.CSVName))
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(filepath.Join(dir, results.CSVName), os.O_APPEND|os.O_WRONLY, 0)
	f.Write(b[strings.IndexByte(string(b), '\n')+1:])
	f.Close()
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
}
