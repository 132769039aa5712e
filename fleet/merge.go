package fleet

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/umlab/umlab/results"
)

// Merge writes parts into one results directory: results.csv with every
// row (each keeps its host, GPU UUID and run ID), meta.json with what the
// parts share (device facts that differ are left out; notes list the parts
// and the problems), and fleet.json, the manifest with each part's origin
// and full metadata. The directory must not hold results already.
func Merge(dir string, parts []Part, problems []Problem, command string) (Manifest, error) {
	man := Manifest{Created: time.Now().UTC(), Command: command, Problems: problems}
	for _, c := range results.Columns {
		man.Schema = append(man.Schema, c.Name)
	}
	if len(parts) == 0 {
		return man, errors.New("fleet: nothing to merge")
	}
	csvPath := filepath.Join(dir, results.CSVName)
	if _, err := os.Stat(csvPath); err == nil {
		return man, fmt.Errorf("%w: %s (choose another --out)", results.ErrResultsExist, csvPath)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return man, err
	}
	var rows []results.Row
	for _, p := range parts {
		rows = append(rows, p.Rows...)
		man.Parts = append(man.Parts, PartInfo{Label: p.Label, Source: p.Dir, Host: p.Host, GPU: p.GPU, Index: p.Index,
			UUID: p.UUID, RunID: p.RunID, Mode: p.Mode, Peers: p.Peers, Rows: len(p.Rows), Keys: p.keys(), Meta: p.Meta})
	}
	var buf bytes.Buffer
	if err := results.WriteCSV(&buf, rows); err != nil {
		return man, err
	}
	b, err := json.MarshalIndent(man, "", "  ")
	if err != nil {
		return man, err
	}
	if err := results.WriteFileAtomic(filepath.Join(dir, ManifestName), append(b, '\n'), 0o644); err != nil {
		return man, err
	}
	if err := results.WriteMetadata(filepath.Join(dir, results.MetaName), mergedMeta(parts, problems, command)); err != nil {
		return man, err
	}
	return man, results.WriteFileAtomic(csvPath, buf.Bytes(), 0o644)
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
	if m.Platform == "" {
		m.Platform = "mixed"
	}
	for i, p := range parts {
		if i == 0 || (!p.Meta.Start.IsZero() && p.Meta.Start.Before(m.Start)) {
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
	var labels []string
	for _, p := range parts {
		labels = append(labels, p.Label)
	}
	m.Notes = append(m.Notes, fmt.Sprintf("merged from %d parts on %d host(s): %s; %s lists where each came from, with its metadata",
		len(parts), len(hosts), listLabels(labels), ManifestName))
	for _, p := range problems {
		m.Notes = append(m.Notes, "difference: "+p.String())
	}
	// Every part's group times, labelled with the part: parts may have run
	// at once, so summary shows them part by part.
	for _, p := range parts {
		for _, g := range p.Meta.GroupTimes {
			g.Part = p.Label
			if g.Segment == "" {
				g.Segment = p.RunID
			}
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
		same := true
		for _, m := range maps[1:] {
			if !bytes.Equal(m[k], v) {
				same = false
				break
			}
		}
		if same {
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
