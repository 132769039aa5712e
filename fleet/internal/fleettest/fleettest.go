package fleettest

import (
	"cmp"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/umlab/umlab/results"
)

// Spec describes a synthetic part.
type Spec struct {
	Host   string
	Index  int
	UUID   string
	Scale  float64 // bandwidth multiplier against 1000 GB/s
	Trials int
	Commit string
	Skip   string // a benchmark this GPU lacks
	Note   string // row note (e.g. a fleet token)
	Run    string
}

// UUIDOf is the synthetic UUID of GPU i of host.
func UUIDOf(host string, i int) string {
	h := crc32.ChecksumIEEE([]byte(host))
	return fmt.Sprintf("GPU-%08x-0000-0000-0000-%012d", h, i)
}

// Rows makes rows for three configurations: two bandwidth
// configurations (triad and copy at 1 GiB) and one timed handoff
// configuration without bandwidth.
func Rows(g Spec) []results.Row {
	var rows []results.Row
	for _, bench := range []string{"triad", "copy"} {
		if bench == g.Skip {
			continue
		}
		for t := 0; t < g.Trials; t++ {
			r := results.NewRow()
			r.Group, r.Benchmark, r.Mode, r.Pattern = "hbm", bench, "explicit", "streaming"
			r.SizeBytes, r.FootprintBytes, r.UsefulBytes = 1<<30, 3<<30, 3<<30
			r.Trial, r.Warmups = int64(t), 5
			r.GBps = 1000 * g.Scale * (1 + 0.001*float64(t%3-1))
			r.KernelMs = float64(r.UsefulBytes) / r.GBps / 1e6
			r.TotalMs, r.Verified = r.KernelMs, true
			r.Platform, r.GPUUUID, r.Host, r.RunID, r.Note = "H200", g.UUID, g.Host, g.Run, g.Note
			rows = append(rows, r)
		}
	}
	for t := 0; t < g.Trials; t++ {
		r := results.NewRow()
		r.Group, r.Benchmark, r.Policy, r.Phase = "handoff", "handoff", "managed", "alternating"
		r.SizeBytes, r.ReusePasses, r.Trial, r.Warmups = 256<<20, 4, int64(t), 5
		r.TotalMs = 10 / g.Scale
		r.Verified = true
		r.Platform, r.GPUUUID, r.Host, r.RunID, r.Note = "H200", g.UUID, g.Host, g.Run, g.Note
		rows = append(rows, r)
	}
	return rows
}

// WritePart writes a synthetic part to root/<host>/gpu<index>.
func WritePart(t testing.TB, root string, g Spec) string {
	t.Helper()
	g.UUID, g.Trials, g.Scale = cmp.Or(g.UUID, UUIDOf(g.Host, g.Index)), cmp.Or(g.Trials, 5), cmp.Or(g.Scale, 1)
	g.Commit = cmp.Or(g.Commit, "0123456789abcdef")
	g.Run = cmp.Or(g.Run, fmt.Sprintf("20261130T000000Z-%s%d", g.Host, g.Index))
	dir := filepath.Join(root, g.Host, fmt.Sprintf("gpu%d", g.Index))
	m := results.Metadata{RunID: g.Run, Platform: "H200", Kind: "measured", Host: g.Host, Commit: g.Commit,
		Start: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), Config: map[string]any{"hbm": map[string]any{"trials": g.Trials}}}
	m.Device.Name, m.Device.UUID, m.Device.Index, m.Device.PeakMemoryGBps = "NVIDIA H200", g.UUID, g.Index, 4800
	// Every part's groups ran over the same minute, as GPUs of a
	// concurrent fleet run do: 10 s of hbm, then 20 s of handoff.
	at := func(s int) time.Time { return m.Start.Add(time.Duration(s) * time.Second) }
	m.GroupTimes = []results.GroupTime{
		{Group: "hbm", Segment: g.Run, Start: at(0), End: at(10), Parts: &results.GroupParts{TimedS: 6, VerifyS: 1}},
		{Group: "handoff", Segment: g.Run, Start: at(10), End: at(30), Parts: &results.GroupParts{TimedS: 18}},
	}
	m.End = at(30)
	if err := results.WriteDir(dir, Rows(g), m); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Near reports whether a and b differ by at most tol.
func Near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// Exit stands in for a testing.TB outside a test (an example, or the test
// binary re-executed as a fake worker): Fatal prints to stderr and exits 1.
type Exit struct{ testing.TB }

// Helper does nothing.
func (Exit) Helper() {}

// Fatal prints a and exits with status 1.
func (Exit) Fatal(a ...any) {
	fmt.Fprintln(os.Stderr, a...)
	os.Exit(1)
}
