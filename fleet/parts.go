package fleet

import (
	"encoding/csv"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/umlab/umlab/results"
)

// A Part is what one GPU measured in one run: a worker's results directory,
// a plain single-GPU results directory, or one GPU's share of a merged
// directory.
type Part struct {
	Label string // unique among the parts loaded together, e.g. "node1/gpu0"
	Dir   string // the directory it was read from
	Host  string
	GPU   string // "gpu<N>": the directory name of the fleet layout, else from the metadata's device index
	Index int    // GPU index (the N of gpu<N>), -1 when unknown
	UUID  string
	RunID string // the first run ID of its rows (a resumed run has several)
	Mode  string // Isolated, Concurrent, or "" for a plain run
	Peers int    // GPUs of its node in the run (Concurrent: measured at once)
	Meta  results.Metadata
	// Columns is the header of the results.csv it was read from.
	Columns []string
	Rows    []results.Row
}

// key identifies the rows of a part inside a merged results.csv.
func rowKey(r results.Row) string { return r.RunID + "|" + r.GPUUUID + "|" + r.Host }

// keys returns the distinct row keys of the part, in order.
func (p *Part) keys() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range p.Rows {
		if k := rowKey(r); !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// ModeLabel says how the part was measured: "isolated", "concurrent (4
// at once)" or "single run".
func (p *Part) ModeLabel() string {
	switch p.Mode {
	case Isolated:
		return Isolated
	case Concurrent:
		return fmt.Sprintf("concurrent (%d at once)", p.Peers)
	}
	return "single run"
}

// ManifestName is the file in a merged directory that lists its parts.
const ManifestName = "fleet.json"

// Manifest describes a merged directory: where each part came from, its
// full metadata, and every difference Check found.
type Manifest struct {
	Created  time.Time  `json:"created"`
	Command  string     `json:"command,omitempty"`
	Parts    []PartInfo `json:"parts"`
	Problems []Problem  `json:"problems,omitempty"`
	Schema   []string   `json:"schema"`
}

// PartInfo is a part as the manifest records it.
type PartInfo struct {
	Label  string           `json:"label"`
	Source string           `json:"source"` // the directory it was merged from
	Host   string           `json:"host"`
	GPU    string           `json:"gpu"`
	Index  int              `json:"index"`
	UUID   string           `json:"gpu_uuid"`
	RunID  string           `json:"run_id"`
	Mode   string           `json:"mode,omitempty"`
	Peers  int              `json:"peers,omitempty"`
	Rows   int              `json:"rows"`
	Keys   []string         `json:"row_keys"` // run_id|gpu_uuid|host of its rows
	Meta   results.Metadata `json:"meta"`
}

// SchemaError is returned by Load when results files do not have the
// schema of this umbench: merging them would misalign or invent columns.
type SchemaError struct{ Problems []string }

func (e *SchemaError) Error() string {
	return "fleet: mismatched schemas:\n  " + strings.Join(e.Problems, "\n  ")
}

// checkHeader compares a results.csv header with the schema.
func checkHeader(path string, head []string) string {
	want := map[string]bool{}
	for _, c := range results.Columns {
		want[c.Name] = true
	}
	have := map[string]bool{}
	var extra, missing, dup []string
	for _, h := range head {
		h = strings.TrimSpace(h)
		if have[h] {
			dup = append(dup, h)
		}
		have[h] = true
		if !want[h] {
			extra = append(extra, h)
		}
	}
	for _, c := range results.Columns {
		if !have[c.Name] && !results.Optional[c.Name] {
			missing = append(missing, c.Name)
		}
	}
	if len(extra)+len(missing)+len(dup) == 0 {
		return ""
	}
	var what []string
	if len(missing) > 0 {
		what = append(what, "lacks column(s) "+strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		what = append(what, "has column(s) this umbench does not know: "+strings.Join(extra, ", "))
	}
	if len(dup) > 0 {
		what = append(what, "repeats column(s) "+strings.Join(dup, ", "))
	}
	return fmt.Sprintf("%s %s (the schema has %d columns, the file %d)", path, strings.Join(what, " and "), len(results.Columns), len(head))
}

func readHeader(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h, err := csv.NewReader(f).Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %w: no header line: %v", path, results.ErrMalformed, err)
	}
	return h, nil
}

// Find returns the results directories under the given paths: every
// directory holding both results.csv and meta.json (a merged directory
// counts as one), not descending into them. Directories whose name starts
// with a dot are skipped, and so is every path in skip. A results.csv
// without meta.json is reported as a warning.
func Find(paths []string, skip []string) (dirs []string, warnings []string, err error) {
	skipAbs := map[string]bool{}
	for _, s := range skip {
		if a, err := filepath.Abs(s); err == nil {
			skipAbs[a] = true
		}
	}
	seen := map[string]bool{}
	for _, root := range paths {
		st, err := os.Stat(root)
		if err != nil {
			return nil, nil, err
		}
		if !st.IsDir() {
			return nil, nil, fmt.Errorf("%s is not a directory", root)
		}
		err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() {
				return nil
			}
			abs, _ := filepath.Abs(path)
			if skipAbs[abs] || (path != root && strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			_, cerr := os.Stat(filepath.Join(path, results.CSVName))
			_, merr := os.Stat(filepath.Join(path, results.MetaName))
			switch {
			case cerr == nil && merr == nil:
				if !seen[abs] {
					seen[abs] = true
					dirs = append(dirs, path)
				}
				return filepath.SkipDir
			case cerr == nil:
				warnings = append(warnings, fmt.Sprintf("skipping %s: it has %s but no %s", path, results.CSVName, results.MetaName))
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	if len(dirs) == 0 {
		return nil, warnings, fmt.Errorf("no results directory (%s with %s) under %s", results.CSVName, results.MetaName, strings.Join(paths, ", "))
	}
	return dirs, warnings, nil
}

var gpuDirRE = regexp.MustCompile(`^gpu(\d+)$`)

// Load reads the parts under the given paths (see Find): each worker or
// plain results directory is split by host and GPU UUID (normally one
// part), a merged directory into the parts its manifest lists. Every
// results.csv must have this umbench's schema, or Load returns a
// *SchemaError naming each file and its missing or unknown columns.
// Duplicates (the same rows reached twice, e.g. a node directory and a
// merged copy of it) are dropped with a warning. Parts come sorted by host,
// GPU index and label.
func Load(paths []string, skip []string) ([]Part, []string, error) {
	dirs, warns, err := Find(paths, skip)
	if err != nil {
		return nil, warns, err
	}
	var parts []Part
	var schema []string
	for _, dir := range dirs {
		csvPath := filepath.Join(dir, results.CSVName)
		head, err := readHeader(csvPath)
		if err != nil {
			return nil, warns, err
		}
		if msg := checkHeader(csvPath, head); msg != "" {
			schema = append(schema, msg)
			continue
		}
		rows, meta, err := results.LoadDir(dir)
		if err != nil {
			return nil, warns, err
		}
		if _, err := os.Stat(filepath.Join(dir, ManifestName)); err == nil {
			ps, err := splitMerged(dir, head, rows)
			if err != nil {
				return nil, warns, err
			}
			parts = append(parts, ps...)
			continue
		}
		if len(rows) == 0 {
			warns = append(warns, fmt.Sprintf("skipping %s: no rows", dir))
			continue
		}
		parts = append(parts, splitPlain(dir, head, rows, meta)...)
	}
	if len(schema) > 0 {
		return nil, warns, &SchemaError{Problems: schema}
	}
	parts, dw := dedupe(parts)
	warns = append(warns, dw...)
	sortParts(parts)
	labelParts(parts)
	return parts, warns, nil
}

// splitPlain makes parts of a results directory: one per host and GPU.
func splitPlain(dir string, head []string, rows []results.Row, meta results.Metadata) []Part {
	var order []string
	by := map[string][]results.Row{}
	for _, r := range rows {
		k := r.Host + "|" + r.GPUUUID
		if _, ok := by[k]; !ok {
			order = append(order, k)
		}
		by[k] = append(by[k], r)
	}
	var parts []Part
	for _, k := range order {
		rs := by[k]
		p := Part{Dir: dir, Host: rs[0].Host, UUID: rs[0].GPUUUID, RunID: rs[0].RunID, Meta: meta, Columns: head, Rows: rs, Index: -1}
		if p.Host == "" {
			p.Host = meta.Host
		}
		if m := gpuDirRE.FindStringSubmatch(filepath.Base(dir)); m != nil && len(order) == 1 {
			p.Index, _ = strconv.Atoi(m[1])
		} else if meta.Device.UUID != "" && meta.Device.UUID == p.UUID {
			p.Index = meta.Device.Index
		}
		for _, r := range rs {
			if m, n := ModeOf(r.Note); m != "" {
				p.Mode, p.Peers = m, n
				break
			}
		}
		parts = append(parts, p)
	}
	return parts
}

// splitMerged makes parts of a merged directory from its manifest.
func splitMerged(dir string, head []string, rows []results.Row) ([]Part, error) {
	m, err := ReadManifest(filepath.Join(dir, ManifestName))
	if err != nil {
		return nil, err
	}
	owner := map[string]int{}
	parts := make([]Part, len(m.Parts))
	for i, pi := range m.Parts {
		parts[i] = Part{Dir: dir, Host: pi.Host, GPU: pi.GPU, Index: pi.Index, UUID: pi.UUID, RunID: pi.RunID,
			Mode: pi.Mode, Peers: pi.Peers, Meta: pi.Meta, Columns: head, Label: pi.Label}
		for _, k := range pi.Keys {
			owner[k] = i
		}
	}
	for _, r := range rows {
		i, ok := owner[rowKey(r)]
		if !ok {
			return nil, fmt.Errorf("%s: a row of run %s, GPU %s, host %s belongs to no part of %s", dir, r.RunID, r.GPUUUID, r.Host, ManifestName)
		}
		parts[i].Rows = append(parts[i].Rows, r)
	}
	for i, pi := range m.Parts {
		if len(parts[i].Rows) != pi.Rows {
			return nil, fmt.Errorf("%s: part %s has %d rows in %s, %d in %s", dir, pi.Label, len(parts[i].Rows), results.CSVName, pi.Rows, ManifestName)
		}
	}
	return parts, nil
}

// ReadManifest reads a merged directory's fleet.json.
func ReadManifest(path string) (Manifest, error) { return results.ReadJSON[Manifest](path) }

// dedupe drops parts whose rows were already loaded from another directory.
func dedupe(parts []Part) ([]Part, []string) {
	var out []Part
	var warns []string
	seen := map[string]int{}
	for _, p := range parts {
		sig := strings.Join(p.keys(), ",") + "#" + strconv.Itoa(len(p.Rows))
		if j, ok := seen[sig]; ok {
			warns = append(warns, fmt.Sprintf("the rows of GPU %s on %s (run %s) were found twice, in %s and %s; keeping the first",
				p.UUID, p.Host, p.RunID, out[j].Dir, p.Dir))
			continue
		}
		seen[sig] = len(out)
		out = append(out, p)
	}
	return out, warns
}

func sortParts(parts []Part) {
	slices.SortStableFunc(parts, func(a, b Part) int {
		if c := strings.Compare(a.Host, b.Host); c != 0 {
			return c
		}
		if a.Index != b.Index {
			return a.Index - b.Index
		}
		if c := strings.Compare(a.UUID, b.UUID); c != 0 {
			return c
		}
		return strings.Compare(a.RunID, b.RunID)
	})
}

// labelParts names each part host/gpuN (or host/<short UUID> when the index
// is unknown), adding the run ID where two parts would share a name.
func labelParts(parts []Part) {
	for i := range parts {
		p := &parts[i]
		if p.GPU == "" {
			if p.Index >= 0 {
				p.GPU = "gpu" + strconv.Itoa(p.Index)
			} else {
				p.GPU = shortUUID(p.UUID)
			}
		}
		if p.Label == "" {
			p.Label = orDash(p.Host) + "/" + p.GPU
		}
	}
	count := map[string]int{}
	for _, p := range parts {
		count[p.Label]++
	}
	used := map[string]bool{}
	for i := range parts {
		p := &parts[i]
		if count[p.Label] > 1 {
			p.Label += "@" + p.RunID
		}
		base := p.Label
		for n := 2; used[p.Label]; n++ {
			p.Label = fmt.Sprintf("%s#%d", base, n)
		}
		used[p.Label] = true
	}
}

func shortUUID(u string) string {
	if u == "" {
		return "gpu?"
	}
	if len(u) > 12 {
		return u[:12]
	}
	return u
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
