package plots

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/go-gota/gota/dataframe"

	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// handoffRows keeps the phases the model uses, at the size nearest 1 GiB.
func handoffRows(rows []results.Row) []results.Row {
	rows = Where(rows, results.ColPhase, results.PhaseCPUOnly, results.PhaseGPUOnly, results.PhaseAlternating)
	return Nearest(rows, 1<<30)
}

// oneGPU keeps, of a platform measured on several GPUs, the first GPU's
// rows (a model fitted to two GPUs' rows would pool them), and says so.
func oneGPU(rows []results.Row) ([]results.Row, string) {
	var out []results.Row
	var notes []string
	for _, p := range Platforms(rows) {
		pr := Where(rows, results.ColPlatform, p)
		gpus := distinctOf(pr, results.ColGPUUUID)
		if len(gpus) > 1 {
			pr = Where(pr, results.ColGPUUUID, pr[0].GPUUUID)
			notes = append(notes, fmt.Sprintf("%s: GPU %s, the first of the %d GPUs measured.", p, gpus[0], len(gpus)))
		}
		out = append(out, pr...)
	}
	return out, strings.Join(notes, " ")
}

func drawHandoff(rows []results.Row) (*Shown, error) {
	rows, note := oneGPU(handoffRows(rows))
	_, models := fitted(rows)
	fig, err := HandoffReuse(rows, models, Options{})
	alt := Where(rows, results.ColPhase, results.PhaseAlternating)
	reading := []string{note}
	for _, p := range Platforms(alt) {
		reading = append(reading, fastestReading(Where(alt, results.ColPlatform, p), p))
	}
	return figure(at("CPU–GPU handoff", alt), fig, err, alt, results.ColReusePasses, results.ColTotalMs, reading...)
}

// fastestReading names the fastest policy at the smallest and largest R.
func fastestReading(rows []results.Row, platform string) string {
	rs := distinct(column(rows, results.ColReusePasses))
	if len(rs) < 2 {
		return ""
	}
	var parts []string
	for _, r := range []float64{rs[0], rs[len(rs)-1]} {
		best, bestPt := "", Point{Median: math.Inf(1)}
		for _, g := range split(Where(rows, results.ColReusePasses, r), By(results.ColPolicy)) {
			if pt, ok := pick(g.rows, results.ColTotalMs); ok && pt.Median < bestPt.Median {
				best, bestPt = g.label, pt
			}
		}
		if best == "" {
			return ""
		}
		parts = append(parts, fmt.Sprintf("at R = %g %s is fastest (%s)", r, best, ms(bestPt.Median)))
	}
	return "On " + platform + " " + and(parts) + "."
}

// costParts are the parts of one R = 1 iteration that the handoff rows
// time: the CPU update and the GPU pass alone (and their sum, the
// baseline), and, inside the alternating iteration, the CPU update, the
// copies, the prefetches and the GPU pass.
type costParts struct {
	platform, gpu, policy                  string
	cpuAlone, gpuAlone, base, total, extra float64
	cpuInside, copies, prefetches, kernels float64
}

func drawHandoffCost(rows []results.Row) (*Shown, error) {
	rows = Nearest(rows, 1<<30)
	var parts []costParts
	var drawn []results.Row
	gpus := len(distinctOf(rows, results.ColGPUUUID)) > 1
	for _, g := range split(rows, By(results.ColPlatform, results.ColGPUUUID, results.ColPolicy)) {
		if c, ok := costOf(g.rows); ok {
			if !gpus {
				c.gpu = ""
			}
			parts = append(parts, c)
			drawn = append(drawn, g.rows...)
		}
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("%w: no platform has the CPU-only, GPU-only and R = 1 times", ErrNoData)
	}
	type C = costParts
	f := func(name string, v func(c *C) float64) results.Field[C] { return results.FloatField(name, v) }
	fields := []results.Field[C]{results.StringField(results.ColPlatform, func(c *C) string { return c.platform })}
	if gpus {
		fields = append(fields, results.StringField("gpu", func(c *C) string { return c.gpu }))
	}
	df := results.Build(parts, append(fields,
		results.StringField(results.ColPolicy, func(c *C) string { return c.policy }),
		f("cpu_only_ms", func(c *C) float64 { return c.cpuAlone }),
		f("gpu_only_ms", func(c *C) float64 { return c.gpuAlone }),
		f("baseline_ms", func(c *C) float64 { return c.base }),
		f("alternating_ms", func(c *C) float64 { return c.total }),
		f("extra_ms", func(c *C) float64 { return c.extra }),
		f("cpu_inside_ms", func(c *C) float64 { return c.cpuInside }),
		f("copies_ms", func(c *C) float64 { return c.copies }),
		f("prefetches_ms", func(c *C) float64 { return c.prefetches }),
		f("gpu_inside_ms", func(c *C) float64 { return c.kernels }))...)
	var reading []string
	for _, c := range parts {
		reading = append(reading, costReading(c))
	}
	return &Shown{Title: at("Where the time of one R = 1 iteration goes", drawn), Table: df, Rows: drawn, Reading: reading}, nil
}

// costOf measures one policy's parts. Measured rows give the baseline and
// the extra as sums and differences of medians; the paper's rows state
// them (phases "baseline" and "extra").
func costOf(rows []results.Row) (costParts, bool) {
	med := func(phase, col string, reuse ...any) float64 {
		rs := Where(rows, results.ColPhase, phase)
		if len(reuse) > 0 {
			rs = Where(rs, results.ColReusePasses, reuse...)
		}
		if pt, ok := pick(rs, col); ok {
			return pt.Median
		}
		return math.NaN()
	}
	r := rows[0]
	alt := results.PhaseAlternating
	c := costParts{platform: r.Platform, gpu: formatValue(results.ColGPUUUID, r.GPUUUID), policy: r.Policy,
		cpuAlone: med(results.PhaseCPUOnly, results.ColTotalMs), gpuAlone: med(results.PhaseGPUOnly, results.ColTotalMs),
		total: med(alt, results.ColTotalMs, 1), cpuInside: med(alt, results.ColCPUMs, 1),
		copies: med(alt, results.ColTransferMs, 1), prefetches: med(alt, results.ColPrefetchMs, 1), kernels: med(alt, results.ColKernelMs, 1),
		base: med("baseline", results.ColTotalMs), extra: med("extra", results.ColTotalMs)}
	if math.IsNaN(c.base) {
		c.base = c.cpuAlone + c.gpuAlone
	}
	if math.IsNaN(c.extra) {
		c.extra = c.total - c.base
	}
	return c, !math.IsNaN(c.extra)
}

// costReading says what the extra of one policy is made of, as far as
// the rows time it.
func costReading(c costParts) string {
	s := fmt.Sprintf("%s %s: alternating takes %s, %s more than the CPU update and one GPU pass alone (%s)",
		strings.TrimSpace(c.platform+" "+c.gpu), c.policy, ms(c.total), ms(c.extra), ms(c.base))
	var parts []string
	if !math.IsNaN(c.copies) {
		parts = append(parts, fmt.Sprintf("the copies take %s (%s of the extra)", ms(c.copies), pct(c.copies, c.extra)))
	}
	if !math.IsNaN(c.prefetches) {
		parts = append(parts, fmt.Sprintf("the prefetches take %s (%s of the extra)", ms(c.prefetches), pct(c.prefetches, c.extra)))
	}
	if d := c.kernels - c.gpuAlone; !math.IsNaN(d) && d > 0.05*c.extra {
		parts = append(parts, fmt.Sprintf("the GPU pass takes %s inside against %s alone", ms(c.kernels), ms(c.gpuAlone)))
	}
	if !math.IsNaN(c.cpuInside) {
		parts = append(parts, fmt.Sprintf("the CPU update takes %s inside the loop against %s alone", ms(c.cpuInside), ms(c.cpuAlone)))
	}
	if len(parts) == 0 {
		return s + "."
	}
	return s + "; " + and(parts) + "."
}

func drawTable3(rows []results.Row) (*Shown, error) {
	rows = Where(rows, results.ColPlatform, "GB200")
	published, err := publishedModels(rows)
	if err != nil {
		return nil, err
	}
	if len(published) == 0 {
		return nil, fmt.Errorf("%w: the paper's GB200 handoff times are not among the rows", ErrNoData)
	}
	fig, err := HandoffReuse(rows, published, Options{})
	if err != nil {
		return nil, err
	}
	s, err := figure("Table III's model against the times the paper states", fig, nil, Where(rows, results.ColPhase, results.PhaseAlternating),
		results.ColReusePasses, results.ColTotalMs)
	if err == nil {
		s.Table = ModelTable(published)
	}
	return s, err
}

func drawModel(rows []results.Row) (*Shown, error) {
	rows, note := oneGPU(local(Where(rows, results.ColPhase, results.PhaseCPUOnly, results.PhaseGPUOnly, results.PhaseAlternating)))
	fits, models := fitted(rows)
	rows = Nearest(rows, 1<<30)
	fits = slices.DeleteFunc(fits, func(f model.PlatformFit) bool { return f.Err != nil })
	if len(fits) == 0 {
		return nil, fmt.Errorf("%w: %w: no measured platform with a handoff sweep", ErrNoData, errNoModel)
	}
	fig, err := HandoffReuse(rows, models, Options{})
	if err != nil {
		return nil, err
	}
	reading := []string{note}
	for _, f := range fits {
		reading = append(reading, modelReading(f))
	}
	alt := Where(rows, results.ColPhase, results.PhaseAlternating)
	s, err := figure(at("The reuse model fitted", alt), fig, nil, alt, results.ColReusePasses, results.ColTotalMs, reading...)
	if err == nil {
		s.Table = FitFrame(fits)
	}
	return s, err
}

// modelReading says how well the model fits a platform: its median error
// with the interval, and how often it names the fastest policy, beside a
// constant predictor that names one policy every time.
func modelReading(f model.PlatformFit) string {
	r := f.Report
	s := fmt.Sprintf("On %s the model's median error is %s %%", f.Platform, results.FormatNumber(r.MedianAPE))
	if !math.IsNaN(r.MedianAPECI.Lo) {
		s += fmt.Sprintf(" (95 %% interval %s–%s %%)", results.FormatNumber(r.MedianAPECI.Lo), results.FormatNumber(r.MedianAPECI.Hi))
	}
	s += fmt.Sprintf(" over sizes of %s and up; it names the fastest policy in %d of %d size–R cases", results.FormatBytes(r.MinSizeBytes), r.Matches, r.Compared)
	if r.Decisive > 0 {
		s += fmt.Sprintf(", %d of the %d whose winner is beyond noise, where always naming %s would score %d",
			r.DecisiveMatches, r.Decisive, r.ConstantPolicy, r.ConstantMatches)
	}
	return s + "."
}

// FitFrame lays out how well the model fits each platform: the median
// error over the sizes it counts, with its interval, and the
// fastest-policy check beside a constant predictor's score.
func FitFrame(fits []model.PlatformFit) dataframe.DataFrame {
	fits = slices.DeleteFunc(slices.Clone(fits), func(f model.PlatformFit) bool { return f.Report == nil })
	type F = model.PlatformFit
	rep := func(f *F) *model.Report { return f.Report }
	return results.Build(fits,
		results.StringField(results.ColPlatform, func(f *F) string { return f.Platform }),
		results.IntField("from_size_bytes", func(f *F) int64 { return rep(f).MinSizeBytes }),
		results.FloatField("median_ape_pct", func(f *F) float64 { return rep(f).MedianAPE }),
		results.FloatField("interval_lo_pct", func(f *F) float64 { return rep(f).MedianAPECI.Lo }),
		results.FloatField("interval_hi_pct", func(f *F) float64 { return rep(f).MedianAPECI.Hi }),
		results.IntField("fastest_named", func(f *F) int { return rep(f).Matches }),
		results.IntField("cases", func(f *F) int { return rep(f).Compared }),
		results.IntField("named_beyond_noise", func(f *F) int { return rep(f).DecisiveMatches }),
		results.IntField("beyond_noise", func(f *F) int { return rep(f).Decisive }),
		results.StringField("constant_policy", func(f *F) string { return rep(f).ConstantPolicy }),
		results.IntField("constant_named", func(f *F) int { return rep(f).ConstantMatches }))
}

// gb200Fit is the model refitted to the paper's GB200 handoff times.
func gb200Fit(rows []results.Row) (model.PlatformFit, error) {
	for _, f := range model.FitEach(Where(rows, results.ColPlatform, "GB200"), model.Options{}) {
		if f.Err != nil {
			return f, fmt.Errorf("%w: %w", errNoModel, f.Err)
		}
		return f, nil
	}
	return model.PlatformFit{}, fmt.Errorf("%w: the paper's GB200 handoff times are not among the rows", ErrNoData)
}

func drawRefit(rows []results.Row) (*Shown, error) {
	f, err := gb200Fit(rows)
	if err != nil {
		return nil, err
	}
	published, err := publishedModels(rows)
	if err != nil {
		return nil, err
	}
	df := model.CompareFrame(published, f.Models())
	drawn := Where(rows, results.ColPlatform, "GB200")
	r := f.Report
	return &Shown{Title: "Table III refitted from the paper's own times", Table: df, Rows: drawn,
		Reading: []string{fmt.Sprintf("Refitted, the model names the fastest policy in %d of the %d size–R cases the paper's times allow.", r.Matches, r.Compared)}}, nil
}

func drawCrossovers(rows []results.Row) (*Shown, error) {
	f, err := gb200Fit(rows)
	if err != nil {
		return nil, err
	}
	var reading []string
	for _, c := range f.Report.Crossovers {
		if c.Kind == model.Crosses {
			reading = append(reading, fmt.Sprintf("At %s %s is faster below R* = %s passes and %s above it.",
				results.FormatBytes(c.SizeBytes), c.Below, results.FormatNumber(c.R), c.Above))
		}
	}
	return &Shown{Title: "Crossovers of the refitted GB200 model", Table: f.Report.CrossoverFrame(),
		Rows: Where(rows, results.ColPlatform, "GB200"), Reading: reading}, nil
}

func drawAdvisor(rows []results.Row) (*Shown, error) {
	f, err := gb200Fit(rows)
	if err != nil {
		return nil, err
	}
	var work []model.Workload
	for _, r := range []float64{1, 2, 4, 32} {
		work = append(work, model.Workload{SizeBytes: 1 << 30, Reuse: r})
	}
	var reading []string
	for _, w := range work {
		a, err := model.Advise(f.Report.Model, w)
		if err != nil {
			return nil, err
		}
		if len(a.Ranking) < 2 {
			continue
		}
		s := fmt.Sprintf("At R = %g the advisor ranks %s first (%s predicted) ahead of %s (%s)",
			w.Reuse, a.Ranking[0].Policy, ms(a.Ranking[0].PredictedMs), a.Ranking[1].Policy, ms(a.Ranking[1].PredictedMs))
		if a.BreakEven.Kind == model.Crosses {
			s += fmt.Sprintf("; they break even at R* = %s", results.FormatNumber(a.BreakEven.R))
		}
		reading = append(reading, s+".")
	}
	return &Shown{Title: "The advisor on the paper's GB200 model, 1 GiB", Table: model.AdviceFrame([]model.PlatformFit{f}, work),
		Rows: Where(rows, results.ColPlatform, "GB200"), Reading: reading}, nil
}
