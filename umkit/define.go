package umkit

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Definition is a benchmark group, or a set of benchmarks within a group,
// defined once: its configuration type is the Definition. It knows its
// registry entries, its defaults, its validation, the configurations it
// will run (each with its numeric bytes per iteration) and how to run one.
// The registry ([Registry], [Groups]), the plan ([NewPlan]), `umbench list`,
// the progress counts and the command line's selection are all derived from
// the definitions; README "Adding a benchmark" says how to add one.
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
	// defaults returns it with every unset field set to its default.
	defaults() Definition
	// start prepares a runner for the configurations (defaults applied)
	// and returns how to run one, and what to release after the last.
	start(r *runner) (one func(ctx context.Context, c Config) error, done func(), err error)
}

// Selection is what a run asks of one definition: the run's options (a
// definition reads those it has: Quick, Sizes, its own settings such as
// OversubPercents), the benchmarks selected (names without the group, e.g.
// "triad") and the warm-up and trial counts, --quick's applied. Counts left
// unset in Common take the defaults (iters.go).
type Selection struct {
	Options
	Benchmarks []string // the definition's selected benchmarks (shadows Options.Benchmarks, the patterns)
	Common     Common
}

// StateSetup is the selection's way of re-establishing memory states.
func (s Selection) StateSetup() StateSetup { return StateSetup{Rewrite: s.Rewrite} }

// Config is one configuration a definition runs: one set of trial rows (or
// one waived row), one step of progress.
type Config struct {
	Definition        string // the Definition's Name
	Entry             string // the registry entry it measures, e.g. "pattern.random"
	Group, Benchmark  string // as in the rows
	Mode              string // as in the rows ("" where rows have none)
	Label             string // progress label
	SizeBytes         int64  // the size it is named by (data array, footprint or sweep size)
	BytesPerIteration int64  // useful bytes of one iteration, what gbps divides by; 0: depends on the device
	// Rows is how many trial rows it emits when measured (trials, times
	// repetitions for handoff); a waived configuration emits one row.
	Rows int
	// Follows marks a configuration measured by the run of the one before
	// it (the handoff phases of one policy and size share their buffers).
	Follows bool
	arg     any // definition-specific
}

// The definitions in run order (paper Table II). A file may add one with
// register; Registry and Groups are derived from this list at init.
var definitions = []Definition{
	HBMConfig{}, HostConfig{}, TransferConfig{}, ManagedConfig{}, PatternConfig{}, OversubConfig{}, HandoffConfig{},
}

// register adds a definition after the last one of its group (or at the
// end for a new group). Call it from a package-level variable declaration
// (var _ = register(MyConfig{})), so that it runs before init builds the
// registry.
func register(d Definition) bool {
	g := d.Entries()[0].Group
	at := len(definitions)
	for i, e := range definitions {
		if e.Entries()[0].Group == g {
			at = i + 1
		}
	}
	definitions = slices.Insert(definitions, at, d)
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

// suffix is a benchmark's name without its group ("pattern.random" → "random").
func (b Benchmark) suffix() string {
	return strings.TrimPrefix(strings.TrimPrefix(b.Name, b.Group), ".")
}

// runDefinition runs every configuration of d (defaults applied) on r.
func (r *runner) runDefinition(ctx context.Context, d Definition) error {
	d = d.defaults()
	one, done, err := d.start(r)
	if err != nil {
		return err
	}
	defer done()
	for _, c := range d.Configs() {
		if c.Follows {
			continue
		}
		if err := one(ctx, c); err != nil {
			return err
		}
	}
	return nil
}

// withRows sets the trial rows of every configuration.
func withRows(cs []Config, rows int) []Config {
	for i := range cs {
		cs[i].Rows = rows
	}
	return cs
}

// noStart is the start of a definition that needs no preparation.
func noStart(one func(ctx context.Context, c Config) error) (func(context.Context, Config) error, func(), error) {
	return one, func() {}, nil
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
