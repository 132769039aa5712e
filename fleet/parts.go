package fleet

import (
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
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
	// made by hand); Load reads the digest instead, and EachRow streams them.
	Rows []results.Row

	dig   *digest                   // nil until needed when Rows are set
	csv   string                    // the file its rows are in ("": only Rows)
	stamp stamp                     // of csv when its digest was read
	src   source                    // how its digest was read, and which of the file's it is
	group string                    // KeepGroup's group
	mine  func(r *results.Row) bool // which rows of csv are the part's
}

// source is where a part's digest comes from: the directory, how its rows
// are split into parts (nil: byHostGPU) and which of them it is.
type source struct {
	dir   string
	split func() func(*results.Row) (int, error)
	index int
}

// onePart splits nothing: every row is part 0.
func onePart(*results.Row) (int, error) { return 0, nil }

// withIntervals reads again, with intervals, the digests loaded without.
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

// UnverifiedTrials is what was left out of the part's statistics as
// unverified (results.ScreenUnverified's count).
func (p *Part) UnverifiedTrials() results.Unverified {
	d := p.digest()
	return results.Unverified{Configs: d.UnverifiedConfigs, Trials: d.Unverified}
}

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
// them from its results.csv (or Rows), until f's first error.
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

// KeepGroup leaves the part only one benchmark group's configurations and
// returns how many rows it has left.
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
		p.Rows = slices.DeleteFunc(slices.Clone(p.Rows), func(r results.Row) bool { return r.Group != group })
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
	// Shard is the directory, relative to the merged one, of the part's
	// results.csv and meta.json ("" in merges of one results.csv).
	Shard string           `json:"shard,omitempty"`
	Meta  results.Metadata `json:"meta"`
}

// SchemaError is returned by Load when results files have columns this
// umbench does not know, or lack a required one: merging them would
// misalign or invent columns. Columns an older umbench did not write read
// as empty, as every reader reads them.
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

// ReadManifest reads a merged directory's fleet.json.
func ReadManifest(path string) (Manifest, error) { return results.ReadJSON[Manifest](path) }

// dedupe drops parts whose rows were already loaded from another directory.
func dedupe(parts []Part) ([]Part, []string) {
	var out []Part
	var warns []string
	seen := map[string]int{}
	for _, p := range parts {
		sig := strings.Join(p.digest().Keys, ",") + "#" + strconv.Itoa(p.NRows())
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
		return cmp.Or(strings.Compare(a.Host, b.Host), cmp.Compare(a.Index, b.Index), strings.Compare(a.UUID, b.UUID),
			strings.Compare(a.RunID, b.RunID))
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
			p.Label = cmp.Or(p.Host, "-") + "/" + p.GPU
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
	return u[:min(len(u), 12)]
}
