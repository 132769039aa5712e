package nb

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
)

// Modes of Data.
const (
	Live    = "live"
	Bundled = "bundled"
	// Fake is the live path on umkit's simulated GPU (umkit/simgpu):
	// made-up numbers, for testing notebooks and the live path without a
	// GPU. Its platform is "Fake".
	Fake = "fake"
)

// Environment variables read by this package.
const (
	EnvMode         = "UMLAB_NOTEBOOK_MODE" // live, bundled, simulated (fake), or empty/auto
	EnvRefresh      = "UMLAB_REFRESH"       // 1: measure again (live), once per kernel session
	EnvCacheDir     = "UMLAB_CACHE_DIR"     // root of the live-results cache
	EnvLocalDataset = "UMLAB_LOCAL_DATASET" // bundled: dataset name or results directory, or NoLocal
	localPrefix     = "h200-"               // bundled: measured datasets of the local platform
)

// NoLocal as UMLAB_LOCAL_DATASET shows the paper's platforms only.
const NoLocal = "none"

// Mode returns the mode Data uses and why: live when forced by
// UMLAB_NOTEBOOK_MODE=live or when a CUDA driver and GPU are present,
// bundled otherwise. An unknown value of the variable is an error.
func Mode() (mode, why string, err error) {
	m := strings.ToLower(strings.TrimSpace(os.Getenv(EnvMode)))
	if m == "" || m == "auto" {
		if ok, reason := umkit.Available(); !ok {
			return Bundled, "no live measurement: " + reason, nil
		}
		return Live, "a CUDA driver and GPU are present", nil
	}
	if mode, why, ok := parseMode(m, EnvMode); ok {
		return mode, why, nil
	}
	return "", "", fmt.Errorf("nb: %s=%q: want live, bundled, simulated (or fake) or auto", EnvMode, m)
}

// parseMode reads a mode set by name (the variable or the option),
// lower-cased: live, bundled, simulated or fake.
func parseMode(m, name string) (mode, why string, ok bool) {
	switch m {
	case Live, Bundled:
		return m, name + "=" + m, true
	case Fake, KindSimulated:
		return Fake, name + "=" + m + ": a simulated GPU, made-up numbers", true
	}
	return "", "", false
}

// Source describes where some of the rows of Data came from.
type Source struct {
	Name     string // dataset name or results directory
	Platform string
	Kind     string // published, measured, or live
	Detail   string // one line for the reader
	Rows     int
	Local    bool // the local platform (live or bundled measurement)
}

// state of the last Load in this process (each GoNB cell is a process).
var last struct {
	mode, why string
	sources   []Source
	localSrc  Source           // the one of sources that is Local, if any
	local     []results.Row    // the local platform's rows
	meta      results.Metadata // and their metadata
}

// Data is Load that panics on error, which fails the notebook cell; it is
// meant for notebook cells: rows := nb.Data("hbm", "host").
func Data(groups ...string) []results.Row { return Options{Groups: groups}.Data() }

// Load returns the rows of the given benchmark groups (all groups if none
// is given) from the paper's published datasets and from the local
// platform, live or bundled as Mode says (see the package documentation).
// Rows of other groups are dropped. It is Options{Groups: groups}.Load().
func Load(groups ...string) ([]results.Row, error) { return Options{Groups: groups}.Load() }

// Load returns the rows o asks for: the paper's published datasets and the
// local platform's rows, live, simulated or bundled, of o's groups.
func (o Options) Load() ([]results.Row, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	mode, why, err := o.mode()
	if err != nil {
		return nil, err
	}
	groups := o.Groups
	last.mode, last.why, last.sources, last.localSrc, last.local = mode, why, nil, Source{}, nil
	keep := func(rows []results.Row) []results.Row { return ofGroups(rows, groups) }
	var all []results.Row
	for _, in := range published() {
		if in.Name == os.Getenv(EnvLocalDataset) && mode == Bundled {
			continue // the local platform is this published one
		}
		rows, m, err := loadDataset(in.Name)
		if err != nil {
			return nil, err
		}
		rows = keep(rows)
		last.sources = append(last.sources, Source{Name: in.Name, Platform: in.Platform,
			Kind: datasets.Published, Detail: describeRun(m), Rows: len(rows)})
		all = append(all, rows...)
	}
	var local []results.Row
	var src Source
	switch mode {
	case Live:
		local, src, last.meta, err = loadLive(o, false)
	case Fake:
		local, src, last.meta, err = loadLive(o, true)
	default:
		local, src, last.meta, err = loadBundled(groups)
	}
	if err != nil {
		return nil, err
	}
	local = keep(local) // a named dataset or directory holds every group
	last.local = local
	// The local rows come from one source; a results directory named by
	// UMLAB_LOCAL_DATASET could still pool simulated with measured rows.
	// Published figures are neither and sit beside them, not among them.
	if err := results.CheckNotMixed(local, "nb: local rows"); err != nil {
		return nil, err
	}
	if src.Name != "" {
		src.Rows, src.Local = len(local), true
		last.sources, last.localSrc = append(last.sources, src), src
	}
	return append(all, local...), nil
}

// ofGroups keeps the rows of the given groups (all rows with none given).
func ofGroups(rows []results.Row, groups []string) []results.Row {
	if len(groups) == 0 {
		return rows
	}
	return slices.DeleteFunc(slices.Clone(rows), func(r results.Row) bool { return !slices.Contains(groups, r.Group) })
}

// published returns the published datasets, the paper's platforms in the
// paper's order (GB200, GH200, GB10), others after them by name.
func published() []datasets.Info {
	order := []string{"GB200", "GH200", "GB10"}
	rank := func(in datasets.Info) int {
		if i := slices.Index(order, in.Platform); i >= 0 {
			return i
		}
		return len(order)
	}
	out := slices.DeleteFunc(datasets.List(), func(in datasets.Info) bool { return in.Kind != datasets.Published })
	slices.SortStableFunc(out, func(a, b datasets.Info) int { return cmp.Compare(rank(a), rank(b)) })
	return out
}

// loadBundled returns the local platform's rows in bundled mode: the
// dataset or results directory named by UMLAB_LOCAL_DATASET, or else, for
// each requested group, the rows of the newest embedded h200-* dataset that
// measured that group (datasets.Cover: a suite run and a later re-run of
// one group combine).
func loadBundled(groups []string) ([]results.Row, Source, results.Metadata, error) {
	name := os.Getenv(EnvLocalDataset)
	if name == NoLocal {
		return nil, Source{}, results.Metadata{}, nil
	}
	if name != "" {
		rows, m, err := datasets.LoadAny(name)
		if err != nil {
			return nil, Source{}, m, err
		}
		src := Source{Name: name, Platform: m.Platform, Kind: kindOf(rows, m), Detail: describeRun(m)}
		if src.Platform == "" && len(rows) > 0 {
			src.Platform = rows[0].Platform
		}
		return rows, src, m, nil
	}
	var rows []results.Row
	var src Source
	var meta results.Metadata
	for _, p := range datasets.Cover(datasets.Query{Prefix: localPrefix}, groups...) {
		rs, m, err := loadDataset(p.Name)
		if err != nil {
			return nil, Source{}, meta, err
		}
		rows = append(rows, ofGroups(rs, p.Groups)...)
		if src.Name == "" {
			src, meta = Source{Name: p.Name, Platform: m.Platform, Kind: datasets.Measured, Detail: describeRun(m)}, m
		} else {
			src.Name += " + " + p.Name
		}
	}
	return rows, src, meta, nil
}

// kindOf is the Source kind of a run's rows: simulated or measured.
func kindOf(rows []results.Row, m results.Metadata) string {
	if results.Simulated(rows) {
		return KindSimulated
	}
	if m.Kind == datasets.Published {
		return m.Kind
	}
	return datasets.Measured
}

// loaded memoizes datasets.Load in this process: a cell draws several
// figures, each loading its groups.
var loaded = map[string]struct {
	rows []results.Row
	meta results.Metadata
	err  error
}{}

func loadDataset(name string) ([]results.Row, results.Metadata, error) {
	l, ok := loaded[name]
	if !ok {
		l.rows, l.meta, l.err = datasets.Load(name)
		loaded[name] = l
	}
	return l.rows, l.meta, l.err
}

func describeRun(m results.Metadata) string {
	var parts []string
	if m.Device.Name != "" {
		parts = append(parts, m.Device.Name)
	}
	if m.Device.DriverVersion != "" {
		parts = append(parts, "driver "+m.Device.DriverVersion)
	}
	if !m.Start.IsZero() {
		parts = append(parts, m.Start.Format("2006-01-02"))
	}
	if m.Commit != "" {
		parts = append(parts, "commit "+m.Commit[:min(len(m.Commit), 12)])
	}
	if m.Command != "" {
		parts = append(parts, "`"+m.Command+"`")
	}
	return strings.Join(parts, ", ")
}

// Local returns the platform of the local rows of the last Data or Load
// call in this cell, or "" when there are none (bundled mode without a
// measured dataset).
func Local() string { return last.localSrc.Platform }

// Sources returns where the rows of the last Data or Load call came from.
func Sources() []Source { return append([]Source(nil), last.sources...) }

// About displays the mode and the sources of the last Data or Load call as
// a short Markdown table.
func About() {
	if last.mode == "" {
		Note("No data loaded yet: call nb.Data first.")
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**Data mode: %s** (%s).\n\n", Text(last.mode), Text(last.why))
	b.WriteString("| platform | kind | rows | source |\n|---|---|---:|---|\n")
	for _, s := range last.sources {
		fmt.Fprintf(&b, "| %s | %s | %d | %s: %s |\n", Text(s.Platform), Text(s.Kind), s.Rows, Text(s.Name), Text(s.Detail))
	}
	if Local() == "" {
		b.WriteString("\nNo local measurement is available: the figures show the paper's platforms only. " +
			"Run on a machine with a GPU (live mode), or bundle a measured h200-* dataset.\n")
	}
	Markdown(b.String())
}

// errNoLive is returned when live mode is forced but cannot run.
var errNoLive = errors.New("nb: live mode is not available")
