package fleet

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
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
	// Rows are the part's rows where they are in memory (FromRows, a part
	// made by hand, LoadRows); Load leaves them out and reads the part's
	// digest instead (see CacheName): EachRow streams them from the file.
	Rows []results.Row

	dig   *digest                   // nil until needed when Rows are set
	csv   string                    // the file its rows are in ("": only Rows)
	stamp stamp                     // of csv when its digest was read
	src   source                    // how its digest was read, and which of the file's it is
	group string                    // KeepGroup's group
	mine  func(r *results.Row) bool // which rows of csv are the part's
}

// source is where a part's digest comes from: the directory of its
// results.csv, how its rows are split into parts (nil: byHostGPU) and
// which of them it is.
type source struct {
	dir   string
	split func() func(*results.Row) (int, error)
	index int
}

// onePart splits nothing: every row is part 0.
func onePart(*results.Row) (int, error) { return 0, nil }

// withIntervals gives each part a digest with its summaries' bootstrap
// intervals, reading again (and caching) those loaded without them.
func withIntervals(parts []Part) error {
	type read struct {
		ds []*digest
		of stamp
	}
	done := map[string]read{}
	for i := range parts {
		p := &parts[i]
		if p.digest().Intervals {
			continue
		}
		r, ok := done[p.src.dir]
		if !ok {
			var split func(*results.Row) (int, error) // nil: byHostGPU
			if p.src.split != nil {
				split = p.src.split()
			}
			var err error
			if _, r.ds, r.of, err = digestDir(p.src.dir, split, true); err != nil {
				return err
			}
			done[p.src.dir] = r
		}
		ds := r.ds
		p.stamp = r.of
		if p.src.index >= len(ds) {
			return fmt.Errorf("%s changed while it was read: %d parts, then %d", p.src.dir, p.src.index+1, len(ds))
		}
		p.dig = ds[p.src.index]
		if p.group != "" {
			p.KeepGroup(p.group)
		}
	}
	return nil
}

// key identifies the rows of a part inside a merged results.csv.
func rowKey(r results.Row) string { return r.RunID + "|" + r.GPUUUID + "|" + r.Host }

// keys returns the distinct row keys of the part, in order.
func (p *Part) keys() []string { return p.digest().Keys }

// digest returns the part's digest, made from its rows if it has none.
func (p *Part) digest() *digest {
	if p.dig == nil {
		ds, _ := digestParts(p.Rows, onePart, true)
		p.dig = &digest{}
		if len(ds) > 0 {
			p.dig = ds[0]
		}
	}
	return p.dig
}

// NRows is the number of the part's rows.
func (p *Part) NRows() int { return p.digest().Rows }

// Unverified is the number of the part's trials left out of its
// statistics because they were not verified (results.ScreenUnverified).
func (p *Part) Unverified() int { return p.digest().Unverified }

// Simulated reports whether the part's rows were made up by the simulated
// GPU: "all", "none" or "some" (a part that mixes them).
func (p *Part) Simulated() string {
	switch d := p.digest(); d.Simulated {
	case 0:
		return "none"
	case d.Rows:
		return "all"
	}
	return "some"
}

// EachRow calls f with each of the part's rows, in file order, streaming
// them from its results.csv (or from Rows where they are in memory): raw
// rows only where they are asked for. It stops at f's first error.
func (p *Part) EachRow(f func(*results.Row) error) error {
	if p.csv == "" {
		for i := range p.Rows {
			if err := f(&p.Rows[i]); err != nil {
				return err
			}
		}
		return nil
	}
	file, err := results.OpenLimited(p.csv, results.MaxCSVBytes)
	if err != nil {
		return err
	}
	defer file.Close()
	rr, err := results.NewRowReader(file, p.csv)
	if err != nil {
		return err
	}
	for {
		var r results.Row
		if err := rr.Next(&r); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
		if p.mine == nil || p.mine(&r) {
			if err := f(&r); err != nil {
				return err
			}
		}
	}
}

// LoadRows reads the part's rows into Rows (a no-op where they are).
func (p *Part) LoadRows() error {
	if p.Rows != nil || p.csv == "" {
		return nil
	}
	var rows []results.Row
	if err := p.EachRow(func(r *results.Row) error { rows = append(rows, *r); return nil }); err != nil {
		return err
	}
	p.Rows = rows
	return nil
}

// KeepGroup leaves the part only its configurations of one benchmark
// group and returns how many rows it has left.
func (p *Part) KeepGroup(group string) int {
	p.group = group
	d := *p.digest()
	d.Configs, d.Rows = nil, 0
	for _, c := range p.digest().Configs {
		if c.Config.Group == group {
			d.Configs = append(d.Configs, c)
			d.Rows += c.Sum.N
		}
	}
	p.dig = &d
	if p.Rows != nil {
		var keep []results.Row
		for _, r := range p.Rows {
			if r.Group == group {
				keep = append(keep, r)
			}
		}
		p.Rows = keep
	}
	mine := p.mine
	p.mine = func(r *results.Row) bool { return r.Group == group && (mine == nil || mine(r)) }
	return d.Rows
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
	Label  string   `json:"label"`
	Source string   `json:"source"` // the directory it was merged from
	Host   string   `json:"host"`
	GPU    string   `json:"gpu"`
	Index  int      `json:"index"`
	UUID   string   `json:"gpu_uuid"`
	RunID  string   `json:"run_id"`
	Mode   string   `json:"mode,omitempty"`
	Peers  int      `json:"peers,omitempty"`
	Rows   int      `json:"rows"`
	Keys   []string `json:"row_keys"` // run_id|gpu_uuid|host of its rows
	// Shard is the directory, relative to the merged one, that holds the
	// part's results.csv and meta.json; "" in merges that kept every row
	// in one results.csv.
	Shard string           `json:"shard,omitempty"`
	Meta  results.Metadata `json:"meta"`
}

// SchemaError is returned by Load when results files have columns this
// umbench does not know, or lack one every results file has: merging them
// would misalign or invent columns. Columns an older umbench did not
// write are read as their empty value, as every reader does.
type SchemaError struct{ Problems []string }

func (e *SchemaError) Error() string {
	return "fleet: mismatched schemas:\n  " + strings.Join(e.Problems, "\n  ")
}

// checkHeader compares a results.csv header with the schema.
func checkHeader(path string, head []string) string {
	have := map[string]bool{}
	var extra, missing, dup []string
	for _, h := range head {
		h = strings.TrimSpace(h)
		if have[h] {
			dup = append(dup, h)
		}
		have[h] = true
		if _, ok := results.ColumnOf(h); !ok {
			extra = append(extra, h)
		}
	}
	for _, c := range results.RequiredColumns {
		if !have[c] {
			missing = append(missing, c)
		}
	}
	if len(extra)+len(missing)+len(dup) == 0 {
		return ""
	}
	var what []string
	if len(missing) > 0 {
		what = append(what, "lacks required column(s) "+strings.Join(missing, ", "))
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
	f, err := results.OpenLimited(path, results.MaxCSVBytes)
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

// isMerged reports whether dir is a merged directory: one with a manifest
// (fleet.json) beside its metadata.
func isMerged(dir string) bool {
	_, merr := os.Stat(filepath.Join(dir, ManifestName))
	_, err := os.Stat(filepath.Join(dir, results.MetaName))
	return merr == nil && err == nil
}

// Find returns the results directories under the given paths: every
// directory holding both results.csv and meta.json, and every merged
// directory (fleet.json and meta.json), not descending into them.
// Directories whose name starts with a dot are skipped, and so is every
// path in skip. Every other directory that is passed over is named in a
// warning with the reason: a results.csv without meta.json, a symbolic
// link (never followed: name its target).
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
		walk := root
		if fi, err := os.Lstat(root); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			walk += string(filepath.Separator) // a link named on the command line is followed
		}
		err = filepath.WalkDir(walk, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type()&fs.ModeSymlink != 0 {
				if fi, err := os.Stat(path); err == nil && fi.IsDir() {
					warnings = append(warnings, fmt.Sprintf("skipping %s: a symbolic link to a directory (links are not followed; name its target instead)", path))
				}
				return nil
			}
			if !d.IsDir() {
				return nil
			}
			abs, _ := filepath.Abs(path)
			if skipAbs[abs] || (path != walk && strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			_, cerr := os.Stat(filepath.Join(path, results.CSVName))
			_, merr := os.Stat(filepath.Join(path, results.MetaName))
			switch {
			case (cerr == nil && merr == nil) || isMerged(path):
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
// part), a merged directory into the parts its manifest lists. A part is
// read as its digest (kept beside its results.csv, see CacheName): the
// rows themselves stay on disk (Part.EachRow, Part.LoadRows). Every
// results.csv must be readable by this umbench, or Load returns a
// *SchemaError naming each file and its unknown or missing columns.
// Duplicates (the same rows reached twice, e.g. a node directory and a
// merged copy of it) are dropped with a warning. Parts come sorted by
// host, GPU index and label. The digests Load reads have no bootstrap
// intervals (Compare, Check and Merge need none): LoadSummaries reads
// them with.
func Load(paths []string, skip []string) ([]Part, []string, error) { return load(paths, skip, false) }

// LoadSummaries is Load for Summarize: the parts' digests come with the
// bootstrap intervals of their summaries.
func LoadSummaries(paths []string, skip []string) ([]Part, []string, error) {
	return load(paths, skip, true)
}

func load(paths []string, skip []string, intervals bool) ([]Part, []string, error) {
	dirs, warns, err := Find(paths, skip)
	if err != nil {
		return nil, warns, err
	}
	var parts []Part
	var schema []string
	for _, dir := range dirs {
		ps, bad, err := loadDir(dir, intervals)
		if err != nil {
			return nil, warns, err
		}
		schema = append(schema, bad...)
		if len(ps) == 0 && len(bad) == 0 {
			warns = append(warns, fmt.Sprintf("skipping %s: no rows", dir))
		}
		parts = append(parts, ps...)
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

// loadDir reads the parts of one directory Find returned; bad lists its
// files whose schema this umbench cannot read.
func loadDir(dir string, intervals bool) (parts []Part, bad []string, err error) {
	csvPath := filepath.Join(dir, results.CSVName)
	if _, err := os.Stat(csvPath); err != nil && isMerged(dir) {
		return loadShards(dir, intervals)
	}
	head, err := readHeader(csvPath)
	if err != nil {
		return nil, nil, err
	}
	if msg := checkHeader(csvPath, head); msg != "" {
		return nil, []string{msg}, nil
	}
	var meta results.Metadata
	if _, err := os.Stat(filepath.Join(dir, results.MetaName)); err == nil {
		if meta, err = results.ReadMetadata(filepath.Join(dir, results.MetaName)); err != nil {
			return nil, nil, err
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestName)); err == nil {
		parts, err := splitMerged(dir, head, intervals)
		return parts, nil, err
	}
	head, ds, of, err := digestDir(dir, nil, intervals)
	if err != nil {
		return nil, nil, err
	}
	parts = plainParts(dir, head, ds, meta)
	for i := range parts {
		parts[i].stamp, parts[i].src = of, source{dir: dir, index: i}
	}
	return parts, nil, nil
}

// plainParts makes parts of a results directory's digests: one per host
// and GPU.
func plainParts(dir string, head []string, ds []*digest, meta results.Metadata) []Part {
	var parts []Part
	for _, d := range ds {
		host, uuid := d.Host, d.UUID
		p := Part{Dir: dir, Host: d.Host, UUID: d.UUID, RunID: d.RunID, Meta: meta, Columns: head, Index: -1,
			Mode: d.Mode, Peers: d.Peers, dig: d, csv: filepath.Join(dir, results.CSVName)}
		if len(ds) > 1 {
			p.mine = func(r *results.Row) bool { return r.Host == host && r.GPUUUID == uuid }
		}
		if p.Host == "" {
			p.Host = meta.Host
		}
		if m := gpuDirRE.FindStringSubmatch(filepath.Base(dir)); m != nil && len(ds) == 1 {
			p.Index, _ = strconv.Atoi(m[1])
		} else if meta.Device.UUID != "" && meta.Device.UUID == p.UUID {
			p.Index = meta.Device.Index
		}
		parts = append(parts, p)
	}
	return parts
}

// splitMerged makes parts of a merged directory of one results.csv (as
// umbench merge wrote them before it kept each part in a shard of its
// own) from its manifest.
func splitMerged(dir string, head []string, intervals bool) ([]Part, error) {
	m, err := ReadManifest(filepath.Join(dir, ManifestName))
	if err != nil {
		return nil, err
	}
	owner := map[string]int{}
	for i, pi := range m.Parts {
		for _, k := range pi.Keys {
			owner[k] = i
		}
	}
	split := func() func(*results.Row) (int, error) {
		return func(r *results.Row) (int, error) {
			i, ok := owner[rowKey(*r)]
			if !ok {
				return 0, fmt.Errorf("%s: a row of run %s, GPU %s, host %s belongs to no part of %s", dir, r.RunID, r.GPUUUID, r.Host, ManifestName)
			}
			return i, nil
		}
	}
	_, ds, of, err := digestDir(dir, split(), intervals)
	if err != nil {
		return nil, err
	}
	parts := make([]Part, len(m.Parts))
	for i, pi := range m.Parts {
		keys := map[string]bool{}
		for _, k := range pi.Keys {
			keys[k] = true
		}
		parts[i] = Part{Dir: dir, Host: pi.Host, GPU: pi.GPU, Index: pi.Index, UUID: pi.UUID, RunID: pi.RunID,
			Mode: pi.Mode, Peers: pi.Peers, Meta: pi.Meta, Columns: head, Label: pi.Label, dig: &digest{}, stamp: of,
			csv: filepath.Join(dir, results.CSVName), mine: func(r *results.Row) bool { return keys[rowKey(*r)] },
			src: source{dir: dir, split: split, index: i}}
		if i < len(ds) {
			parts[i].dig = ds[i]
		}
		if n := parts[i].dig.Rows; n != pi.Rows {
			return nil, fmt.Errorf("%s: part %s has %d rows in %s, %d in %s", dir, pi.Label, n, results.CSVName, pi.Rows, ManifestName)
		}
	}
	return parts, nil
}

// loadShards makes parts of a merged directory that keeps each part in a
// shard of its own (PartInfo.Shard).
func loadShards(dir string, intervals bool) ([]Part, []string, error) {
	m, err := ReadManifest(filepath.Join(dir, ManifestName))
	if err != nil {
		return nil, nil, err
	}
	var parts []Part
	for _, pi := range m.Parts {
		if pi.Shard == "" || !filepath.IsLocal(pi.Shard) {
			return nil, nil, fmt.Errorf("%s: part %s has no shard inside the directory (%q) in %s", dir, pi.Label, pi.Shard, ManifestName)
		}
		sdir := filepath.Join(dir, pi.Shard)
		head, err := readHeader(filepath.Join(sdir, results.CSVName))
		if err != nil {
			return nil, nil, err
		}
		if msg := checkHeader(filepath.Join(sdir, results.CSVName), head); msg != "" {
			return nil, []string{msg}, nil
		}
		_, ds, of, err := digestDir(sdir, onePart, intervals)
		if err != nil {
			return nil, nil, err
		}
		p := Part{Dir: sdir, Host: pi.Host, GPU: pi.GPU, Index: pi.Index, UUID: pi.UUID, RunID: pi.RunID,
			Mode: pi.Mode, Peers: pi.Peers, Meta: pi.Meta, Columns: head, Label: pi.Label, dig: &digest{}, stamp: of,
			csv: filepath.Join(sdir, results.CSVName), src: source{dir: sdir, split: func() func(*results.Row) (int, error) { return onePart }}}
		if len(ds) > 0 {
			p.dig = ds[0]
		}
		if p.dig.Rows != pi.Rows {
			return nil, nil, fmt.Errorf("%s: part %s has %d rows in its shard, %d in %s", dir, pi.Label, p.dig.Rows, pi.Rows, ManifestName)
		}
		parts = append(parts, p)
	}
	return parts, nil, nil
}

// ReadManifest reads a merged directory's fleet.json.
func ReadManifest(path string) (Manifest, error) { return results.ReadJSON[Manifest](path) }

// dedupe drops parts whose rows were already loaded from another directory.
func dedupe(parts []Part) ([]Part, []string) {
	var out []Part
	var warns []string
	seen := map[string]int{}
	for _, p := range parts {
		sig := strings.Join(p.keys(), ",") + "#" + strconv.Itoa(p.NRows())
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
