package model

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/umlab/umlab/results"
)

// Handoff policies, as written in the policy column of handoff rows.
const (
	ExplicitCopy    = results.PolicyExplicitCopy
	HostMapped      = results.PolicyHostMapped
	Managed         = results.PolicyManaged
	ManagedPrefetch = results.PolicyManagedPrefetch
)

// comparePolicies orders policies as Table III does, others after by name.
var comparePolicies = inOrder(ExplicitCopy, HostMapped, Managed, ManagedPrefetch)

// inOrder compares names by their place in order, those not in it after
// them by name.
func inOrder(order ...string) func(a, b string) int {
	rank := func(v string) int {
		if i := slices.Index(order, v); i >= 0 {
			return i
		}
		return len(order)
	}
	return func(a, b string) int { return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(a, b)) }
}

// Param holds the reuse-amortized model's parameters for one policy and
// working-set size: F, the fixed cost of one CPU update and handoff (ms),
// and G, the cost of one GPU pass (ms), as Table III lists them. It is
// umlab's one model-parameter type (calibrated, published or drawn).
type Param struct {
	Policy    string
	SizeBytes int64
	F, G      float64

	Platform string // the platform calibrated on, e.g. GB200 ("" if not stated)
	Source   string // a published figure's source, e.g. Table III
}

// Params returns the parameters of calibrations, in order.
func Params(cs []Calibration) []Param {
	out := make([]Param, len(cs))
	for i, c := range cs {
		out[i] = c.Param
	}
	return out
}

// Time returns the predicted time of one iteration with r GPU passes after
// each CPU update, T̂ = F + r·G (Section VIII-B).
func (p Param) Time(r float64) float64 { return p.F + r*p.G }

// Model is a calibrated reuse-amortized model: parameters for each policy at
// one or more working-set sizes.
type Model struct {
	by       map[string][]Param // per policy, sorted by size
	policies []string
	maxR     int64
	fitted   bool // calibrated from trials (Calibrate), so its F and G have bootstrap replicates
}

// ErrBadInput is wrapped by every error about missing or malformed input.
var ErrBadInput = errors.New("model: bad input")

func badInput(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrBadInput, fmt.Sprintf(format, a...))
}

// NewModel builds a model from published or previously calibrated parameters,
// such as Table III. Every parameter needs a policy, a positive size and
// finite, non-negative F and G; a policy and size may appear only once.
func NewModel(params []Param) (*Model, error) {
	if len(params) == 0 {
		return nil, badInput("no parameters")
	}
	m := &Model{by: map[string][]Param{}}
	for _, p := range params {
		switch {
		case p.Policy == "":
			return nil, badInput("parameter for %s has no policy", formatSize(p.SizeBytes))
		case p.SizeBytes <= 0:
			return nil, badInput("%s: size %d bytes is not positive", p.Policy, p.SizeBytes)
		case !finite(p.F) || !finite(p.G):
			return nil, badInput("%s %s: F = %g ms, G = %g ms/pass: not finite", p.Policy, formatSize(p.SizeBytes), p.F, p.G)
		case p.F < 0 || p.G < 0:
			return nil, badInput("%s %s: F = %g ms, G = %g ms/pass: negative time", p.Policy, formatSize(p.SizeBytes), p.F, p.G)
		}
		for _, q := range m.by[p.Policy] {
			if q.SizeBytes == p.SizeBytes {
				return nil, badInput("%s %s appears twice", p.Policy, formatSize(p.SizeBytes))
			}
		}
		if _, ok := m.by[p.Policy]; !ok {
			m.policies = append(m.policies, p.Policy)
		}
		m.by[p.Policy] = append(m.by[p.Policy], p)
	}
	slices.SortFunc(m.policies, comparePolicies)
	for _, ps := range m.by {
		slices.SortFunc(ps, func(a, b Param) int { return cmp.Compare(a.SizeBytes, b.SizeBytes) })
	}
	return m, nil
}

// Policies returns the model's policies in the order of Table III.
func (m *Model) Policies() []string { return slices.Clone(m.policies) }

// Params returns the calibrated parameters, by policy and then size.
func (m *Model) Params() []Param {
	var out []Param
	for _, p := range m.policies {
		out = append(out, m.by[p]...)
	}
	return out
}

// How says how an Estimate's parameters were obtained.
type How int

// Ways of obtaining parameters at a size.
const (
	Calibrated   How = iota // measured at this size
	Interpolated            // linear in size between the two nearest calibrated sizes
	Extrapolated            // outside the calibrated sizes: see the Estimate's Note
)

var howNames = [...]string{Calibrated: "calibrated", Interpolated: "interpolated", Extrapolated: "extrapolated"}

func (h How) String() string {
	if h >= 0 && int(h) < len(howNames) {
		return howNames[h]
	}
	return fmt.Sprintf("How(%d)", int(h))
}

// Estimate is a policy's parameters at a working-set size, with how they
// were obtained.
type Estimate struct {
	Param
	How    How
	Lo, Hi int64  // calibrated sizes used (equal when only one was)
	Note   string // one sentence on the method, for the reader
}

// At returns a policy's parameters at a size: between calibrated sizes
// interpolated linearly in size (exact for a fixed plus a per-byte cost);
// above them extrapolated along the two largest sizes, never below the
// largest's (in proportion to size from a single size); below them the
// smallest size's, an upper bound, as overheads do not vanish with size.
func (m *Model) At(policy string, sizeBytes int64) (Estimate, error) {
	ps, ok := m.by[policy]
	if !ok {
		return Estimate{}, badInput("policy %q is not calibrated (have %s)", policy, strings.Join(m.policies, ", "))
	}
	if sizeBytes <= 0 {
		return Estimate{}, badInput("size %d bytes is not positive", sizeBytes)
	}
	e := Estimate{Param: Param{Policy: policy, SizeBytes: sizeBytes}}
	i := sort.Search(len(ps), func(i int) bool { return ps[i].SizeBytes >= sizeBytes })
	n := len(ps)
	switch {
	case i < n && ps[i].SizeBytes == sizeBytes:
		e.F, e.G, e.How, e.Lo, e.Hi = ps[i].F, ps[i].G, Calibrated, sizeBytes, sizeBytes
		e.Note = fmt.Sprintf("calibrated at %s", formatSize(sizeBytes))
	case i == 0:
		lo := ps[0]
		e.F, e.G, e.How, e.Lo, e.Hi = lo.F, lo.G, Extrapolated, lo.SizeBytes, lo.SizeBytes
		e.Note = fmt.Sprintf("%s is below the smallest calibrated size (%s): its F and G are used, an upper bound", formatSize(sizeBytes), formatSize(lo.SizeBytes))
	case i == n && n == 1:
		hi := ps[0]
		s := float64(sizeBytes) / float64(hi.SizeBytes)
		e.F, e.G, e.How, e.Lo, e.Hi = hi.F*s, hi.G*s, Extrapolated, hi.SizeBytes, hi.SizeBytes
		e.Note = fmt.Sprintf("%s is above the only calibrated size (%s): F and G scaled in proportion to size", formatSize(sizeBytes), formatSize(hi.SizeBytes))
	case i == n:
		lo, hi := ps[n-2], ps[n-1]
		e.F = math.Max(hi.F, lerp(sizeBytes, lo.SizeBytes, hi.SizeBytes, lo.F, hi.F))
		e.G = math.Max(hi.G, lerp(sizeBytes, lo.SizeBytes, hi.SizeBytes, lo.G, hi.G))
		e.How, e.Lo, e.Hi = Extrapolated, lo.SizeBytes, hi.SizeBytes
		e.Note = fmt.Sprintf("%s is above the largest calibrated size (%s): F and G extrapolated linearly in size from %s and %s", formatSize(sizeBytes), formatSize(hi.SizeBytes), formatSize(lo.SizeBytes), formatSize(hi.SizeBytes))
	default:
		lo, hi := ps[i-1], ps[i]
		e.F = lerp(sizeBytes, lo.SizeBytes, hi.SizeBytes, lo.F, hi.F)
		e.G = lerp(sizeBytes, lo.SizeBytes, hi.SizeBytes, lo.G, hi.G)
		e.How, e.Lo, e.Hi = Interpolated, lo.SizeBytes, hi.SizeBytes
		e.Note = fmt.Sprintf("interpolated linearly in size between %s and %s", formatSize(lo.SizeBytes), formatSize(hi.SizeBytes))
	}
	return e, nil
}

func lerp(x, x0, x1 int64, y0, y1 float64) float64 {
	t := float64(x-x0) / float64(x1-x0)
	return y0 + t*(y1-y0)
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// formatSize is the one byte formatter, results.FormatBytes.
var formatSize = results.FormatBytes
