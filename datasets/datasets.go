package datasets

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/go-gota/gota/dataframe"

	"github.com/umlab/umlab/results"
)

// Every folder of this directory that holds a results.csv is a dataset. The
// patterns name files, not folders, so they always match (the paper's
// folders exist) and the package builds with no measured dataset at all.
//
//go:embed */results.csv */meta.json */model.csv */counters.csv
var embedded embed.FS

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
func List() []Info { return list(embedded) }

func list(fsys fs.FS) []Info {
	var out []Info
	for _, name := range names(fsys) {
		in := Info{Name: name, Kind: Measured}
		m, err := readMeta(fsys, name)
		if err != nil {
			in.Description = err.Error()
			out = append(out, in)
			continue
		}
		in.Platform = m.Platform
		if m.Kind == Published {
			in.Kind = Published
		}
		in.Description = describe(in, m)
		out = append(out, in)
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

func known(fsys fs.FS, name string) bool {
	for _, n := range names(fsys) {
		if n == name {
			return true
		}
	}
	return false
}

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
	platform, run := m.Platform, m.RunID
	if platform == "" {
		platform = name
	}
	if run == "" {
		run = name
	}
	for i := range rows {
		if rows[i].Platform == "" {
			rows[i].Platform = platform
		}
		if rows[i].RunID == "" {
			rows[i].RunID = run
		}
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

// CountersCSV returns the counters.csv of a measured dataset made with
// `umbench run --counters` (the Unified Memory counter passes; parse it with
// results.ReadCounterCSV). A dataset without one is an error that says so.
func CountersCSV(name string) (io.Reader, error) {
	if !known(embedded, name) {
		return nil, unknown(embedded, name)
	}
	b, err := fs.ReadFile(embedded, name+"/counters.csv")
	if err != nil {
		return nil, fmt.Errorf("datasets: %s has no counter passes (counters.csv): %w", name, err)
	}
	return bytes.NewReader(b), nil
}
