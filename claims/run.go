package claims

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/model"
	"github.com/umlab/umlab/results"
)

// Run is the data a claim is checked against: the rows of one platform
// (one or several runs of the same machine), its metadata, device facts
// and counter passes.
type Run struct {
	Name     string // dataset names or directories, joined with " + "
	Rows     []results.Row
	Meta     results.Metadata
	Facts    Facts
	Counters []results.CounterRow
	// Sources names the dataset or directory each run id was loaded from.
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
		if r.Platform != "" && !slices.Contains(plats, r.Platform) {
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

// Load opens one or more embedded datasets or results directories (as
// datasets.Resolve names them) as one run. A group comes from the first
// source that measured it; a later source that measured it on the same
// device with the same settings adds its rows as another run of it, so
// that its intervals resample runs as well as trials. The metadata and
// facts are the first source's; counter passes are read from every source.
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
		known := maps.Clone(sources) // runs of earlier sources: naming one twice adds nothing
		rows, m, resolved, err := datasets.Resolve(n)
		if err != nil {
			return nil, err
		}
		n = cmp.Or(resolved, n)
		namesOrDirs[i] = n
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
			if _, dup := known[r.RunID]; dup {
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
// device with the same settings.
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

// norm makes a row's configuration comparable across the paper's and our
// rows: stride 1 is the paper's "no stride", handoff phases other than
// alternating have no R, a pattern equal to the benchmark adds nothing.
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

// rowKey is the key of a row's configuration, for the medians.
func rowKey(r results.Row) string {
	r = norm(r)
	pct := ""
	if !math.IsNaN(r.OversubPct) {
		pct = strconv.FormatFloat(r.OversubPct, 'g', -1, 64)
	}
	return strings.Join([]string{r.Group, r.Benchmark, r.Mode, r.Pattern, r.Policy, r.Phase, r.Direction,
		strconv.FormatInt(r.SizeBytes, 10), strconv.FormatInt(r.StrideElements, 10), strconv.FormatInt(r.PageIntervalBytes, 10), pct,
		strconv.FormatInt(r.ReusePasses, 10)}, "|")
}

// sel selects one configuration of a run.
type sel struct {
	group, bench, mode, pattern, policy, phase, dir string
	size, stride, interval                          int64
	pct                                             float64 // oversubscription rows only
	r                                               int64
	// also lists further sizes the claim accepts, in order of preference;
	// no other size stands in.
	also []int64
}

func (s sel) key(size int64) string {
	return rowKey(results.Row{Group: s.group, Benchmark: s.bench, Mode: s.mode, Pattern: s.pattern, Policy: s.policy, Phase: s.phase,
		Direction: s.dir, SizeBytes: size, StrideElements: s.stride, PageIntervalBytes: s.interval, OversubPct: s.pct, ReusePasses: s.r})
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
		name := cmp.Or(run.Sources[id], id)
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// Describe says which machine a run is, for sentences: the device and its link.
func (run *Run) Describe() string {
	f := run.Facts
	d := cmp.Or(f.Device, run.Meta.Platform)
	if f.Link != LinkUnknown {
		return d + ", " + f.LinkText
	}
	return d
}
