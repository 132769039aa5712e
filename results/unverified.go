package results

import (
	"fmt"
	"strings"
)

// Unverified trials are left out of every statistic by default: a trial
// whose result was not checked, or checked and wrong, says nothing about
// the memory system. ScreenUnverified is the one place that does it; the
// loaders of rows for statistics (datasets.Resolve, datasets.Load,
// datasets.LoadDir) call it and put what it left out in
// Metadata.Unverified, so that every command can say it, and one that is
// asked to keep them can put them back (Restore).

// Unverified is what ScreenUnverified left out: every trial not marked
// verified, except waived rows (nothing was measured) and published rows
// (source set: the paper's figures, never verified here).
type Unverified struct {
	// Configs are the configurations that had unverified trials, in the
	// order they first appear.
	Configs []UnverifiedConfig
	// Trials is how many rows were left out, over all configurations.
	Trials int

	left []indexedRow // the rows left out, with their place in the input
	n    int          // rows in the input
}

// UnverifiedConfig counts one configuration's unverified trials.
type UnverifiedConfig struct {
	Config     Row // the first unverified row of the configuration
	Unverified int // its trials left out
	Trials     int // all its trials
}

type indexedRow struct {
	i   int
	row Row
}

// ScreenUnverified returns the rows that statistics may use: every row but
// unverified trials, in order, and what was left out.
func ScreenUnverified(rows []Row) ([]Row, Unverified) {
	var u Unverified
	u.n = len(rows)
	at := map[string]int{} // ConfigKey → index in u.Configs
	trials := map[string]int{}
	for _, r := range rows {
		trials[ConfigKey(r)]++
	}
	kept := rows[:0:0]
	for i, r := range rows {
		if r.Verified || r.Waived || r.Source != "" {
			kept = append(kept, r)
			continue
		}
		k := ConfigKey(r)
		j, ok := at[k]
		if !ok {
			j = len(u.Configs)
			at[k] = j
			u.Configs = append(u.Configs, UnverifiedConfig{Config: r, Trials: trials[k]})
		}
		u.Configs[j].Unverified++
		u.Trials++
		u.left = append(u.left, indexedRow{i, r})
	}
	return kept, u
}

// Restore puts the unverified rows back into kept (the rows
// ScreenUnverified returned, unchanged), each in its place: the explicit
// opt-in of a command asked to keep unverified trials.
func (u Unverified) Restore(kept []Row) []Row {
	if len(u.left) == 0 {
		return kept
	}
	if len(kept)+len(u.left) != u.n {
		for _, l := range u.left { // kept was changed: add them at the end
			kept = append(kept, l.row)
		}
		return kept
	}
	out := make([]Row, 0, u.n)
	k := 0
	for _, l := range u.left {
		for len(out) < l.i {
			out = append(out, kept[k])
			k++
		}
		out = append(out, l.row)
	}
	return append(out, kept[k:]...)
}

// Of returns how many trials of r's configuration were left out, and how
// many it had (0, 0 when none was left out): for a flag beside that
// configuration.
func (u Unverified) Of(r Row) (unverified, trials int) {
	k := ConfigKey(r)
	for _, c := range u.Configs {
		if ConfigKey(c.Config) == k {
			return c.Unverified, c.Trials
		}
	}
	return 0, 0
}

// String says what was left out, e.g. "2 unverified trials left out of
// every statistic: hbm triad explicit 64 MiB (2 of 5)"; empty when nothing
// was. Up to five configurations are named, then a count of the rest.
func (u Unverified) String() string {
	if u.Trials == 0 {
		return ""
	}
	var parts []string
	for i, c := range u.Configs {
		if i == 5 {
			parts = append(parts, fmt.Sprintf("%d more configurations", len(u.Configs)-5))
			break
		}
		r := c.Config
		name := strings.Join(strings.Fields(strings.Join([]string{r.Group, r.Benchmark, r.Mode, r.Pattern, r.Policy, r.Phase}, " ")), " ")
		parts = append(parts, fmt.Sprintf("%s %s (%d of %d)", name, FormatBytes(r.SizeBytes), c.Unverified, c.Trials))
	}
	s := "s"
	if u.Trials == 1 {
		s = ""
	}
	return fmt.Sprintf("%d unverified trial%s left out of every statistic: %s", u.Trials, s, strings.Join(parts, "; "))
}
