package datasets

import (
	"fmt"

	"github.com/umlab/umlab/results"
)

// Source is the data one reference names, as a command line or a notebook
// gives it: its rows and metadata, and the name Resolve resolved it to.
type Source struct {
	Ref  string // what was named
	Name string // what it resolved to (the dataset chosen for newest[:GROUP])
	Rows []results.Row
	Meta results.Metadata
}

// Open resolves ref as Resolve does and refuses data no table should be
// made of: no rows at all (a header line only), or simulated rows mixed
// with measured ones.
func Open(ref string) (Source, error) {
	rows, m, name, err := Resolve(ref)
	if err != nil {
		return Source{}, err
	}
	if len(rows) == 0 {
		return Source{}, fmt.Errorf("%s holds no rows (a header line only): nothing to show", name)
	}
	if err := results.CheckNotMixed(rows, name); err != nil {
		return Source{}, err
	}
	return Source{Ref: ref, Name: name, Rows: rows, Meta: m}, nil
}

// Counters returns the source's counter passes (see Counters); none for a
// run without them.
func (s Source) Counters() ([]results.CounterRow, error) {
	ref := s.Ref
	if s.Name != "" && known(embedded, s.Name) {
		ref = s.Name
	}
	return Counters(ref)
}

// ForModel is the dataset the model and the advisor calibrate on when the
// user names none: the measured dataset with a handoff sweep that ByAge
// puts first, else the paper's GB200 figures.
func ForModel() string {
	if name, ok := NewestOf(Query{Group: results.GroupHandoff, Phase: results.PhaseGPUOnly}); ok {
		return name
	}
	return "paper-gb200"
}
