package nb

import (
	"errors"
	"fmt"
	"html"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

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
	switch m := strings.ToLower(strings.TrimSpace(os.Getenv(EnvMode))); m {
	case Live:
		return Live, EnvMode + "=live", nil
	case Bundled:
		return Bundled, EnvMode + "=bundled", nil
	case Fake, KindSimulated:
		return Fake, EnvMode + "=" + m + ": a simulated GPU, made-up numbers", nil
	case "", "auto":
		ok, reason := umkit.Available()
		if ok {
			return Live, "a CUDA driver and GPU are present", nil
		}
		return Bundled, "no live measurement: " + reason, nil
	default:
		return "", "", fmt.Errorf("nb: %s=%q: want live, bundled, simulated (or fake) or auto", EnvMode, m)
	}
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
	local     []results.Row    // the local platform's rows
	meta      results.Metadata // and their metadata
}

// Data is Load that panics on error, which fails the notebook cell; it is
// meant for notebook cells: rows := nb.Data("hbm", "host").
func Data(groups ...string) []results.Row {
	rows, err := Load(groups...)
	if err != nil {
		HTML(`<pre style="color:#b00">` + html.EscapeString(err.Error()) + `</pre>`)
		panic(err)
	}
	return rows
}

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
	last.mode, last.why, last.sources, last.local = mode, why, nil, nil
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
		last.sources = append(last.sources, src)
	}
	return append(all, local...), nil
}

// ofGroups keeps the rows of the given groups (all rows with none given).
func ofGroups(rows []results.Row, groups []string) []results.Row {
	if len(groups) == 0 {
		return rows
	}
	var out []results.Row
	for _, r := range rows {
		if slices.Contains(groups, r.Group) {
			out = append(out, r)
		}
	}
	return out
}

// published returns the published datasets, the paper's platforms in the
// paper's order (GB200, GH200, GB10), others after them by name.
func published() []datasets.Info {
	order := map[string]int{"GB200": 1, "GH200": 2, "GB10": 3}
	var out []datasets.Info
	for _, in := range datasets.List() {
		if in.Kind == datasets.Published {
			out = append(out, in)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		oi, oj := order[out[i].Platform], order[out[j].Platform]
		if oi == 0 {
			oi = len(order) + 1
		}
		if oj == 0 {
			oj = len(order) + 1
		}
		return oi < oj
	})
	return out
}

// loadBundled returns the local platform's rows in bundled mode: the
// dataset or results directory named by UMLAB_LOCAL_DATASET, or else, for
// each requested group, the rows of the newest embedded h200-* dataset that
// measured that group (a suite run and a later re-run of one group combine).
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
	want := map[string]bool{}
	for _, g := range groups {
		want[g] = true
	}
	taken := map[string]bool{}
	var rows []results.Row
	var src Source
	var meta results.Metadata
	for _, name := range localByAge() {
		rs, m, err := loadDataset(name)
		if err != nil {
			return nil, Source{}, meta, err
		}
		fresh := map[string]bool{}
		for _, r := range rs {
			if !taken[r.Group] && (len(want) == 0 || want[r.Group]) {
				fresh[r.Group] = true
				rows = append(rows, r)
			}
		}
		if len(fresh) == 0 {
			continue
		}
		for g := range fresh {
			taken[g] = true
		}
		if src.Name == "" {
			src = Source{Name: name, Platform: m.Platform, Kind: datasets.Measured, Detail: describeRun(m)}
			meta = m
		} else {
			src.Name += " + " + name
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

// localByAge lists the measured h200-* datasets by datasets.ByAge's rule
// (full runs before --quick ones, each newest first).
func localByAge() []string { return byAge(localPrefix, false) }

// loaded memoizes datasets.Load in this process: a cell draws several
// figures, each loading its groups. (datasets will read metadata without
// parsing the CSV files; until then each dataset is parsed once per cell.)
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

// byAge lists the measured embedded datasets whose name starts with
// prefix (and that hold counter passes, with counters) as datasets.ByAge
// does: full runs before --quick ones, each newest first.
func byAge(prefix string, counters bool) []string {
	type cand struct {
		name  string
		quick bool
		start time.Time
	}
	var cs []cand
	for _, in := range datasets.List() {
		if in.Kind != datasets.Measured || !strings.HasPrefix(in.Name, prefix) {
			continue
		}
		if c, err := datasets.Counters(in.Name); counters && (err != nil || len(c) == 0) {
			continue
		}
		if _, m, err := loadDataset(in.Name); err == nil {
			cs = append(cs, cand{in.Name, strings.Contains(m.Command, "--quick"), m.Start})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if a.quick != b.quick {
			return !a.quick
		}
		if !a.start.Equal(b.start) {
			return a.start.After(b.start)
		}
		return a.name > b.name
	})
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.name
	}
	return out
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
func Local() string {
	for _, s := range last.sources {
		if s.Local {
			return s.Platform
		}
	}
	return ""
}

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
