package fleet_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/fleet/internal/fleettest"
	"github.com/umlab/umlab/results"
)

// dropColumns rewrites a part's results.csv without the named columns,
// as an older umbench wrote it.
func dropColumns(t *testing.T, dir string, cols ...string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, results.CSVName))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	head := strings.Split(lines[0], ",")
	for i, l := range lines {
		var keep []string
		for j, f := range strings.Split(l, ",") {
			if !slices.Contains(cols, head[j]) {
				keep = append(keep, f)
			}
		}
		lines[i] = strings.Join(keep, ",")
	}
	if err := os.WriteFile(filepath.Join(dir, results.CSVName), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A results.csv of an older umbench (columns missing) is read as summary
// reads it; one with a column this umbench does not know, or without a
// column every results file has, is an error that names the file and the
// columns.
func TestLoadSchemas(t *testing.T) {
	root := t.TempDir()
	fleettest.WritePart(t, root, fleettest.Spec{Host: "a", Index: 0})
	old := fleettest.WritePart(t, root, fleettest.Spec{Host: "a", Index: 1})
	dropColumns(t, old, results.ColCPUThreads, results.ColSyncMs, results.ColOrder, results.ColSimulated)
	parts, _, err := fleet.Load([]string{root}, nil)
	if err != nil || len(parts) != 2 {
		t.Fatalf("an older schema: %v, %d parts", err, len(parts))
	}
	if cmp, err := fleet.Compare(parts, fleet.CompareOptions{}); err != nil || len(cmp) != 6 {
		t.Errorf("comparing an older schema with this one: %v, %d comparisons, want 6", err, len(cmp))
	}
	broken := fleettest.WritePart(t, root, fleettest.Spec{Host: "b", Index: 1})
	dropColumns(t, broken, results.ColMode)
	// A newer one with a column this umbench does not know.
	newer := fleettest.WritePart(t, root, fleettest.Spec{Host: "b", Index: 0})
	b, _ := os.ReadFile(filepath.Join(newer, results.CSVName))
	b = []byte(strings.Replace(string(b), "\n", ",power_w\n", 1)) // the header's last column, whichever it is
	os.WriteFile(filepath.Join(newer, results.CSVName), b, 0o644)

	_, _, err = fleet.Load([]string{root}, nil)
	var se *fleet.SchemaError
	if !errors.As(err, &se) || len(se.Problems) != 2 {
		t.Fatalf("got %v, want a SchemaError with two problems", err)
	}
	msg := err.Error()
	for _, want := range []string{
		filepath.Join(broken, results.CSVName) + " lacks required column(s) mode",
		filepath.Join(newer, results.CSVName) + " has column(s) this umbench does not know: power_w",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
}

func problemsOf(ps []fleet.Problem, kind string) []string {
	var out []string
	for _, p := range ps {
		if p.Kind == kind {
			out = append(out, p.Message)
		}
	}
	return out
}

// Check says precisely what differs between parts.
func TestCheck(t *testing.T) {
	root := t.TempDir()
	fleettest.WritePart(t, root, fleettest.Spec{Host: "a", Index: 0})
	fleettest.WritePart(t, root, fleettest.Spec{Host: "a", Index: 1})
	fleettest.WritePart(t, root, fleettest.Spec{Host: "b", Index: 0, Skip: "copy"})
	fleettest.WritePart(t, root, fleettest.Spec{Host: "b", Index: 1, Trials: 3, Commit: "fedcba9876543210"})
	parts, warns, err := fleet.Load([]string{root}, nil)
	if err != nil || len(warns) != 0 {
		t.Fatal(err, warns)
	}
	var labels []string
	for _, p := range parts {
		labels = append(labels, p.Label)
	}
	if got := strings.Join(labels, " "); got != "a/gpu0 a/gpu1 b/gpu0 b/gpu1" {
		t.Errorf("parts %s", got)
	}
	ps := fleet.Check(parts)
	want := map[string][]string{
		fleet.KindConfiguration: {"1 configuration(s) missing on b/gpu0 (present on the other 3): hbm copy explicit streaming size=1 GiB"},
		fleet.KindTrials: {
			"5 trials on a/gpu0, a/gpu1, b/gpu0; 3 trials on b/gpu1, in 2 configuration(s): hbm triad explicit streaming size=1 GiB; handoff managed alternating size=256 MiB reuse=4",
			"5 trials on a/gpu0, a/gpu1; 3 trials on b/gpu1, in 1 configuration(s): hbm copy explicit streaming size=1 GiB",
		},
		fleet.KindCommit: {"umbench was built from different commits: 0123456789ab on a/gpu0, a/gpu1, b/gpu0; fedcba987654 on b/gpu1"},
		fleet.KindPlan:   {"plan setting hbm.trials differs: 5 on a/gpu0, a/gpu1, b/gpu0; 3 on b/gpu1"},
	}
	n := 0
	for kind, msgs := range want {
		got := problemsOf(ps, kind)
		if strings.Join(got, "\n") != strings.Join(msgs, "\n") {
			t.Errorf("%s problems:\n%s\nwant\n%s", kind, strings.Join(got, "\n"), strings.Join(msgs, "\n"))
		}
		n += len(msgs)
	}
	if len(ps) != n {
		t.Errorf("%d problems, want %d: %v", len(ps), n, ps)
	}
}

// A merged directory holds every row, the shared metadata and a manifest;
// loading it gives back the parts, and it can be merged again.
func TestMergeRoundTrip(t *testing.T) {
	root := t.TempDir()
	for _, h := range []string{"a", "b"} {
		for i := 0; i < 2; i++ {
			fleettest.WritePart(t, root, fleettest.Spec{Host: h, Index: i, Note: "fleet=concurrent:2"})
		}
	}
	parts, _, err := fleet.Load([]string{root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(root, "merged")
	man, err := fleet.Merge(out, parts, fleet.Check(parts), "umbench merge")
	if err != nil {
		t.Fatal(err)
	}
	if len(man.Parts) != 4 || man.Parts[2].Label != "b/gpu0" || man.Parts[2].Mode != fleet.Concurrent {
		t.Errorf("manifest parts %+v", man.Parts)
	}
	rows, meta, err := results.LoadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4*15 || meta.Device.Name != "NVIDIA H200" || meta.Device.UUID != "" || meta.Device.Index != -1 || meta.Host != "" {
		t.Errorf("%d rows, device %+v, host %q", len(rows), meta.Device, meta.Host)
	}
	// Each part's group times, labelled with it, never added up with the
	// others': the four ran at the same time.
	labels, spans := results.ByPart(meta.GroupTimes)
	if !slices.Equal(labels, []string{"a/gpu0", "a/gpu1", "b/gpu0", "b/gpu1"}) {
		t.Fatalf("group times by part: %q, want the four parts", labels)
	}
	for _, l := range labels {
		if s := results.FormatGroupWall(spans[l]); s != "hbm 10s, handoff 20s (30s in groups)" {
			t.Errorf("%s: group wall %q", l, s)
		}
		if s := spans[l][0].Segment; !strings.HasPrefix(s, "20261130T000000Z-") {
			t.Errorf("%s: segment %q, want the part's run ID", l, s)
		}
	}
	if _, err := fleet.Merge(out, parts, nil, ""); !errors.Is(err, results.ErrResultsExist) {
		t.Errorf("merging into a results directory: %v", err)
	}
	// The merged directory alone gives the same parts; walking the root
	// finds them twice (the node directories and the merged copy), and the
	// copies are dropped.
	again, _, err := fleet.Load([]string{out}, nil)
	if err != nil || len(again) != 4 {
		t.Fatalf("%d parts from the merged directory: %v", len(again), err)
	}
	for i := range again {
		if again[i].Label != parts[i].Label || len(again[i].Rows) != len(parts[i].Rows) || again[i].Index != parts[i].Index {
			t.Errorf("part %d: %s (%d rows), want %s (%d)", i, again[i].Label, len(again[i].Rows), parts[i].Label, len(parts[i].Rows))
		}
	}
	both, warns, err := fleet.Load([]string{root, out}, nil)
	if err != nil || len(both) != 4 || len(warns) != 4 {
		t.Errorf("root and merged: %d parts, warnings %q, %v", len(both), warns, err)
	}
	if skipped, _, _ := fleet.Load([]string{root}, []string{out}); len(skipped) != 4 {
		t.Errorf("skipping the merged directory: %d parts", len(skipped))
	}
}

func TestAnnotate(t *testing.T) {
	dir := fleettest.WritePart(t, t.TempDir(), fleettest.Spec{Host: "a", Index: 0, Note: "capacity 1 GiB"})
	a := fleet.Annotation{Mode: fleet.Concurrent, Peers: 4, GPUs: "0,1,2,3", CPUs: "0-15"}
	for i := 0; i < 2; i++ { // idempotent
		if err := fleet.Annotate(dir, a); err != nil {
			t.Fatal(err)
		}
	}
	rows, meta, err := results.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].Note != "capacity 1 GiB; fleet=concurrent:4" {
		t.Errorf("note %q", rows[0].Note)
	}
	if m, n := results.FleetMode(rows[0].Note); m != fleet.Concurrent || n != 4 {
		t.Errorf("FleetMode: %s %d", m, n)
	}
	if len(meta.Notes) != 1 || !strings.Contains(meta.Notes[0], "worker pinned to CPUs 0-15") {
		t.Errorf("notes %q", meta.Notes)
	}
	if err := fleet.Annotate(t.TempDir(), a); err != nil {
		t.Errorf("a directory without results: %v", err)
	}
}

// Each shard of a merge keeps the counter passes of its own GPU, and a
// merge that fails half-way leaves nothing a reader takes for a fleet.
func TestMergeShards(t *testing.T) {
	root := t.TempDir()
	dir, rows := twoGPUDir(t)
	var ctr []results.CounterRow
	for _, r := range rows[:4] {
		ctr = append(ctr, results.CounterRow{Config: r, Pass: results.PassCounters, Collected: true})
	}
	var buf bytes.Buffer
	if err := results.WriteCounterCSV(&buf, ctr); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, results.CountersName), buf.Bytes(), 0o644)
	parts, _, err := fleet.Load([]string{dir}, nil)
	if err != nil || len(parts) != 2 {
		t.Fatal(err, len(parts))
	}
	out := filepath.Join(root, "merged")
	man, err := fleet.Merge(out, parts, nil, "test")
	if err != nil {
		t.Fatal(err)
	}
	for _, pi := range man.Parts {
		got, err := results.LoadCounters(filepath.Join(out, pi.Shard))
		if err != nil || len(got) != 2 {
			t.Fatalf("%s: %v, %d counter rows, want its GPU's 2", pi.Label, err, len(got))
		}
		for _, c := range got {
			if c.Config.GPUUUID != pi.UUID {
				t.Errorf("%s holds a counter row of GPU %s", pi.Label, c.Config.GPUUUID)
			}
		}
	}
	back, _, err := results.LoadDir(out)
	if err != nil || len(back) != len(rows) {
		t.Errorf("the merge read whole: %v, %d rows, want %d", err, len(back), len(rows))
	}

	broken := filepath.Join(root, "broken")
	os.Remove(filepath.Join(dir, results.CSVName)) // gone between Load and Merge
	if _, err := fleet.Merge(broken, parts, nil, "test"); err == nil {
		t.Fatal("merging a part whose rows are gone succeeded")
	}
	ents, _ := os.ReadDir(broken)
	for _, e := range ents {
		if e.Name() != results.LockName {
			t.Errorf("a failed merge left %s", e.Name())
		}
	}
}
