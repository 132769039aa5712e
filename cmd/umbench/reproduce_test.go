package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// reproduce works on every canonical dataset in its table; md and csv on
// one of each kind (the formats only change how the same verdicts print).
func TestReproduceEveryDataset(t *testing.T) {
	for _, name := range canonical {
		formats := []string{"table"}
		if name == "paper-gb200" || name == "h200-2026-12-03-quick" {
			formats = append(formats, "md", "csv")
		}
		for _, f := range formats {
			var out, errb bytes.Buffer
			if code := run([]string{"reproduce", "--dataset", name, "--format", f}, &out, &errb); code != 0 {
				t.Errorf("reproduce --dataset %s --format %s: exit %d: %s", name, f, code, errb.String())
				continue
			}
			if !strings.Contains(out.String(), "V-C.cold-fraction") {
				t.Errorf("reproduce %s (%s): no claim in the output", name, f)
			}
		}
	}
}

func TestReproduceVerdicts(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"reproduce", "--dataset", "paper-gb200"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !regexp.MustCompile(`V-A\.triad-gb200-gh200 +V-A +1\.25× +1\.25× +reproduces`).MatchString(out.String()) {
		t.Errorf("paper-gb200 against its own GH200 figures should reproduce 1.25×:\n%s", out.String())
	}
	out.Reset()
	if code := run([]string{"reproduce", "--dataset", "h200-2026-12-03-quick,h200-2026-12-02-setuploops", "--section", "VII-B"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "VII-B.prefetch-removes-extra") || strings.Contains(out.String(), "V-C.") {
		t.Errorf("--section VII-B: %s", out.String())
	}
	for _, bad := range [][]string{
		{"reproduce"},
		{"reproduce", "--dataset", "paper-gb200", "--format", "xml"},
		{"reproduce", "--dataset", "paper-gb200", "--section", "XI"},
	} {
		errb.Reset()
		if code := run(bad, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", bad, code, errb.String())
		}
	}
	errb.Reset()
	if code := run([]string{"reproduce", "--dataset", "nonesuch"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "paper-gb200") {
		t.Errorf("unknown dataset: exit %d, %s", code, errb.String())
	}
}

// report writes one self-contained HTML file: no external reference, every
// figure a data URI, strings escaped.
func TestReportSelfContained(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.html")
	var so, se bytes.Buffer
	if code := run([]string{"report", "--dataset", "paper-gb200", "--out", out}, &so, &se); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	h := string(b)
	if n := strings.Count(h, `src="data:image/svg`); n < 8 {
		t.Errorf("%d embedded figures, want at least 8", n)
	}
	for _, bad := range []string{"http://", "https://", "<script", "ZgotmplZ"} {
		if strings.Contains(h, bad) {
			t.Errorf("report contains %q", bad)
		}
	}
	for _, want := range []string{"Device and provenance", "Summary with intervals and quality flags", "The reuse model", "VIII-C.crossover", "Table III"} {
		if !strings.Contains(h, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if code := run([]string{"report", "--dataset", "paper-gb200"}, &so, &se); code != 2 {
		t.Errorf("no --out: exit %d, want 2", code)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left beside the report: %v", entries)
	}
}
