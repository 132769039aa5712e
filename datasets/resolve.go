package datasets

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
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
	type cand struct {
		name  string
		quick bool
		start int64
	}
	var cs []cand
	for _, e := range Index() {
		if e.Kind == Measured && e.Rows > 0 && q.matches(e) {
			cs = append(cs, cand{name: e.Name, start: e.Start.Unix(), quick: e.Quick})
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].quick != cs[j].quick {
			return !cs[i].quick
		}
		if cs[i].start != cs[j].start {
			return cs[i].start > cs[j].start
		}
		return cs[i].name > cs[j].name
	})
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.name
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
