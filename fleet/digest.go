package fleet

import (
	"math"
	"slices"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/stats"
)

// A digest is what one part's rows come to: every figure Check, Compare
// and Summarize read, per configuration and fleet mode, without the rows.
// A GPU's digest is made once from its results.csv and kept beside it
// (see cache.go), so that a fleet is analysed from a few hundred
// configurations per GPU instead of tens of thousands of rows.
// The fields are exported for encoding/gob only.
type digest struct {
	Host, UUID, RunID string
	Mode              string // the first fleet token of its rows (ModeOf)
	Peers             int
	Keys              []string // rowKey of its rows, in order
	Rows              int
	Platforms         []string // of its rows, in order
	Simulated         int      // rows made up by the simulated GPU
	Configs           []configDigest
}

// configDigest is one configuration of a part, in one fleet mode.
type configDigest struct {
	// Sum is results.DescribeTrials of its rows with Config set, not
	// finished (SummaryOptions.Finish sets the peak and the flags).
	Sum   results.SummaryRow
	Mode  string // the rows' own fleet mode ("" outside fleet runs)
	Peers int
	// First is the place of its first row among the rows of the file it
	// was read from: it orders configurations as the file does (a shard
	// keeps the places its rows had in the file they came from).
	First   int
	Trials  int   // rows not waived
	Warmups int64 // the most of any row
	// Metrics describes each of Metrics over the rows not waived, for
	// Compare.
	Metrics [len(metricCols)]metricStats
	// Runs is the number of runs (run IDs) among its rows, RunSpreadPct
	// the spread of their medians (max − min, % of the median of them) of
	// its compared metric (gbps, else total_ms); NaN with one run.
	Runs         int
	RunSpreadPct float64
}

// metricStats is Describe of one metric, as Compare reads it.
type metricStats struct {
	N             int  // values that are not NaN
	Finite        bool // some value is finite (autoMetric's rule)
	Median, CVPct float64
}

// metricCols are the metrics of Metrics, in its order.
var metricCols = [...]string{results.ColGBps, results.ColTotalMs, results.ColKernelMs, results.ColCPUMs, results.ColPrefetchMs, results.ColTransferMs}

// partKey identifies a part's rows in a plain results directory.
type partKey struct{ host, uuid string }

// configMode is a configuration in one fleet mode.
type configMode struct {
	id   results.ConfigID
	mode string
}

// byHostGPU splits a plain results file: one part per host and GPU
// UUID, in order of first appearance.
func byHostGPU() func(*results.Row) (int, error) {
	at := map[partKey]int{}
	return func(r *results.Row) (int, error) {
		k := partKey{r.Host, r.GPUUUID}
		i, ok := at[k]
		if !ok {
			i = len(at)
			at[k] = i
		}
		return i, nil
	}
}

// digestParts makes the digests of a file's rows, split into parts by
// split (nil: byHostGPU), which returns a part's index.
func digestParts(rows []results.Row, split func(*results.Row) (int, error)) ([]*digest, error) {
	if split == nil {
		split = byHostGPU()
	}
	type part struct {
		d    *digest
		keys map[string]bool
		at   map[configMode]int
		rows [][]results.Row
	}
	var parts []*part
	type mp struct {
		mode  string
		peers int
	}
	modes := map[string]mp{} // ModeOf of each note seen: a regular expression per row is slow
	for i := range rows {
		r := &rows[i]
		pi, err := split(r)
		if err != nil {
			return nil, err
		}
		for len(parts) <= pi {
			parts = append(parts, &part{d: &digest{}, keys: map[string]bool{}, at: map[configMode]int{}})
		}
		p := parts[pi]
		d := p.d
		if d.Rows == 0 {
			d.Host, d.UUID, d.RunID = r.Host, r.GPUUUID, r.RunID
		}
		d.Rows++
		if k := rowKey(*r); !p.keys[k] {
			p.keys[k] = true
			d.Keys = append(d.Keys, k)
		}
		if !slices.Contains(d.Platforms, r.Platform) {
			d.Platforms = append(d.Platforms, r.Platform)
		}
		if r.Simulated {
			d.Simulated++
		}
		m, ok := modes[r.Note]
		if !ok {
			m.mode, m.peers = ModeOf(r.Note)
			modes[r.Note] = m
		}
		mode, peers := m.mode, m.peers
		if d.Mode == "" && mode != "" {
			d.Mode, d.Peers = mode, peers
		}
		k := configMode{r.ConfigID(), mode}
		j, ok := p.at[k]
		if !ok {
			j = len(p.rows)
			p.at[k] = j
			p.rows = append(p.rows, nil)
			d.Configs = append(d.Configs, configDigest{Mode: mode, Peers: peers, First: i})
		}
		p.rows[j] = append(p.rows[j], *r)
	}
	out := make([]*digest, len(parts))
	for i, p := range parts {
		for j := range p.d.Configs {
			describeConfig(&p.d.Configs[j], p.rows[j])
		}
		out[i] = p.d
	}
	return out, nil
}

// describeConfig fills c from the rows of one configuration and mode.
func describeConfig(c *configDigest, rows []results.Row) {
	c.Sum = results.DescribeTrials(rows)
	c.Sum.Config = results.ConfigOf(rows[0])
	x := make([]float64, 0, len(rows))
	for m, col := range metricCols {
		x = x[:0]
		for i := range rows {
			if !rows[i].Waived {
				x = append(x, metricOf(&rows[i], col))
			}
		}
		c.Metrics[m] = describeMetric(x)
	}
	for i := range rows {
		c.Warmups = max(c.Warmups, rows[i].Warmups)
		if !rows[i].Waived {
			c.Trials++
		}
	}
	c.Runs, c.RunSpreadPct = runSpread(rows)
}

// describeMetric describes the values of one metric as Compare reads them.
func describeMetric(x []float64) metricStats {
	s := results.Describe(x)
	m := metricStats{N: s.N, Median: s.Median, CVPct: s.CVPct}
	for _, v := range x {
		m.Finite = m.Finite || !math.IsNaN(v) && !math.IsInf(v, 0)
	}
	return m
}

// runSpread counts the runs among rows and, with two or more, the spread
// of their medians of gbps (total_ms where there is no bandwidth): the
// process-to-process variation that one run's interval does not show.
func runSpread(rows []results.Row) (int, float64) {
	col := results.ColGBps
	if math.IsNaN(results.Describe(columnOf(rows, col)).Median) {
		col = results.ColTotalMs
	}
	var runs []string
	by := map[string][]float64{}
	for i := range rows {
		r := &rows[i]
		if _, ok := by[r.RunID]; !ok {
			runs = append(runs, r.RunID)
		}
		if !r.Waived {
			by[r.RunID] = append(by[r.RunID], metricOf(r, col))
		}
	}
	if len(runs) < 2 {
		return len(runs), math.NaN()
	}
	var meds []float64
	for _, run := range runs {
		if m := stats.Median(by[run]); !math.IsNaN(m) {
			meds = append(meds, m)
		}
	}
	mid := stats.Median(meds)
	if len(meds) < 2 || mid == 0 {
		return len(runs), math.NaN()
	}
	return len(runs), 100 * (slices.Max(meds) - slices.Min(meds)) / math.Abs(mid)
}

func columnOf(rows []results.Row, col string) []float64 {
	x := make([]float64, len(rows))
	for i := range rows {
		x[i] = metricOf(&rows[i], col)
	}
	return x
}

// metricIndex is the index of a metric column in metricCols, -1 for none.
func metricIndex(col string) int {
	for i, c := range metricCols {
		if c == col {
			return i
		}
	}
	return -1
}
