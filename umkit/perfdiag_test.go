package umkit

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/umlab/umlab/results"
)

// TestTimingRules is a diagnostic, not a check (UMLAB_PERF=2 on a GPU): it
// runs the resident managed states at 256 MiB, and HBM triad over a few
// sizes, with timed kernels held behind the latch or not and under two
// settling rules, and logs each run's median and coefficient of variation,
// so that the method is chosen on measurements.
func TestTimingRules(t *testing.T) {
	if os.Getenv("UMLAB_PERF") != "2" {
		t.Skip("diagnostic: set UMLAB_PERF=2 on a GPU")
	}
	dev, err := Open(0)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	cd := dev.(*cudaDevice)
	defer func(a, b int, c float64) { settleMinPasses, settleMaxPasses, settleTolerance = a, b, c }(
		settleMinPasses, settleMaxPasses, settleTolerance)
	rules := []struct {
		name     string
		noHold   bool
		min, max int
	}{
		{"unheld min4", true, 4, 48},
		{"held min4", false, 4, 48},
		{"held fixed48", false, 48, 48},
	}
	summary := func(rows []results.Row) string {
		line := ""
		for _, s := range results.Summarize(rows, results.SummaryOptions{}) {
			d := s.GBps
			line += fmt.Sprintf("  %s/%s %.0f cv %.2f%% min %.0f", s.Config.Mode+s.Config.Benchmark, fmtBytes(s.Config.SizeBytes), d.Median, d.CVPct, d.Min)
		}
		return line
	}
	for _, rule := range rules {
		cd.noHold = rule.noHold
		settleMinPasses, settleMaxPasses = rule.min, rule.max
		for rep := 0; rep < 3; rep++ {
			df, err := Measure(context.Background(), dev, ManagedConfig{Sizes: []int64{256 << 20},
				Modes: []string{"explicit", "managed_prefetch", "managed_reuse"}})
			if err != nil {
				t.Fatal(err)
			}
			rows, err := results.Rows(df)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%-12s rep %d:%s", rule.name, rep, summary(rows))
		}
		df, err := Measure(context.Background(), dev, HBMConfig{Sizes: []int64{64 << 10, 16 << 20, 256 << 20, 1 << 30}})
		if err != nil {
			t.Fatal(err)
		}
		rows, err := results.Rows(df)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%-12s hbm:%s", rule.name, summary(rows))
	}
}
