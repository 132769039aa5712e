package results

import (
	"errors"
	"fmt"
	"slices"
)

// KindSimulated is Metadata.Kind of a run on the simulated GPU
// (umbench run --simulate): its rows carry ColSimulated and its numbers are
// made up.
const KindSimulated = "simulated"

// Optional are the columns a results file may lack: files written before
// the column was added read it as its empty value (simulated: false,
// round_position: 0), or for bound as LegacyBound says.
var Optional = map[string]bool{ColSimulated: true, ColRoundPosition: true, ColBound: true}

// SimulatedBanner heads every table made from simulated rows.
const SimulatedBanner = "SIMULATED DATA: made up by the simulated GPU (umbench run --simulate), not measurements"

// ErrMixedSimulated is returned by CheckNotMixed when simulated and measured
// rows meet.
var ErrMixedSimulated = errors.New("simulated and measured rows are mixed")

// Simulated reports whether any row is simulated.
func Simulated(rows []Row) bool {
	return slices.ContainsFunc(rows, func(r Row) bool { return r.Simulated })
}

// CheckNotMixed refuses rows that mix simulated and measured (or published)
// data: no summary, model or comparison may combine them. name says where
// the rows came from.
func CheckNotMixed(rows []Row, name string) error {
	sim, real := -1, -1
	for i := range rows {
		if rows[i].Simulated {
			if sim < 0 {
				sim = i
			}
		} else if real < 0 {
			real = i
		}
		if sim >= 0 && real >= 0 {
			return fmt.Errorf("%s: %w (row %d is simulated, row %d is not): keep simulated runs in their own directories",
				name, ErrMixedSimulated, sim+1, real+1)
		}
	}
	return nil
}
