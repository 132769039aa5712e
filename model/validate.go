package model

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/stats"
)

// DefaultMinSizeBytes is the smallest size counted in the aggregate error
// and the fastest-policy check: the paper leaves out 64 KiB and 2 MiB, where
// overheads are comparable to memory access (Section VIII-C).
const DefaultMinSizeBytes = 16 << 20

// Options tunes validation. The zero value takes the defaults.
type Options struct {
	// MinSizeBytes is the smallest size counted in Report.MedianAPE and in
	// the fastest-policy matches; 0 means DefaultMinSizeBytes, 1 counts all.
	MinSizeBytes int64
	// Resamples is the number of bootstrap resamples behind every interval;
	// 0 means stats.DefaultResamples, -1 turns the intervals off (NaN).
	Resamples int
	// Seed seeds the bootstrap; 0 means 1.
	Seed uint64
	// Counted are counter passes of this run or another on the same machine:
	// the notes on a failing constant F or a median APE above MissAPE quote
	// them at each end of the R range.
	Counted []Counted
	// Require lists policies that Fit and Validate need at every measured
	// size; empty requires nothing beyond two policies.
	Require []string
}

// Point is one validation point: a measured alternating configuration with
// R ≠ 1 against the model's prediction.
type Point struct {
	Policy      string
	SizeBytes   int64
	R           int64
	MeasuredMs  float64 // median total_ms over trials and repetitions
	PredictedMs float64 // F + R·G
	APE         float64 // absolute percentage error, 100·|predicted − measured|/measured
	Trials      int
	// MeasuredCI and APECI are 95 % bootstrap intervals; NaN without trials
	// to resample.
	MeasuredCI, APECI stats.Interval
}

// Calibration is a policy's parameters at a size with the median and
// maximum APE over its validation points (NaN without any).
type Calibration struct {
	Param
	Points            int
	MedianAPE, MaxAPE float64
	MedianAPECI       stats.Interval // 95 % bootstrap interval of MedianAPE
}

// FastestCheck compares, at one validation size and R, the policy the model
// predicts fastest with the one measured fastest.
type FastestCheck struct {
	SizeBytes, R        int64
	Predicted, Measured string
	Policies            int    // policies compared
	Match               bool   // Predicted == Measured
	Included            bool   // SizeBytes ≥ the report's MinSizeBytes
	Decisive            bool   // the two fastest measured policies' 95 % intervals are apart
	Second              string // the measured second-fastest policy
}

// Report is a calibrated model with its validation, fastest-policy checks
// and the crossovers of every pair of policies at every calibrated size.
type Report struct {
	Model        *Model
	Platform     string // from the rows, when they name one
	MinSizeBytes int64  // the cut applied to MedianAPE and the matches
	Calibration  []Calibration
	Points       []Point
	// MedianAPE is the median APE over the points of sizes ≥ MinSizeBytes;
	// NaN when there are none.
	MedianAPE   float64
	MedianAPECI stats.Interval // 95 % bootstrap interval of MedianAPE
	// PairedSweeps counts the policies and sizes whose alternating trials
	// the bootstrap resampled round by round rather than R by R.
	PairedSweeps int
	Fastest      []FastestCheck
	// Matches of Compared fastest-policy checks (sizes ≥ MinSizeBytes)
	// named the measured fastest; always naming BestConstant, the policy
	// measured fastest most often, scores BestConstantMatches.
	Matches, Compared   int
	BestConstant        string
	BestConstantMatches int
	// DecisiveMatches of Decisive checks did; ConstantPolicy scores
	// ConstantMatches there.
	DecisiveMatches, Decisive int
	ConstantPolicy            string
	ConstantMatches           int
	RMin, RMax                int64 // the measured R range (0 without measurements)
	// Spread describes each policy's R = 1 trials at the largest size, on
	// which F rests (nil without intervals).
	Spread     []Spread
	Crossovers []Crossover
	Notes      []string
}

// Spread is how far one policy's R = 1 trials at a size spread and how
// well their median is known.
type Spread struct {
	Policy    string
	SizeBytes int64
	Trials    int
	P10, P90  float64        // the trials' 10th and 90th percentiles of total_ms
	MedianCI  stats.Interval // their median (Est) with its 95 % bootstrap interval
}

// SpreadPct is the trials' 10th–90th percentile range in % of their median.
func (s Spread) SpreadPct() float64 { return 100 * (s.P90 - s.P10) / s.MedianCI.Est }

// BelowPct and AbovePct are how far the median's interval reaches below
// and above it, in % of it.
func (s Spread) BelowPct() float64 { return 100 * (s.MedianCI.Est - s.MedianCI.Lo) / s.MedianCI.Est }

// AbovePct: see BelowPct.
func (s Spread) AbovePct() float64 { return 100 * (s.MedianCI.Hi - s.MedianCI.Est) / s.MedianCI.Est }

// Fit calibrates the model on handoff rows (see Calibrate) and validates it
// on the alternating rows with R ≠ 1 (two policies and an R ≠ 1 needed).
func Fit(rows []results.Row, o Options) (*Report, error) {
	h, err := collect(rows)
	if err != nil {
		return nil, err
	}
	m, err := h.calibrate()
	if err != nil {
		return nil, err
	}
	return h.validate(m, o)
}

// Validate checks a model, for example published parameters, against
// measured handoff rows at the sizes it is calibrated for.
func Validate(m *Model, rows []results.Row, o Options) (*Report, error) {
	h, err := collect(rows)
	if err != nil {
		return nil, err
	}
	return h.validate(m, o)
}

// FromParams builds a report from published parameters such as Table III:
// the calibration table (with NaN errors) and the crossovers, no validation.
func FromParams(params []Param, o Options) (*Report, error) {
	m, err := NewModel(params)
	if err != nil {
		return nil, err
	}
	r := newReport(m, o)
	r.finish()
	return r, nil
}

func newReport(m *Model, o Options) *Report {
	r := &Report{Model: m, MinSizeBytes: cmp.Or(o.MinSizeBytes, DefaultMinSizeBytes), MedianAPE: math.NaN(), MedianAPECI: stats.NaN()}
	bySize := map[int64][]Param{} // in Table III's order of policies
	for _, p := range m.Params() {
		r.Calibration = append(r.Calibration, Calibration{Param: p, MedianAPE: math.NaN(), MaxAPE: math.NaN(), MedianAPECI: stats.NaN()})
		bySize[p.SizeBytes] = append(bySize[p.SizeBytes], p)
	}
	for _, s := range slices.Sorted(maps.Keys(bySize)) {
		at := bySize[s]
		for i := range at {
			for j := i + 1; j < len(at); j++ {
				r.Crossovers = append(r.Crossovers, CrossoverOf(at[i], at[j]))
			}
		}
	}
	return r
}

func (h *handoff) validate(m *Model, o Options) (*Report, error) {
	if len(m.policies) < 2 {
		return nil, badInput("only one policy (%s): comparing policies needs at least two", m.policies[0])
	}
	vr := slices.DeleteFunc(slices.Clone(h.rs), func(r int64) bool { return r == 1 })
	if len(vr) == 0 {
		return nil, badInput("alternating rows only at R = 1: validation needs other R values (the paper uses 2, 4, 8, 16, 32)")
	}
	var missing []string
	for _, p := range o.Require {
		for _, s := range h.sizes {
			if e, err := m.At(p, s); err != nil || e.How != Calibrated {
				missing = append(missing, fmt.Sprintf("%s at %s", p, formatSize(s)))
			}
		}
	}
	if len(missing) > 0 {
		return nil, badInput("required policies missing: %s", strings.Join(missing, ", "))
	}
	rep := newReport(m, o)
	rep.Platform = h.platform
	for _, s := range h.sizes {
		for _, r := range vr {
			var pred, meas []float64
			var pols []string
			for _, p := range h.policies {
				t, ok := h.get(p, phaseAlt, s, r)
				if !ok {
					continue
				}
				e, err := m.At(p, s)
				if err != nil || e.How != Calibrated {
					rep.Notes = appendOnce(rep.Notes, fmt.Sprintf("%s %s: not calibrated at this size, its R ≠ 1 rows are not validated", p, formatSize(s)))
					continue
				}
				pt := Point{Policy: p, SizeBytes: s, R: r, MeasuredMs: t, PredictedMs: e.Time(float64(r)), Trials: len(h.vals[hkey{p, phaseAlt, s, r}]),
					MeasuredCI: stats.NaN(), APECI: stats.NaN()}
				pt.APE = 100 * math.Abs(pt.PredictedMs-pt.MeasuredMs) / pt.MeasuredMs
				rep.Points = append(rep.Points, pt)
				pols, pred, meas = append(pols, p), append(pred, pt.PredictedMs), append(meas, t)
			}
			if len(pols) < 2 {
				continue
			}
			c := FastestCheck{SizeBytes: s, R: r, Policies: len(pols), Included: s >= rep.MinSizeBytes,
				Predicted: pols[argmin(pred)], Measured: pols[argmin(meas)]}
			c.Match = c.Predicted == c.Measured
			rep.Fastest = append(rep.Fastest, c)
		}
	}
	if len(rep.Points) == 0 {
		return nil, badInput("no alternating rows with R ≠ 1 at a calibrated policy and size: nothing to validate")
	}
	rep.RMin, rep.RMax = h.rs[0], h.rs[len(h.rs)-1]
	rep.finish()
	h.noise(m, rep, o)
	h.explainMisses(rep, o.Counted)
	return rep, nil
}

// finish fills the per-calibration errors, the aggregate and the counts.
func (r *Report) finish() {
	var all []float64
	for i := range r.Calibration {
		c := &r.Calibration[i]
		var apes []float64
		for _, p := range r.Points {
			if p.Policy == c.Policy && p.SizeBytes == c.SizeBytes {
				apes = append(apes, p.APE)
			}
		}
		st := results.Describe(apes)
		c.Points, c.MedianAPE, c.MaxAPE = st.N, st.Median, st.Max
	}
	for _, p := range r.Points {
		if p.SizeBytes >= r.MinSizeBytes {
			all = append(all, p.APE)
		}
	}
	r.MedianAPE = results.Describe(all).Median
	included := func(c FastestCheck) bool { return c.Included }
	r.Compared, r.Matches, r.BestConstant, r.BestConstantMatches = r.score(included)
}

// score counts the fastest-policy checks keep selects and those that
// matched, and scores always naming the policy measured fastest most often
// (the first in Table III's order on a tie) at the same checks.
func (r *Report) score(keep func(FastestCheck) bool) (n, matches int, constant string, constantMatches int) {
	wins := map[string]int{}
	for _, c := range r.Fastest {
		if keep(c) {
			n++
			wins[c.Measured]++
			if c.Match {
				matches++
			}
		}
	}
	for _, p := range r.Model.Policies() {
		if wins[p] > constantMatches {
			constant, constantMatches = p, wins[p]
		}
	}
	return n, matches, constant, constantMatches
}

// Discriminates reports whether the model names the measured fastest
// policy at more points than always naming the best constant policy does.
func (r *Report) Discriminates() bool { return r.Matches > r.BestConstantMatches }

func argmin(x []float64) int {
	k := 0
	for i, v := range x {
		if v < x[k] {
			k = i
		}
	}
	return k
}
