package claims

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// Run is the data a claim is checked against: the rows of one platform
// (one run, or several runs of the same machine combined group by group),
// its metadata, the device facts derived from it and, when the run was
// made with --counters, its counter passes.
type Run struct {
	Name     string // dataset names or directories, joined with " + "
	Rows     []results.Row
	Meta     results.Metadata
	Facts    Facts
	Counters []results.CounterRow

	sum     map[string]summary
	fitOnce sync.Once
	fitRep  *model.Report
	fitErr  error
}

// summary holds the medians of one configuration.
type summary struct {
	gbps, total, cpu, kernel float64
	n                        int
	cfg                      results.Row
}

// NewRun builds a run from rows and their metadata. Rows of several
// platforms are an error: a claim compares one machine with the paper.
func NewRun(name string, rows []results.Row, m results.Metadata) (*Run, error) {
	var plats []string
	for _, r := range rows {
		if r.Platform != "" && !contains(plats, r.Platform) {
			plats = append(plats, r.Platform)
		}
	}
	if len(plats) > 1 {
		sort.Strings(plats)
		return nil, fmt.Errorf("claims: %s holds rows of several platforms (%s): check one platform at a time", name, strings.Join(plats, ", "))
	}
	if m.Platform == "" && len(plats) == 1 {
		m.Platform = plats[0]
	}
	r := &Run{Name: name, Rows: rows, Meta: m, Facts: FactsOf(m)}
	r.index()
	return r, nil
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// Load opens one or more embedded datasets or results directories (each
// resolved by datasets.Resolve: a name, a directory, or newest[:GROUP]) as
// one run. Several sources combine group by group: a
// group comes from the first source that measured it (a suite run plus the
// handoff group of another run on the same machine, say). The metadata and
// device facts are the first source's; counter passes (counters.csv) are
// read from every source that has them.
func Load(namesOrDirs ...string) (*Run, error) {
	if len(namesOrDirs) == 0 {
		return nil, errors.New("claims: name a dataset or a results directory")
	}
	namesOrDirs = append([]string(nil), namesOrDirs...) // resolved names replace the references
	var all []results.Row
	var meta results.Metadata
	var counters []results.CounterRow
	taken := map[string]bool{}
	for i, n := range namesOrDirs {
		rows, m, resolved, err := datasets.Resolve(n)
		if err != nil {
			return nil, err
		}
		if resolved != "" {
			namesOrDirs[i] = resolved
			n = resolved
		}
		if i == 0 {
			meta = m
		} else if m.Platform != "" && meta.Platform != "" && m.Platform != meta.Platform {
			return nil, fmt.Errorf("claims: %s is %s, %s is %s: combine runs of one platform only", namesOrDirs[0], meta.Platform, n, m.Platform)
		}
		fresh := map[string]bool{}
		for _, r := range rows {
			if !taken[r.Group] {
				fresh[r.Group] = true
				all = append(all, r)
			}
		}
		for g := range fresh {
			taken[g] = true
		}
		cs, err := datasets.Counters(n)
		if err != nil {
			return nil, err
		}
		counters = append(counters, cs...)
	}
	run, err := NewRun(strings.Join(namesOrDirs, " + "), all, meta)
	if err != nil {
		return nil, err
	}
	run.Counters = counters
	return run, nil
}

// key of a configuration, for the medians.
func key(group, bench, mode, pattern, policy, phase, dir string, size, stride, interval int64, pct float64, r int64) string {
	p := ""
	if !math.IsNaN(pct) {
		p = strconv.FormatFloat(pct, 'g', -1, 64)
	}
	return strings.Join([]string{group, bench, mode, pattern, policy, phase, dir,
		strconv.FormatInt(size, 10), strconv.FormatInt(stride, 10), strconv.FormatInt(interval, 10), p,
		strconv.FormatInt(r, 10)}, "|")
}

// norm makes a row's configuration comparable across the paper's and our
// rows: stride 1 is the paper's "no stride" (0), handoff CPU-only and
// GPU-only phases have no R, and a pattern equal to the benchmark adds
// nothing.
func norm(r results.Row) results.Row {
	if r.StrideElements == 1 && r.Benchmark != results.BenchStrided {
		r.StrideElements = 0
	}
	if r.Benchmark == results.BenchPageTouch {
		r.StrideElements = 0
	}
	if r.Group == results.GroupHandoff && r.Phase != results.PhaseAlternating && r.Phase != datasets.PhaseBaseline && r.Phase != datasets.PhaseExtra {
		r.ReusePasses = 0
	}
	if r.Pattern == r.Benchmark || r.Group != results.GroupPattern && r.Group != results.GroupOversub {
		r.Pattern = ""
	}
	if r.Group != results.GroupOversub {
		r.OversubPct = math.NaN()
	} else {
		r.SizeBytes = 0 // the percentage names the configuration
	}
	return r
}

func rowKey(r results.Row) string {
	r = norm(r)
	return key(r.Group, r.Benchmark, r.Mode, r.Pattern, r.Policy, r.Phase, r.Direction, r.SizeBytes,
		r.StrideElements, r.PageIntervalBytes, r.OversubPct, r.ReusePasses)
}

func (run *Run) index() {
	vals := map[string][]results.Row{}
	var order []string
	for _, r := range run.Rows {
		if r.Waived {
			continue
		}
		k := rowKey(r)
		if _, ok := vals[k]; !ok {
			order = append(order, k)
		}
		vals[k] = append(vals[k], r)
	}
	run.sum = map[string]summary{}
	for _, k := range order {
		g := vals[k]
		col := func(f func(results.Row) float64) float64 {
			x := make([]float64, len(g))
			for i, r := range g {
				x[i] = f(r)
			}
			return results.Describe(x).Median
		}
		run.sum[k] = summary{
			gbps:   col(func(r results.Row) float64 { return r.GBps }),
			total:  col(func(r results.Row) float64 { return r.TotalMs }),
			cpu:    col(func(r results.Row) float64 { return r.CPUMs }),
			kernel: col(func(r results.Row) float64 { return r.KernelMs }),
			n:      len(g), cfg: norm(g[0]),
		}
	}
}

// sel selects one configuration of a run.
type sel struct {
	group, bench, mode, pattern, policy, phase, dir string
	size, stride, interval                          int64
	pct                                             float64 // NaN: not an oversubscription row
	r                                               int64
	// near allows the nearest measured size when size is missing (the
	// figure then says which size it is).
	near bool
}

func (s sel) key(size int64) string {
	pct := s.pct
	if s.group != results.GroupOversub {
		pct = math.NaN()
	} else {
		size = 0
	}
	pattern := s.pattern
	if pattern == s.bench || s.group != results.GroupPattern && s.group != results.GroupOversub {
		pattern = ""
	}
	return key(s.group, s.bench, s.mode, pattern, s.policy, s.phase, s.dir, size, s.stride, s.interval, pct, s.r)
}

// find returns the summary of a configuration and the size it was found at.
func (run *Run) find(s sel) (summary, int64, bool) {
	if v, ok := run.sum[s.key(s.size)]; ok {
		return v, s.size, true
	}
	if !s.near || s.size == 0 {
		return summary{}, 0, false
	}
	best, bestD := int64(0), math.Inf(1)
	for _, v := range run.sum {
		c := v.cfg
		if s.key(c.SizeBytes) != rowKey(c) || c.SizeBytes <= 0 {
			continue
		}
		d := math.Abs(math.Log2(float64(c.SizeBytes) / float64(s.size)))
		if d < bestD || d == bestD && c.SizeBytes > best {
			best, bestD = c.SizeBytes, d
		}
	}
	if best == 0 {
		return summary{}, 0, false
	}
	v := run.sum[s.key(best)]
	return v, best, true
}

// Sizes lists the sizes at which a configuration (ignoring size) was measured.
func (run *Run) sizes(s sel) []int64 {
	var out []int64
	for _, v := range run.sum {
		c := v.cfg
		if s.key(c.SizeBytes) == rowKey(c) {
			out = append(out, c.SizeBytes)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// pcts lists the oversubscription percentages measured for a configuration.
func (run *Run) pcts(s sel) []float64 {
	var out []float64
	for _, v := range run.sum {
		c := v.cfg
		if c.Group != results.GroupOversub || c.Mode != s.mode || c.Benchmark != s.bench {
			continue
		}
		if s.pattern != "" && c.Pattern != s.pattern {
			continue
		}
		out = append(out, c.OversubPct)
	}
	sort.Float64s(out)
	return out
}

func (run *Run) counter(group, bench, mode string, size, stride, interval int64) (results.CounterRow, bool) {
	for _, c := range run.Counters {
		if c.Config.Group == group && c.Config.Benchmark == bench && c.Config.Mode == mode && c.Config.SizeBytes == size &&
			(stride == 0 || c.Config.StrideElements == stride) && c.Config.PageIntervalBytes == interval {
			return c, true
		}
	}
	return results.CounterRow{}, false
}
