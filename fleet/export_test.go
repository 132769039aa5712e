package fleet

import "github.com/umlab/umlab/results"

// Digest makes the digest of a results directory's rows, with its
// summaries' intervals, and keeps it beside them (CacheName), as the first
// fleet command to read the directory would.
func Digest(dir string) error {
	_, _, _, err := digestDir(dir, nil, true)
	return err
}

// Unverified is the number of the part's trials left out of its
// statistics because they were not verified (results.ScreenUnverified).
func (p *Part) Unverified() int { return p.digest().Unverified }

// LoadRows reads the part's rows into Rows (a no-op where they are).
func (p *Part) LoadRows() error {
	if p.Rows != nil || p.csv == "" {
		return nil
	}
	var rows []results.Row
	if err := p.EachRow(func(r *results.Row) error { rows = append(rows, *r); return nil }); err != nil {
		return err
	}
	p.Rows = rows
	return nil
}
