package claims

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// Run is the data a claim is checked against: the rows of one platform
// (one run, or several runs of the same machine), its metadata, the device
// facts derived from it and, when the run was made with --counters, its
// counter passes.
type Run struct {
	Name     string // dataset names or directories, joined with " + "
	Rows     []results.Row
	Meta     results.Metadata
	Facts    Facts
	Counters []results.CounterRow
	// Sources names the dataset or directory each run id among the rows
	// was loaded from (the run id itself where it was not loaded).
	Sources map[string]string

	cfg  map[string]results.Row // the normalised configuration of each key
	sum  map[string]summary     // the medians of each key
	boot *bootstrap             // the trials' resampling, shared with the replicates
	rep  int                    // 0: the run itself; b+1: its bootstrap replicate b
	rows []results.Row          // a replicate's: the run's rows it resamples
	// reads, while a claim's figure is measured, collects the keys read.
	reads   map[string]bool
	noCI    bool // fit the model without intervals
	alt     *Run // the run without CPU time (withoutCPU), made once
	altOnce sync.Once
	fitOnce sync.Once
	fitRep  *model.Report
	fitErr  error
}

// summary holds the medians of one configuration.
type summary struct {
	gbps, total, cpu, kernel, transfer, prefetch float64
	n                                            int
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
	r := &Run{Name: name, Rows: rows, Meta: m, Facts: FactsOf(m), Sources: map[string]string{}}
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
// one run. Several sources combine group by group: a group comes from the
// first source that measured it (a suite run plus the handoff group of
// another run on the same machine, say), and a later source that measured
// it on the same device with the same settings (meta.json's config of the
// group) adds its rows as another run of it, so that the group's intervals
// resample runs as well as trials. The metadata and device facts are the
// first source's; counter passes (counters.csv) are read from every source
// that has them.
func Load(namesOrDirs ...string) (*Run, error) {
	if len(namesOrDirs) == 0 {
		return nil, errors.New("claims: name a dataset or a results directory")
	}
	namesOrDirs = append([]string(nil), namesOrDirs...) // resolved names replace the references
	var all []results.Row
	var meta results.Metadata
	var counters []results.CounterRow
	sources := map[string]string{}         // run id → the source that gave it
	taken := map[string]results.Metadata{} // group → the metadata of its first source
	for i, n := range namesOrDirs {
		known := make(map[string]bool, len(sources)) // runs of earlier sources: naming one twice adds nothing
		for id := range sources {
			known[id] = true
		}
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
			first, seen := taken[r.Group]
			if seen && !sameSettings(first, m, r.Group) {
				continue
			}
			if known[r.RunID] {
				continue
			}
			fresh[r.Group] = true
			all = append(all, r)
			if _, ok := sources[r.RunID]; !ok {
				sources[r.RunID] = n
			}
		}
		for g := range fresh {
			if _, ok := taken[g]; !ok {
				taken[g] = m
			}
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
	run.Counters, run.Sources = counters, sources
	return run, nil
}

// sameSettings reports whether two runs measured a group on the same
// device with the same settings, so that their rows are runs of one
// measurement.
func sameSettings(a, b results.Metadata, group string) bool {
	if a.Device.Name != b.Device.Name || a.Platform != b.Platform || a.Kind != b.Kind {
		return false
	}
	ca, cb := groupConfig(a, group), groupConfig(b, group)
	return ca != nil && reflect.DeepEqual(ca, cb)
}

func groupConfig(m results.Metadata, group string) any {
	cfg, ok := m.Config.(map[string]any)
	if !ok {
		// A config given as a struct: compare its JSON form.
		b, err := json.Marshal(m.Config)
		if err != nil || json.Unmarshal(b, &cfg) != nil {
			return nil
		}
	}
	return cfg[group]
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

// sel selects one configuration of a run.
type sel struct {
	group, bench, mode, pattern, policy, phase, dir string
	size, stride, interval                          int64
	pct                                             float64 // NaN: not an oversubscription row
	r                                               int64
	// also lists further sizes the claim accepts, in order of preference,
	// where size was not measured (the figure then names the size used).
	// No other size stands in.
	also []int64
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

// find returns the summary of a configuration and the size it was found
// at: the selector's size, or one of the sizes it also accepts.
func (run *Run) find(s sel) (summary, int64, bool) {
	for _, size := range append([]int64{s.size}, s.also...) {
		k := s.key(size)
		if v, ok := run.summaryOf(k); ok {
			if run.reads != nil {
				run.reads[k] = true
			}
			return v, size, true
		}
	}
	return summary{}, 0, false
}

// sizes lists the sizes at which a configuration (ignoring size) was measured.
func (run *Run) sizes(s sel) []int64 {
	var out []int64
	for k, c := range run.cfg {
		if s.key(c.SizeBytes) == k {
			out = append(out, c.SizeBytes)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// pcts lists the oversubscription percentages measured for a configuration.
func (run *Run) pcts(s sel) []float64 {
	var out []float64
	for _, c := range run.cfg {
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

// Simulated reports whether the run holds rows of the simulated GPU
// (umbench run --simulate): made up, never measurements.
func (run *Run) Simulated() bool {
	return run.Meta.Kind == results.KindSimulated || results.Simulated(run.Rows)
}

// restsOn names the sources of the rows behind the keys read, in the
// order the run lists its sources.
func (run *Run) restsOn(keys map[string]bool) []string {
	ids := map[string]bool{}
	for i, r := range run.Rows {
		if keys[run.boot.keys[i]] {
			ids[r.RunID] = true
		}
	}
	var out []string
	for _, id := range run.boot.runIDs {
		if !ids[id] {
			continue
		}
		name := run.Sources[id]
		if name == "" {
			name = id
		}
		if !contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}
