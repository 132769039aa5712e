package fleet_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/fleet/internal/fleettest"
	"github.com/umlab/umlab/results"
)

// benchRun is the full default suite of one H200 (17,478 rows), copied to
// make a synthetic fleet.
const benchRun = "../datasets/h200-2026-12-02-setuploops"

// benchFleet makes n copies of benchRun as GPUs of one node (the same
// rows, each under a host and UUID of its own: synthetic, not measured).
func benchFleet(b *testing.B, n int) string {
	rows, meta, err := results.LoadDir(benchRun)
	if err != nil {
		b.Skip(err)
	}
	root := b.TempDir()
	for i := range n {
		rs := make([]results.Row, len(rows))
		for j, r := range rows {
			r.Host, r.GPUUUID = "node", "GPU-bench-"+string(rune('a'+i))
			rs[j] = r
		}
		if err := results.WriteDir(filepath.Join(root, "node", "gpu"+string(rune('0'+i))), rs, meta); err != nil {
			b.Fatal(err)
		}
	}
	return root
}

// Loading a GPU's results for the first time: read, digest and cache.
func BenchmarkLoadCold(b *testing.B) {
	root := benchFleet(b, 1)
	cache := filepath.Join(root, "node", "gpu0", fleet.CacheName)
	for b.Loop() {
		os.Remove(cache)
		if _, _, err := fleet.Load([]string{root}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// Loading it again, from the cache.
func BenchmarkLoadWarm(b *testing.B) {
	root := benchFleet(b, 1)
	fleet.Load([]string{root}, nil)
	for b.Loop() {
		if _, _, err := fleet.Load([]string{root}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// Compare and Check of eight GPUs, their digests loaded.
func BenchmarkCompareCheck(b *testing.B) {
	parts, _, err := fleet.Load([]string{benchFleet(b, 8)}, nil)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		fleet.Check(parts)
		if _, err := fleet.Compare(parts, fleet.CompareOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// Check of many parts: its time grows with parts × configurations (it
// grew with the square of the parts per configuration).
func BenchmarkCheck(b *testing.B) {
	for _, n := range []int{256, 1024} {
		var parts []fleet.Part
		for i := range n {
			rows := fleettest.Rows(fleettest.Spec{Host: fmt.Sprintf("n%03d", i/8), UUID: fleettest.UUIDOf("n", i), Trials: 5, Scale: 1, Run: "r"})
			parts = append(parts, fleet.FromRows("bench", rows, results.Metadata{})...)
		}
		b.Run(fmt.Sprintf("parts=%d", n), func(b *testing.B) {
			for b.Loop() {
				fleet.Check(parts)
			}
		})
	}
}
