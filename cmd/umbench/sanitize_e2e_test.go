package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/results"
)

// umbenchBin runs the umbench binary on the simulated GPU and returns its
// exit code and its standard output and error.
func umbenchBin(t *testing.T, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Env = append(append(os.Environ(), "UMLAB_SIMULATE=1"), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String()
}

// Planted in the data: a clear-screen sequence, an OSC 8 hyperlink
// ending in BEL, and a right-to-left override.
const (
	plantESC = "\x1b[2J\x1b]8;;http://x\x07"
	plantRLO = "\u202e"
	// A line break in meta.json, which must not start a line of its own.
	plantLine = "\r\nforged: PASS"
)

// plantLabels rewrites a merged two-GPU directory with terminal escapes
// and a right-to-left override in its labels: the device name, platform
// and notes of meta.json (and of each part in fleet.json), the parts'
// labels in fleet.json, and the platform column of results.csv (which
// refuses control characters, but not U+202E).
func plantLabels(t *testing.T, dir string) {
	t.Helper()
	rows, meta, err := results.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	platform := meta.Platform + plantRLO
	for i := range rows {
		rows[i].Platform = platform
	}
	meta.Platform, meta.Device.Name = platform, meta.Device.Name+plantESC+plantRLO+plantLine
	meta.Notes = append(meta.Notes, "note "+plantESC+plantRLO)
	var buf bytes.Buffer
	if err := results.WriteCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteFileAtomic(filepath.Join(dir, results.CSVName), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteMetadata(filepath.Join(dir, results.MetaName), meta); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, fleet.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	var man map[string]any
	if err := json.Unmarshal(b, &man); err != nil {
		t.Fatal(err)
	}
	for _, p := range man["parts"].([]any) {
		p := p.(map[string]any)
		p["label"] = p["label"].(string) + plantESC + plantRLO + plantLine
		m := p["meta"].(map[string]any)
		m["platform"] = platform
		m["device"].(map[string]any)["name"] = meta.Device.Name
	}
	if b, err = json.Marshal(man); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, fleet.ManifestName), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// No terminal escape or bidi override from a data file reaches the
// terminal raw, whatever the command and whatever it prints (a table, a
// CSV, JSON, Markdown, a warning or an error): each is written as a
// visible Go escape. The labels are shown, escaped, where commands name
// the device and the parts, and a line break in a label never starts a
// line (but inside a quoted CSV field).
func TestE2ELabelsReachTheTerminalEscaped(t *testing.T) {
	root := filepath.Join(t.TempDir(), "fleet")
	if code, _, e := umbenchBin(t, []string{"UMLAB_SIM_GPUS=2"}, "run", "--gpus", "all", "--quick", "--groups", "hbm",
		"--trials", "3", "--warmups", "1", "--out", root); code != 0 {
		t.Fatalf("fleet run: exit %d\n%s", code, e)
	}
	dir := filepath.Join(t.TempDir(), "merged")
	if code, _, e := umbenchBin(t, nil, "merge", root, "--out", dir); code != 0 {
		t.Fatalf("merge: exit %d\n%s", code, e)
	}
	plantLabels(t, dir)
	shown := map[string]string{} // command → output
	for _, args := range [][]string{
		{"summary", dir}, {"summary", dir, "--all"}, {"summary", dir, "--wide"}, {"summary", dir, "--format", "csv"},
		{"summary", dir, "--fleet", "x" + plantESC + plantRLO},
		{"compare", dir}, {"compare", dir, "--format", "csv"},
		{"reproduce", dir}, {"reproduce", dir, "--format", "md"}, {"reproduce", dir, "--format", "csv"},
		{"check", "--baseline", dir, dir}, {"check", "--baseline", dir, dir, "--format", "json"},
		{"check", "--baseline", dir, dir, "--format", "csv"},
		{"model", dir}, {"decompose", dir}, {"counters", dir}, {"advise", "--data", dir, "--size", "1GiB"},
		{"datasets", dir}, {"merge", dir, "--out", filepath.Join(t.TempDir(), "again")},
		{"report", dir, "--out", filepath.Join(t.TempDir(), "r.html")},
	} {
		code, out, errs := umbenchBin(t, nil, args...)
		all := out + errs
		name := strings.Join(args[:min(len(args), 1)], " ")
		shown[name] += all
		for _, bad := range []string{"\x1b", "\x07", plantRLO} {
			if strings.Contains(all, bad) {
				t.Errorf("umbench %q (exit %d) wrote %q raw:\n%s", args, code, bad, all)
			}
		}
		if csv := slices.Contains(args, "csv"); !csv && strings.Contains(all, "\nforged") { // (a CSV quotes it)
			t.Errorf("umbench %q (exit %d) let a line break from meta.json or fleet.json start a line:\n%s", args, code, all)
		}
	}
	esc := `\x1b[2J\x1b]8;;http://x\x07\u202e`
	for cmd, want := range map[string]string{"summary": esc, "compare": `\u202e`, "check": `\u202e`} {
		if !strings.Contains(shown[cmd], want) {
			t.Errorf("umbench %s never showed the planted label escaped (%s):\n%s", cmd, want, shown[cmd])
		}
	}
}

// unescaped returns the characters of s among chars not written as a
// Markdown backslash escape.
func unescaped(s, chars string) string {
	var out []byte
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\':
			i++
		case strings.IndexByte(chars, s[i]) >= 0:
			out = append(out, s[i])
		}
	}
	return string(out)
}

// reproduce --format md keeps a hostile platform name text: raw HTML, a
// table cell separator and a javascript: link are escaped, so that every
// row keeps its seven cells and no tag or link forms.
func TestE2EReproduceMarkdownEscapes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, e := umbenchBin(t, nil, runArgs(dir)...); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, e)
	}
	rows, meta, err := results.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	evil := `Fake<img src=x onerror="alert(1)"> | [x](javascript:alert(1))`
	for i := range rows {
		rows[i].Platform = evil
	}
	meta.Platform = evil
	var buf bytes.Buffer
	if err := results.WriteCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteFileAtomic(filepath.Join(dir, results.CSVName), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteMetadata(filepath.Join(dir, results.MetaName), meta); err != nil {
		t.Fatal(err)
	}
	code, out, errs := umbenchBin(t, nil, "reproduce", dir, "--format", "md")
	if code != 0 {
		t.Fatalf("reproduce --format md: exit %d\n%s", code, errs)
	}
	shown := 0
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "| **") {
			continue
		}
		if got := unescaped(l, "|"); len(got) != 7 {
			t.Errorf("a row has %d cell separators, want 7: %s", len(got), l)
		}
		if got := unescaped(l, "<>[]()"); got != "" {
			t.Errorf("a row keeps %q unescaped: %s", got, l)
		}
		shown += strings.Count(l, `Fake\<img src=x onerror="alert\(1\)"\> \| \[x\]\(javascript:alert\(1\)\)`)
	}
	if shown == 0 {
		t.Errorf("no row shows the platform, escaped:\n%s", out)
	}
}
