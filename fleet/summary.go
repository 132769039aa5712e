package fleet

import (
	"cmp"
	"path/filepath"
	"slices"

	"github.com/umlab/umlab/results"
)

// Summarize is results.Summarize over every part, from their digests,
// split by fleet mode (isolated, concurrent, "" outside fleet runs) as
// umbench summary splits rows, modes in order of first appearance. Each
// part's configurations are finished with its own device's peaks and
// throttle reasons, in the order of its directory's rows. Parts loaded
// without intervals are read again for them. A configuration several
// parts measured on one GPU is described from their rows together, as
// Summarize of the merged rows pools them. An empty platform takes the
// metadata's (else the directory's name), as datasets.LoadDir fills it.
func Summarize(parts []Part) (modes []string, byMode map[string][]results.SummaryRow, err error) {
	if err := withIntervals(parts); err != nil {
		return nil, nil, err
	}
	byMode = map[string][]results.SummaryRow{}
	items := summaryOrder(parts)
	seen := map[configMode]int{}
	for _, it := range items {
		seen[it.key()]++
	}
	pooled := poolSummaries(parts, items, seen)
	for _, it := range items {
		k := it.key()
		s := it.c.summary()
		if seen[k] > 1 {
			if pooled[k] == nil {
				continue // described with its first part
			}
			s, pooled[k] = *pooled[k], nil
		}
		if s.Config.Platform == "" {
			s.Config.Platform = cmp.Or(it.p.Meta.Platform, filepath.Base(it.p.Dir))
		}
		it.p.Meta.Device.SummaryOptions().Finish(&s)
		if _, ok := byMode[it.c.Mode]; !ok {
			modes = append(modes, it.c.Mode)
		}
		byMode[it.c.Mode] = append(byMode[it.c.Mode], s)
	}
	return modes, byMode, nil
}

type summaryItem struct {
	c *configDigest
	p *Part
}

func (it summaryItem) key() configMode {
	cfg := it.c.config()
	return configMode{cfg.ConfigID(), it.c.Mode}
}

// summaryOrder lists the parts' configurations in the order Summarize of
// their rows gives them: directory by directory, each in its rows' order.
func summaryOrder(parts []Part) []summaryItem {
	var dirs []string
	byDir := map[string][]summaryItem{}
	for i := range parts {
		p := &parts[i]
		if _, ok := byDir[p.Dir]; !ok {
			dirs = append(dirs, p.Dir)
		}
		for j := range p.digest().Configs {
			byDir[p.Dir] = append(byDir[p.Dir], summaryItem{&p.digest().Configs[j], p})
		}
	}
	var items []summaryItem
	for _, dir := range dirs {
		d := byDir[dir]
		slices.SortStableFunc(d, func(a, b summaryItem) int { return a.c.First - b.c.First })
		items = append(items, d...)
	}
	return items
}

// poolSummaries describes, from the rows of the parts that share them, the
// configurations counted more than once in seen.
func poolSummaries(parts []Part, items []summaryItem, seen map[configMode]int) map[configMode]*results.SummaryRow {
	rows := map[configMode][]results.Row{}
	read := map[*Part]bool{}
	for _, it := range items {
		k := it.key()
		if seen[k] < 2 || read[it.p] {
			continue
		}
		read[it.p] = true
		it.p.EachRow(func(r *results.Row) error {
			mode, _ := results.FleetMode(r.Note)
			if k := (configMode{r.ConfigID(), mode}); seen[k] > 1 {
				rows[k] = append(rows[k], *r)
			}
			return nil
		})
	}
	out := map[configMode]*results.SummaryRow{}
	for k, rs := range rows { // one configuration each; finished later with its part's device
		s := results.DescribeTrials(rs)
		s.Config = results.ConfigOf(rs[0])
		out[k] = &s
	}
	return out
}
