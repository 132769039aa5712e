package claims

import (
	"math"
	"math/rand/v2"
)

// A run's own intervals resample its trials; they cannot show how far a
// figure moves from one run to the next on the same machine. Where several
// runs of one machine and suite exist that is measured: for each claim the
// standard deviation of its figure over the runs (of its logarithm where
// every figure is positive and within a factor of 10 of the others). A single measured run's interval carries it:
// each bootstrap replicate of the figure takes a draw of that deviation.
// runTolerance (tolerance_table.go) holds the deviations over the five
// full H200 runs of 2026-12-01 and 02, written by TestStability.

// tolerance is one claim's run-to-run deviation.
type tolerance struct {
	Log bool // of the figure's logarithm
	SD  float64
}

// apply moves a figure by z deviations.
func (t tolerance) apply(v, z float64) float64 {
	if t.Log {
		return v * math.Exp(t.SD*z)
	}
	return v + t.SD*z
}

// withTolerance adds a draw of the claim's run-to-run deviation to each
// replicate of its figure, where it applies: a single measured run.
func withTolerance(vals []float64, id string, t tolerance) {
	rng := rand.New(rand.NewPCG(seedOf(id, 0), 2))
	for i, v := range vals {
		vals[i] = t.apply(v, rng.NormFloat64())
	}
}
