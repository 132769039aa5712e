package nb

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-gota/gota/dataframe"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/plots"
	"github.com/umlab/umlab/results"
)

// CounterColumns are the columns Counters returns: the configuration, the
// median bandwidth, and what the counter pass counted.
var CounterColumns = []string{results.ColGroup, results.ColMode, results.ColPattern, results.ColSizeBytes,
	results.ColStrideElements, results.ColPageIntervalBytes, results.ColMedianGBps,
	results.ColUMHtoDBytes, results.ColPCIeRXBytes, results.ColGPUFaultGroups, results.ColMigratedPerUseful, results.ColPCIePerUseful}

// Counters returns, for the given groups, counter passes (`umbench run
// --counters`) joined to the medians of the run that made them, one row
// per configuration, in CounterColumns: those of the local run itself
// when it has some (the run the figures show), else those of the newest
// embedded dataset of the same platform, and it says which. Bandwidth and
// counts in a row always come from one run; when that is not the run of
// the figures, the caption names both. Notebook runs, live or simulated,
// do not count.
func Counters(groups ...string) dataframe.DataFrame {
	df, src, err := LoadCounters(groups...)
	if errors.Is(err, plots.ErrNoData) {
		return dataframe.DataFrame{Err: err} // Table says there is nothing to show, and why
	}
	if err != nil {
		fail(err)
	}
	Markdown(src.Caption())
	return df
}

// LoadCounters is Counters without the display.
func LoadCounters(groups ...string) (dataframe.DataFrame, CounterSource, error) {
	if _, err := Load(groups...); err != nil {
		return dataframe.DataFrame{}, CounterSource{}, err
	}
	platform, figures := Local(), last.localSrc.Name
	if platform == "" {
		return dataframe.DataFrame{}, CounterSource{}, fmt.Errorf("%w: no local run is loaded, and the paper counted nothing", plots.ErrNoData)
	}
	for _, name := range append(strings.Split(figures, " + "), datasets.ByAge(datasets.Query{Counters: true})...) {
		src := CounterSource{Name: name, Figures: figures}
		counted, err := datasets.Counters(name)
		if err != nil || len(counted) == 0 {
			continue // not an embedded dataset, or no counter passes
		}
		rows, meta, err := loadDataset(name)
		if err != nil {
			return dataframe.DataFrame{}, src, err
		}
		rows = ofGroups(rows, groups)
		if len(rows) == 0 || rows[0].Platform != platform || !holdsAll(rows, groups) {
			continue // counter passes of other groups, or of another GPU model
		}
		src.Detail = describeRun(meta)
		sum := results.Summarize(rows, meta.Device.SummaryOptions())
		df, err := results.JoinCounters(sum, counted)
		if err != nil {
			return df, src, err
		}
		return df.Select(CounterColumns), src, nil
	}
	return dataframe.DataFrame{}, CounterSource{}, fmt.Errorf("%w: no counter passes of %s for %s are bundled (measure them with umbench run --counters --groups %s)",
		plots.ErrNoData, platform, strings.Join(groups, ","), strings.Join(groups, ","))
}

// holdsAll says whether rows hold every group of groups.
func holdsAll(rows []results.Row, groups []string) bool {
	for _, g := range groups {
		if !slices.ContainsFunc(rows, func(r results.Row) bool { return r.Group == g }) {
			return false
		}
	}
	return true
}

// CounterSource says where counter passes came from.
type CounterSource struct {
	Name    string // the embedded dataset
	Detail  string // device, driver, date, commit, command
	Figures string // the source of the figures beside them
}

// Same says whether the counters come from the run of the figures.
func (c CounterSource) Same() bool {
	return c.Name == c.Figures || slices.Contains(strings.Split(c.Figures, " + "), c.Name)
}

// Caption says where the counts and the bandwidth beside them come from,
// naming the figures' run too when it is another.
func (c CounterSource) Caption() string {
	s := fmt.Sprintf("**Counter passes** from <code>%s</code> (%s); the bandwidth in the table is that run's own median.", Text(c.Name), Text(c.Detail))
	if !c.Same() {
		s += fmt.Sprintf(" The figures above come from another run, <code>%s</code>: compare counts with this table's bandwidth, not with theirs.", Text(c.Figures))
	}
	return s
}
