package check

import (
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/umlab/umlab/results"
)

// WriteTable prints the report as aligned text: the two headline
// verdicts, one line per resource, the configurations that failed or are
// inconclusive (every configuration when all), the notes and the summary
// line. Unless wide, long labels and reasons are cut so that lines fit
// results.TableWidth columns.
func (r *Report) WriteTable(w io.Writer, wide, all bool) error {
	fmt.Fprintf(w, "%s: run %s against baseline %s\n", r.GPUModel, r.Run, r.Baseline)
	fmt.Fprintf(w, "GPU %s, host %s\n\n", strings.ToUpper(string(r.GPU)), strings.ToUpper(string(r.Host)))
	say := func(text string) {
		for _, l := range results.Wrap(text, results.TableWidth) {
			fmt.Fprintln(w, l)
		}
	}
	say(fmt.Sprintf("Each change (run / baseline - 1) is judged against the larger of -%g %% and the variation a healthy node shows "+
		"(tol, the interval's half-width: the trials' noise and the spread between processes): fail beyond both, inconclusive "+
		"beyond -%g %% but within the variation, pass otherwise. Resources: the weighted mean change of their configurations, "+
		"%g %% intervals Bonferroni-adjusted within the GPU and the host; configurations: a failure stands at a %g %% "+
		"false-discovery rate. Variation: %s.", r.FailPct, r.FailPct, 100*r.Confidence, 100*r.FDR, r.Variation))
	fmt.Fprintln(w)
	if err := r.writeResources(w, wide); err != nil {
		return err
	}
	fmt.Fprintln(w)
	if err := r.writeResults(w, wide, all); err != nil {
		return err
	}
	if len(r.Notes) > 0 {
		fmt.Fprintln(w)
		for _, n := range r.Notes {
			say("note: " + n)
		}
	}
	fmt.Fprintln(w)
	_, err := fmt.Fprintln(w, r.SummaryLine)
	return err
}

// writeResources writes the table of resources.
func (r *Report) writeResources(w io.Writer, wide bool) error {
	rows := [][]string{{"resource", "configs", "chg %", "tol %", "verdict", "slowest"}}
	for _, res := range r.Resources {
		name := res.Class + " " + res.Resource
		if r.RunGPUs > 1 {
			name += " " + results.ShortGPU(res.GPU)
		}
		worst := strings.Join(res.Worst, "; ")
		if !wide {
			worst = results.CutRunes(worst, 48)
		}
		rows = append(rows, []string{name, strconv.Itoa(res.Configurations), pct(res.Ratio), fmt.Sprintf("%.1f", res.TolerancePct),
			verdictText(res.Verdict), worst})
	}
	return writeLines(w, results.AlignLines(rows))
}

// writeResults writes the table of configurations that failed or are
// inconclusive (every one when all).
func (r *Report) writeResults(w io.Writer, wide, all bool) error {
	multi := r.RunGPUs > 1
	head := []string{"configuration"}
	if multi {
		head = append(head, "gpu")
	}
	head = append(head, "resource", "n", "base GB/s", "run GB/s", "chg %", "tol %", "verdict")
	rows := [][]string{head}
	labelMax, reasonMax := 44, 30
	if multi {
		labelMax = 36
	}
	hidden := 0
	for _, res := range r.sorted() {
		if !all && (res.Verdict == Pass || res.Verdict == Skip) {
			hidden++
			continue
		}
		label, reason := res.Group+" "+res.Configuration, res.Reason
		if !wide {
			label, reason = results.CutRunes(label, labelMax), results.CutRunes(reason, reasonMax)
		}
		f := []string{label}
		if multi {
			f = append(f, results.ShortGPU(res.GPU))
		}
		v := verdictText(res.Verdict)
		if reason != "" {
			v += " " + reason
		}
		f = append(f, res.Resource, fmt.Sprintf("%d/%d", res.RunN, res.BaselineN), num(res.BaselineGBps), num(res.RunGBps),
			pct(res.Ratio), tol(res.TolerancePct), v)
		rows = append(rows, f)
	}
	if err := writeLines(w, results.AlignLines(rows)); err != nil {
		return err
	}
	if hidden > 0 {
		fmt.Fprintf(w, "(%d configurations passed or were skipped; --all lists every one)\n", hidden)
	}
	return nil
}

// writeLines writes each line and a line break.
func writeLines(w io.Writer, lines []string) error {
	_, err := io.WriteString(w, strings.Join(lines, "\n")+"\n")
	return err
}

func verdictText(v Verdict) string {
	if v == Fail {
		return "FAIL"
	}
	return string(v)
}

// sorted puts failures first, then inconclusive results, passes and skips,
// keeping the run's order within each.
func (r *Report) sorted() []Result {
	out := slices.Clone(r.Results)
	slices.SortStableFunc(out, func(a, b Result) int { return cmp.Compare(severity[b.Verdict], severity[a.Verdict]) })
	return out
}

// WriteCSV writes one line per configuration with full precision.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"verdict", "group", "configuration", "resource", "gpu", "host", "run_n", "baseline_n", "run_runs", "baseline_runs",
		"baseline_median_gbps", "run_median_gbps", "ratio", "ratio_lo", "ratio_hi", "tolerance_pct", "spread_pct", "p", "reason", "key"})
	for _, res := range r.Results {
		cw.Write([]string{string(res.Verdict), res.Group, res.Configuration, res.Resource, res.GPU, res.Host,
			strconv.Itoa(res.RunN), strconv.Itoa(res.BaselineN), strconv.Itoa(res.RunRuns), strconv.Itoa(res.BaselineRuns),
			full(res.BaselineGBps), full(res.RunGBps), full(res.Ratio), full(res.Lo), full(res.Hi),
			full(res.TolerancePct), full(res.SpreadPct), full(res.P), res.Reason, res.Key})
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes the report as indented JSON, every number JSON cannot
// hold (NaN where nothing was measured or judged, ±Inf) as null: a check
// whose configurations were all skipped has no ratio, interval or
// tolerance anywhere.
func (r *Report) WriteJSON(w io.Writer) error {
	type jsonResult struct {
		Result
		RunGBps      jsonFloat `json:"run_median_gbps"`
		BaselineGBps jsonFloat `json:"baseline_median_gbps"`
		Ratio        jsonFloat `json:"ratio"`
		Lo           jsonFloat `json:"ratio_lo"`
		Hi           jsonFloat `json:"ratio_hi"`
		SpreadPct    jsonFloat `json:"spread_pct"`
		TolerancePct jsonFloat `json:"tolerance_pct"`
		P            jsonFloat `json:"p"`
	}
	type jsonResource struct {
		ResourceResult
		Ratio        jsonFloat `json:"ratio"`
		Lo           jsonFloat `json:"ratio_lo"`
		Hi           jsonFloat `json:"ratio_hi"`
		Level        jsonFloat `json:"level"`
		TolerancePct jsonFloat `json:"tolerance_pct"`
	}
	out := struct {
		*Report
		Confidence jsonFloat      `json:"confidence"`
		FailPct    jsonFloat      `json:"fail_pct"`
		FDR        jsonFloat      `json:"fdr"`
		Resources  []jsonResource `json:"resources"`
		Results    []jsonResult   `json:"results"`
	}{Report: r, Confidence: jsonFloat(r.Confidence), FailPct: jsonFloat(r.FailPct), FDR: jsonFloat(r.FDR)}
	for _, x := range r.Resources {
		out.Resources = append(out.Resources, jsonResource{x, jsonFloat(x.Ratio), jsonFloat(x.Lo), jsonFloat(x.Hi),
			jsonFloat(x.Level), jsonFloat(x.TolerancePct)})
	}
	for _, x := range r.Results {
		out.Results = append(out.Results, jsonResult{x, jsonFloat(x.RunGBps), jsonFloat(x.BaselineGBps), jsonFloat(x.Ratio),
			jsonFloat(x.Lo), jsonFloat(x.Hi), jsonFloat(x.SpreadPct), jsonFloat(x.TolerancePct), jsonFloat(x.P)})
	}
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(out)
}

// jsonFloat is a number that JSON writes as null where it cannot hold it
// (NaN, ±Inf).
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(f))
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

func tol(v float64) string {
	if math.IsNaN(v) || v == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", v)
}

func full(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
