package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/results"
)

// fleetSummary reads a fleet (a merged directory or a fleet run's root,
// the one DIR) from its GPUs' digests, never holding their rows: the
// summaries by fleet mode, the fleet's meta.json where it has one, and one
// row per part and mode standing for its rows (host, GPU, mode, group,
// simulated). sums is nil when the source is not a fleet.
func fleetSummary(d *dataFlags, args []string, group string, stderr io.Writer) (sums map[string][]results.SummaryRow, ids []results.Row, meta results.Metadata, err error) {
	refs, _ := d.refs(args)
	if d.dataset != "" || len(refs) != 1 {
		return nil, nil, meta, nil
	}
	dir := refs[0]
	if !strings.ContainsAny(dir, `/\`) && embedded(dir) || !fleet.IsFleet(dir) {
		return nil, nil, meta, nil
	}
	// The summaries stay live (about 300 MB at 1,024 GPUs of the full
	// suite) while reading rows makes gigabytes of short-lived garbage:
	// GOGC 400 under a soft limit of 1 GiB neither collects every few files
	// nor grows to several times the summaries. GOMEMLIMIT and GOGC win.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(fleetMemoryLimit)
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(400)
		}
	}
	parts, warns, err := fleet.LoadSummaries([]string{dir}, nil)
	for _, w := range warns {
		fmt.Fprintln(stderr, "umbench: warning:", w)
	}
	if err != nil {
		return nil, nil, meta, err
	}
	if err := keepGroup(parts, group); err != nil {
		return nil, nil, meta, err
	}
	if err := fleet.NotMixed(parts, dir); err != nil {
		return nil, nil, meta, err
	}
	if m, err := results.ReadMetadata(filepath.Join(dir, results.MetaName)); err == nil {
		meta = m
	}
	modes, sums, err := fleet.Summarize(parts)
	if err != nil {
		return nil, nil, meta, err
	}
	for i := range parts {
		p := &parts[i]
		for _, m := range modes { // results.FleetMode reads m back ("fleet=" alone: "")
			ids = append(ids, results.Row{Group: group, Host: p.Host, GPUUUID: p.UUID, Note: "fleet=" + m, Simulated: p.Simulated() != "none"})
		}
	}
	// The digests are done with: a thousand GPUs' are a few hundred MB,
	// freed now rather than after the summaries are laid out beside them.
	parts = nil
	runtime.GC()
	return sums, ids, meta, nil
}

// keepGroup keeps the rows of group in every part ("": all of them).
func keepGroup(parts []fleet.Part, group string) error {
	if group == "" {
		return nil
	}
	n := 0
	for i := range parts {
		n += parts[i].KeepGroup(group)
	}
	if n == 0 {
		return fmt.Errorf("no rows of group %q", group)
	}
	return nil
}

// fleetMemoryLimit is the soft memory limit of a fleet summary.
const fleetMemoryLimit = 1 << 30

// embedded reports whether name is an embedded dataset's.
func embedded(name string) bool {
	return slices.ContainsFunc(datasets.List(), func(d datasets.Info) bool { return d.Name == name })
}
