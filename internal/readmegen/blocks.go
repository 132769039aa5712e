package main

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/stats"
)

// blocks makes each block's text from the canonical datasets.
var blocks = map[string]func() (string, error){
	"quick":         quick,
	"full-run":      fullRun,
	"results":       resultsTable,
	"model":         modelParagraph,
	"check":         checkBlock,
	"claims":        claimsBlock,
	"check-figures": checkFigures,
}

func blockNames() []string { return slices.Sorted(maps.Keys(blocks)) }

// quick is the first screen's sentence on how long the quick suite takes.
func quick() (string, error) {
	_, m, err := datasets.Load(datasets.CanonicalQuick)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("It measures every group at a few sizes and trials (%s on an %s, %s:\n`datasets/%s`) and ends with a digest of what it measured and the next command.\n",
		minSec(m.End.Sub(m.Start)), m.Platform, m.Start.Format("2006-01-02"), datasets.CanonicalQuick), nil
}

// fullRun says which run the results come from and where its time went.
func fullRun() (string, error) {
	rows, m, err := datasets.Load(datasets.CanonicalFull)
	if err != nil {
		return "", err
	}
	d := m.Device
	host := fmt.Sprintf("%s, PCIe Gen%d x%d, driver %s", d.Name, d.PCIeGeneration, d.PCIeWidth, d.DriverVersion)
	if d.CPU != "" {
		host += fmt.Sprintf(", host CPU %q", d.CPU)
	}
	var trials int
	for _, r := range rows {
		if !r.Waived {
			trials++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s. Every figure below comes from one run of the whole default suite at the paper's settings, at commit `%.7s`: `datasets/%s`, `%s`, %s, %s trials in %s. Where the time went, as `umbench summary` prints it from `meta.json`:\n\n```\n",
		host, m.Commit, datasets.CanonicalFull, m.Command, m.Start.Format("2006-01-02"), thousands(trials), minSec(m.End.Sub(m.Start)))
	parts, spans := results.ByPart(m.GroupTimes)
	for _, p := range parts {
		fmt.Fprintf(&b, "wall time by group: %s\nspent on:\n", results.FormatGroupWall(spans[p]))
		for _, l := range strings.Split(results.FormatGroupParts(spans[p]), "\n") {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	b.WriteString("```\n")
	return b.String(), nil
}

// cell names the configurations of one table cell: a row of the run and
// of the paper's GB200 dataset, matched on these columns.
type cell struct {
	group, bench, mode, direction string
	size                          int64
	oversubPct                    float64 // 0: none
	pattern                       string  // "": any, for the paper's rows that leave it open
}

func (c cell) match(r results.Row) bool {
	return r.Group == c.group && r.Benchmark == c.bench && r.Mode == c.mode && r.Direction == c.direction &&
		(c.oversubPct == 0 && r.SizeBytes == c.size || c.oversubPct > 0 && r.OversubPct == c.oversubPct) &&
		(c.pattern == "" || r.Pattern == c.pattern)
}

// trials returns the verified trials of the one configuration of rows c
// names, or an error if it names none or several (a cell never pools).
func (c cell) trials(rows []results.Row) ([]float64, error) {
	var x []float64
	key := ""
	for _, r := range rows {
		if !c.match(r) || r.Waived || !r.Verified {
			continue
		}
		k := results.ConfigKey(r)
		if key != "" && k != key {
			return nil, fmt.Errorf("%+v names several configurations: %s and %s", c, key, k)
		}
		key = k
		x = append(x, r.GBps)
	}
	if len(x) == 0 {
		return nil, fmt.Errorf("no trials of %+v", c)
	}
	return x, nil
}

var table = []struct {
	label string
	cells []cell
}{
	{"triad, 1 GiB per array (HBM)", []cell{{"hbm", "triad", "explicit", "", 1 << 30, 0, ""}}},
	{"copy, 1 GiB", []cell{{"hbm", "copy", "explicit", "", 1 << 30, 0, ""}}},
	{"pinned copy h2d / d2h, 1 GiB", []cell{{"transfer", "copy", "pinned", "h2d", 1 << 30, 0, ""}, {"transfer", "copy", "pinned", "d2h", 1 << 30, 0, ""}}},
	{"host-mapped triad, 1 GiB", []cell{{"host", "triad", "host_mapped", "", 1 << 30, 0, ""}}},
	{"managed prefetch CPU→GPU / GPU→CPU, 1 GiB", []cell{{"transfer", "prefetch", "managed", "h2d", 1 << 30, 0, ""}, {"transfer", "prefetch", "managed", "d2h", 1 << 30, 0, ""}}},
	{"streaming kernel, 256 MiB: explicit / cold / prefetched / reused", []cell{
		{"managed", "stream", "explicit", "", 256 << 20, 0, ""}, {"managed", "stream", "managed_cold", "", 256 << 20, 0, ""},
		{"managed", "stream", "managed_prefetch", "", 256 << 20, 0, ""}, {"managed", "stream", "managed_reuse", "", 256 << 20, 0, ""}}},
	{"streaming kernel, 1 GiB: cold / prefetched / reused", []cell{
		{"managed", "stream", "managed_cold", "", 1 << 30, 0, ""}, {"managed", "stream", "managed_prefetch", "", 1 << 30, 0, ""},
		{"managed", "stream", "managed_reuse", "", 1 << 30, 0, ""}}},
	{"oversubscription 90 %, streaming: cold / prefetched / reused", []cell{
		{"oversub", "stream", "managed_cold", "", 0, 90, "streaming"}, {"oversub", "stream", "managed_prefetch", "", 0, 90, "streaming"},
		{"oversub", "stream", "managed_reuse", "", 0, 90, "streaming"}}},
}

// resultsTable is the H200 against GB200 table: each cell the median of
// the configuration's trials with its 95 % bootstrap interval, as
// `umbench summary` computes it, beside the paper's figure.
func resultsTable() (string, error) {
	rows, _, err := datasets.Load(datasets.CanonicalFull)
	if err != nil {
		return "", err
	}
	paper, _, err := datasets.Load("paper-gb200")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| measurement (`%s`), GB/s | H200: median (95 %% interval) | GB200 (paper) |\n| --- | --- | --- |\n", datasets.CanonicalFull)
	for _, t := range table {
		var ours, theirs []string
		for _, c := range t.cells {
			x, err := c.trials(rows)
			if err != nil {
				return "", fmt.Errorf("%s: %w", datasets.CanonicalFull, err)
			}
			ci := stats.MedianCI(x, 0.95, results.SummaryResamples, 1)
			d := results.Decimals4(ci.Est)
			f := func(v float64) string { return strconv.FormatFloat(v, 'f', d, 64) }
			ours = append(ours, fmt.Sprintf("%s (%s–%s)", f(ci.Est), f(ci.Lo), f(ci.Hi)))
			p := "—"
			for _, r := range paper {
				if c.match(r) && !math.IsNaN(r.GBps) {
					p = results.Sig4(r.GBps)
				}
			}
			theirs = append(theirs, p)
		}
		if strings.Trim(strings.Join(theirs, ""), "— /") == "" {
			theirs = []string{"—"}
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", t.label, strings.Join(ours, " / "), strings.Join(theirs, " / "))
	}
	return b.String(), nil
}

// modelParagraph is `umbench model`'s headline on the full run, with its
// per-policy errors at the largest size and the calibration's noise.
func modelParagraph() (string, error) {
	rows, _, err := datasets.Load(datasets.CanonicalFull)
	if err != nil {
		return "", err
	}
	rep, err := model.Fit(rows, model.Options{})
	if err != nil {
		return "", err
	}
	var largest int64
	for _, c := range rep.Calibration {
		largest = max(largest, c.SizeBytes)
	}
	var per []string
	for _, c := range rep.Calibration {
		if c.SizeBytes == largest {
			per = append(per, fmt.Sprintf("%s %.2f / %.2f %%", c.Policy, c.MedianAPE, c.MaxAPE))
		}
	}
	return fmt.Sprintf("On `%s` (`umbench model --dataset %s`): %s. Median / maximum APE per policy at %s: %s.\n",
		datasets.CanonicalFull, datasets.CanonicalFull, rep.Headline(), results.FormatBytes(largest), strings.Join(per, ", ")), nil
}

// minSec writes d to the second, e.g. "17 m 59 s" (or "37 s").
func minSec(d time.Duration) string {
	d = d.Round(time.Second)
	if d < time.Minute {
		return fmt.Sprintf("%d s", int(d.Seconds()))
	}
	return fmt.Sprintf("%d m %d s", int(d.Minutes()), int(d.Seconds())%60)
}

// thousands writes n with a comma between thousands.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
