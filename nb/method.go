package nb

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/go-gota/gota/dataframe"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/plots"
	"github.com/umlab/umlab/results"
)

// Method displays, for the local rows of the last Data call, how they
// were measured (plots.Methods: warm-ups, trials, sizes, timer, rewrite,
// device, commit) and their quality flags: each flag, what it means and
// how many configurations carry it.
func Method() {
	if len(last.local) == 0 {
		Note("No local run is loaded: the paper publishes one number per configuration, without its trials.")
		return
	}
	Markdown(Text(plots.Methods(last.local, last.meta)))
	sum := results.Summarize(last.local, last.meta.Device.SummaryOptions())
	Markdownf("**Quality flags** of these %d configurations:", len(sum))
	Table(plots.Flags(sum))
}

// summaryLines are the sentences of Summary: every reading of the
// notebook's figures about the local platform (all of them when there is
// none), and the count of its claims' verdicts.
func summaryLines(notebook string) ([]string, error) {
	var lines []string
	for _, n := range plots.Catalog() {
		if n.Notebook != notebook {
			continue
		}
		s, err := Draw(n.ID)
		if errors.Is(err, plots.ErrNoData) {
			continue
		}
		if err != nil {
			return nil, err
		}
		local := regexp.MustCompile(`\b` + regexp.QuoteMeta(Local()) + `\b`)
		for _, r := range s.Reading {
			if Local() == "" || local.MatchString(r) {
				lines = append(lines, r)
			}
		}
	}
	if len(last.local) > 0 {
		head, _, _, err := claimsParts(notebook)
		if err != nil {
			return nil, err
		}
		lines = append(lines, strings.Trim(strings.SplitN(head, ":** ", 2)[1], "."))
	}
	return lines, nil
}

// Summary displays what a notebook showed on the data it loaded, in
// sentences computed from its figures' numbers, with the count of its
// claims' verdicts.
func Summary(notebook string) {
	lines, err := summaryLines(notebook)
	if err != nil {
		fail(err)
		return
	}
	if len(lines) == 0 {
		Note("These data hold nothing this notebook draws.")
		return
	}
	Markdown("**What this notebook showed on these data:**\n\n" + bullets(lines))
}

// adviceModel is the model Advise uses: fitted to the local platform's
// handoff rows when they allow it, else Table III's (GB200).
func adviceModel() (*model.Model, string, error) {
	if _, err := Load(results.GroupHandoff); err != nil {
		return nil, "", err
	}
	rows := last.local
	if gpus := distinctGPUs(rows); len(gpus) > 1 {
		rows = plots.Where(rows, results.ColGPUUUID, gpus[0]) // one GPU's model, not two pooled
	}
	for _, f := range model.FitEach(rows, model.Options{}) {
		if f.Err == nil {
			return f.Report.Model, fmt.Sprintf("fitted to %s's handoff sweep", f.Platform), nil
		}
	}
	ps, err := datasets.ModelParameters("paper-gb200")
	if err != nil {
		return nil, "", err
	}
	m, err := model.NewModel(model.Params(ps))
	return m, "Table III's, GB200 (no local handoff sweep is loaded)", err
}

// Advise is the decision guide: for a workload of sizeBytes that the GPU
// passes over reuse times per CPU update, it ranks the policies by the
// model's predicted time per iteration (the local platform's model when
// one can be fitted, else Table III's), says why with the break-even R*,
// and states the rule that follows.
func Advise(sizeBytes int64, reuse float64) {
	m, from, err := adviceModel()
	if err != nil {
		fail(err)
		return
	}
	a, err := model.Advise(m, model.Workload{SizeBytes: sizeBytes, Reuse: reuse})
	if err != nil {
		fail(err)
		return
	}
	Markdownf("**Your workload:** %s, R = %s; the model %s.", results.FormatBytes(sizeBytes), results.FormatNumber(reuse), from)
	Table(rankingFrame(a))
	md := "- " + Text(a.Why)
	if be := a.BreakEven; be.Kind == model.Crosses && !math.IsNaN(be.R) {
		md += fmt.Sprintf("\n- **Rule:** at this size choose %s for R below %s and %s above it.", Text(be.Below), results.FormatNumber(be.R), Text(be.Above))
	}
	for _, w := range append(a.Notes, a.Warnings...) {
		md += "\n- " + Text(w)
	}
	Markdown(md)
}

// rankingFrame lays an advice's ranking out: policy, predicted time and
// how its parameters were obtained at the workload's size.
func rankingFrame(a *model.Advice) dataframe.DataFrame {
	return results.Build(a.Ranking,
		results.StringField(results.ColPolicy, func(r *model.Ranked) string { return r.Policy }),
		results.FloatField("predicted_ms", func(r *model.Ranked) float64 { return r.PredictedMs }),
		results.FloatField("f_ms", func(r *model.Ranked) float64 { return r.F }),
		results.FloatField("g_ms_per_pass", func(r *model.Ranked) float64 { return r.G }),
		results.StringField("parameters", func(r *model.Ranked) string { return r.How.String() }))
}
