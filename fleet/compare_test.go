package fleet_test

import (
	"math"
	"testing"

	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/fleet/internal/fleettest"
)

// One GPU 10 % slower is flagged in every configuration (bandwidth and
// time alike); GPUs within 1 % of each other are not.
func TestCompareOutliers(t *testing.T) {
	root := t.TempDir()
	noise := []float64{1.000, 0.992, 1.008, 0.995, 1.004, 0.9, 1.001, 0.997}
	for i, s := range noise {
		fleettest.WritePart(t, root, fleettest.Spec{Host: "n" + string(rune('0'+i/4)), Index: i % 4, Scale: s})
	}
	parts, _, err := fleet.Load([]string{root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := fleet.Compare(parts, fleet.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cmp) != 3*len(noise) {
		t.Fatalf("%d comparisons, want %d", len(cmp), 3*len(noise))
	}
	for _, c := range cmp {
		slow := c.Part == "n1/gpu1"
		if c.Outlier != slow {
			t.Errorf("%s %s (%s): dev %.2f%% z %.2f flags %v", c.Part, c.Label, c.Metric, c.DevPct, c.RobustZ, c.Flags)
		}
		if slow && (len(c.Flags) != 2 || c.Flags[0] != fleet.FlagSlow || c.Flags[1] != fleet.FlagRobustZ) {
			t.Errorf("slow GPU flags %v in %s", c.Flags, c.Label)
		}
		if c.FleetN != len(noise) {
			t.Errorf("fleet of %d", c.FleetN)
		}
		want := "gbps"
		if c.Config.Group == "handoff" {
			want = "total_ms"
		}
		if c.Metric != want || c.HigherIsBetter != (want == "gbps") {
			t.Errorf("%s compared on %s", c.Label, c.Metric)
		}
	}
	sum := fleet.PerGPU(cmp)
	if len(sum) != len(noise) || sum[5].Part != "n1/gpu1" || sum[5].Slow != 3 || !fleettest.Near(sum[5].MedianDevPct, -10, 0.8) {
		t.Errorf("per GPU: %+v", sum)
	}
	df := fleet.Frame(cmp)
	if df.Err != nil || df.Nrow() != len(cmp) {
		t.Fatalf("frame: %v, %d rows", df.Err, df.Nrow())
	}
	if df.Col(fleet.ColPart).Elem(5).String() != "n1/gpu1" || !df.Col(fleet.ColOutlier).Elem(5).Val().(bool) {
		t.Errorf("frame row 5: %v", df.Subset(5))
	}

	// The tolerance and the z cut-off are settings; so is the metric.
	loose, _ := fleet.Compare(parts, fleet.CompareOptions{TolerancePct: 15, MaxZ: -1})
	for _, c := range loose {
		if c.Outlier {
			t.Errorf("flagged at 15 %% without z: %s %s %.2f%%", c.Part, c.Label, c.DevPct)
		}
	}
	zOnly, _ := fleet.Compare(parts, fleet.CompareOptions{TolerancePct: -1, Metric: "kernel_ms"})
	for _, c := range zOnly {
		if c.Outlier != (c.Part == "n1/gpu1") || c.Metric != "kernel_ms" || (c.Outlier && c.Flags[0] != fleet.FlagRobustZ) {
			t.Errorf("z only on kernel_ms: %s %s %v", c.Part, c.Label, c.Flags)
		}
	}
	if _, err := fleet.Compare(parts, fleet.CompareOptions{Metric: "size_bytes"}); err == nil {
		t.Error("size_bytes accepted as a metric")
	}
}

// A fleet whose GPUs agree to 0.1 % does not flag a 1 % difference: the
// spread the z-score divides by has a floor.
func TestCompareTightFleet(t *testing.T) {
	root := t.TempDir()
	for i, s := range []float64{1, 1.0005, 0.9995, 1.0002, 0.99} {
		fleettest.WritePart(t, root, fleettest.Spec{Host: "a", Index: i, Scale: s})
	}
	parts, _, _ := fleet.Load([]string{root}, nil)
	cmp, _ := fleet.Compare(parts, fleet.CompareOptions{})
	for _, c := range cmp {
		if c.Outlier || math.IsNaN(c.RobustZ) {
			t.Errorf("%s %s: dev %.2f%% z %.2f flags %v", c.Part, c.Label, c.DevPct, c.RobustZ, c.Flags)
		}
	}
}
