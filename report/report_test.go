package report_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/umlab/umlab/claims"
	"github.com/umlab/umlab/report"
)

// Strings from a run (its command, notes, host) are escaped.
func TestEscapes(t *testing.T) {
	ref, err := claims.Load("h200-2026-11-30-suite")
	if err != nil {
		t.Fatal(err)
	}
	m := ref.Meta
	m.Command = `umbench run --out "<script>alert(1)</script>"`
	m.Notes = append(m.Notes, `<img src=x onerror=alert(2)>`)
	run, err := claims.NewRun(`<b>run</b>`, ref.Rows, m)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := report.Write(&b, run, report.Options{}); err != nil {
		t.Fatal(err)
	}
	h := b.String()
	for _, bad := range []string{"<script>alert", "<img src=x", "<b>run</b>"} {
		if strings.Contains(h, bad) {
			t.Errorf("unescaped %q in the report", bad)
		}
	}
	if !strings.Contains(h, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Error("escaped command missing")
	}
}

// Render the report of the paper's GB10 figures; a run without a handoff
// sweep says so in the model section.
func ExampleWrite() {
	run, err := claims.Load("paper-gb10")
	if err != nil {
		fmt.Println(err)
		return
	}
	var b bytes.Buffer
	if err := report.Write(&b, run, report.Options{}); err != nil {
		fmt.Println(err)
		return
	}
	h := b.String()
	fmt.Println(strings.HasPrefix(h, "<!DOCTYPE html>"))
	fmt.Println(strings.Contains(h, "This run has no handoff sweep"))
	fmt.Println(strings.Count(h, `src="data:image/png;base64,`) > 0)
	// Output:
	// true
	// true
	// true
}
