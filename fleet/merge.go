package fleet

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/umlab/umlab/results"
)

// Merge writes parts into one merged directory: each part's rows in a
// results directory of its own (a shard, parts/NNNN-label/, with its
// meta.json, counters.csv and digest), meta.json with what the parts
// share (notes list the parts and the problems), and fleet.json, the
// manifest with each part's origin, shard and metadata. Rows are streamed
// part by part (copied where a part is a whole results.csv of this
// schema), so that no file passes the readers' limits however large the
// fleet.
//
// Merge refuses, before it writes anything: simulated parts with measured
// ones, a part whose run still holds its directory's lock, a dir that is
// not empty (ErrResultsExist), and a dir another merge holds (ErrLocked).
// The shards are written in a hidden folder and moved into place at the
// end, the manifest last, so that an interrupted merge leaves nothing a
// reader takes for a fleet.
func Merge(dir string, parts []Part, problems []Problem, command string) (Manifest, error) {
	man := Manifest{Created: time.Now().UTC(), Command: command, Problems: problems,
		Schema: results.Names(results.Columns)}
	if len(parts) == 0 {
		return man, errors.New("fleet: nothing to merge")
	}
	if err := mergeable(parts); err != nil {
		return man, err
	}
	if err := emptyOut(dir); err != nil {
		return man, err
	}
	lock, err := results.LockDir(dir, command)
	if err != nil {
		return man, err
	}
	defer lock.Unlock()
	if err := emptyOut(dir); err != nil { // another merge may have finished meanwhile
		return man, err
	}
	tmp := filepath.Join(dir, ".merging")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return man, err
	}
	defer os.RemoveAll(tmp)
	for i := range parts {
		p := &parts[i]
		shard := fmt.Sprintf("%s/%04d-%s", results.ShardsDir, i+1, safeName(p.Label))
		if err := writeShard(filepath.Join(tmp, shard), p); err != nil {
			return man, fmt.Errorf("fleet: merging %s: %w", p.Label, err)
		}
		man.Parts = append(man.Parts, PartInfo{Label: p.Label, Source: p.Dir, Host: p.Host, GPU: p.GPU, Index: p.Index,
			UUID: p.UUID, RunID: p.RunID, Mode: p.Mode, Peers: p.Peers, Rows: p.NRows(), Keys: p.digest().Keys,
			Meta: p.Meta, Shard: shard})
	}
	b, err := json.MarshalIndent(man, "", "  ")
	if err != nil {
		return man, err
	}
	if err := results.WriteMetadata(filepath.Join(tmp, results.MetaName), mergedMeta(parts, problems, command)); err != nil {
		return man, err
	}
	if err := results.WriteFileAtomic(filepath.Join(tmp, ManifestName), append(b, '\n'), 0o644); err != nil {
		return man, err
	}
	for _, name := range []string{results.ShardsDir, results.MetaName, ManifestName} {
		if err := os.Rename(filepath.Join(tmp, name), filepath.Join(dir, name)); err != nil {
			return man, err
		}
	}
	return man, nil
}

// mergeable refuses simulated with measured rows, and parts whose run
// still holds its directory.
func mergeable(parts []Part) error {
	for i := range parts {
		if p := &parts[i]; p.Simulated() == "some" {
			return fmt.Errorf("fleet: %s: %w within one part (%s): keep simulated runs in their own directories", p.Label, results.ErrMixedSimulated, p.Dir)
		}
	}
	if sim, real := bySimulated(parts); len(sim) > 0 && len(real) > 0 {
		return fmt.Errorf("fleet: %w: %s simulated, %s measured: merge simulated runs apart from measured ones",
			results.ErrMixedSimulated, listLabels(sim), listLabels(real))
	}
	var busy []string
	seen := map[string]bool{}
	for _, p := range parts {
		if seen[p.Dir] {
			continue
		}
		seen[p.Dir] = true
		holder, held, err := results.Held(p.Dir)
		if err != nil {
			return fmt.Errorf("fleet: %s: %w", p.Dir, err)
		}
		if held {
			busy = append(busy, fmt.Sprintf("%s (held by %q)", p.Dir, holder))
		}
	}
	if len(busy) > 0 {
		return fmt.Errorf("fleet: %w: a run is still writing %s: merge it when the run has ended",
			results.ErrLocked, strings.Join(busy, ", "))
	}
	return nil
}

// emptyOut refuses a merge into a directory that holds anything but its
// lock file.
func emptyOut(dir string) error {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var names []string
	for _, e := range ents {
		if e.Name() != results.LockName {
			names = append(names, e.Name())
		}
	}
	if len(names) > 0 {
		if len(names) > 5 {
			names = append(names[:5], fmt.Sprintf("… (%d entries)", len(names)))
		}
		return fmt.Errorf("%w: %s holds %s (merge writes only into a new or empty directory: choose another --out)",
			results.ErrResultsExist, dir, strings.Join(names, ", "))
	}
	return nil
}

// safeName keeps the letters, digits, dots and dashes of a label for a
// folder name.
func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	return strings.Trim(string(b), ".")
}

// writeShard writes one part's results directory: rows, metadata,
// counter passes and digest.
func writeShard(dir string, p *Part) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(dir, results.CSVName)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if p.csv != "" && p.mine == nil && slices.Equal(p.Columns, results.Names(results.Columns)) {
		err = copyFile(w, p.csv, p.stamp)
	} else {
		err = writeRows(w, p)
	}
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := results.WriteMetadata(filepath.Join(dir, results.MetaName), p.Meta); err != nil {
		return err
	}
	if err := writeCounters(dir, p); err != nil {
		return err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	writeCache(dir, stampOf(fi), results.Names(results.Columns), []*digest{p.digest()})
	return nil
}

// copyFile copies a results.csv that must still be what Load read (of).
func copyFile(w io.Writer, path string, of stamp) error {
	f, err := results.OpenLimited(path, results.MaxCSVBytes)
	if err != nil {
		return err
	}
	defer f.Close()
	if fi, err := os.Stat(path); err != nil || stampOf(fi) != of {
		return fmt.Errorf("%s changed after it was read: merge again", path)
	}
	_, err = io.Copy(w, f)
	return err
}

// writeRows writes a part's rows in this umbench's schema.
func writeRows(w io.Writer, p *Part) error {
	rw, err := results.NewRowWriter(w)
	if err != nil {
		return err
	}
	n := 0
	if err := p.EachRow(func(r *results.Row) error { n++; return rw.Write(r) }); err != nil {
		return err
	}
	if n != p.NRows() {
		return fmt.Errorf("%s has %d of the part's rows, %d when it was read: merge again", p.csv, n, p.NRows())
	}
	return rw.Flush()
}

// writeCounters copies the counter passes of the part's GPU, if any.
func writeCounters(dir string, p *Part) error {
	src := filepath.Join(filepath.Dir(p.csv), results.CountersName)
	if p.csv == "" {
		return nil
	}
	if _, err := os.Stat(src); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	rows, err := results.LoadCounters(filepath.Dir(p.csv))
	if err != nil {
		return err
	}
	var mine []results.CounterRow
	for _, r := range rows {
		if p.mine == nil || (r.Config.GPUUUID == p.UUID && (r.Config.Host == "" || r.Config.Host == p.Host)) {
			mine = append(mine, r)
		}
	}
	if len(mine) == 0 {
		return nil
	}
	var buf bytes.Buffer
	if err := results.WriteCounterCSV(&buf, mine); err != nil {
		return err
	}
	return results.WriteFileAtomic(filepath.Join(dir, results.CountersName), buf.Bytes(), 0o644)
}

// mergedMeta is the metadata the parts share.
func mergedMeta(parts []Part, problems []Problem, command string) results.Metadata {
	common := func(f func(*Part) string) string {
		v := f(&parts[0])
		for i := range parts {
			if f(&parts[i]) != v {
				return ""
			}
		}
		return v
	}
	m := results.Metadata{
		RunID:    "merged-" + time.Now().UTC().Format("20060102T150405Z"),
		Platform: common(func(p *Part) string { return p.Meta.Platform }),
		Kind:     common(func(p *Part) string { return p.Meta.Kind }),
		Command:  command,
		Module:   common(func(p *Part) string { return p.Meta.Module }),
		Commit:   common(func(p *Part) string { return p.Meta.Commit }),
		Host:     common(func(p *Part) string { return p.Host }),
	}
	m.Platform = cmp.Or(m.Platform, "mixed")
	m.Start = parts[0].Meta.Start
	for _, p := range parts {
		if !p.Meta.Start.IsZero() && p.Meta.Start.Before(m.Start) {
			m.Start = p.Meta.Start
		}
		if p.Meta.End.After(m.End) {
			m.End = p.Meta.End
		}
	}
	plan := common(func(p *Part) string { b, _ := json.Marshal(p.Meta.Config); return string(b) })
	if plan != "" && plan != "null" {
		m.Config = parts[0].Meta.Config
	}
	m.Device = commonDevice(parts)
	hosts := groupBy(parts, func(p *Part) string { return p.Host })
	m.Notes = append(m.Notes, fmt.Sprintf("merged from %d parts on %d host(s): %s; %s lists where each came from, with its metadata",
		len(parts), len(hosts), listLabels(labelsOf(parts)), ManifestName))
	for _, p := range problems {
		m.Notes = append(m.Notes, "difference: "+p.String())
	}
	// Every part's group times, labelled with the part: parts may have run
	// at once, so summary shows them part by part.
	for _, p := range parts {
		for _, g := range p.Meta.GroupTimes {
			g.Part, g.Segment = p.Label, cmp.Or(g.Segment, p.RunID)
			m.GroupTimes = append(m.GroupTimes, g)
		}
	}
	for _, p := range parts {
		if t := p.Meta.Device.ThrottleReasons; t != "" && m.Device.ThrottleReasons == "" {
			m.Notes = append(m.Notes, fmt.Sprintf("%s reported throttling: %s", p.Label, t))
		}
	}
	return m
}

// commonDevice keeps the device facts every part agrees on.
func commonDevice(parts []Part) results.Device {
	var maps []map[string]json.RawMessage
	for _, p := range parts {
		b, _ := json.Marshal(p.Meta.Device)
		var m map[string]json.RawMessage
		json.Unmarshal(b, &m)
		maps = append(maps, m)
	}
	keep := map[string]json.RawMessage{}
	for k, v := range maps[0] {
		if !slices.ContainsFunc(maps[1:], func(m map[string]json.RawMessage) bool { return !bytes.Equal(m[k], v) }) {
			keep[k] = v
		}
	}
	var d results.Device
	b, _ := json.Marshal(keep)
	json.Unmarshal(b, &d)
	if _, ok := keep["index"]; !ok {
		d.Index = -1
	}
	if _, ok := keep["numa_node"]; !ok {
		d.NUMANode = -1
	}
	return d
}
