package fleet_test

import (
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/umlab/umlab/results"
)

// The numbers in these tests are synthetic: they exercise the arithmetic
// of merge and compare and are not measurements of any GPU.

// gpuSpec describes a synthetic part.
type gpuSpec struct {
	host   string
	index  int
	uuid   string
	scale  float64 // bandwidth multiplier against 1000 GB/s
	trials int
	commit string
	skip   string // a benchmark this GPU lacks
	note   string // row note (e.g. a fleet token)
	run    string
}

func uuidOf(host string, i int) string {
	h := crc32.ChecksumIEEE([]byte(host))
	return fmt.Sprintf("GPU-%08x-0000-0000-0000-%012d", h, i)
}

// synthRows makes rows for three configurations: two bandwidth
// configurations (triad and copy at 1 GiB) and one timed handoff
// configuration without bandwidth.
func synthRows(g gpuSpec) []results.Row {
	var rows []results.Row
	for _, bench := range []string{"triad", "copy"} {
		if bench == g.skip {
			continue
		}
		for t := 0; t < g.trials; t++ {
			r := results.NewRow()
			r.Group, r.Benchmark, r.Mode, r.Pattern = "hbm", bench, "explicit", "streaming"
			r.SizeBytes, r.FootprintBytes, r.UsefulBytes = 1<<30, 3<<30, 3<<30
			r.Trial, r.Warmups = int64(t), 5
			r.GBps = 1000 * g.scale * (1 + 0.001*float64(t%3-1))
			r.KernelMs = float64(r.UsefulBytes) / r.GBps / 1e6
			r.TotalMs, r.Verified = r.KernelMs, true
			r.Platform, r.GPUUUID, r.Host, r.RunID, r.Note = "H200", g.uuid, g.host, g.run, g.note
			rows = append(rows, r)
		}
	}
	for t := 0; t < g.trials; t++ {
		r := results.NewRow()
		r.Group, r.Benchmark, r.Policy, r.Phase = "handoff", "handoff", "managed", "alternating"
		r.SizeBytes, r.ReusePasses, r.Trial, r.Warmups = 256<<20, 4, int64(t), 5
		r.TotalMs = 10 / g.scale
		r.Verified = true
		r.Platform, r.GPUUUID, r.Host, r.RunID, r.Note = "H200", g.uuid, g.host, g.run, g.note
		rows = append(rows, r)
	}
	return rows
}

// writePart writes a synthetic part to root/<host>/gpu<index>.
func writePart(t testing.TB, root string, g gpuSpec) string {
	t.Helper()
	if g.uuid == "" {
		g.uuid = uuidOf(g.host, g.index)
	}
	if g.trials == 0 {
		g.trials = 5
	}
	if g.commit == "" {
		g.commit = "0123456789abcdef"
	}
	if g.run == "" {
		g.run = fmt.Sprintf("20261130T000000Z-%s%d", g.host, g.index)
	}
	if g.scale == 0 {
		g.scale = 1
	}
	dir := filepath.Join(root, g.host, fmt.Sprintf("gpu%d", g.index))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, results.CSVName))
	if err != nil {
		t.Fatal(err)
	}
	if err := results.WriteCSV(f, synthRows(g)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	m := results.Metadata{RunID: g.run, Platform: "H200", Kind: "measured", Host: g.host, Commit: g.commit,
		Start: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), Config: map[string]any{"hbm": map[string]any{"trials": g.trials}}}
	m.Device.Name, m.Device.UUID, m.Device.Index, m.Device.PeakMemoryGBps = "NVIDIA H200", g.uuid, g.index, 4800
	if err := results.WriteMetadata(filepath.Join(dir, results.MetaName), m); err != nil {
		t.Fatal(err)
	}
	return dir
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }
