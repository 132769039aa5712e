package umkit

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/umlab/umlab/results"
)

// Definition is a benchmark group, or a set of benchmarks within a group,
// defined once, in one file, by its configuration type: its registry
// entries, defaults, validation, the configurations it runs and how to
// measure one. Everything else is derived from the definitions (package
// doc); README "Adding a benchmark" says how to add one.
type Definition interface {
	// Name identifies the definition in a plan and its metadata: the group
	// name, or group.set for a set of extra benchmarks of a group.
	Name() string
	// Entries are its registry entries, all of one group.
	Entries() []Benchmark
	// Validate checks it, defaults applied, before anything touches a GPU;
	// errors say what was wrong and what is allowed.
	Validate() error
	// Configs lists, defaults applied, the configurations it will run, in
	// run order.
	Configs() []Config

	// configure returns the definition set up for a run's selection.
	configure(s Selection) Definition
	// measure measures configuration c (defaults applied) into row, which
	// the runner stamped from c; it adds what only it knows (pattern,
	// stride, direction, ...) and the trials' measurements.
	measure(ctx context.Context, r *runner, c Config, row results.Row) error
}

// preparer is a Definition that sets the device up before its first
// configuration (oversub shrinks free memory): it returns itself prepared,
// whose Configs know what depends on the device, and a release function.
type preparer interface {
	prepare(r *runner) (Definition, func(), error)
}

// Selection is what a run asks of one definition: the run's options, the
// benchmarks selected (names without the group, e.g. "triad") and the
// warm-up and trial counts, --quick's applied (unset: the defaults).
type Selection struct {
	Options
	Benchmarks []string // the definition's selected benchmarks (shadows Options.Benchmarks, the patterns)
	Common     Common
}

// StateSetup is the selection's way of re-establishing memory states.
func (s Selection) StateSetup() StateSetup { return StateSetup{Rewrite: s.Rewrite} }

// sizesOr returns the selection's sizes, or quick's when quick, or nil (the
// definition's default sweep).
func (s Selection) sizesOr(quick []int64) []int64 {
	switch {
	case s.Sizes != nil:
		return s.Sizes
	case s.Quick:
		return quick
	}
	return nil
}

// Config is one configuration a definition runs: one set of trial rows (or
// one waived row), one step of progress. The runner stamps its fields from
// Group to Bound on every row (a node check tells the GPU from the host by
// Bound).
type Config struct {
	Definition        string // the Definition's Name
	Entry             string // the registry entry it measures, e.g. "pattern.random"
	Group, Benchmark  string // as in the rows
	Mode              string // as in the rows ("" where rows have none)
	Label             string // progress label, and its name in messages
	SizeBytes         int64  // the size it is named by (data array, footprint or sweep size)
	FootprintBytes    int64  // every allocation it makes, index arrays included
	BytesPerIteration int64  // useful bytes of one iteration, what gbps divides by; 0: depends on the device
	Bound             string // the resource it is bound by: one of results.Bounds
	// Rows is how many trial rows it emits when measured (trials, times
	// repetitions for handoff); a waived configuration emits one row.
	Rows int
	// Follows marks a configuration measured by the run of the one before
	// it (the handoff phases of one policy and size share their buffers).
	Follows bool
	arg     any // definition-specific
}

// configs finishes d's configurations: the definition's name and group, the
// registry entry (group.benchmark unless set) and the trial rows.
func configs(d Definition, cs []Config, rows int) []Config {
	g := d.Entries()[0].Group
	for i := range cs {
		cs[i].Definition, cs[i].Group, cs[i].Rows = d.Name(), g, rows
		cs[i].Entry = cmp.Or(cs[i].Entry, g+"."+cs[i].Benchmark)
	}
	return cs
}

// The definitions in run order; each file adds its own with register.
var definitions []Definition

// withDefaults applies a definition's Defaults, by its name.
var withDefaults = map[string]func(Definition) Definition{}

// register adds a definition, from a package-level declaration (var _ =
// register(MyConfig{})) so that it runs before init builds the registry;
// its Defaults method returns it with every unset field set to its default.
// Definitions run in the paper's group order (results.Groups, then
// others), and within a group by name, whatever the file names.
func register[T interface {
	Definition
	Defaults() T
}](d T) bool {
	definitions = append(definitions, d)
	withDefaults[d.Name()] = func(x Definition) Definition {
		if p, ok := any(x).(*T); ok { // &HBMConfig{} satisfies Definition too
			return (*p).Defaults()
		}
		return x.(T).Defaults()
	}
	rank := func(d Definition) int {
		if i := slices.Index(results.Groups, d.Entries()[0].Group); i >= 0 {
			return i
		}
		return len(results.Groups)
	}
	slices.SortStableFunc(definitions, func(a, b Definition) int {
		return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(a.Name(), b.Name()))
	})
	return true
}

// Groups lists the benchmark groups in the order a run goes through them.
var Groups []string

// Registry lists every benchmark, in run order.
var Registry []Benchmark

func init() {
	for _, d := range definitions {
		for _, b := range d.Entries() {
			b.def = d.Name()
			Registry = append(Registry, b)
			if !slices.Contains(Groups, b.Group) {
				Groups = append(Groups, b.Group)
			}
		}
	}
}

// Definitions returns the definitions in run order, unconfigured (their
// zero values: the paper's defaults).
func Definitions() []Definition { return slices.Clone(definitions) }

// Measure runs every configuration of one definition on dev, without a
// results directory, into a tidy DataFrame, one row per trial. The zero
// definition means the paper's defaults, e.g. Measure(ctx, dev,
// umkit.HBMConfig{}); it is validated before anything touches the GPU.
// Cancel ctx to stop between trials; on error the frame holds every
// configuration that finished.
func Measure(ctx context.Context, dev Device, d Definition) (dataframe.DataFrame, error) {
	if err := d.Validate(); err != nil {
		return dataframe.DataFrame{}, err
	}
	r := newRunner(dev, "")
	defer r.close()
	var rows []results.Row
	r.emit = func(rs []results.Row) error {
		rows = append(rows, rs...)
		return nil
	}
	err := r.runDefinition(ctx, d)
	df := results.Frame(rows)
	if df.Err != nil && err == nil {
		err = df.Err
	}
	return df, err
}

func (r *runner) runDefinition(ctx context.Context, d Definition) error {
	d = withDefaults[d.Name()](d) // every Definition registers: its methods are unexported
	if p, ok := d.(preparer); ok {
		prepared, done, err := p.prepare(r)
		if err != nil {
			return err
		}
		defer done()
		d = prepared
	}
	for _, c := range d.Configs() {
		if c.Follows {
			continue
		}
		if err := d.measure(ctx, r, c, r.rowFor(c)); err != nil {
			return err
		}
	}
	return nil
}

// suffix is a benchmark's name without its group ("pattern.random" → "random").
func (b Benchmark) suffix() string {
	return strings.TrimPrefix(strings.TrimPrefix(b.Name, b.Group), ".")
}

// label formats a progress label from its parts, as the groups always have.
func label(parts ...any) string {
	var s []string
	for _, p := range parts {
		switch v := p.(type) {
		case int64:
			s = append(s, fmtBytes(v))
		default:
			if t := fmt.Sprint(v); t != "" {
				s = append(s, t)
			}
		}
	}
	return strings.Join(s, " ")
}
