package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umlab/umlab/results"
)

func TestCheck(t *testing.T) {
	fake(t)
	tmp := t.TempDir()
	base, runDir := filepath.Join(tmp, "base"), filepath.Join(tmp, "run")
	args := []string{"run", "--quick", "--groups", "hbm,managed", "--out", base}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)

	// Without RUN_DIR: a quick run of the baseline's groups, then the check.
	args = []string{"check", "--baseline", base, "--out", runDir}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "check table", out, "GPU PASS", "configuration", "tol %")
	contains(t, "check stderr", errs, "measuring the quick suite (hbm,managed)")
	for _, line := range strings.Split(out, "\n") {
		if len([]rune(line)) > 120 && !strings.HasPrefix(line, "check ") {
			t.Errorf("line wider than 120 columns: %q", line)
		}
	}

	// JSON and CSV.
	args = []string{"check", "--baseline", base, runDir, "--format", "json"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	var rep struct {
		Verdict string `json:"gpu_verdict"`
		Results []any  `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Verdict != "pass" || len(rep.Results) == 0 {
		t.Fatalf("json: %v %+v\n%s", err, rep, out)
	}
	args = []string{"check", "--baseline", base, runDir, "--format", "csv"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "csv", out, "verdict,group,configuration")

	// A planted 10 % regression of device memory fails with exit 1.
	rows, meta, err := results.LoadDir(runDir)
	if err != nil {
		t.Fatal(err)
	}
	slow := filepath.Join(tmp, "slow")
	os.MkdirAll(slow, 0o755)
	for i, r := range rows {
		if r.Group == "hbm" || r.Mode == "explicit" || r.Mode == "managed_prefetch" || r.Mode == "managed_reuse" {
			rows[i].GBps *= 0.9
		}
	}
	f, _ := os.Create(filepath.Join(slow, results.CSVName))
	if err := results.WriteCSV(f, rows); err != nil {
		t.Fatal(err)
	}
	f.Close()
	results.WriteMetadata(filepath.Join(slow, results.MetaName), meta)
	args = []string{"check", "--baseline", base, slow}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 1, code, out, errs)
	contains(t, "regression", out, "GPU FAIL", "gpu gpu_memory")
	contains(t, "stderr", errs, "check failed")

	// A measured baseline is refused for a simulated run.
	args = []string{"check", "--baseline", "h200-2026-12-03-quick", runDir}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 1, code, out, errs)
	contains(t, "stderr", errs, "not comparable", "simulated")

	// Bad input.
	for _, a := range [][]string{
		{"check", runDir},
		{"check", "--baseline", base, "--format", "xml", runDir},
		{"check", "--baseline", base, "--groups", "hbm", runDir},
		{"check", "--baseline", base, "--warn-pct", "9", runDir},
	} {
		code, out, errs := umbench(t, a...)
		wantCode(t, a, 2, code, out, errs)
	}
}
