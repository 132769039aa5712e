package model

import (
	"fmt"
	"math"

	"github.com/umlab/umlab/stats"
)

// CrossoverKind says how the cost lines of two policies relate for R > 0.
type CrossoverKind int

// Crossover kinds. "Always" and "never" are from A's point of view.
const (
	Crosses CrossoverKind = iota // the lines cross at some R* > 0
	AAlways                      // A is faster at every R > 0
	ANever                       // B is faster at every R > 0
	Same                         // the lines coincide: equal at every R
)

var kindNames = [...]string{Crosses: "crosses", AAlways: "a_always", ANever: "never", Same: "same"}

func (k CrossoverKind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("CrossoverKind(%d)", int(k))
}

// Crossover compares two policies' affine cost lines T = F + R·G at one
// size. Equating them gives R* = (F_A − F_B)/(G_B − G_A) (Section VIII-C).
type Crossover struct {
	A, B      string
	SizeBytes int64
	Kind      CrossoverKind
	Parallel  bool    // G_A = G_B: the smaller F is faster at every R
	R         float64 // R*, where the lines meet (also ≤ 0); NaN for parallel lines
	// Below and Above are the faster policy for 0 < R < R* and for R > R*
	// (empty when Kind is Same).
	Below, Above string
	// Verdict judges the crossover against measurements: it is stated only
	// where R* lies inside the measured R range and the order at both ends
	// is beyond noise; otherwise it says "no crossover within R = …" and
	// why. Empty without measurements.
	Verdict    string
	Stated     bool           // Verdict states the crossover
	Throughout string         // the policy faster beyond noise across the measured range, if any
	RCI        stats.Interval // R* with its 95 % bootstrap interval (NaN when not judged)
}

// CrossoverOf compares a and b, which should be the same size.
func CrossoverOf(a, b Param) Crossover {
	c := Crossover{A: a.Policy, B: b.Policy, SizeBytes: a.SizeBytes, R: math.NaN(), RCI: stats.NaN()}
	dF, dG := a.F-b.F, b.G-a.G // T_A − T_B = dF − R·dG
	if dG == 0 {
		c.Parallel = true
		switch {
		case dF < 0:
			c.Kind, c.Below, c.Above = AAlways, a.Policy, a.Policy
		case dF > 0:
			c.Kind, c.Below, c.Above = ANever, b.Policy, b.Policy
		default:
			c.Kind = Same
		}
		return c
	}
	c.R = dF / dG
	// For large R the policy with the smaller G wins.
	big, small := a.Policy, b.Policy
	if dG < 0 {
		big, small = b.Policy, a.Policy
	}
	c.Below, c.Above = small, big
	if c.R <= 0 {
		c.Below = big
	}
	switch {
	case c.R > 0:
		c.Kind = Crosses
	case big == a.Policy:
		c.Kind = AAlways
	default:
		c.Kind = ANever
	}
	return c
}

// Faster returns the faster policy at r passes, or "" on a tie.
func (c Crossover) Faster(r float64) string {
	switch {
	case c.Kind == Same || (c.Kind == Crosses && r == c.R):
		return ""
	case c.Kind == Crosses && r > c.R:
		return c.Above
	}
	return c.Below
}

// String says the result in words, e.g. "host_mapped faster below R* = 1.06,
// explicit_copy above".
func (c Crossover) String() string {
	switch c.Kind {
	case Crosses:
		return fmt.Sprintf("%s faster below R* = %s, %s above", c.Below, fmtR(c.R), c.Above)
	case Same:
		return fmt.Sprintf("%s and %s cost the same at every R", c.A, c.B)
	}
	why := "parallel lines"
	if !c.Parallel {
		why = fmt.Sprintf("lines meet at R* = %s ≤ 0", fmtR(c.R))
	}
	return fmt.Sprintf("%s faster at every R (%s)", c.Below, why)
}

// fmtR writes a reuse count with three significant digits and no exponent.
func fmtR(r float64) string {
	switch a := math.Abs(r); {
	case a >= 100:
		return fmt.Sprintf("%.0f", r)
	case a >= 10:
		return fmt.Sprintf("%.1f", r)
	}
	return fmt.Sprintf("%.2f", r)
}
