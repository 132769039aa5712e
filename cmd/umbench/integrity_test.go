package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
	"github.com/umlab/umlab/umkit/simgpu"
)

// Every bad number or list on run's command line is refused with exit 2
// before a device is opened or a file written.
func TestRunBadInputRejectedEarly(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--oversub-pcts", "NaN"}, "--oversub-pcts"},
		{[]string{"--oversub-pcts", "Inf"}, "--oversub-pcts"},
		{[]string{"--oversub-pcts", "-25"}, "--oversub-pcts"},
		{[]string{"--oversub-pcts", "1e400"}, "--oversub-pcts"},
		{[]string{"--trials", "-1"}, "--trials"},
		{[]string{"--trials", "99999999999999999999"}, "-trials"},
		{[]string{"--trials", "1000000"}, "--trials"},
		{[]string{"--warmups", "-2"}, "--warmups"},
		{[]string{"--sizes", "NaN"}, "--sizes"},
		{[]string{"--sizes", "Inf"}, "--sizes"},
		{[]string{"--sizes", "-1MiB"}, "--sizes"},
		{[]string{"--sizes", "99999TiB"}, "--sizes"},
		{[]string{"--groups", ",,"}, "--groups"},
		{[]string{"--groups", "hbm,,managed"}, "--groups"},
		{[]string{"--groups", ""}, "--groups"},
		{[]string{"--bench", ","}, "--bench"},
		{[]string{"--gpu", "-1"}, "--gpu -1"},
		{[]string{"--kernel-timeout", "-1s"}, "--kernel-timeout"},
		{[]string{"--kernel-timeout", "soon"}, "-kernel-timeout"},
		{[]string{"--gpus", "0", "--worker-timeout", "-1s"}, "--worker-timeout"},
		{[]string{"--gpus", "0", "--worker-stall", "-5m"}, "--worker-stall"},
		{[]string{"--rewrite", "fresh"}, `--rewrite "fresh": allowed reallocate or home`},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			args := append(append([]string{"run"}, c.args...), "--out", dir)
			opens := 0
			old := openDevice
			openDevice = func(int) (umkit.Device, error) { opens++; return nil, errors.New("no GPU in this test") }
			defer func() { openDevice = old }()
			code, out, errs := umbench(t, args...)
			wantCode(t, args, 2, code, out, errs)
			contains(t, "stderr", errs, c.want)
			if opens > 0 {
				t.Errorf("the device was opened before the command line was rejected")
			}
			if _, err := os.Stat(dir); err == nil {
				t.Errorf("a bad command line created %s", dir)
			}
		})
	}
	// A flag whose value is missing: at the end, or swallowing the next flag.
	for _, args := range [][]string{{"run", "--out"}, {"run", "--out", "--resume"}, {"summary", "--data", "--group", "hbm"}} {
		code, out, errs := umbench(t, args...)
		wantCode(t, args, 2, code, out, errs)
		contains(t, "stderr", errs, "-"+strings.TrimLeft(args[1], "-"))
		if _, err := os.Stat("--resume"); err == nil {
			t.Error("created a directory named --resume")
		}
	}
}

func TestAdviseAndCompareBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"advise", "--size", "1GiB", "--pattern", "zigzag"},
		{"advise", "--size", "1GiB", "--reuse", "NaN"},
		{"advise", "--size", "1GiB", "--reuse", "Inf"},
		{"advise", "--size", "NaN"},
		{"compare", "--tolerance", "NaN", "x"},
		{"compare", "--max-z", "Inf", "x"},
		{"compare", "--mad-floor", "NaN", "x"},
		{"compare", "--fdr", "0", "x"},
		{"compare", "--fdr", "1.5", "x"},
	} {
		code, out, errs := umbench(t, args...)
		wantCode(t, args, 2, code, out, errs)
	}
	code, out, errs := umbench(t, "advise", "--size", "1GiB", "--pattern", "random")
	wantCode(t, nil, 0, code, out, errs)
}

// writeDir writes a results directory from CSV text.
func writeDir(t *testing.T, csv string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, results.CSVName), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Corrupt results files: every reading command refuses them with file:line.
func TestReadingCommandsRejectCorruptFiles(t *testing.T) {
	head := "group,benchmark,mode,size_bytes,trial,run_id,kernel_ms,total_ms,gbps,note\n"
	good := "hbm,triad,explicit,1048576,0,r,1,1,3,\n"
	cases := map[string]struct{ csv, want string }{
		"negative time":  {head + good + "hbm,triad,explicit,1048576,1,r,-1,1,3,\n", "results.csv:3:"},
		"infinite rate":  {head + good + "hbm,triad,explicit,1048576,1,r,1,1,Inf,\n", "results.csv:3:"},
		"negative size":  {head + "hbm,triad,explicit,-4096,0,r,1,1,3,\n", "results.csv:2:"},
		"duplicated":     {head + good + good, "results.csv:3:"},
		"control bytes":  {head + "hbm,triad,explicit,1048576,0,r,1,1,3,\x1b[2J\n", "results.csv:2:"},
		"header only":    {head, "holds no rows"},
		"torn last line": {head + good + "hbm,tri", "results.csv:3:"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := writeDir(t, c.csv)
			for _, args := range [][]string{
				{"summary", dir}, {"model", "--data", dir}, {"compare", dir, dir}, {"decompose", "--data", dir},
			} {
				code, out, errs := umbench(t, args...)
				if code == 0 {
					t.Errorf("%v accepted a file with %s:\n%s", args, name, out)
				}
				if args[0] == "summary" {
					contains(t, "stderr", errs, c.want)
				}
				if strings.Contains(errs, "panic") {
					t.Errorf("%v: %s", args, errs)
				}
			}
		})
	}
	// A results.csv that is a link to an endless device is refused, not read.
	dir := t.TempDir()
	if err := os.Symlink("/dev/zero", filepath.Join(dir, results.CSVName)); err == nil {
		// With a real meta.json, so that the fleet commands read the file.
		meta, err := os.ReadFile(filepath.Join("..", "..", "datasets", "h200-2026-12-03-quick", results.MetaName))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, results.MetaName), meta, 0o644)
		out2 := filepath.Join(t.TempDir(), "merged")
		for _, args := range [][]string{{"summary", dir}, {"compare", dir, dir}, {"merge", "--out", out2, dir}} {
			code, out, errs := umbench(t, args...)
			if code == 0 || !strings.Contains(errs, "not a regular file") {
				t.Errorf("%v with results.csv → /dev/zero: exit %d\n%s%s", args, code, out, errs)
			}
		}
	}
}

// Simulated rows get a banner and never mix with measured ones.
func TestSimulatedSummaryBannerAndNoMixing(t *testing.T) {
	t.Setenv(EnvSimulate, "1")
	dir := filepath.Join(t.TempDir(), "sim")
	args := []string{"run", "--quick", "--groups", "hbm", "--trials", "3", "--warmups", "1", "--out", dir}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	code, out, errs = umbench(t, "summary", dir)
	wantCode(t, nil, 0, code, out, errs)
	contains(t, "summary", out, results.SimulatedBanner)
	// Measured rows appended by hand: the mix is refused.
	rows := readRows(t, dir)
	m := rows[0]
	m.Simulated, m.RunID = false, "measured-run"
	var buf bytes.Buffer
	results.WriteCSV(&buf, append(rows, m))
	os.WriteFile(filepath.Join(dir, results.CSVName), buf.Bytes(), 0o644)
	for _, a := range [][]string{{"summary", dir}, {"model", "--data", dir}, {"compare", dir, dir}} {
		code, out, errs = umbench(t, a...)
		if code == 0 || !strings.Contains(errs, "simulated and measured rows are mixed") {
			t.Errorf("%v on mixed rows: exit %d\n%s", a, code, errs)
		}
	}
}

// Fault knobs reach the simulated device: a smaller memory, a failing
// allocation, several GPUs.
func TestSimulateKnobs(t *testing.T) {
	t.Setenv(EnvSimulate, "1")
	t.Setenv(simgpu.EnvFailAlloc, "3")
	dir := filepath.Join(t.TempDir(), "out")
	args := []string{"run", "--quick", "--groups", "hbm", "--trials", "3", "--warmups", "1", "--out", dir}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 1, code, out, errs)
	contains(t, "stderr", errs, "injected failure", "kept in "+dir)
	if n := len(readRows(t, dir)); n != 3 {
		t.Errorf("%d rows kept, want 3", n)
	}
	t.Setenv(simgpu.EnvFailAlloc, "")

	t.Setenv(simgpu.EnvMemory, "256MiB")
	code, out, errs = umbench(t, "info")
	wantCode(t, nil, 0, code, out, errs)
	contains(t, "info", out, "256 MiB total")

	t.Setenv(simgpu.EnvGPUs, "2")
	code, out, errs = umbench(t, "info", "--gpu", "1")
	wantCode(t, nil, 0, code, out, errs)
	contains(t, "info", out, "GPU 1", "000000000001")
	code, out, errs = umbench(t, "info", "--gpu", "2")
	wantCode(t, nil, 1, code, out, errs)
	contains(t, "stderr", errs, "no simulated GPU 2")

	t.Setenv(simgpu.EnvHangAfter, "zero")
	code, out, errs = umbench(t, "info")
	wantCode(t, nil, 2, code, out, errs)
	contains(t, "stderr", errs, simgpu.EnvHangAfter)
	t.Setenv(simgpu.EnvHangAfter, "")
	t.Setenv(simgpu.EnvDropLaunch, "0")
	code, out, errs = umbench(t, "info")
	wantCode(t, nil, 2, code, out, errs)
	contains(t, "stderr", errs, simgpu.EnvDropLaunch, "from 1")
	t.Setenv(simgpu.EnvDropLaunch, "")

	for _, bad := range []string{"lots", "0", "105MiB@", "105MiB@none", "@512MiB"} {
		t.Setenv(simgpu.EnvDriverKeeps, bad)
		code, out, errs = umbench(t, "info")
		wantCode(t, []string{simgpu.EnvDriverKeeps + "=" + bad, "info"}, 2, code, out, errs)
		contains(t, "stderr", errs, simgpu.EnvDriverKeeps, "SIZE@FROM")
	}
	t.Setenv(simgpu.EnvDriverKeeps, "105MiB@256MiB")
	code, out, errs = umbench(t, "info")
	wantCode(t, nil, 0, code, out, errs)
}

func TestDryRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	opens := 0
	old := openDevice
	openDevice = func(int) (umkit.Device, error) { opens++; return nil, errors.New("no GPU in this test") }
	defer func() { openDevice = old }()
	args := []string{"run", "--dry-run", "--quick", "--groups", "hbm,managed", "--out", dir}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "dry run", out, "configurations: 18", "  hbm: 4 configurations, 20 trial rows", "sizes 1 MiB, 256 MiB",
		"managed: 14 configurations", "estimate: about")
	if w := maxWidth(out); w > helpWidth || strings.Contains(out, "{") {
		t.Errorf("the dry run's plan is not readable text within %d columns (%d):\n%s", helpWidth, w, out)
	}
	if opens > 0 {
		t.Error("--dry-run opened the GPU")
	}
	if _, err := os.Stat(dir); err == nil {
		t.Error("--dry-run created --out")
	}
}

// A command whose output cannot be written exits non-zero.
func TestOutputWriteFailure(t *testing.T) {
	var errb bytes.Buffer
	code := run([]string{"datasets"}, failingWriter{}, &errb)
	if code == 0 {
		t.Errorf("datasets with an unwritable stdout: exit 0")
	}
	code = run([]string{"list"}, failingWriter{}, &errb)
	if code == 0 || !strings.Contains(errb.String(), "no space") {
		t.Errorf("list with an unwritable stdout: exit %d, stderr %q", code, errb.String())
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) {
	return 0, errors.New("write /dev/stdout: no space left on device")
}

var _ io.Writer = failingWriter{}

// Every command that reads simulated data says so: the banner heads its
// table (or, for csv and json, its stderr).
func TestSimulatedEverywhere(t *testing.T) {
	t.Setenv(EnvSimulate, "1")
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "sim")
	args := []string{"run", "--quick", "--groups", "hbm,handoff", "--sizes", "1MiB", "--trials", "2", "--warmups", "1", "--out", dir}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "run", out, results.SimulatedBanner)
	for _, args := range [][]string{
		{"summary", dir}, {"summary", dir, "--format", "csv"}, {"model", dir}, {"model", dir, "--format", "csv"},
		{"decompose", "--data", dir}, {"reproduce", dir}, {"reproduce", dir, "--format", "csv"},
		{"report", dir, "--out", filepath.Join(tmp, "r.html")}, {"check", "--baseline", dir, dir},
		{"check", "--baseline", dir, dir, "--format", "csv"}, {"merge", "--out", filepath.Join(tmp, "merged"), dir},
		{"advise", "--size", "1MiB", "--reuse", "4", dir}, {"info"},
	} {
		code, out, errs := umbench(t, args...)
		wantCode(t, args, 0, code, out, errs)
		if args[0] == "advise" && !strings.Contains(out, "calibrated on "+dir+"\n") {
			regression(t, "advise DIR calibrates on something else than DIR:\n%s", out)
		}
		if !strings.Contains(out+errs, results.SimulatedBanner) {
			t.Errorf("umbench %s: no SIMULATED banner\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), out, errs)
		}
		if len(args) > 2 && args[len(args)-2] == "--format" && strings.Contains(out, results.SimulatedBanner) {
			t.Errorf("umbench %s: the banner is in the data on stdout", strings.Join(args, " "))
		}
	}
}

// check measures without a GPU on the simulated one (--simulate or
// UMLAB_SIMULATE=1), and refuses a negative GPU ordinal.
func TestCheckSimulate(t *testing.T) {
	t.Setenv(EnvSimulate, "")
	tmp := t.TempDir()
	base := filepath.Join(tmp, "base")
	args := []string{"run", "--simulate", "--quick", "--groups", "hbm", "--out", base}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	args = []string{"check", "--simulate", "--baseline", base, "--out", filepath.Join(tmp, "run")}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	contains(t, "check --simulate", out, results.SimulatedBanner, "GPU PASS")
	t.Setenv(EnvSimulate, "1")
	args = []string{"check", "--baseline", base, "--out", filepath.Join(tmp, "run2")}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	for _, args := range [][]string{
		{"check", "--baseline", base, "--gpu", "-1", "--out", filepath.Join(tmp, "run3")},
		{"info", "--gpu", "-1"}, {"run", "--gpu", "-1", "--quick", "--out", filepath.Join(tmp, "run4")},
		{"check", "--baseline", base, "--simulate", base},
	} {
		code, out, errs := umbench(t, args...)
		wantCode(t, args, 2, code, out, errs)
		if args[len(args)-1] != base {
			contains(t, "stderr", errs, "--gpu -1: a GPU ordinal is 0 or more")
		}
	}
}

// A run checked against itself with one trial per configuration skips
// every configuration (too few trials): --format json still writes the
// report, with null where nothing was judged (it failed with "json:
// unsupported value: NaN").
func TestCheckJSONAllSkipped(t *testing.T) {
	t.Setenv(EnvSimulate, "")
	dir := filepath.Join(t.TempDir(), "one")
	args := []string{"run", "--simulate", "--quick", "--groups", "hbm", "--trials", "1", "--warmups", "0", "--out", dir}
	code, out, errs := umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	args = []string{"check", "--baseline", dir, dir, "--format", "json"}
	code, out, errs = umbench(t, args...)
	wantCode(t, args, 0, code, out, errs)
	var rep struct {
		Counts  struct{ Skip int } `json:"counts"`
		Results []map[string]any   `json:"results"`
		GPU     string             `json:"gpu_verdict"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("check --format json wrote no JSON: %v\n%s", err, out)
	}
	if rep.Counts.Skip != len(rep.Results) || len(rep.Results) == 0 || rep.GPU != "skip" {
		t.Fatalf("want every configuration skipped: %+v", rep)
	}
	if v, ok := rep.Results[0]["ratio"]; !ok || v != nil {
		t.Errorf("a skipped configuration's ratio: %v, want null", v)
	}
}
