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

// Counters returns, for the given groups, the counter passes of the newest
// embedded measured dataset that has them (`umbench run --counters`)
// joined to its medians, one row per configuration, in CounterColumns. It
// shows where they come from and what is known to be wrong with them
// (datasets.Caveats). Notebook runs, live or simulated, do not count: every
// mode uses the bundled passes, and says so.
func Counters(groups ...string) dataframe.DataFrame {
	df, src, err := LoadCounters(groups...)
	if errors.Is(err, plots.ErrNoData) {
		return dataframe.DataFrame{Err: err} // nb.Table says there is nothing to show, and why
	}
	if err != nil {
		fail(err)
	}
	Markdownf("**Counter passes** from <code>%s</code> (%s).", src.Name, src.Detail)
	if src.Caveat != "" {
		Note("Caveat: %s", src.Caveat)
	}
	return df
}

// LoadCounters is Counters without the display; the Source says where the
// passes came from, with the dataset's caveats on one line.
func LoadCounters(groups ...string) (dataframe.DataFrame, CounterSource, error) {
	for _, name := range localByAge() {
		src := CounterSource{Name: name, Caveat: strings.Join(strings.Fields(datasets.Caveats(name)), " ")}
		counted, err := datasets.Counters(name)
		if err != nil {
			return dataframe.DataFrame{}, src, err
		}
		if len(counted) == 0 {
			continue // no counter passes
		}
		rows, meta, err := datasets.Load(name)
		if err != nil {
			return dataframe.DataFrame{}, src, err
		}
		src.Detail = describeRun(meta)
		rows = slices.DeleteFunc(rows, func(r results.Row) bool { return len(groups) > 0 && !slices.Contains(groups, r.Group) })
		if len(rows) == 0 {
			continue // counter passes of other groups: look at an older dataset
		}
		sum := results.Summarize(rows, results.SummaryOptions{PeakMemoryGBps: meta.Device.PeakMemoryGBps,
			PeakHostLinkGBps: meta.Device.PeakHostLinkGBps, ThrottleReasons: meta.Device.ThrottleReasons})
		df, err := results.JoinCounters(sum, counted)
		if err != nil {
			return df, src, err
		}
		return df.Select(CounterColumns), src, nil
	}
	return dataframe.DataFrame{}, CounterSource{}, fmt.Errorf("%w: no embedded dataset has counter passes of %v (measure with umbench run --counters)", plots.ErrNoData, groups)
}

// CounterSource says where counter passes came from.
type CounterSource struct {
	Name   string // the embedded dataset
	Detail string // device, driver, date, commit, command
	Caveat string // datasets.Caveats, on one line
}
