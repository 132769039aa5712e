package check

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// TableWidth is the width WriteTable keeps to unless asked for wide output.
const TableWidth = 120

// WriteTable prints the report as aligned text: a header naming both
// sides, one line per configuration (failures and warnings first), the
// notes and the summary line. Unless wide, long labels and reasons are cut
// so that lines fit TableWidth columns.
func (r *Report) WriteTable(w io.Writer, wide bool) error {
	fmt.Fprintf(w, "%s: run %s against baseline %s\n", r.GPU, r.Run, r.Baseline)
	fmt.Fprintf(w, "change: run median / baseline median - 1, %g %% bootstrap interval; fail: interval below -%g %%, warn: below -%g %%\n",
		100*r.Confidence, r.FailPct, r.WarnPct)
	fmt.Fprintf(w, "(or unverified trials); n: trials of run/baseline; failures and warnings first\n\n")
	multi := r.RunGPUs > 1
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	head := []string{"configuration"}
	if multi {
		head = append(head, "gpu")
	}
	head = append(head, "n", "base GB/s", "run GB/s", "chg %", "interval %", "verdict")
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	labelMax, reasonMax := 50, 13
	if multi {
		labelMax = 40
	}
	for _, res := range r.sorted() {
		label, reason := res.Group+" "+res.Configuration, res.Reason
		if !wide {
			label, reason = cut(label, labelMax), cut(reason, reasonMax)
		}
		f := []string{label}
		if multi {
			f = append(f, shortGPU(res.GPU))
		}
		verdict := string(res.Verdict)
		if res.Verdict == Fail || res.Verdict == Warn {
			verdict = strings.ToUpper(verdict)
		}
		if reason != "" {
			verdict += " " + reason
		}
		f = append(f, fmt.Sprintf("%d/%d", res.RunN, res.BaselineN), num(res.BaselineGBps), num(res.RunGBps),
			pct(res.Ratio), interval(res.Lo, res.Hi), verdict)
		fmt.Fprintln(tw, strings.Join(f, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, line := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	if len(r.Notes) > 0 {
		fmt.Fprintln(w)
		for _, n := range r.Notes {
			fmt.Fprintln(w, "note: "+n)
		}
	}
	fmt.Fprintln(w)
	_, err := fmt.Fprintln(w, r.SummaryLine)
	return err
}

// sorted puts failures first, then warnings, passes and skips, keeping the
// run's order within each.
func (r *Report) sorted() []Result {
	rank := map[Verdict]int{Fail: 0, Warn: 1, Pass: 2, Skip: 3}
	out := make([]Result, 0, len(r.Results))
	for v := 0; v < 4; v++ {
		for _, res := range r.Results {
			if rank[res.Verdict] == v {
				out = append(out, res)
			}
		}
	}
	return out
}

// WriteCSV writes one line per configuration with full precision.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"verdict", "group", "configuration", "gpu", "host", "run_n", "baseline_n",
		"baseline_median_gbps", "run_median_gbps", "ratio", "ratio_lo", "ratio_hi", "reason", "key"})
	for _, res := range r.Results {
		cw.Write([]string{string(res.Verdict), res.Group, res.Configuration, res.GPU, res.Host,
			strconv.Itoa(res.RunN), strconv.Itoa(res.BaselineN), full(res.BaselineGBps), full(res.RunGBps),
			full(res.Ratio), full(res.Lo), full(res.Hi), res.Reason, res.Key})
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes the report as indented JSON (NaN as null).
func (r *Report) WriteJSON(w io.Writer) error {
	type jr struct {
		Result
		RunGBps      *float64 `json:"run_median_gbps"`
		BaselineGBps *float64 `json:"baseline_median_gbps"`
		Ratio        *float64 `json:"ratio"`
		Lo           *float64 `json:"ratio_lo"`
		Hi           *float64 `json:"ratio_hi"`
	}
	ptr := func(v float64) *float64 {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		return &v
	}
	out := struct {
		*Report
		Results []jr `json:"results"`
	}{Report: r}
	for _, res := range r.Results {
		out.Results = append(out.Results, jr{res, ptr(res.RunGBps), ptr(res.BaselineGBps), ptr(res.Ratio), ptr(res.Lo), ptr(res.Hi)})
	}
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(out)
}

func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func shortGPU(uuid string) string {
	u := strings.TrimPrefix(uuid, "GPU-")
	if len(u) > 8 {
		return u[:8]
	}
	return u
}

func num(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

func pct(ratio float64) string {
	if math.IsNaN(ratio) {
		return "-"
	}
	return fmt.Sprintf("%+.1f", 100*(ratio-1))
}

func interval(lo, hi float64) string {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return "-"
	}
	return fmt.Sprintf("[%+.1f,%+.1f]", 100*(lo-1), 100*(hi-1))
}

func full(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
