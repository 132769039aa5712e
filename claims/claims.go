package claims

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/umlab/umlab/stats"
)

// Verdict is the outcome of checking one claim on one run.
type Verdict int

// Verdicts, from agreement to no data.
const (
	Reproduces   Verdict = iota // the whole 95 % interval satisfies the relation (and direction)
	Qualitative                 // the direction holds, the magnitude misses, both beyond noise
	KnownReason                 // differs beyond noise, and a mechanism predicts the difference
	Unexplained                 // differs beyond noise, and no mechanism predicts it
	Inconclusive                // the interval straddles the tolerance or direction
	NotMeasured                 // the data are absent, or simulated
)

var verdictNames = []string{"reproduces", "reproduces qualitatively", "differs for a known reason", "differs, unexplained", "inconclusive", "not measured"}

func (v Verdict) String() string {
	if v < 0 || int(v) >= len(verdictNames) {
		return fmt.Sprintf("Verdict(%d)", int(v))
	}
	return verdictNames[v]
}

// Quantity is a figure a claim compares: a value, how it was obtained (in
// words, with the figures it comes from) and, for a measured figure, its
// 95 % bootstrap interval (CI.Lo = CI.Hi = Value for a published one).
type Quantity struct {
	Value float64
	Unit  string // "GB/s", "ms", "%", "×", "yes/no", "" (a count)
	Text  string // e.g. "21.6 / 3904 GB/s"
	CI    stats.Interval
}

// String formats the value with its unit.
func (q Quantity) String() string { return formatValue(q.Value, q.Unit) }

// WithCI formats the value with its interval where it has a width: "0.484 %
// [0.47–0.50]".
func (q Quantity) WithCI() string {
	if math.IsNaN(q.CI.Lo) || num(q.CI.Lo) == num(q.CI.Hi) {
		return q.String()
	}
	if q.Unit == "yes/no" {
		return q.String() + " [" + yesNo(q.CI.Lo != 0) + "–" + yesNo(q.CI.Hi != 0) + "]"
	}
	return q.String() + " [" + num(q.CI.Lo) + "–" + num(q.CI.Hi) + "]"
}

// Band is a closed range of a figure, infinite where open.
type Band struct{ Lo, Hi float64 }

func eps(x float64) float64 { return 1e-9 * math.Max(1, math.Abs(x)) }

// holds reports whether the whole interval lies in the band.
func (b Band) holds(lo, hi float64) bool { return lo >= b.Lo-eps(b.Lo) && hi <= b.Hi+eps(b.Hi) }

// side is −1 where the whole interval lies below the band, +1 above, 0
// where it meets it.
func (b Band) side(lo, hi float64) int {
	switch {
	case hi < b.Lo-eps(b.Lo):
		return -1
	case lo > b.Hi+eps(b.Hi):
		return 1
	}
	return 0
}

func (b Band) String() string {
	switch {
	case math.IsInf(b.Lo, -1):
		return "≤ " + num(b.Hi)
	case math.IsInf(b.Hi, 1):
		return "≥ " + num(b.Lo)
	case b.Lo == b.Hi:
		return num(b.Lo)
	}
	return num(b.Lo) + "–" + num(b.Hi)
}

// RelKind says how a measured quantity is compared with the paper's.
type RelKind int

// Relation kinds.
const (
	Near    RelKind = iota // within Tol of the paper's value, relative
	NearAbs                // within Tol of the paper's value, absolute (same unit)
	AtMost                 // at most Bound
	AtLeast                // at least Bound
	Same                   // equal to the paper's value (orderings, truth values: 1 or 0)
)

// Relation is the claimed relation between a run's quantity and the paper's.
type Relation struct {
	Kind  RelKind
	Tol   float64
	Bound float64
}

// Band is the range of figures the relation accepts against the paper's.
func (r Relation) Band(paper float64) Band {
	switch r.Kind {
	case Near:
		return Band{paper - r.Tol*math.Abs(paper), paper + r.Tol*math.Abs(paper)}
	case NearAbs:
		return Band{paper - r.Tol, paper + r.Tol}
	case AtMost:
		return Band{math.Inf(-1), r.Bound}
	case AtLeast:
		return Band{r.Bound, math.Inf(1)}
	}
	return Band{paper, paper}
}

// Describe says the relation in words, with the unit of its figures.
func (r Relation) Describe(unit string) string {
	switch r.Kind {
	case Near:
		return fmt.Sprintf("within ±%g %% of the paper's figure", 100*r.Tol)
	case NearAbs:
		return fmt.Sprintf("within ±%s of the paper's figure", formatValue(r.Tol, unit))
	case AtMost:
		return "at most " + formatValue(r.Bound, unit)
	case AtLeast:
		return "at least " + formatValue(r.Bound, unit)
	}
	return "the same as the paper's"
}

// Claim is one finding of the paper as a check.
type Claim struct {
	ID        string // stable, e.g. "V-C.cold-fraction"
	Section   string // the paper's section or table: "V-C", "Table III"
	Statement string // what the paper says; its figures are read from the paper's datasets
	// Reference is the published dataset of the paper's figure; Against,
	// when set, a second platform the claim compares with.
	Reference, Against string
	Relation           Relation
	// Direction, when set, is the claim's qualitative content: a figure
	// that misses the relation but lies in it reproduces qualitatively.
	Direction     *Band
	DirectionText string
	// OwnDevice: an absolute figure of the reference's device.
	OwnDevice bool
	// Ambiguity names what the claim rests on that the paper leaves open.
	Ambiguity string
	// Measure computes the quantity from a run (b: the comparison run, or
	// nil); an error wrapping ErrNotMeasured says what is missing.
	Measure func(a, b *Run) (Quantity, error)
	// Paper, when set, gives the paper's figure where the published rows
	// cannot; otherwise it is Measure on the reference dataset.
	Paper func(ref, against *Run) (Quantity, error)
	// Reasons are the mechanisms that may explain a difference.
	Reasons []Mechanism
	format  string          // the statement's template, its figures %s
	cited   map[string]bool // the configurations its figures were read from
}

// Mechanism is a reason a run may differ from the paper, as a test: from
// the run's device facts and data it predicts the claim's figure, and
// explains a difference only where the prediction lies on the measured
// side of the tolerance and direction, within Factor of the figure.
type Mechanism struct {
	Name string // what it rests on, in a few words: "the PCIe link"
	// Factor is how far, as a ratio, the figure may lie from the predicted
	// range (1.25: within 25 %); 0 predicts the direction only.
	Factor float64
	// Predict returns the predicted range and how it was computed; false
	// where the mechanism does not exist on the device or lacks its data.
	Predict func(x *Check) (Prediction, bool)
}

// Prediction is a mechanism's predicted range of a claim's figure.
type Prediction struct {
	Lo, Hi float64
	Text   string
}

// ErrNotMeasured is wrapped by Measure errors for data a run lacks.
var ErrNotMeasured = errors.New("not measured")

func notMeasured(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrNotMeasured, fmt.Sprintf(format, a...))
}

// Check is a claim checked on a run.
type Check struct {
	Claim     *Claim
	Run       *Run
	Ref       *Run // the reference dataset
	Against   *Run // the comparison run of a cross-platform claim, if any
	Paper     Quantity
	Measured  Quantity
	Verdict   Verdict
	Reason    string   // why the verdict: what is missing, differs or straddles
	RestsOn   []string // the runs (datasets or directories) the figure rests on
	Simulated bool     // the rows come from the simulated GPU
}

// Options tune Evaluate.
type Options struct {
	// Against is the run cross-platform claims compare with; nil leaves
	// them not measured, except on the paper's own dataset.
	Against   *Run
	Resamples int // bootstrap replicates behind each interval (0: DefaultResamples)
	// tolerances replaces runTolerance (TestStability's leave-one-out).
	tolerances map[string]tolerance
}

var refs sync.Map // dataset name → func() (*Run, error)

// reference loads (once) a published dataset.
func reference(name string) (*Run, error) {
	f, _ := refs.LoadOrStore(name, sync.OnceValues(func() (*Run, error) { return Load(name) }))
	return f.(func() (*Run, error))()
}

// Evaluate checks every claim of the catalogue on a run, in catalogue order.
func Evaluate(run *Run, o Options) ([]Check, error) {
	return EvaluateClaims(All(), run, o)
}

// EvaluateClaims checks the given claims on a run.
func EvaluateClaims(cs []*Claim, run *Run, o Options) ([]Check, error) {
	var out []Check
	for _, c := range cs {
		x, err := evaluate(c, run, o)
		if err != nil {
			return nil, fmt.Errorf("claims: %s: %w", c.ID, err)
		}
		out = append(out, x)
	}
	return out, nil
}

func evaluate(c *Claim, run *Run, o Options) (Check, error) {
	x := Check{Claim: c, Run: run, Simulated: run.Simulated(), Measured: Quantity{Value: math.NaN(), CI: stats.NaN()}}
	ref, err := reference(c.Reference)
	if err != nil {
		return x, err
	}
	x.Ref = ref
	var against, refAgainst *Run
	if c.Against != "" {
		if refAgainst, err = reference(c.Against); err != nil {
			return x, err
		}
		against = o.Against
		if against == nil && run.Meta.RunID == ref.Meta.RunID {
			against = refAgainst
		}
		x.Against = against
	}
	if c.Paper != nil {
		x.Paper, err = c.Paper(ref, refAgainst)
	} else {
		x.Paper, err = c.Measure(ref, refAgainst)
	}
	if err != nil {
		return x, fmt.Errorf("the paper's figure: %w", err)
	}
	x.Paper.CI = stats.Interval{Est: x.Paper.Value, Lo: x.Paper.Value, Hi: x.Paper.Value}
	if c.Against != "" && against == nil {
		x.Verdict = NotMeasured
		x.Reason = fmt.Sprintf("compares two platforms (%s with %s); this run holds one (%s)",
			ref.Meta.Platform, refAgainst.Meta.Platform, cmp.Or(run.Meta.Platform, "—"))
		return x, nil
	}
	q, keys, err := measureTracked(c, run, against)
	if errors.Is(err, ErrNotMeasured) {
		x.Verdict = NotMeasured
		x.Reason = strings.TrimPrefix(err.Error(), ErrNotMeasured.Error()+": ")
		return x, nil
	}
	if err != nil {
		return x, err
	}
	x.Measured = q
	x.RestsOn = run.restsOn(keys)
	if against != nil && against != ref {
		x.RestsOn = append(x.RestsOn, against.Name)
	}
	if c.OwnDevice && run.Meta.Platform != ref.Meta.Platform {
		x.Verdict = NotMeasured
		x.Reason = fmt.Sprintf("states an absolute figure of %s's device; this run is of another (%s): its %s is shown, not compared",
			ref.Meta.Platform, run.Describe(), x.Measured)
		return x, nil
	}
	resamples := o.Resamples
	if resamples <= 0 {
		resamples = DefaultResamples
	}
	tols := o.tolerances
	if tols == nil {
		tols = runTolerance
	}
	tol, ok := tols[c.ID]
	if !ok || len(run.boot.runIDs) > 1 || run.Meta.Kind == "published" || q.Unit == "yes/no" {
		tol = tolerance{}
	}
	x.Measured.CI = interval(c, run, against, q.Value, resamples, tol)
	judge(&x)
	if x.Simulated && x.Verdict != NotMeasured {
		x.Reason = fmt.Sprintf("SIMULATED data (umbench run --simulate), not measurements: on measured data this figure would be judged %q", x.Verdict)
		x.Verdict = NotMeasured
	}
	return x, nil
}

// measureTracked measures a claim on a run and returns the configurations
// its figure was computed from.
func measureTracked(c *Claim, run, against *Run) (Quantity, map[string]bool, error) {
	run.reads = map[string]bool{}
	defer func() { run.reads = nil }()
	q, err := c.Measure(run, against)
	return q, run.reads, err
}

// interval is the 95 % percentile interval of the claim's figure over the
// run's bootstrap replicates, each with a draw of the run-to-run tolerance,
// widened to hold the estimate; unbounded where more than 5 % fail.
func interval(c *Claim, run, against *Run, est float64, b int, tol tolerance) stats.Interval {
	trivial := run.boot.trivial && (against == nil || against.boot.trivial)
	if trivial && tol.SD == 0 {
		return stats.Interval{Est: est, Lo: est, Hi: est}
	}
	vals := make([]float64, b)
	failed := 0
	for i := range vals {
		if trivial {
			vals[i] = est
			continue
		}
		q, err := c.Measure(run.replicate(i), against.replicate(i))
		vals[i] = q.Value
		if err != nil || math.IsNaN(q.Value) {
			vals[i] = math.NaN()
			failed++
		}
	}
	if tol.SD > 0 {
		withTolerance(vals, c.ID, tol)
	}
	if failed > b/20 {
		return stats.Interval{Est: est, Lo: math.Inf(-1), Hi: math.Inf(1)}
	}
	lo, hi := stats.Percentiles(vals, stats.DefaultLevel)
	return stats.Interval{Est: est, Lo: math.Min(lo, est), Hi: math.Max(hi, est)}
}

// judge sets the verdict from where the whole measured interval lies
// against the relation and the direction; straddling a line is
// inconclusive.
func judge(x *Check) {
	c, m := x.Claim, x.Measured
	lo, hi := m.CI.Lo, m.CI.Hi
	rel := c.Relation.Band(x.Paper.Value)
	inRel, relSide := rel.holds(lo, hi), rel.side(lo, hi)
	inDir, dirSide := true, 0
	if c.Direction != nil {
		inDir, dirSide = c.Direction.holds(lo, hi), c.Direction.side(lo, hi)
	}
	here := fmt.Sprintf("%s here against %s in the paper", m.WithCI(), x.Paper)
	switch {
	case inRel && inDir:
		x.Verdict = Reproduces
	case relSide != 0 && inDir && c.Direction != nil:
		x.Verdict = Qualitative
		x.Reason = fmt.Sprintf("same direction (%s, %s) beyond noise, %s", c.DirectionText, c.Direction, here)
		if why, _ := explain(x, rel, relSide, dirSide); why != "" {
			x.Reason += "; " + why
		}
	case dirSide != 0 || relSide != 0 && c.Direction == nil:
		why, tried := explain(x, rel, relSide, dirSide)
		if why != "" {
			x.Verdict, x.Reason = KnownReason, why
			return
		}
		x.Verdict = Unexplained
		x.Reason = here + "; nothing in this run's device facts or data explains it"
		if tried != "" {
			x.Reason += " (" + tried + ")"
		}
	default:
		x.Verdict = Inconclusive
		line := fmt.Sprintf("the paper's tolerance (%s, %s)", c.Relation.Describe(m.Unit), rel)
		switch {
		case math.IsInf(lo, -1) && math.IsInf(hi, 1):
			line = "everything: the figure cannot be computed in more than 5 % of the resamples"
		case m.Unit == "yes/no":
			line = "yes and no: the resamples disagree"
		case !inDir && dirSide == 0:
			line = fmt.Sprintf("the claim's direction (%s, %s)", c.DirectionText, c.Direction)
		}
		x.Reason = fmt.Sprintf("%s; the 95 %% interval straddles %s, so noise decides", here, line)
		if _, said := explain(x, rel, relSide, dirSide); said != "" {
			x.Reason += " (" + said + ")"
		}
	}
}

// explain returns the first mechanism that predicts the difference, in
// words, and what every mechanism that exists on the run predicted; the
// measured interval lies on relSide of rel and dirSide of the direction.
func explain(x *Check, rel Band, relSide, dirSide int) (why, predictions string) {
	c, m := x.Claim, x.Measured
	var said []string
	for _, mech := range c.Reasons {
		p, ok := mech.Predict(x)
		if !ok {
			continue
		}
		pr := Band{p.Lo, p.Hi}
		said = append(said, fmt.Sprintf("predicted by %s: %s", mech.Name, predicted(pr, m.Unit)))
		if why != "" || relSide == 0 && dirSide == 0 {
			continue
		}
		sameSide := rel.side(p.Lo, p.Hi) == relSide && (c.Direction == nil || c.Direction.side(p.Lo, p.Hi) == dirSide)
		switch d := ratioDistance(m.Value, p.Lo, p.Hi); {
		case !sameSide:
		case mech.Factor == 0:
			why = fmt.Sprintf("%s: that predicts %s, the direction only", p.Text, predicted(pr, m.Unit))
		case m.Unit == "yes/no" && d <= mech.Factor:
			why = fmt.Sprintf("%s: that predicts %s, as measured", p.Text, predicted(pr, m.Unit))
		case d <= mech.Factor:
			why = fmt.Sprintf("%s: that predicts %s, and %s is within the %g× this reason allows", p.Text, predicted(pr, m.Unit), m.WithCI(), mech.Factor)
		}
	}
	return why, strings.Join(said, "; ")
}

// predicted formats a predicted range with the claim's unit.
func predicted(b Band, unit string) string {
	if unit == "yes/no" {
		return formatValue(b.Lo, unit)
	}
	return strings.NewReplacer("≤ ", "at most ", "≥ ", "at least ").Replace(b.String()) + unitSuffix(unit)
}

func unitSuffix(unit string) string {
	switch unit {
	case "", "yes/no":
		return ""
	case "×":
		return "×"
	}
	return " " + unit
}

// ratioDistance is how far, as a ratio, v lies from [lo, hi]: 1 inside,
// infinite where the ratio has no meaning (a non-positive figure outside).
func ratioDistance(v, lo, hi float64) float64 {
	switch {
	case v >= lo-eps(lo) && v <= hi+eps(hi):
		return 1
	case v > hi && hi > 0:
		return v / hi
	case v < lo && v > 0:
		return lo / v
	}
	return math.Inf(1)
}

// formatValue prints a figure to a precision that keeps three or four
// significant digits.
func formatValue(v float64, unit string) string {
	if math.IsNaN(v) {
		return "—"
	}
	if unit == "yes/no" {
		return yesNo(v != 0)
	}
	return num(v) + unitSuffix(unit)
}

// num formats a number with about three significant digits, more for
// large values, never in exponent form.
func num(v float64) string {
	a := math.Abs(v)
	switch {
	case v == 0:
		return "0"
	case math.IsInf(v, 0):
		return fmt.Sprint(v)
	case a >= 100:
		return fmt.Sprintf("%.0f", v)
	case a >= 10:
		return fmt.Sprintf("%.1f", v)
	case a >= 1:
		return fmt.Sprintf("%.2f", v)
	case a >= 0.01:
		return fmt.Sprintf("%.3g", v)
	}
	return fmt.Sprintf("%.2g", v)
}
