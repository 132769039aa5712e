package claims

import (
	"fmt"

	"github.com/umlab/umlab/model"
)

// A said is one figure a statement cites, read from the paper's datasets
// (never retyped), with the configurations it was read from
// (TestStatementsCiteTheDatasets checks a claim measures what it cites).
type said func() (string, map[string]bool, error)

// says fills a statement's %s with its figures; a figure that cannot be
// read shows as "?" (TestStatementsCiteTheDatasets fails on it).
func says(format string, figs ...said) statement {
	args := make([]any, len(figs))
	cited := map[string]bool{}
	for i, f := range figs {
		s, keys, err := f()
		if err != nil {
			s = "?"
		}
		args[i] = s
		for k := range keys {
			cited[k] = true
		}
	}
	return statement{format, fmt.Sprintf(format, args...), cited}
}

// statement is a claim's statement: its template, its text and the
// configurations of the paper's datasets its figures were read from.
type statement struct {
	format, text string
	cited        map[string]bool
}

// at is the figure of one configuration of a published dataset.
func at(ds string, s sel) said {
	return func() (string, map[string]bool, error) {
		r, err := reference(ds)
		if err != nil {
			return "", nil, err
		}
		f, err := get(r, s)
		return num(f.v), map[string]bool{s.key(s.size): true}, err
	}
}

// of is a measure's figure on a published dataset (and, for a comparison,
// another).
func of(m func(a, b *Run) (Quantity, error), ds ...string) said {
	return func() (string, map[string]bool, error) {
		var runs [2]*Run
		for i, d := range ds {
			r, err := reference(d)
			if err != nil {
				return "", nil, err
			}
			runs[i] = r
		}
		runs[0].reads = map[string]bool{}
		defer func() { runs[0].reads = nil }()
		q, err := m(runs[0], runs[1])
		return num(q.Value), runs[0].reads, err
	}
}

// table is a Table III parameter of a policy at 1 GiB.
func table(policy string, field func(model.Calibration) float64) said {
	return func() (string, map[string]bool, error) {
		ref, err := reference(GB200)
		if err != nil {
			return "", nil, err
		}
		t, err := tableIII(ref, policy)
		if err != nil {
			return "", nil, err
		}
		return num(field(t[0])), nil, nil
	}
}

func tableF(c model.Calibration) float64        { return c.F }
func tableG(c model.Calibration) float64        { return c.G }
func tableMaxAPEOf(c model.Calibration) float64 { return c.MaxAPE }

// stated is a figure the paper states only in its text: the few the
// datasets cannot hold (a range, an aggregate over an unpublished sweep).
func stated(v float64) said {
	return func() (string, map[string]bool, error) { return num(v), nil, nil }
}
