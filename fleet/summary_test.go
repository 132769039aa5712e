package fleet_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/fleet/internal/fleettest"
	"github.com/umlab/umlab/results"
)

// twoGPUDir writes one results directory holding two GPUs' rows,
// interleaved row by row (as one process measuring both would write them),
// the second GPU's in a concurrent fleet run. The numbers are synthetic.
func twoGPUDir(t *testing.T) (string, []results.Row) {
	dir := t.TempDir()
	a := fleettest.Rows(fleettest.Spec{Host: "n", UUID: fleettest.UUIDOf("n", 0), Trials: 7, Scale: 1, Run: "r0"})
	b := fleettest.Rows(fleettest.Spec{Host: "n", UUID: fleettest.UUIDOf("n", 1), Trials: 7, Scale: 0.97, Run: "r1", Note: "fleet=concurrent:2"})
	var rows []results.Row
	for i := range a {
		a[i].GBps *= 1 + 0.01*float64(i%5) // spread for the intervals
		rows = append(rows, a[i], b[i])
	}
	m := results.Metadata{RunID: "r0", Platform: "H200", Kind: "measured"}
	m.Device.PeakMemoryGBps = 1010
	if err := results.WriteDir(dir, rows, m); err != nil {
		t.Fatal(err)
	}
	return dir, rows
}

// Summarize of a directory's parts, from their digests, is
// results.Summarize of its rows per fleet mode, figure for figure and in
// the same order; so is it when the digests come from the cache.
func TestSummarizeFromDigests(t *testing.T) {
	dir, rows := twoGPUDir(t)
	want := map[string][]results.SummaryRow{}
	for _, r := range rows {
		mode, _ := results.FleetMode(r.Note)
		want[mode] = nil
	}
	for mode := range want {
		var rs []results.Row
		for _, r := range rows {
			if m, _ := results.FleetMode(r.Note); m == mode {
				rs = append(rs, r)
			}
		}
		want[mode] = results.Summarize(rs, results.SummaryOptions{PeakMemoryGBps: 1010})
	}
	for _, pass := range []string{"from the rows", "from the cache", "with intervals from the cache"} {
		load := fleet.Load
		if pass == "with intervals from the cache" {
			load = fleet.LoadSummaries
		}
		parts, _, err := load([]string{dir}, nil)
		if err != nil || len(parts) != 2 {
			t.Fatalf("%s: %v, %d parts", pass, err, len(parts))
		}
		modes, got, err := fleet.Summarize(parts)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(modes, []string{"", fleet.Concurrent}) {
			t.Errorf("%s: modes %q", pass, modes)
		}
		for mode, w := range want {
			if !sameSummaries(got[mode], w) {
				t.Errorf("%s, mode %q:\n got %+v\nwant %+v", pass, mode, got[mode], w)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, fleet.CacheName)); err != nil {
			t.Fatalf("%s: no cache: %v", pass, err)
		}
	}
}

// sameSummaries compares summaries with NaN equal to NaN.
func sameSummaries(a, b []results.SummaryRow) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if !reflect.DeepEqual(nanless(x), nanless(y)) {
			return false
		}
	}
	return true
}

func nanless(s results.SummaryRow) string { return fmt.Sprintf("%+v", s) }

// A cache is made again when its results.csv changes, and one that is
// not a cache is ignored.
func TestCacheFollowsTheFile(t *testing.T) {
	root := t.TempDir()
	dir := fleettest.WritePart(t, root, fleettest.Spec{Host: "a", Index: 0})
	load := func() fleet.Part {
		t.Helper()
		parts, _, err := fleet.Load([]string{root}, nil)
		if err != nil || len(parts) != 1 {
			t.Fatal(err, len(parts))
		}
		return parts[0]
	}
	if p := load(); p.NRows() != 15 {
		t.Fatalf("%d rows", p.NRows())
	}
	rows, m, err := results.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	extra := rows[0]
	extra.Trial = 99
	if err := results.WriteDir(dir, append(rows, extra), m); err != nil {
		t.Fatal(err)
	}
	if p := load(); p.NRows() != 16 {
		t.Errorf("after a row was added: %d rows, want 16 (a stale cache was read)", p.NRows())
	}
	if err := os.WriteFile(filepath.Join(dir, fleet.CacheName), []byte("not a cache"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := load(); p.NRows() != 16 {
		t.Errorf("with a broken cache: %d rows", p.NRows())
	}
}

// Two runs of one GPU, merged, are two parts; Summarize describes their
// common configurations from both runs' rows together, as Summarize of
// the merged rows does.
func TestSummarizePoolsOneGPU(t *testing.T) {
	root := t.TempDir()
	var all []results.Row
	for i, run := range []string{"r1", "r2"} {
		spec := fleettest.Spec{Host: "n", UUID: fleettest.UUIDOf("n", 0), Index: i, Run: run, Trials: 3 + 2*i, Scale: 1 + 0.1*float64(i)}
		fleettest.WritePart(t, root, spec)
		all = append(all, fleettest.Rows(spec)...)
	}
	parts, _, err := fleet.Load([]string{root}, nil)
	if err != nil || len(parts) != 2 {
		t.Fatal(err, len(parts))
	}
	_, got, err := fleet.Summarize(parts)
	if err != nil {
		t.Fatal(err)
	}
	want := results.Summarize(all, results.SummaryOptions{PeakMemoryGBps: 4800})
	if !sameSummaries(got[""], want) {
		t.Errorf("got\n%+v\nwant\n%+v", got[""], want)
	}
}

// A group kept with KeepGroup stays kept when Summarize reads a part
// again for its intervals.
func TestSummarizeKeepsGroup(t *testing.T) {
	dir, rows := twoGPUDir(t)
	parts, _, err := fleet.Load([]string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := range parts {
		n += parts[i].KeepGroup("handoff")
	}
	_, got, err := fleet.Summarize(parts)
	if err != nil {
		t.Fatal(err)
	}
	var want int
	for _, r := range rows {
		if r.Group == "handoff" {
			want++
		}
	}
	total := 0
	for _, sums := range got {
		for _, s := range sums {
			total += s.N
			if s.Config.Group != "handoff" || math.IsNaN(s.TotalMsCI.Lo) {
				t.Errorf("%+v", s)
			}
		}
	}
	if n != want || total != want {
		t.Errorf("KeepGroup kept %d rows, Summarize describes %d, want %d", n, total, want)
	}
}

// A GPU measured in two runs (a resumed or repeated run in one
// directory): its comparison counts the runs and gives the spread of
// their medians, and the fleet-wide summary the median of those spreads.
func TestRunSpread(t *testing.T) {
	root := t.TempDir()
	for i := range 3 {
		uuid := fleettest.UUIDOf("n", i)
		a := fleettest.Rows(fleettest.Spec{Host: "n", UUID: uuid, Trials: 5, Scale: 1, Run: "r1"})
		b := fleettest.Rows(fleettest.Spec{Host: "n", UUID: uuid, Trials: 5, Scale: 1 + 0.1*float64(i+1), Run: "r2"})
		m := results.Metadata{RunID: "r2", Platform: "H200", Kind: "measured"}
		if err := results.WriteDir(filepath.Join(root, "n", fmt.Sprintf("gpu%d", i)), append(a, b...), m); err != nil {
			t.Fatal(err)
		}
	}
	parts, _, err := fleet.Load([]string{root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := fleet.Compare(parts, fleet.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmp {
		if c.Metric != results.ColGBps {
			continue
		}
		// Medians 1000 and 1000·(1.1 + 0.1·i): a spread of (0.1 + 0.1·i)/(1.05 + 0.05·i).
		want := 100 * (0.1 + 0.1*float64(c.Index)) / (1.05 + 0.05*float64(c.Index))
		if c.Runs != 2 || math.Abs(c.RunSpreadPct-want) > 0.05 {
			t.Errorf("%s %s: %d runs, spread %.3f %%, want 2 and %.3f %%", c.Part, c.Label, c.Runs, c.RunSpreadPct, want)
		}
	}
}

// Digest keeps a directory's digest, intervals included, beside its rows.
func TestDigest(t *testing.T) {
	root := t.TempDir()
	dir := fleettest.WritePart(t, root, fleettest.Spec{Host: "a", Index: 0})
	if err := fleet.Digest(dir); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, fleet.CacheName))
	if err != nil {
		t.Fatal(err)
	}
	parts, _, err := fleet.LoadSummaries([]string{root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, got, err := fleet.Summarize(parts); err != nil || math.IsNaN(got[""][0].GBpsCI.Lo) {
		t.Errorf("%v: %+v", err, got[""])
	}
	if after, _ := os.Stat(filepath.Join(dir, fleet.CacheName)); !after.ModTime().Equal(fi.ModTime()) {
		t.Error("the digest was made again")
	}
	if err := fleet.Digest(t.TempDir()); err == nil {
		t.Error("a directory without results: no error")
	}
}

// Unverified trials are left out of a part's statistics, as the loaders
// of rows leave them out (results.ScreenUnverified), and counted.
func TestDigestLeavesOutUnverified(t *testing.T) {
	dir, rows := twoGPUDir(t)
	rows[0].Verified, rows[0].GBps = false, 1e6 // a wild, unchecked trial
	m := results.Metadata{RunID: "r0", Platform: "H200", Kind: "measured"}
	m.Device.PeakMemoryGBps = 1010
	if err := results.WriteDir(dir, rows, m); err != nil {
		t.Fatal(err)
	}
	parts, _, err := fleet.LoadSummaries([]string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if parts[0].Unverified()+parts[1].Unverified() != 1 {
		t.Errorf("unverified trials counted: %d and %d", parts[0].Unverified(), parts[1].Unverified())
	}
	_, got, err := fleet.Summarize(parts)
	if err != nil {
		t.Fatal(err)
	}
	kept, _ := results.ScreenUnverified(rows)
	var plain []results.Row
	for _, r := range kept {
		if mode, _ := results.FleetMode(r.Note); mode == "" {
			plain = append(plain, r)
		}
	}
	if want := results.Summarize(plain, results.SummaryOptions{PeakMemoryGBps: 1010}); !sameSummaries(got[""], want) {
		t.Errorf("got\n%+v\nwant\n%+v", got[""], want)
	}
}
