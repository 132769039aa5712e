package model

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"github.com/umlab/umlab/stats"

	"github.com/umlab/umlab/results"
)

// CalibrationFrame returns the calibration table: policy, size_bytes, f_ms,
// g_ms, median_ape_pct, max_ape_pct and points.
func (r *Report) CalibrationFrame() dataframe.DataFrame {
	type C = Calibration
	return results.Build(r.Calibration,
		results.StringField(results.ColPolicy, func(c *C) string { return c.Policy }),
		results.IntField(results.ColSizeBytes, func(c *C) int64 { return c.SizeBytes }),
		results.FloatField("f_ms", func(c *C) float64 { return c.F }),
		results.FloatField("g_ms", func(c *C) float64 { return c.G }),
		results.FloatField("median_ape_pct", func(c *C) float64 { return c.MedianAPE }),
		results.FloatField("max_ape_pct", func(c *C) float64 { return c.MaxAPE }),
		results.IntField("points", func(c *C) int { return c.Points }),
	)
}

// PointsFrame returns the validation points: policy, size_bytes,
// reuse_passes, measured_ms, predicted_ms and ape_pct, then the 95 %
// bootstrap bounds measured_ms_lo, measured_ms_hi, ape_pct_lo and
// ape_pct_hi (NaN without trials to resample).
func (r *Report) PointsFrame() dataframe.DataFrame {
	type P = Point
	return results.Build(r.Points,
		results.StringField(results.ColPolicy, func(p *P) string { return p.Policy }),
		results.IntField(results.ColSizeBytes, func(p *P) int64 { return p.SizeBytes }),
		results.IntField(results.ColReusePasses, func(p *P) int64 { return int64(p.R) }),
		results.FloatField("measured_ms", func(p *P) float64 { return p.MeasuredMs }),
		results.FloatField("predicted_ms", func(p *P) float64 { return p.PredictedMs }),
		results.FloatField("ape_pct", func(p *P) float64 { return p.APE }),
		results.FloatField("measured_ms_lo", func(p *P) float64 { return p.MeasuredCI.Lo }),
		results.FloatField("measured_ms_hi", func(p *P) float64 { return p.MeasuredCI.Hi }),
		results.FloatField("ape_pct_lo", func(p *P) float64 { return p.APECI.Lo }),
		results.FloatField("ape_pct_hi", func(p *P) float64 { return p.APECI.Hi }),
	)
}

// CrossoverFrame returns the crossovers: size_bytes, policy_a, policy_b,
// kind (crosses, a_always, never, same), parallel (G_a = G_b), r_star
// (R* = (F_a − F_b)/(G_b − G_a)), faster_below and faster_above.
func (r *Report) CrossoverFrame() dataframe.DataFrame { return CrossoverFrame(r.Crossovers) }

// CrossoverFrame returns crossovers as a DataFrame (see Report.CrossoverFrame).
func CrossoverFrame(cs []Crossover) dataframe.DataFrame {
	type C = Crossover
	return results.Build(cs,
		results.IntField(results.ColSizeBytes, func(c *C) int64 { return c.SizeBytes }),
		results.StringField("policy_a", func(c *C) string { return c.A }),
		results.StringField("policy_b", func(c *C) string { return c.B }),
		results.StringField("kind", func(c *C) string { return c.Kind.String() }),
		results.BoolField("parallel", func(c *C) bool { return c.Parallel }),
		results.FloatField("r_star", func(c *C) float64 { return c.R }),
		results.StringField("faster_below", func(c *C) string { return c.Below }),
		results.StringField("faster_above", func(c *C) string { return c.Above }),
	)
}

// FastestFrame returns the fastest-policy checks: size_bytes, reuse_passes,
// predicted_fastest, measured_fastest, policies, match and included.
func (r *Report) FastestFrame() dataframe.DataFrame {
	type F = FastestCheck
	return results.Build(r.Fastest,
		results.IntField(results.ColSizeBytes, func(c *F) int64 { return c.SizeBytes }),
		results.IntField(results.ColReusePasses, func(c *F) int64 { return int64(c.R) }),
		results.StringField("predicted_fastest", func(c *F) string { return c.Predicted }),
		results.StringField("measured_fastest", func(c *F) string { return c.Measured }),
		results.IntField("policies", func(c *F) int { return c.Policies }),
		results.BoolField("match", func(c *F) bool { return c.Match }),
		results.BoolField("included", func(c *F) bool { return c.Included }),
	)
}

// WriteCSV writes the calibration table (CalibrationFrame) as CSV with full
// float precision. Write the other tables with WriteFrameCSV.
func (r *Report) WriteCSV(w io.Writer) error { return WriteFrameCSV(w, r.CalibrationFrame()) }

// WriteFrameCSV writes a DataFrame as CSV with a header line, floats in full
// precision (gota's own writer rounds to six decimals) and NaN as an empty
// field, as the results files do.
func WriteFrameCSV(w io.Writer, df dataframe.DataFrame) error {
	if df.Err != nil {
		return fmt.Errorf("model: frame: %w", df.Err)
	}
	cw := csv.NewWriter(w)
	names := df.Names()
	if err := cw.Write(names); err != nil {
		return err
	}
	cols := make([]series.Series, len(names))
	for j, nm := range names {
		cols[j] = df.Col(nm)
	}
	rec := make([]string, len(names))
	for i := 0; i < df.Nrow(); i++ {
		for j, c := range cols {
			e := c.Elem(i)
			switch {
			case e.IsNA():
				rec[j] = ""
			case c.Type() == series.Float:
				rec[j] = strconv.FormatFloat(e.Float(), 'g', -1, 64)
			default:
				rec[j] = e.String()
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteTable writes the report as plain-text tables: the calibration with
// errors, the aggregate error, the fastest-policy count and the crossovers.
func (r *Report) WriteTable(w io.Writer) error {
	ew := &errWriter{w: w}
	title := "Reuse-amortized model T = F + R·G (paper Section VIII-B)"
	if r.Platform != "" {
		title += ", " + r.Platform
	}
	ew.printf("%s\n\n", title)
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "policy\tsize\tF (ms)\tG (ms/pass)\tmedian APE (%)\t95 % CI\tmax APE (%)\tpoints")
	for _, c := range r.Calibration {
		fmt.Fprintf(tw, "%s\t%s\t%.3f\t%.4g\t%s\t%s\t%s\t%d\n", c.Policy, formatSize(c.SizeBytes), c.F, c.G, pct(c.MedianAPE), pctCI(c.MedianAPECI), pct(c.MaxAPE), c.Points)
	}
	tw.Flush()
	ew.printf("\n")
	if len(r.Points) == 0 {
		ew.printf("No validation measurements (published parameters).\n")
	} else {
		ew.printf("Aggregate median APE over sizes ≥ %s: %s %% (95 %% CI %s)\n", formatSize(r.MinSizeBytes), pct(r.MedianAPE), pctCI(r.MedianAPECI))
		if !math.IsNaN(r.MedianAPECI.Lo) {
			ew.printf("  %s\n", r.intervalMethod())
			if s := r.spreadLine(); s != "" {
				ew.printf("  %s\n", s)
			}
		}
		ew.printf("Fastest policy predicted: %d of %d validation size–reuse points (sizes ≥ %s); %s\n", r.Matches, r.Compared, formatSize(r.MinSizeBytes), r.constantText())
		if !math.IsNaN(r.MedianAPECI.Lo) {
			ew.printf("  at the %d points whose two fastest measured policies differ beyond their 95 %% intervals: %d of %d", r.Decisive, r.DecisiveMatches, r.Decisive)
			if r.ConstantPolicy != "" {
				ew.printf("; always naming %s would score %d of %d", r.ConstantPolicy, r.ConstantMatches, r.Decisive)
			}
			ew.printf("\n")
		}
		for _, c := range r.Fastest {
			if c.Included && !c.Match {
				noise := " (within noise: the two fastest measured policies' intervals overlap)"
				if c.Decisive {
					noise = " (beyond noise)"
				}
				ew.printf("  mismatch at %s, R = %d: predicted %s, measured %s%s\n", formatSize(c.SizeBytes), c.R, c.Predicted, c.Measured, noise)
			}
		}
	}
	if len(r.Crossovers) > 0 {
		ew.printf("\nCrossovers, R* = (F_a − F_b)/(G_b − G_a) (Section VIII-C)\n")
		tw = tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "size\ta\tb\tresult")
		for _, c := range r.Crossovers {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", formatSize(c.SizeBytes), c.A, c.B, cmp.Or(c.Verdict, c.String()))
		}
		tw.Flush()
	}
	for _, n := range r.Notes {
		ew.printf("Note: %s\n", n)
	}
	return ew.err
}

// Headline is the report's result in one phrase, e.g. "median APE 1.00 %
// (95 % CI 0.51–1.49 %) over sizes ≥ 16 MiB; fastest policy named at 20 of
// 20 points (17 of 17 beyond noise); always naming explicit_copy scores 16
// of 20, so the model discriminates".
func (r *Report) Headline() string {
	s := fmt.Sprintf("median APE %s %%", pct(r.MedianAPE))
	if !math.IsNaN(r.MedianAPECI.Lo) {
		s += fmt.Sprintf(" (95 %% CI %s %%)", pctCI(r.MedianAPECI))
	}
	s += fmt.Sprintf(" over sizes ≥ %s; fastest policy named at %d of %d points", formatSize(r.MinSizeBytes), r.Matches, r.Compared)
	if !math.IsNaN(r.MedianAPECI.Lo) {
		s += fmt.Sprintf(" (%d of %d beyond noise)", r.DecisiveMatches, r.Decisive)
	}
	return s + "; " + r.constantText()
}

// constantText sets the fastest-policy count beside the best constant
// predictor's at the same points.
func (r *Report) constantText() string {
	if r.BestConstant == "" {
		return "no point to compare"
	}
	s := fmt.Sprintf("always naming %s scores %d of %d", r.BestConstant, r.BestConstantMatches, r.Compared)
	if r.Discriminates() {
		return s + ", so the model discriminates"
	}
	return s + ", so the model does not discriminate beyond it"
}

// intervalMethod says how the report's intervals were resampled.
func (r *Report) intervalMethod() string {
	s := "intervals: trials resampled with replacement; an APE's from its signed error's, a median APE's from each replicate's median over its points (the percentile and reflected intervals joined)"
	if r.PairedSweeps > 0 {
		s += fmt.Sprintf("; the alternating sweeps of %d policy–size pairs resampled round by round (every R of a round together, as measured)", r.PairedSweeps)
	}
	return s
}

// spreadLine says how widely the R = 1 trials spread at the largest size
// and how far their medians' intervals reach: the noise every prediction
// there inherits. "" without a spread.
func (r *Report) spreadLine() string {
	if len(r.Spread) == 0 {
		return ""
	}
	// rng writes the range of f over the policies, with prec decimals.
	rng := func(f func(Spread) float64, prec int) string {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, s := range r.Spread {
			lo, hi = math.Min(lo, f(s)), math.Max(hi, f(s))
		}
		a, b := strconv.FormatFloat(lo, 'f', prec, 64), strconv.FormatFloat(hi, 'f', prec, 64)
		if a == b {
			return a
		}
		return a + "–" + b
	}
	trials := rng(func(s Spread) float64 { return float64(s.Trials) }, 0)
	return fmt.Sprintf("calibration noise: at %s and R = 1 the %s alternating trials of a policy spread by %s %% of their median between their 10th and 90th percentiles, and the median's own 95 %% interval reaches %s %% below and %s %% above it",
		formatSize(r.Spread[0].SizeBytes), trials, rng(Spread.SpreadPct, 1), rng(Spread.BelowPct, 1), rng(Spread.AbovePct, 1))
}

// pctCI writes an interval's bounds as "lo–hi", or "-" without one.
func pctCI(i stats.Interval) string {
	if math.IsNaN(i.Lo) || math.IsNaN(i.Hi) {
		return "-"
	}
	return pct(i.Lo) + "–" + pct(i.Hi)
}

func pct(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}

// errWriter keeps the first write error so that formatting code can ignore it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func (e *errWriter) printf(format string, a ...any) { fmt.Fprintf(e, format, a...) }
