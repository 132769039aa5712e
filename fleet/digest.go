package fleet

import (
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/stats"
)

// A digest is every figure Check, Compare and Summarize read of one
// part's rows, per configuration and fleet mode, without the rows: a fleet
// is analysed from a few hundred configurations per GPU instead of tens of
// thousands of rows. The fields are exported for encoding/gob only.
type digest struct {
	Host, UUID, RunID string
	Mode              string // the first fleet token of its rows (results.FleetMode)
	Peers             int
	Keys              []string // rowKey of its rows, in order
	Rows              int
	Platforms         []string // of its rows, in order
	Simulated         int      // rows made up by the simulated GPU
	// Unverified and UnverifiedConfigs count the trials left out of every
	// statistic, as results.ScreenUnverified does.
	Unverified        int
	UnverifiedConfigs []results.UnverifiedConfig
	Intervals         bool // the summaries have bootstrap intervals (comparisons skip them)
	Configs           []configDigest
}

// configDigest is one configuration of a part, in one fleet mode.
type configDigest struct {
	// Config is the configuration columns with GPU UUID and platform
	// cleared, one copy for every part (shared); UUID and Platform are the
	// part's.
	Config         *results.Row
	UUID, Platform string
	Sum            trialStats
	Mode           string // the rows' own fleet mode ("" outside fleet runs)
	Peers          int
	// First is the place of its first row in the file it was read from,
	// to order configurations as the file does.
	First   int
	Bound   string                       // results.BoundOf
	Trials  int                          // rows not waived
	Warmups int64                        // the most of any row
	Metrics [len(metricCols)]metricStats // over the rows not waived, for Compare
	// Runs is the number of run IDs among its rows, RunSpreadPct the
	// spread of their medians of gbps (else total_ms): max − min, % of
	// their median; NaN with one run.
	Runs         int
	RunSpreadPct float64
}

// trialStats is what results.DescribeTrials computes, without the
// configuration, peak and flags: a SummaryRow's would cost a Row per
// configuration of every GPU.
type trialStats struct {
	N                                       int
	GBps, TotalMs                           results.Stats
	KernelMs, PrefetchMs, TransferMs, CPUMs float64
	AllVerified, Waived, Published          bool
	GBpsCI, TotalMsCI                       stats.Interval
}

// config is the configuration's columns with the part's GPU and platform.
func (c *configDigest) config() results.Row {
	r := *c.Config
	r.GPUUUID, r.Platform = c.UUID, c.Platform
	return r
}

// summary is the configuration's results.SummaryRow, not finished.
func (c *configDigest) summary() results.SummaryRow {
	s := c.Sum
	return results.SummaryRow{Config: c.config(), N: s.N, GBps: s.GBps, KernelMs: s.KernelMs, PrefetchMs: s.PrefetchMs,
		TransferMs: s.TransferMs, CPUMs: s.CPUMs, TotalMs: s.TotalMs, AllVerified: s.AllVerified, PctOfPeak: math.NaN(),
		GBpsCI: s.GBpsCI, TotalMsCI: s.TotalMsCI, Waived: s.Waived, Published: s.Published}
}

// configs keeps one copy of each configuration for the digests of every
// part: a thousand GPUs measured the same configurations.
var configs struct {
	sync.Mutex
	m map[results.ConfigID]*results.Row
}

// shared returns the one copy of r's configuration, GPU and platform cleared.
func shared(r *results.Row) *results.Row {
	c := results.ConfigOf(*r)
	c.GPUUUID, c.Platform = "", ""
	id := c.ConfigID()
	configs.Lock()
	defer configs.Unlock()
	if p, ok := configs.m[id]; ok {
		return p
	}
	for _, f := range []*string{&c.Group, &c.Benchmark, &c.Mode, &c.Pattern, &c.Policy, &c.Phase, &c.Direction} {
		*f = strings.Clone(*f)
	}
	if configs.m == nil {
		configs.m = map[results.ConfigID]*results.Row{}
	}
	configs.m[id] = &c
	return &c
}

// share points every configuration of ds at the shared copy of it (a
// digest read from a cache comes with copies of its own).
func share(ds []*digest) {
	for _, d := range ds {
		for j := range d.Configs {
			c := &d.Configs[j]
			c.Config = shared(c.Config)
			c.UUID, c.Platform, c.Mode = intern(c.UUID), intern(c.Platform), intern(c.Mode)
		}
	}
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

// digester gathers a file's rows by part and configuration.
type digester struct {
	configs results.ConfigIndex
	parts   []*partRows
	modes   map[string]noteMode // results.FleetMode of each note seen: a regular expression per row is slow
}

type noteMode struct {
	mode  string
	peers int
}

// configAt is a configuration (its ConfigIndex) in one fleet mode.
type configAt struct {
	config int32
	mode   string
}

// partRows is one part's digest while its rows are gathered.
type partRows struct {
	d     *digest
	keys  map[[3]string]bool
	unver map[int32]int // config index → its place in d.UnverifiedConfigs
	at    map[configAt]int
	rows  [][]int32 // of each configuration, indices into the file's rows
}

// digestParts makes the digests of a file's rows, split into parts by
// split (nil: byHostGPU), which returns a part's index; intervals asks for
// the summaries' bootstrap intervals.
func digestParts(rows []results.Row, split func(*results.Row) (int, error), intervals bool) ([]*digest, error) {
	if split == nil {
		split = byHostGPU()
	}
	g := digester{modes: map[string]noteMode{}}
	for i := range rows {
		pi, err := split(&rows[i])
		if err != nil {
			return nil, err
		}
		for len(g.parts) <= pi {
			g.parts = append(g.parts, &partRows{d: &digest{Intervals: intervals}, keys: map[[3]string]bool{},
				at: map[configAt]int{}})
		}
		g.add(g.parts[pi], &rows[i], i)
	}
	out := make([]*digest, len(g.parts))
	var buf []results.Row
	for i, p := range g.parts {
		for k, j := range p.at { // each unverified configuration's trials, verified ones too
			if u, ok := p.unver[k.config]; ok {
				p.d.UnverifiedConfigs[u].Trials += len(p.rows[j])
			}
		}
		for j := range p.d.Configs {
			buf = buf[:0]
			for _, at := range p.rows[j] {
				buf = append(buf, rows[at])
			}
			describeConfig(&p.d.Configs[j], buf, intervals)
		}
		out[i] = p.d
	}
	return out, nil
}

// add counts row r, the file's i-th, in part p.
func (g *digester) add(p *partRows, r *results.Row, i int) {
	d := p.d
	if d.Rows == 0 {
		d.Host, d.UUID, d.RunID = intern(r.Host), intern(r.GPUUUID), strings.Clone(r.RunID)
	}
	d.Rows++
	if k := [3]string{r.RunID, r.GPUUUID, r.Host}; !p.keys[k] {
		p.keys[k] = true
		d.Keys = append(d.Keys, rowKey(*r))
	}
	if !slices.Contains(d.Platforms, r.Platform) {
		d.Platforms = append(d.Platforms, intern(r.Platform))
	}
	if r.Simulated {
		d.Simulated++
	}
	ci, _ := g.configs.Of(r)
	if !r.Verified && !r.Waived && r.Source == "" {
		g.addUnverified(p, r, ci)
		return
	}
	m, ok := g.modes[r.Note]
	if !ok {
		m.mode, m.peers = results.FleetMode(r.Note)
		m.mode = intern(m.mode)
		g.modes[r.Note] = m
	}
	if d.Mode == "" && m.mode != "" {
		d.Mode, d.Peers = m.mode, m.peers
	}
	k := configAt{ci, m.mode}
	j, ok := p.at[k]
	if !ok {
		j = len(p.rows)
		p.at[k] = j
		p.rows = append(p.rows, nil)
		d.Configs = append(d.Configs, configDigest{Mode: m.mode, Peers: m.peers, First: i})
	}
	p.rows[j] = append(p.rows[j], int32(i))
}

// addUnverified counts an unverified trial of configuration ci.
func (g *digester) addUnverified(p *partRows, r *results.Row, ci int32) {
	d := p.d
	d.Unverified++
	if p.unver == nil {
		p.unver = map[int32]int{}
	}
	j, ok := p.unver[ci]
	if !ok {
		j = len(d.UnverifiedConfigs)
		p.unver[ci] = j
		c := *shared(r) // no part of the line it was read from
		c.GPUUUID, c.Platform, c.Host, c.RunID = intern(r.GPUUUID), intern(r.Platform), intern(r.Host), strings.Clone(r.RunID)
		d.UnverifiedConfigs = append(d.UnverifiedConfigs, results.UnverifiedConfig{Config: c})
	}
	d.UnverifiedConfigs[j].Unverified++
	d.UnverifiedConfigs[j].Trials++
}

// interned keeps one copy of each short string of the digests: a digest
// then holds no part of the lines its rows were read from.
var interned struct {
	sync.Mutex
	m map[string]string
}

func intern(s string) string {
	interned.Lock()
	defer interned.Unlock()
	if v, ok := interned.m[s]; ok {
		return v
	}
	if interned.m == nil {
		interned.m = map[string]string{}
	}
	v := strings.Clone(s)
	interned.m[v] = v
	return v
}

// describeConfig fills c from the rows of one configuration and mode:
// results.DescribeTrialStats (and TrialIntervals where asked), and
// Compare's metrics over the trials not waived.
func describeConfig(c *configDigest, rows []results.Row, intervals bool) {
	c.Config, c.UUID, c.Platform = shared(&rows[0]), intern(rows[0].GPUUUID), intern(rows[0].Platform)
	c.Bound = intern(results.BoundOf(rows[0]))
	for i := range rows {
		c.Warmups = max(c.Warmups, rows[i].Warmups)
		if !rows[i].Waived {
			c.Trials++
		}
	}
	x := make([]float64, 0, len(rows))
	for m, col := range metricCols {
		x = x[:0]
		for i := range rows {
			if !rows[i].Waived { // Compare leaves the waived trials out
				x = append(x, metricOf(&rows[i], col))
			}
		}
		c.Metrics[m] = describeMetric(x)
	}
	s := results.DescribeTrialStats(rows)
	if intervals {
		s.GBpsCI, s.TotalMsCI = results.TrialIntervals(rows)
	}
	c.Sum = trialStats{N: s.N, GBps: s.GBps, TotalMs: s.TotalMs, KernelMs: s.KernelMs, PrefetchMs: s.PrefetchMs,
		TransferMs: s.TransferMs, CPUMs: s.CPUMs, AllVerified: s.AllVerified, Waived: s.Waived, Published: s.Published,
		GBpsCI: s.GBpsCI, TotalMsCI: s.TotalMsCI}
	col := results.ColGBps
	if math.IsNaN(s.GBps.Median) {
		col = results.ColTotalMs
	}
	c.Runs, c.RunSpreadPct = runSpread(rows, col)
}

func anyFinite(x []float64) bool {
	return slices.ContainsFunc(x, func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) })
}

// describeMetric describes the values of one metric as Compare reads them.
func describeMetric(x []float64) metricStats {
	s := results.Describe(x)
	return metricStats{N: s.N, Median: s.Median, CVPct: s.CVPct, Finite: anyFinite(x)}
}

// runSpread counts the runs among rows and the spread of their medians of
// col: the variation between processes that one run's interval misses.
func runSpread(rows []results.Row, col string) (int, float64) {
	if !slices.ContainsFunc(rows, func(r results.Row) bool { return r.RunID != rows[0].RunID }) {
		return 1, math.NaN()
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

// metricIndex is the index of a metric column in metricCols, -1 for none.
func metricIndex(col string) int { return slices.Index(metricCols[:], col) }
