package datasets

import (
	"bytes"
	"cmp"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-gota/gota/dataframe"

	"github.com/umlab/umlab/results"
)

//go:generate go run ./internal/gzgen
//go:generate go run ./internal/indexgen

// Every folder of this directory that holds a results.csv is a dataset.
// The patterns name files, not folders; the full suite's results.csv goes
// in compressed (gz.go), so the plain ones are named by prefix, and
// TestEveryDatasetEmbedded fails on a folder they miss.
//
//go:embed paper-*/results.csv h200-*-quick/results.csv h200counters-*/results.csv h200live-*/results.csv
//go:embed h200x2-*/results.csv */results.csv.gz */meta.json */model.csv */counters.csv index.json
var files embed.FS

// embedded is the datasets as every reader sees them: plain files.
var embedded fs.FS = gzFS{files}

// Dataset kinds, as in results.Metadata.Kind.
const (
	Published = "published" // figures transcribed from a paper
	Measured  = "measured"  // a run of our own benchmarks
)

// Phases of the handoff group that only the paper's datasets use. The paper
// states the CPU-only plus GPU-only time of a policy as one sum, and the
// extra cost of alternating execution over that sum.
const (
	PhaseBaseline = "baseline" // CPU-only + GPU-only time of one iteration
	PhaseExtra    = "extra"    // alternating time minus PhaseBaseline
)

// ErrUnknown is wrapped by the error returned for a name that is neither an
// embedded dataset nor a results directory.
var ErrUnknown = errors.New("datasets: unknown dataset")

// Info describes one embedded dataset.
type Info struct {
	Name        string // folder name, e.g. paper-gb200
	Platform    string // e.g. GB200, H200
	Kind        string // Published or Measured
	Description string
}

// List returns the embedded datasets sorted by name.
func List() []Info { return list(Index()) }

// An Entry describes one embedded dataset without its rows: what its
// metadata says and what its rows add up to. [Index] lists them from
// index.json, generated from the data (go generate ./datasets;
// TestIndexIsCurrent fails when it is stale), so that choosing or listing
// datasets parses no CSV.
type Entry struct {
	Info
	GPU     string    `json:"gpu,omitempty"` // the device's name
	Driver  string    `json:"driver,omitempty"`
	Command string    `json:"command,omitempty"`
	Source  string    `json:"source,omitempty"` // published: where the figures come from
	Start   time.Time `json:"start"`            // the metadata's start (ByAge's order)
	// Measured is the earliest start of the run: the metadata's and those
	// the run IDs of its rows name (a resumed run names its last segment).
	Measured time.Time `json:"measured"`
	Quick    bool      `json:"quick,omitempty"` // measured with --quick
	Counters bool      `json:"counters,omitempty"`
	Bytes    int64     `json:"bytes"` // of results.csv: Index notices a stale entry by it
	Rows     int       `json:"rows"`
	GPUs     int       `json:"gpus"`
	Groups   []string  `json:"groups"` // in order of first appearance
	// Phases lists the phases of each group's rows (handoff: cpu_only,
	// gpu_only, alternating), in order of first appearance.
	Phases  map[string][]string `json:"phases,omitempty"`
	Modes   []string            `json:"fleet_modes,omitempty"` // fleet modes of its rows, sorted
	Configs int                 `json:"configurations"`
	// Trials and Warmups are the most common trial count of a
	// configuration (per repetition) and warm-up count of a row.
	Trials  int   `json:"trials,omitempty"`
	Warmups int   `json:"warmups,omitempty"`
	MinSize int64 `json:"min_size_bytes,omitempty"`
	MaxSize int64 `json:"max_size_bytes,omitempty"`
}

// HasPhase reports whether the dataset has rows of group (of phase too,
// where phase is set).
func (e Entry) HasPhase(group, phase string) bool {
	if phase == "" {
		return slices.Contains(e.Groups, group)
	}
	return slices.Contains(e.Phases[group], phase)
}

// A Pick is a dataset chosen by Cover and the groups taken from it.
type Pick struct {
	Name   string
	Groups []string
}

// Cover picks, from the embedded measured datasets that match q in ByAge's
// order (best first), each of groups from the first dataset that has it
// (every group of every dataset when none are given). Datasets that give
// no group are left out: a notebook loads the picks and nothing else,
// choosing from the Index without reading a CSV.
func Cover(q Query, groups ...string) []Pick {
	byName := map[string]Entry{}
	for _, e := range Index() {
		byName[e.Name] = e
	}
	taken := map[string]bool{}
	var out []Pick
	for _, name := range ByAge(q) {
		var p Pick
		for _, g := range byName[name].Groups {
			if !taken[g] && (len(groups) == 0 || slices.Contains(groups, g)) {
				taken[g] = true
				p.Groups = append(p.Groups, g)
			}
		}
		if len(p.Groups) > 0 {
			p.Name = name
			out = append(out, p)
		}
	}
	return out
}

// indexName is the generated index of the embedded datasets.
const indexName = "index.json"

// Index returns an Entry for each embedded dataset, sorted by name. It
// reads index.json; an entry that does not match the embedded files (a
// dataset added, changed or removed since it was generated) is made
// afresh from the data.
var Index = sync.OnceValue(func() []Entry { return index(embedded) })

func index(fsys fs.FS) []Entry {
	var stored []Entry
	if b, err := fs.ReadFile(fsys, indexName); err == nil {
		json.Unmarshal(b, &stored)
	}
	byName := map[string]Entry{}
	for _, e := range stored {
		byName[e.Name] = e
	}
	var out []Entry
	for _, name := range names(fsys) {
		e, ok := byName[name]
		if fi, err := fs.Stat(fsys, path.Join(name, results.CSVName)); !ok || err != nil || fi.Size() != e.Bytes {
			e, _ = entryOf(fsys, name)
		}
		out = append(out, e)
	}
	return out
}

// BuildIndex makes the index of the embedded datasets from their files
// (go generate writes it to index.json).
func BuildIndex() ([]Entry, error) {
	var out []Entry
	for _, name := range names(embedded) {
		e, err := entryOf(embedded, name)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// entryOf describes one dataset from its files.
func entryOf(fsys fs.FS, name string) (Entry, error) {
	rows, m, err := load(fsys, name)
	if err != nil {
		return Entry{Info: Info{Name: name, Kind: Measured, Description: err.Error()}}, err
	}
	in := Info{Name: name, Platform: m.Platform, Kind: Measured}
	if m.Kind == Published {
		in.Kind = Published
	}
	in.Description = describe(in, m)
	e := Entry{Info: in, GPU: m.Device.Name, Driver: m.Device.DriverVersion, Command: m.Command, Source: m.Source,
		Start: m.Start, Measured: m.Start, Quick: strings.Contains(m.Command, "--quick"), Rows: len(rows),
		Phases: map[string][]string{}}
	_, err = fs.Stat(fsys, path.Join(name, results.CountersName))
	e.Counters = err == nil
	if fi, err := fs.Stat(fsys, path.Join(name, results.CSVName)); err == nil {
		e.Bytes = fi.Size()
	}
	gpus, modes, configs := map[string]bool{}, map[string]bool{}, map[results.ConfigID]bool{}
	trials, warm := map[string]int{}, map[int]int{}
	for i := range rows {
		r := &rows[i]
		gpus[r.GPUUUID] = true
		if !slices.Contains(e.Groups, r.Group) {
			e.Groups = append(e.Groups, r.Group)
		}
		if r.Phase != "" && !slices.Contains(e.Phases[r.Group], r.Phase) {
			e.Phases[r.Group] = append(e.Phases[r.Group], r.Phase)
		}
		if mode, _ := results.FleetMode(r.Note); mode != "" {
			modes[mode] = true
		}
		configs[r.ConfigID()] = true
		trials[results.ConfigKey(*r)+"|"+strconv.FormatInt(r.Repetition, 10)]++
		warm[int(r.Warmups)]++
		if r.SizeBytes > 0 {
			if e.MinSize == 0 || r.SizeBytes < e.MinSize {
				e.MinSize = r.SizeBytes
			}
			e.MaxSize = max(e.MaxSize, r.SizeBytes)
		}
		// A resumed run's metadata names its last segment; the run IDs of
		// its rows (20261129T235618Z-...) name every segment's start.
		if t, err := time.Parse("20060102T150405Z", strings.SplitN(r.RunID, "-", 2)[0]); err == nil && (e.Measured.IsZero() || t.Before(e.Measured)) {
			e.Measured = t
		}
	}
	e.GPUs, e.Configs = len(gpus), len(configs)
	e.Modes = slices.Sorted(maps.Keys(modes))
	tc := map[int]int{}
	for _, n := range trials {
		tc[n]++
	}
	e.Trials, e.Warmups = results.MostCommon(tc), results.MostCommon(warm)
	return e, nil
}

// list is the Info of each entry.
func list(es []Entry) []Info {
	out := make([]Info, len(es))
	for i, e := range es {
		out[i] = e.Info
	}
	return out
}

func describe(in Info, m results.Metadata) string {
	if in.Kind == Published {
		return fmt.Sprintf("%s figures published in %s", in.Platform, m.Source)
	}
	d := fmt.Sprintf("%s measured on %s", in.Platform, m.Device.Name)
	if m.Device.DriverVersion != "" {
		d += ", driver " + m.Device.DriverVersion
	}
	if !m.Start.IsZero() {
		d += ", " + m.Start.Format("2006-01-02")
	}
	return d
}

// names returns the folders of fsys that hold a results CSV, sorted.
func names(fsys fs.FS) []string {
	paths, _ := fs.Glob(fsys, "*/"+results.CSVName)
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = path.Dir(p)
	}
	sort.Strings(out)
	return out
}

func known(fsys fs.FS, name string) bool { return slices.Contains(names(fsys), name) }

func unknown(fsys fs.FS, name string) error {
	return fmt.Errorf("%w %q (known: %s)", ErrUnknown, name, strings.Join(names(fsys), ", "))
}

// Load returns the rows and metadata of an embedded dataset. Rows whose
// platform or run_id is empty take the dataset's, so that rows of several
// datasets can be compared side by side. Unverified trials are left out
// of the rows and counted in the metadata's Unverified
// (results.ScreenUnverified), which can put them back.
func Load(name string) ([]results.Row, results.Metadata, error) {
	return load(embedded, name)
}

func load(fsys fs.FS, name string) ([]results.Row, results.Metadata, error) {
	var m results.Metadata
	if !known(fsys, name) {
		return nil, m, unknown(fsys, name)
	}
	p := path.Join(name, results.CSVName)
	b, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, m, fmt.Errorf("datasets: %w", err)
	}
	rows, err := results.ReadCSV(bytes.NewReader(b), "datasets/"+p)
	if err != nil {
		return nil, m, err
	}
	m, err = readMeta(fsys, name)
	if err != nil {
		return nil, m, err
	}
	fill(rows, m, name)
	rows, m.Unverified = results.ScreenUnverified(rows)
	return rows, m, nil
}

func readMeta(fsys fs.FS, name string) (results.Metadata, error) {
	var m results.Metadata
	p := path.Join(name, results.MetaName)
	b, err := fs.ReadFile(fsys, p)
	if err != nil {
		return m, fmt.Errorf("datasets: %w", err)
	}
	return results.DecodeJSON[results.Metadata](b, "datasets/"+p)
}

// fill sets empty platform and run_id fields from the metadata, falling back
// to the dataset's name.
func fill(rows []results.Row, m results.Metadata, name string) {
	platform, run := cmp.Or(m.Platform, name), cmp.Or(m.RunID, name)
	for i := range rows {
		rows[i].Platform, rows[i].RunID = cmp.Or(rows[i].Platform, platform), cmp.Or(rows[i].RunID, run)
	}
}

// LoadFrame is Load returning the tidy DataFrame of results.Frame.
func LoadFrame(name string) (dataframe.DataFrame, results.Metadata, error) {
	rows, m, err := Load(name)
	if err != nil {
		return dataframe.DataFrame{}, m, err
	}
	df := results.Frame(rows)
	if df.Err != nil {
		return df, m, fmt.Errorf("datasets: %s: %w", name, df.Err)
	}
	return df, m, nil
}

// LoadAny is Resolve without the resolved name: an embedded dataset's
// name, a results directory, or newest[:GROUP].
func LoadAny(ref string) ([]results.Row, results.Metadata, error) {
	rows, m, _, err := Resolve(ref)
	return rows, m, err
}

// LoadMany loads several datasets or results directories (each as by
// LoadAny) into one slice of rows, in argument order. The platform column
// tells the platforms apart; run_id tells apart runs on one platform.
func LoadMany(namesOrDirs ...string) ([]results.Row, error) {
	var all []results.Row
	for _, n := range namesOrDirs {
		rows, _, err := LoadAny(n)
		if err != nil {
			return nil, err
		}
		all = append(all, rows...)
	}
	return all, nil
}

// LoadManyFrame is LoadMany returning the tidy DataFrame of results.Frame.
func LoadManyFrame(namesOrDirs ...string) (dataframe.DataFrame, error) {
	rows, err := LoadMany(namesOrDirs...)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	df := results.Frame(rows)
	if df.Err != nil {
		return df, fmt.Errorf("datasets: %w", df.Err)
	}
	return df, nil
}
