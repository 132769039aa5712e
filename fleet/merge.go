package fleet

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/umlab/umlab/results"
)

// Problem is a difference between parts that makes their figures less
// comparable. Check reports them; Merge writes them into the merged
// directory's manifest and metadata notes.
type Problem struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

func (p Problem) String() string { return p.Kind + ": " + p.Message }

// Problem kinds.
const (
	KindPlatform      = "platform"       // the parts measured different GPU models
	KindCommit        = "commit"         // built from different umbench commits
	KindModule        = "module_version" // different module versions
	KindDriver        = "driver"         // different NVIDIA drivers
	KindMode          = "mode"           // isolated, concurrent and plain runs mixed
	KindPlan          = "plan"           // a setting of the run plan differs
	KindUVM           = "uvm_parameters" // nvidia_uvm module parameters differ
	KindConfiguration = "configuration"  // a configuration is present on some GPUs only
	KindTrials        = "trials"         // different trial counts for a configuration
	KindWarmups       = "warmups"        // different warm-up counts for a configuration
	KindWaived        = "waived"         // waived on some GPUs, measured on others
	KindSameGPU       = "same_gpu"       // one GPU appears in several parts
)

// maxListed is how many configurations a problem names before "and N more".
const maxListed = 4

// identity clears what differs between GPUs measuring the same
// configuration: the GPU UUID, the platform and, for oversubscription rows,
// the sizes, which follow each GPU's free memory (the percentage is the
// configuration).
func identity(r results.Row) results.Row {
	r.GPUUUID, r.Platform = "", ""
	if !math.IsNaN(r.OversubPct) {
		r.SizeBytes, r.FootprintBytes = 0, 0
	}
	return r
}

// ConfigKey identifies a configuration across GPUs: results.ConfigKey
// without the GPU UUID and the platform, and without the sizes of
// oversubscription rows (a percentage of each GPU's free memory).
func ConfigKey(r results.Row) string { return results.ConfigKey(identity(r)) }

// ConfigLabel names a configuration briefly, e.g. "hbm triad explicit
// size=1 GiB" or "handoff managed alternating size=256 MiB reuse=4": the
// configuration columns that are set, without platform, GPU and footprint.
func ConfigLabel(r results.Row) string {
	r = identity(r)
	var f []string
	for _, c := range results.ConfigColumns {
		if c == results.ColGPUUUID || c == results.ColPlatform || c == results.ColFootprintBytes {
			continue
		}
		v, _ := r.Value(c)
		name := shortNames[c]
		if name == "" {
			name = c
		}
		switch x := v.(type) {
		case string:
			if x != "" && (len(f) == 0 || f[len(f)-1] != x) {
				f = append(f, x)
			}
		case int64:
			if x == 0 || (c == results.ColStrideElements && x == 1) { // stride 1: contiguous, the default
				continue
			}
			if strings.HasSuffix(c, "_bytes") {
				f = append(f, name+"="+results.FormatBytes(x))
			} else {
				f = append(f, name+"="+strconv.FormatInt(x, 10))
			}
		case float64:
			if !math.IsNaN(x) {
				f = append(f, name+"="+strconv.FormatFloat(x, 'g', -1, 64)+"%")
			}
		}
	}
	return strings.Join(f, " ")
}

// shortNames name configuration columns in labels.
var shortNames = map[string]string{
	results.ColSizeBytes: "size", results.ColStrideElements: "stride", results.ColPageIntervalBytes: "page_interval",
	results.ColOversubPct: "oversub", results.ColReusePasses: "reuse",
}

// group is parts that share a value.
type group struct {
	value  string
	labels []string
}

// groupBy groups parts by a value, largest group first.
func groupBy(parts []Part, f func(*Part) string) []group {
	return groupIdx(parts, func(i int) string { return f(&parts[i]) })
}

// groupIdx groups parts by a value of their index, largest group first.
func groupIdx(parts []Part, f func(i int) string) []group {
	var gs []group
	idx := map[string]int{}
	for i := range parts {
		v := f(i)
		j, ok := idx[v]
		if !ok {
			j = len(gs)
			idx[v] = j
			gs = append(gs, group{value: v})
		}
		gs[j].labels = append(gs[j].labels, parts[i].Label)
	}
	sort.SliceStable(gs, func(a, b int) bool { return len(gs[a].labels) > len(gs[b].labels) })
	return gs
}

// describe writes groups as "v1 on a, b; v2 on c".
func describe(gs []group) string {
	var s []string
	for _, g := range gs {
		s = append(s, g.value+" on "+listLabels(g.labels))
	}
	return strings.Join(s, "; ")
}

// listLabels lists part labels, abbreviating long lists.
func listLabels(l []string) string {
	if len(l) > 6 {
		return strings.Join(l[:5], ", ") + fmt.Sprintf(", … (%d GPUs)", len(l))
	}
	return strings.Join(l, ", ")
}

func listConfigs(labels []string) string {
	if len(labels) > maxListed {
		return strings.Join(labels[:maxListed], "; ") + fmt.Sprintf("; and %d more", len(labels)-maxListed)
	}
	return strings.Join(labels, "; ")
}

// Check compares parts and reports every difference that matters for a
// comparison: GPU models, umbench commits and versions, drivers, how the
// GPUs were run (isolated, concurrent), the run plans setting by setting,
// the nvidia_uvm parameters, configurations present on some GPUs only,
// different trial or warm-up counts, configurations waived on some GPUs,
// and GPUs that appear in several parts. Parts should come from Load.
func Check(parts []Part) []Problem {
	var out []Problem
	add := func(kind, format string, a ...any) { out = append(out, Problem{kind, fmt.Sprintf(format, a...)}) }
	if len(parts) < 2 {
		return nil
	}
	if gs := groupBy(parts, platformOf); len(gs) > 1 {
		add(KindPlatform, "the parts measured different GPU models: %s", describe(gs))
	}
	if gs := groupBy(parts, commitOf); len(gs) > 1 {
		add(KindCommit, "umbench was built from different commits: %s", describe(gs))
	}
	if gs := groupBy(parts, func(p *Part) string { return orUnknown(p.Meta.Module) }); len(gs) > 1 {
		add(KindModule, "different umbench module versions: %s", describe(gs))
	}
	if gs := groupBy(parts, driverOf); len(gs) > 1 {
		add(KindDriver, "different NVIDIA drivers: %s", describe(gs))
	}
	if gs := groupBy(parts, func(p *Part) string { return p.ModeLabel() }); len(gs) > 1 {
		add(KindMode, "the GPUs were measured in different ways: %s; compare keeps them apart", describe(gs))
	}
	out = append(out, checkPlans(parts)...)
	out = append(out, checkFlat(parts, KindUVM, "nvidia_uvm parameter", func(i int) map[string]string { return parts[i].Meta.UVMParams })...)
	out = append(out, checkConfigs(parts)...)
	byUUID := map[string][]string{}
	var uuids []string
	for _, p := range parts {
		if p.UUID == "" {
			continue
		}
		if _, ok := byUUID[p.UUID]; !ok {
			uuids = append(uuids, p.UUID)
		}
		byUUID[p.UUID] = append(byUUID[p.UUID], p.Label)
	}
	for _, u := range uuids {
		if l := byUUID[u]; len(l) > 1 {
			add(KindSameGPU, "GPU %s appears in %d parts (%s): compare treats each as a GPU of its own", u, len(l), listLabels(l))
		}
	}
	return out
}

func platformOf(p *Part) string {
	var ps []string
	for _, r := range p.Rows {
		if !slices.Contains(ps, r.Platform) {
			ps = append(ps, r.Platform)
		}
	}
	return orUnknown(strings.Join(ps, "+"))
}

func commitOf(p *Part) string {
	c := p.Meta.Commit
	if len(c) > 12 {
		c = c[:12]
	}
	c = orUnknown(c)
	if slices.Contains(p.Meta.Notes, "built from a modified working tree") {
		c += " (modified tree)"
	}
	return c
}

func driverOf(p *Part) string {
	d := p.Meta.Device.DriverVersion
	if v := p.Meta.Device.CUDADriverVersion; v > 0 {
		d = strings.TrimSpace(fmt.Sprintf("%s CUDA %d.%d", d, v/1000, v%1000/10))
	}
	return orUnknown(d)
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// checkPlans compares the run plans: first which groups each part ran,
// then, among the parts that ran a group, its settings one by one.
func checkPlans(parts []Part) []Problem {
	plans := make([]map[string]string, len(parts))
	groups := make([]map[string]bool, len(parts))
	var names []string
	for i := range parts {
		plans[i], groups[i] = flatten(parts[i].Meta.Config), map[string]bool{}
		for k := range plans[i] {
			g, _, _ := strings.Cut(k, ".")
			if !groups[i][g] && !slices.Contains(names, g) {
				names = append(names, g)
			}
			groups[i][g] = true
		}
	}
	sort.Strings(names)
	var out []Problem
	for _, g := range names {
		gs := groupIdx(parts, func(i int) string {
			if groups[i][g] {
				return "run"
			}
			return "not run"
		})
		if len(gs) > 1 {
			out = append(out, Problem{KindPlan, fmt.Sprintf("plan group %s: %s", g, describe(gs))})
		}
	}
	var ran []int
	for _, g := range names {
		ran = ran[:0]
		for i := range parts {
			if groups[i][g] {
				ran = append(ran, i)
			}
		}
		sub := make([]Part, len(ran))
		subMaps := make([]map[string]string, len(ran))
		for j, i := range ran {
			sub[j], subMaps[j] = parts[i], plans[i]
		}
		for _, p := range checkFlat(sub, KindPlan, "plan setting", func(i int) map[string]string {
			m := map[string]string{}
			for k, v := range subMaps[i] {
				if strings.HasPrefix(k, g+".") || k == g {
					m[k] = v
				}
			}
			return m
		}) {
			out = append(out, p)
		}
	}
	return out
}

// checkFlat compares a key → value map between parts, key by key.
func checkFlat(parts []Part, kind, what string, f func(i int) map[string]string) []Problem {
	maps := make([]map[string]string, len(parts))
	var keys []string
	seen := map[string]bool{}
	for i := range parts {
		maps[i] = f(i)
		for k := range maps[i] {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	var out []Problem
	for _, k := range keys {
		gs := groupIdx(parts, func(i int) string {
			if v, ok := maps[i][k]; ok {
				return v
			}
			return "(not set)"
		})
		if len(gs) > 1 {
			out = append(out, Problem{kind, fmt.Sprintf("%s %s differs: %s", what, k, describe(gs))})
		}
	}
	return out
}

// flatten turns a JSON-like value (a run plan) into path → value.
func flatten(v any) map[string]string {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return map[string]string{"": fmt.Sprint(v)}
	}
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		return nil
	}
	out := map[string]string{}
	var walk func(prefix string, x any)
	walk = func(prefix string, x any) {
		if m, ok := x.(map[string]any); ok {
			for k, v := range m {
				walk(strings.TrimPrefix(prefix+"."+k, "."), v)
			}
			return
		}
		b, _ := json.Marshal(x)
		out[prefix] = string(b)
	}
	walk("", x)
	return out
}

// cfgStat is what one part has of one configuration.
type cfgStat struct {
	trials  int
	warmups int64
	waived  bool
}

// checkConfigs finds configurations present on some parts only and
// configurations whose trial or warm-up counts, or waivers, differ.
func checkConfigs(parts []Part) []Problem {
	var keys []string
	label := map[string]string{}
	stats := make([]map[string]*cfgStat, len(parts))
	for i := range parts {
		stats[i] = map[string]*cfgStat{}
		for _, r := range parts[i].Rows {
			k := ConfigKey(r)
			if _, ok := label[k]; !ok {
				label[k] = ConfigLabel(r)
				keys = append(keys, k)
			}
			s := stats[i][k]
			if s == nil {
				s = &cfgStat{}
				stats[i][k] = s
			}
			if r.Waived {
				s.waived = true
			} else {
				s.trials++
			}
			s.warmups = max(s.warmups, r.Warmups)
		}
	}
	// Problems of one kind and one pattern (which GPUs, which counts) are
	// reported together, naming the configurations.
	type pattern struct {
		kind, sig string
		configs   []string
	}
	var pats []*pattern
	find := func(kind, sig string) *pattern {
		for _, p := range pats {
			if p.kind == kind && p.sig == sig {
				return p
			}
		}
		p := &pattern{kind: kind, sig: sig}
		pats = append(pats, p)
		return p
	}
	for _, k := range keys {
		var missing, present []int
		for i := range parts {
			if stats[i][k] == nil {
				missing = append(missing, i)
			} else {
				present = append(present, i)
			}
		}
		if len(missing) > 0 {
			var l []string
			for _, i := range missing {
				l = append(l, parts[i].Label)
			}
			p := find(KindConfiguration, fmt.Sprintf("missing on %s (present on the other %d)", listLabels(l), len(present)))
			p.configs = append(p.configs, label[k])
		}
		if len(present) < 2 {
			continue
		}
		sub := make([]Part, 0, len(present))
		for _, i := range present {
			sub = append(sub, parts[i])
		}
		at := func(p *Part) *cfgStat {
			for _, i := range present {
				if parts[i].Label == p.Label {
					return stats[i][k]
				}
			}
			return nil
		}
		if gs := groupBy(sub, func(p *Part) string { return waivedOf(at(p)) }); len(gs) > 1 {
			p := find(KindWaived, describe(gs))
			p.configs = append(p.configs, label[k])
		}
		measured := sub[:0:0]
		for i := range sub {
			if !at(&sub[i]).waived {
				measured = append(measured, sub[i])
			}
		}
		if gs := groupBy(measured, func(p *Part) string { return fmt.Sprintf("%d trials", at(p).trials) }); len(gs) > 1 {
			p := find(KindTrials, describe(gs))
			p.configs = append(p.configs, label[k])
		}
		if gs := groupBy(measured, func(p *Part) string { return fmt.Sprintf("%d warm-ups", at(p).warmups) }); len(gs) > 1 {
			p := find(KindWarmups, describe(gs))
			p.configs = append(p.configs, label[k])
		}
	}
	var out []Problem
	for _, p := range pats {
		n := len(p.configs)
		switch p.kind {
		case KindConfiguration:
			out = append(out, Problem{p.kind, fmt.Sprintf("%d configuration(s) %s: %s", n, p.sig, listConfigs(p.configs))})
		case KindWaived:
			out = append(out, Problem{p.kind, fmt.Sprintf("%d configuration(s) %s: %s", n, p.sig, listConfigs(p.configs))})
		default:
			out = append(out, Problem{p.kind, fmt.Sprintf("%s, in %d configuration(s): %s", p.sig, n, listConfigs(p.configs))})
		}
	}
	return out
}

func waivedOf(s *cfgStat) string {
	if s.waived {
		return "waived"
	}
	return "measured"
}

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
	if err := results.WriteFileAtomic(filepath.Join(dir, ManifestName), append(b, '\n')); err != nil {
		return man, err
	}
	if err := results.WriteMetadata(filepath.Join(dir, results.MetaName), mergedMeta(parts, problems, command)); err != nil {
		return man, err
	}
	return man, results.WriteFileAtomic(csvPath, buf.Bytes())
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
