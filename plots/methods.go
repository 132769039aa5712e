package plots

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/go-gota/gota/dataframe"

	"github.com/umlab/umlab/results"
)

// Methods says how a run measured, in one paragraph for the methods
// section of a report or a notebook's method box, from its rows and its
// metadata (meta.json): the device, driver, module commit and command;
// per benchmark group the warm-ups and trials of each configuration and
// the sizes swept; the timer; how the CPU-written states were
// re-established; and that simulated data are not measurements.
func Methods(rows []results.Row, m results.Metadata) string {
	if m.Kind == "published" {
		return fmt.Sprintf("%s: the figures the paper states for %s (%d configurations, one number each, with the section each comes from). "+
			"The paper reports 5 warm-ups and 25 trials per configuration (the handoff: 20 trials, 3 repetitions) and does not publish the trials.",
			m.RunID, m.Platform, len(split(rows, By(identity...))))
	}
	var b strings.Builder
	if results.Simulated(rows) {
		b.WriteString(results.SimulatedBanner + ". ")
	}
	d := m.Device
	fmt.Fprintf(&b, "Measured on %s", cmp.Or(d.Name, "–"))
	if d.DriverVersion != "" {
		fmt.Fprintf(&b, " (driver %s)", d.DriverVersion)
	}
	if !m.Start.IsZero() {
		fmt.Fprintf(&b, " on %s", m.Start.UTC().Format("2006-01-02"))
	}
	if m.Commit != "" {
		fmt.Fprintf(&b, " by umlab at commit %s", m.Commit[:min(12, len(m.Commit))])
	}
	if m.Command != "" {
		fmt.Fprintf(&b, " with `%s`", m.Command)
	}
	b.WriteString(". ")
	var groups []string
	for _, g := range split(Where(rows, results.ColWaived, false), By(results.ColGroup)) {
		groups = append(groups, groupMethod(g.label, g.rows))
	}
	if len(groups) > 0 {
		b.WriteString("Each configuration ran its warm-ups (run, not kept), then its trials: " + strings.Join(groups, "; ") + ". ")
	}
	b.WriteString("Every trial is timed with CUDA events around the measured region on its own stream and verified after it; " +
		"bandwidth is useful bytes over kernel time, 1 GB = 10^9 bytes. ")
	switch w := results.PlanRewrite(m); w {
	case "":
	case "reallocate":
		b.WriteString("Before each cold, prefetched or advised trial the CPU-written array was freed and allocated again (`--rewrite reallocate`). ")
	case "home":
		b.WriteString("Before each cold, prefetched or advised trial the CPU wrote the array in place after its pages were brought home (`--rewrite home`). ")
	default:
		fmt.Fprintf(&b, "CPU-written states were re-established per trial by %s (`--rewrite`, by group). ", w)
	}
	return strings.TrimSpace(b.String())
}

// groupMethod says one group's warm-ups, trials per configuration and
// sizes: "managed: 5 warm-ups, 25 trials, 8 sizes from 64 KiB to 1 GiB".
func groupMethod(group string, rows []results.Row) string {
	warm := map[int64]int{}
	trials := map[int]int{}
	for _, g := range split(rows, By(identity...)) {
		warm[g.rows[0].Warmups]++
		trials[len(g.rows)]++
	}
	s := group + ": " + counts(warm, "warm-up") + ", " + counts(trials, "trial")
	var sz []float64
	for _, v := range distinct(column(rows, results.ColSizeBytes)) {
		if v > 0 {
			sz = append(sz, v)
		}
	}
	switch len(sz) {
	case 0:
	case 1:
		s += ", " + size(sz[0])
	default:
		s += fmt.Sprintf(", %d sizes from %s to %s", len(sz), size(sz[0]), size(sz[len(sz)-1]))
	}
	return s
}

// counts writes how many configurations had each count: "5 warm-ups", or
// "25 trials (60 for 3 configurations)".
func counts[K int | int64](c map[K]int, unit string) string {
	ks := slices.SortedFunc(maps.Keys(c), func(a, b K) int { return cmp.Or(cmp.Compare(c[b], c[a]), cmp.Compare(a, b)) })
	s := fmt.Sprintf("%d %s", ks[0], unit)
	if ks[0] != 1 {
		s += "s"
	}
	var rest []string
	for _, k := range ks[1:] {
		rest = append(rest, fmt.Sprintf("%d for %d configurations", k, c[k]))
	}
	if len(rest) > 0 {
		s += " (" + strings.Join(rest, ", ") + ")"
	}
	return s
}

// flagMeaning says what each quality flag of results.Summarize means.
var flagMeaning = []struct{ flag, meaning string }{
	{results.FlagShortKernel, "the median kernel is under 50 µs, so the timer and the launch weigh in the figure"},
	{results.FlagHighCV, "the trials vary by more than 5 % of their mean (coefficient of variation): the median is less certain"},
	{results.FlagAbovePeak, "faster than the device's theoretical peak: the byte count is suspect"},
	{results.FlagUnverified, "some trial's result was not verified"},
	{results.FlagThrottled, "the GPU reported a throttle reason during the run"},
	{results.FlagWaived, "not supported on this system (a row that says why)"},
}

// Flags lays out the quality flags of a run's summaries: each flag, what
// it means and how many configurations carry it (every flag, so that a
// legend is complete with zero counts).
func Flags(sum []results.SummaryRow) dataframe.DataFrame {
	n := map[string]int{}
	for _, s := range sum {
		for _, f := range s.Flags {
			n[f]++
		}
	}
	type F = struct{ flag, meaning string }
	return results.Build(flagMeaning,
		results.StringField("flag", func(f *F) string { return f.flag }),
		results.IntField("configurations", func(f *F) int { return n[f.flag] }),
		results.StringField("meaning", func(f *F) string { return f.meaning }))
}
