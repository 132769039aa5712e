package claims

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"math"
	"math/rand/v2"
)

// A run's own intervals cannot show how far a figure moves from one run to
// the next, so a single measured run's replicates each take a draw of the
// claim's run-to-run deviation (of its logarithm where the figures are
// positive and within 10× of each other), measured by TestStability over
// five full H200 runs into tolerance.json.

// tolerance is one claim's run-to-run deviation.
type tolerance struct {
	Log bool // of the figure's logarithm
	SD  float64
}

// toleranceFile is tolerance.json: the runs it was measured on ("from")
// and each claim's tolerance, by id.
type toleranceFile struct {
	From      string               `json:"from"`
	Tolerance map[string]tolerance `json:"tolerance"`
}

//go:embed tolerance.json
var toleranceJSON []byte

// runTolerance is each claim's run-to-run deviation (tolerance.json,
// written by TestStability; a file that does not parse is a broken build,
// as template.Must treats a broken template).
var runTolerance = func() map[string]tolerance {
	var f toleranceFile
	d := json.NewDecoder(bytes.NewReader(toleranceJSON))
	d.DisallowUnknownFields() // a renamed field must not decode to zero tolerances
	if err := d.Decode(&f); err != nil {
		panic("claims: tolerance.json: " + err.Error())
	}
	return f.Tolerance
}()

// withTolerance adds a draw of the claim's run-to-run deviation to each
// replicate of its figure, where it applies: a single measured run.
func withTolerance(vals []float64, id string, t tolerance) {
	rng := rand.New(rand.NewPCG(seedOf(id, 0), 2))
	for i, v := range vals {
		if z := rng.NormFloat64(); t.Log {
			vals[i] = v * math.Exp(t.SD*z)
		} else {
			vals[i] = v + t.SD*z
		}
	}
}
