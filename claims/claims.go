package claims

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
)

// Verdict is the outcome of checking one claim on one run.
type Verdict int

// Verdicts, from agreement to no data.
const (
	// Reproduces: the run's figure satisfies the claim's relation with the
	// paper's figure.
	Reproduces Verdict = iota
	// Qualitative: same direction as the paper, a different magnitude.
	Qualitative
	// KnownReason: the run differs and its device facts or its own data say why.
	KnownReason
	// Unexplained: the run differs and nothing in its facts explains it.
	Unexplained
	// NotMeasured: the run lacks the configurations the claim needs.
	NotMeasured
)

var verdictNames = []string{"reproduces", "reproduces qualitatively", "differs for a known reason", "differs, unexplained", "not measured"}

func (v Verdict) String() string {
	if v < 0 || int(v) >= len(verdictNames) {
		return fmt.Sprintf("Verdict(%d)", int(v))
	}
	return verdictNames[v]
}

// Quantity is a figure a claim compares: a value and how it was obtained,
// in words with the figures it comes from.
type Quantity struct {
	Value float64
	Unit  string // "GB/s", "ms", "%", "×", "" (a count or a truth value)
	Text  string // e.g. "21.6 / 3904 GB/s"
}

// String formats the value with its unit.
func (q Quantity) String() string { return formatValue(q.Value, q.Unit) }

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

// Holds reports whether got satisfies the relation against paper.
func (r Relation) Holds(paper, got float64) bool {
	if math.IsNaN(got) {
		return false
	}
	switch r.Kind {
	case Near:
		if paper == 0 {
			return got == 0
		}
		return math.Abs(got/paper-1) <= r.Tol+1e-12
	case NearAbs:
		return math.Abs(got-paper) <= r.Tol+1e-12
	case AtMost:
		return got <= r.Bound+1e-12
	case AtLeast:
		return got >= r.Bound-1e-12
	case Same:
		return got == paper
	}
	return false
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
	case Same:
		return "the same as the paper's"
	}
	return "?"
}

// Claim is one finding of the paper as a check.
type Claim struct {
	ID        string // stable, e.g. "V-C.cold-fraction"
	Section   string // the paper's section or table: "V-C", "Table III"
	Statement string // what the paper says, in its words where short
	// Reference is the published dataset the paper's figure is computed
	// from (paper-gb200, paper-gh200, paper-gb10); Against, when set, is a
	// second platform the claim compares with (cross-platform claims).
	Reference, Against string
	Relation           Relation
	// Direction, when set, is the claim's qualitative content: a run whose
	// quantity misses the relation but satisfies Direction reproduces it
	// qualitatively.
	Direction     func(q float64) bool
	DirectionText string
	// Ambiguity names what the claim rests on that the paper leaves open.
	Ambiguity string
	// Measure computes the quantity from a run (and from the comparison run
	// for cross-platform claims; b is nil otherwise). An error wrapping
	// ErrNotMeasured says what is missing.
	Measure func(a, b *Run) (Quantity, error)
	// Paper, when set, gives the paper's figure where the published rows
	// cannot (Table III's errors, a figure the text states); otherwise the
	// paper's figure is Measure on the reference dataset.
	Paper func(ref, against *Run) (Quantity, error)
	// Explain gives the reason a run differs, from its facts and data, or
	// "" when none is known.
	Explain func(x *Check) string
	// Unresolved, when set, says why the run's own data show that its
	// figure cannot measure the claimed quantity (an added cost smaller than
	// the work the run timed inside it), or "". A reason makes the verdict
	// KnownReason whatever the figure: such a figure neither reproduces nor
	// differs.
	Unresolved func(x *Check) string
}

// ErrNotMeasured is wrapped by Measure errors for data a run lacks.
var ErrNotMeasured = errors.New("not measured")

func notMeasured(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrNotMeasured, fmt.Sprintf(format, a...))
}

// Check is a claim checked on a run.
type Check struct {
	Claim    *Claim
	Run      *Run
	Ref      *Run // the reference dataset
	Against  *Run // the comparison run of a cross-platform claim, if any
	Paper    Quantity
	Measured Quantity
	Verdict  Verdict
	// Reason explains the verdict: why the claim is not measured, how the
	// magnitude differs, or why the run differs.
	Reason string
}

// Options tune Evaluate.
type Options struct {
	// Against is the run cross-platform claims compare Run with (the
	// paper's GB200 claims against GH200 want a GH200 run). Nil leaves
	// those claims not measured unless Run is the paper's GB200 dataset,
	// which is then compared with the paper's GH200 dataset.
	Against *Run
}

var refs struct {
	sync.Mutex
	m map[string]*Run
}

// reference loads (once) a published dataset.
func reference(name string) (*Run, error) {
	refs.Lock()
	defer refs.Unlock()
	if refs.m == nil {
		refs.m = map[string]*Run{}
	}
	if r, ok := refs.m[name]; ok {
		return r, nil
	}
	r, err := Load(name)
	if err != nil {
		return nil, err
	}
	refs.m[name] = r
	return r, nil
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
	x := Check{Claim: c, Run: run}
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
	if c.Against != "" && against == nil {
		x.Verdict = NotMeasured
		x.Reason = fmt.Sprintf("compares two platforms (%s with %s); this run holds one (%s)", ref.Meta.Platform, refAgainst.Meta.Platform, orDash(run.Meta.Platform))
		x.Measured.Value = math.NaN()
		return x, nil
	}
	x.Measured, err = c.Measure(run, against)
	if errors.Is(err, ErrNotMeasured) {
		x.Verdict = NotMeasured
		x.Reason = strings.TrimPrefix(err.Error(), ErrNotMeasured.Error()+": ")
		x.Measured.Value = math.NaN()
		return x, nil
	}
	if err != nil {
		return x, err
	}
	if c.Unresolved != nil {
		if why := c.Unresolved(&x); why != "" {
			x.Verdict, x.Reason = KnownReason, why
			return x, nil
		}
	}
	switch {
	// A figure near the paper's but against its direction (R* = 0.97
	// against 1.06: no crossover at any R ≥ 1) does not reproduce it.
	case c.Relation.Holds(x.Paper.Value, x.Measured.Value) && (c.Direction == nil || c.Direction(x.Measured.Value)):
		x.Verdict = Reproduces
	case c.Direction != nil && c.Direction(x.Measured.Value):
		x.Verdict = Qualitative
		x.Reason = fmt.Sprintf("same direction (%s), %s here against %s in the paper", c.DirectionText, x.Measured, x.Paper)
		if c.Explain != nil {
			if why := c.Explain(&x); why != "" {
				x.Reason += "; " + why
			}
		}
	default:
		why := ""
		if c.Explain != nil {
			why = c.Explain(&x)
		}
		if why != "" {
			x.Verdict, x.Reason = KnownReason, why
		} else {
			x.Verdict = Unexplained
			x.Reason = fmt.Sprintf("%s here against %s in the paper; nothing in this run's device facts or data explains it", x.Measured, x.Paper)
		}
	}
	return x, nil
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// formatValue prints a figure to a precision that keeps three or four
// significant digits.
func formatValue(v float64, unit string) string {
	if math.IsNaN(v) {
		return "—"
	}
	if unit == "yes/no" {
		if v != 0 {
			return "yes"
		}
		return "no"
	}
	s := num(v)
	switch unit {
	case "":
		return s
	case "%":
		return s + " %"
	case "×":
		return s + "×"
	}
	return s + " " + unit
}

// num formats a number with about three significant digits, more for
// large values, never in exponent form.
func num(v float64) string {
	a := math.Abs(v)
	switch {
	case v == 0:
		return "0"
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
