package datasets

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/umlab/umlab/results"
)

// Newest is the prefix of a reference that Resolve reads as "the newest
// measured dataset of this kind": "newest" alone, or "newest:GROUP" for one
// that holds rows of that benchmark group (e.g. newest:handoff).
const Newest = "newest"

// Query selects embedded measured datasets for [ByAge] and [NewestOf].
type Query struct {
	Prefix string // the name starts with it, e.g. "h200-" ("": any name)
	Group  string // it holds rows of this group ("": any)
	Phase  string // with Group: rows of this phase too (e.g. gpu_only)
	// Counters: it holds counter passes (counters.csv).
	Counters bool
}

func (q Query) matches(e Entry) bool {
	return strings.HasPrefix(e.Name, q.Prefix) && (!q.Counters || e.Counters) && (q.Group == "" || e.HasPhase(q.Group, q.Phase))
}

// ByAge lists the embedded measured datasets that match q, best first,
// from the Index (no CSV is read). This
// is umlab's one "newest dataset" rule: full runs before --quick ones (whose
// few sizes and trials make poorer figures and fits), each newest first by
// the start time in their metadata, then by name, later names first.
func ByAge(q Query) []string {
	es := slices.DeleteFunc(slices.Clone(Index()), func(e Entry) bool {
		return e.Kind != Measured || e.Rows == 0 || !q.matches(e)
	})
	slices.SortFunc(es, func(a, b Entry) int {
		if a.Quick != b.Quick { // full runs first
			if a.Quick {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(b.Start.Unix(), a.Start.Unix()), strings.Compare(b.Name, a.Name))
	})
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Name
	}
	return out
}

// NewestOf returns the first dataset of ByAge(q), and false when none
// matches.
func NewestOf(q Query) (string, bool) {
	if names := ByAge(q); len(names) > 0 {
		return names[0], true
	}
	return "", false
}

// Resolve is umlab's one resolver of a data reference, used by the command
// line and by the notebooks alike. ref is
//   - an embedded dataset's name (see List), e.g. paper-gb200;
//   - a results directory written by umbench run or merge (a reference
//     with a path separator is always a directory; a name that is not
//     embedded is tried as one);
//   - "newest" or "newest:GROUP": the embedded measured dataset that
//     ByAge puts first (of those holding GROUP's rows).
//
// It returns the rows, the metadata and the name it resolved to (the
// dataset chosen for "newest…"). Rows whose platform or run_id is empty
// take the dataset's (or the directory's base name), as Load does.
func Resolve(ref string) ([]results.Row, results.Metadata, string, error) {
	if ref == Newest || strings.HasPrefix(ref, Newest+":") {
		q := Query{Group: strings.TrimPrefix(strings.TrimPrefix(ref, Newest), ":")}
		name, ok := NewestOf(q)
		if !ok {
			return nil, results.Metadata{}, "", fmt.Errorf("%w %q: no embedded measured dataset holds group %q", ErrUnknown, ref, q.Group)
		}
		rows, m, err := Load(name)
		return rows, m, name, err
	}
	if !strings.ContainsAny(ref, `/\`) && known(embedded, ref) {
		rows, m, err := Load(ref)
		return rows, m, ref, err
	}
	if fi, err := os.Stat(ref); err != nil || !fi.IsDir() {
		return nil, results.Metadata{}, "", fmt.Errorf("%w %q: not a results directory either (known: %s, or newest[:GROUP])",
			ErrUnknown, ref, strings.Join(names(embedded), ", "))
	}
	rows, m, err := LoadDir(ref)
	return rows, m, ref, err
}

// Counters returns the counter passes (counters.csv, read with
// results.ReadCounterCSV) of ref, an embedded dataset or a results
// directory chosen as Resolve chooses. A source without them (a run
// without --counters, a published dataset, nothing by that name) gives
// none and no error; a malformed file is an error.
func Counters(ref string) ([]results.CounterRow, error) {
	if !strings.ContainsAny(ref, `/\`) && known(embedded, ref) {
		b, err := fs.ReadFile(embedded, ref+"/"+results.CountersName)
		if err != nil {
			return nil, nil
		}
		return results.ReadCounterCSV(bytes.NewReader(b), ref+"/"+results.CountersName)
	}
	rows, err := results.LoadCounters(ref)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return rows, err
}

// LoadDir reads a results directory (results.csv and, if present,
// meta.json) with results.LoadDir and fills empty platform and run_id
// fields as Load does, with the directory's base name as the fallback.
// Unverified trials are left out, as by Load.
func LoadDir(dir string) ([]results.Row, results.Metadata, error) {
	rows, m, err := results.LoadDir(dir)
	if err != nil {
		return nil, m, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, m, err
	}
	fill(rows, m, filepath.Base(abs))
	rows, m.Unverified = results.ScreenUnverified(rows)
	return rows, m, nil
}
