package fleet

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/umlab/umlab/results"
)

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
	for _, c := range []struct {
		kind, format string
		of           func(*Part) string
	}{
		{KindPlatform, "the parts measured different GPU models: %s", platformOf},
		{KindCommit, "umbench was built from different commits: %s", commitOf},
		{KindModule, "different umbench module versions: %s",
			func(p *Part) string { return cmp.Or(p.Meta.Module, "unknown") }},
		{KindDriver, "different NVIDIA drivers: %s", driverOf},
		{KindMode, "the GPUs were measured in different ways: %s; compare keeps them apart", (*Part).ModeLabel},
	} {
		if gs := groupBy(parts, c.of); len(gs) > 1 {
			add(c.kind, c.format, describe(gs))
		}
	}
	out = append(out, checkPlans(parts)...)
	uvm := make([]map[string]string, len(parts))
	for i := range parts {
		uvm[i] = parts[i].Meta.UVMParams
	}
	out = append(out, checkFlat(labelsOf(parts), uvm, KindUVM, "nvidia_uvm parameter")...)
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

func platformOf(p *Part) string { return cmp.Or(strings.Join(p.digest().Platforms, "+"), "unknown") }

func commitOf(p *Part) string {
	c := cmp.Or(p.Meta.Commit[:min(len(p.Meta.Commit), 12)], "unknown")
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
	return cmp.Or(d, "unknown")
}

// checkPlans compares the run plans: first which groups each part ran,
// then, among the parts that ran a group, its settings one by one.
func checkPlans(parts []Part) []Problem {
	plans := map[string][]map[string]string{} // plan group → each part's settings of it (nil: not run)
	for i := range parts {
		for k, v := range flatten(parts[i].Meta.Config) {
			g, _, _ := strings.Cut(k, ".")
			if plans[g] == nil {
				plans[g] = make([]map[string]string, len(parts))
			}
			if plans[g][i] == nil {
				plans[g][i] = map[string]string{}
			}
			plans[g][i][k] = v
		}
	}
	names := slices.Sorted(maps.Keys(plans))
	var out []Problem
	for _, g := range names {
		gs := groupIdx(len(parts), func(i int) string {
			if plans[g][i] != nil {
				return "run"
			}
			return "not run"
		}, func(i int) string { return parts[i].Label })
		if len(gs) > 1 {
			out = append(out, Problem{KindPlan, fmt.Sprintf("plan group %s: %s", g, describe(gs))})
		}
	}
	for _, g := range names {
		var labels []string
		var ran []map[string]string
		for i, m := range plans[g] {
			if m != nil {
				labels, ran = append(labels, parts[i].Label), append(ran, m)
			}
		}
		out = append(out, checkFlat(labels, ran, KindPlan, "plan setting")...)
	}
	return out
}

// checkFlat compares key → value maps (one per label), key by key.
func checkFlat(labels []string, maps []map[string]string, kind, what string) []Problem {
	var keys []string
	for _, m := range maps {
		for k := range m {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []Problem
	for _, k := range slices.Compact(keys) {
		gs := groupIdx(len(maps), func(i int) string {
			if v, ok := maps[i][k]; ok {
				return v
			}
			return "(not set)"
		}, func(i int) string { return labels[i] })
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
// configurations whose trial or warm-up counts, or waivers, differ. It
// takes time in proportion to parts times configurations.
func checkConfigs(parts []Part) []Problem {
	keys, label, stats := configStats(parts)
	var ps patterns
	for _, k := range keys {
		var missing []string
		var present []int
		for i := range parts {
			if _, ok := stats[i][k]; ok {
				present = append(present, i)
			} else {
				missing = append(missing, parts[i].Label)
			}
		}
		if len(missing) > 0 {
			ps.add(KindConfiguration, fmt.Sprintf("missing on %s (present on the other %d)", listLabels(missing), len(present)),
				label[k])
		}
		if len(present) >= 2 {
			checkCounts(&ps, parts, present, func(i int) cfgStat { return stats[i][k] }, label[k])
		}
	}
	return ps.problems()
}

// configStats counts, for each part, the trials, warm-ups and waivers of
// each configuration (as the fleet identifies it); keys are the
// configurations in first-seen order.
func configStats(parts []Part) (keys []results.ConfigID, label map[results.ConfigID]string, stats []map[results.ConfigID]cfgStat) {
	label = map[results.ConfigID]string{}
	stats = make([]map[results.ConfigID]cfgStat, len(parts))
	for i := range parts {
		stats[i] = map[results.ConfigID]cfgStat{}
		for _, c := range parts[i].digest().Configs {
			cfg := identity(c.config())
			k := cfg.ConfigID()
			if _, ok := label[k]; !ok {
				label[k] = ConfigLabel(*c.Config)
				keys = append(keys, k)
			}
			s := stats[i][k]
			s.trials += c.Trials
			s.waived = s.waived || c.Sum.Waived
			s.warmups = max(s.warmups, c.Warmups)
			stats[i][k] = s
		}
	}
	return keys, label, stats
}

// checkCounts compares one configuration across the parts that have it
// (present, indices into parts; stat gives part i's counts): waived on some
// only, and, among those that measured it, trial or warm-up counts.
func checkCounts(ps *patterns, parts []Part, present []int, stat func(i int) cfgStat, config string) {
	by := func(of []int, f func(s cfgStat) string) []group {
		return groupIdx(len(of), func(j int) string { return f(stat(of[j])) }, func(j int) string { return parts[of[j]].Label })
	}
	if gs := by(present, func(s cfgStat) string { return waivedOf(s) }); len(gs) > 1 {
		ps.add(KindWaived, describe(gs), config)
	}
	var measured []int
	for _, i := range present {
		if !stat(i).waived {
			measured = append(measured, i)
		}
	}
	if gs := by(measured, func(s cfgStat) string { return fmt.Sprintf("%d trials", s.trials) }); len(gs) > 1 {
		ps.add(KindTrials, describe(gs), config)
	}
	if gs := by(measured, func(s cfgStat) string { return fmt.Sprintf("%d warm-ups", s.warmups) }); len(gs) > 1 {
		ps.add(KindWarmups, describe(gs), config)
	}
}

// patterns gathers problems of one kind and one pattern (which GPUs, which
// counts), so that they are reported together, naming the configurations.
type patterns []*pattern

type pattern struct {
	kind, sig string
	configs   []string
}

func (ps *patterns) add(kind, sig, config string) {
	for _, p := range *ps {
		if p.kind == kind && p.sig == sig {
			p.configs = append(p.configs, config)
			return
		}
	}
	*ps = append(*ps, &pattern{kind: kind, sig: sig, configs: []string{config}})
}

func (ps patterns) problems() []Problem {
	var out []Problem
	for _, p := range ps {
		n := len(p.configs)
		switch p.kind {
		case KindConfiguration, KindWaived:
			out = append(out, Problem{p.kind, fmt.Sprintf("%d configuration(s) %s: %s", n, p.sig, listConfigs(p.configs))})
		default:
			out = append(out, Problem{p.kind, fmt.Sprintf("%s, in %d configuration(s): %s", p.sig, n, listConfigs(p.configs))})
		}
	}
	return out
}

func waivedOf(s cfgStat) string {
	if s.waived {
		return "waived"
	}
	return "measured"
}
