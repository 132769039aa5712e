package umkit

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/umlab/umlab/results"
)

// Sizes in bytes.
const (
	KiB int64 = 1 << 10
	MiB int64 = 1 << 20
	GiB int64 = 1 << 30
)

// The iteration defaults, in one place. The paper's method (Section IV-E)
// is 5 warm-ups and 25 trials; the handoff group repeats blocks of 20
// trials; --quick runs 2 warm-ups and 5 trials (handoff: one block).
const (
	DefaultWarmups      = 5
	DefaultTrials       = 25
	DefaultHandoffReps  = 3
	HandoffTrials       = 20 // per repetition
	QuickWarmups        = 2
	QuickTrials         = 5
	maxWarmups          = 1000
	maxTrials           = 100000
	defaultSeed         = 1
	quickHandoffRepeats = 1
)

// Common holds the settings every group shares. Unset counts take the
// defaults above (the paper's 5 warm-ups and 25 trials; handoff 20 per
// repetition); N(0) warm-ups is an explicit zero and runs none.
type Common struct {
	Warmups Count  // untimed iterations before the trials; unset: DefaultWarmups
	Trials  Count  // measured iterations; unset: DefaultTrials (handoff: HandoffTrials per repetition)
	Seed    uint64 // data seed; default 1, so runs are reproducible
}

// validate checks warm-ups and trials once defaults are applied.
func (c Common) validate(group string) error {
	if w := c.Warmups.Int(); w < 0 || w > maxWarmups {
		return fmt.Errorf("umkit: %s: warmups %d: allowed 0 to %d (unset: %d)", group, w, maxWarmups, DefaultWarmups)
	}
	if t := c.Trials.Int(); c.Trials.IsSet() && (t < 1 || t > maxTrials) {
		return fmt.Errorf("umkit: %s: trials %d: allowed 1 to %d (unset: the group's default)", group, t, maxTrials)
	}
	return nil
}

// withDefaults fills what is unset: warm-ups, trials (the group's default)
// and the data seed.
func (c Common) withDefaults(trials int) Common {
	c.Warmups = c.Warmups.Or(DefaultWarmups)
	c.Trials = c.Trials.Or(trials)
	c.Seed = cmp.Or(c.Seed, defaultSeed)
	return c
}

// Count is a number of iterations that may be left unset. The zero Count is
// unset: the group's default applies. N(0) is an explicit zero, which is
// honoured (no warm-up at all, for instance).
type Count struct {
	n   int
	set bool
}

// N returns the count n, set.
func N(n int) Count { return Count{n: n, set: true} }

// IsSet says whether the count was given.
func (c Count) IsSet() bool { return c.set }

// Int returns the count; 0 when unset.
func (c Count) Int() int { return c.n }

// Or returns c when it is set and N(def) otherwise.
func (c Count) Or(def int) Count {
	if c.set {
		return c
	}
	return N(def)
}

func (c Count) String() string {
	if !c.set {
		return "unset"
	}
	return strconv.Itoa(c.n)
}

// MarshalJSON writes the number, or null when unset.
func (c Count) MarshalJSON() ([]byte, error) {
	if !c.set {
		return []byte("null"), nil
	}
	return []byte(strconv.Itoa(c.n)), nil
}

// UnmarshalJSON reads a number, or null for unset.
func (c *Count) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*c = Count{}
		return nil
	}
	var n int
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("umkit: iteration count %s: want a whole number or null", b)
	}
	*c = N(n)
	return nil
}

// firstError returns the first of errs that is not nil: a definition's
// checks, in the order they are reported.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// failIf is the error format says, when bad: what was wrong and what is
// allowed.
func failIf(bad bool, format string, a ...any) error {
	if !bad {
		return nil
	}
	return fmt.Errorf("umkit: "+format, a...)
}

func each[T any](xs []T, check func(T) error) error {
	for _, x := range xs {
		if err := check(x); err != nil {
			return err
		}
	}
	return nil
}

func validateSizes(group, what string, sizes []int64, lo, hi int64) error {
	return each(sizes, func(s int64) error {
		return failIf(s < lo || s > hi || s%16 != 0,
			"%s: %s %d bytes: allowed multiples of 16 bytes from %d to %d (%s to %s)",
			group, what, s, lo, hi, fmtBytes(lo), fmtBytes(hi))
	})
}

func validateChoice(group, what string, got, allowed []string) error {
	return each(got, func(g string) error {
		return failIf(!slices.Contains(allowed, g), "%s: unknown %s %q: allowed %v", group, what, g, allowed)
	})
}

// orElse returns s, or def where s is nil (unset): cmp.Or for slices.
func orElse[T any](s, def []T) []T {
	if s == nil {
		return def
	}
	return s
}

func pow4(lo, hi int64) []int64 {
	var s []int64
	for v := lo; v <= hi; v *= 4 {
		s = append(s, v)
	}
	return s
}

// fmtBytes is the one byte formatter, results.FormatBytes.
var fmtBytes = results.FormatBytes
