package fleet

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/umlab/umlab/results"
)

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

// Load reads the parts under the given paths (see Find): a plain results
// directory is split by host and GPU UUID, a merged directory into the
// parts its manifest lists. A part is read as its digest (CacheName),
// without bootstrap intervals (LoadSummaries reads them); its rows stay on
// disk (Part.EachRow). A results.csv this umbench cannot read makes a
// *SchemaError naming each file and its columns. The same rows reached
// twice (a node directory and a merged copy) are dropped with a warning.
// Parts come sorted by host, GPU index and label.
func Load(paths []string, skip []string) ([]Part, []string, error) { return load(paths, skip, false) }

// LoadSummaries is Load with the summaries' bootstrap intervals, for
// Summarize.
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
		parts[i] = pi.part(dir, head, of, source{dir: dir, split: split, index: i})
		parts[i].mine = func(r *results.Row) bool {
			j, ok := owner[rowKey(*r)]
			return ok && j == i
		}
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
		one := func() func(*results.Row) (int, error) { return onePart }
		p := pi.part(sdir, head, of, source{dir: sdir, split: one})
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

// part is the part the manifest lists, read from dir, before its digest.
func (pi PartInfo) part(dir string, head []string, of stamp, src source) Part {
	return Part{Dir: dir, Host: pi.Host, GPU: pi.GPU, Index: pi.Index, UUID: pi.UUID, RunID: pi.RunID, Mode: pi.Mode,
		Peers: pi.Peers, Meta: pi.Meta, Columns: head, Label: pi.Label, dig: &digest{}, stamp: of,
		csv: filepath.Join(dir, results.CSVName), src: src}
}
