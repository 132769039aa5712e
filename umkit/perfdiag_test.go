package umkit

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/umlab/umlab/umkit/results"
)

// TestSettleRules is a diagnostic, not a check (UMLAB_PERF=2 on a GPU): it
// runs the resident managed states at 256 MiB under several settling rules,
// three times each, and logs each run's median and coefficient of variation,
// so that a rule is chosen on measurements.
func TestSettleRules(t *testing.T) {
	if os.Getenv("UMLAB_PERF") != "2" {
		t.Skip("diagnostic: set UMLAB_PERF=2 on a GPU")
	}
	dev, err := Open(0)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	defer func(a, b int, c float64) { settleMinPasses, settleMaxPasses, settleTolerance = a, b, c }(
		settleMinPasses, settleMaxPasses, settleTolerance)
	rules := []struct {
		name     string
		min, max int
		tol      float64
	}{
		{"none", 0, 0, 0},
		{"min4 1%", 4, 48, 0.01},
		{"min16 1%", 16, 48, 0.01},
		{"fixed 48", 48, 48, 0.01},
	}
	for _, rule := range rules {
		settleMinPasses, settleMaxPasses, settleTolerance = rule.min, rule.max, rule.tol
		for rep := 0; rep < 3; rep++ {
			df, err := Managed(context.Background(), dev, ManagedConfig{Sizes: []int64{256 << 20},
				Modes: []string{"explicit", "managed_prefetch", "managed_reuse"}})
			if err != nil {
				t.Fatal(err)
			}
			rows, err := results.Rows(df)
			if err != nil {
				t.Fatal(err)
			}
			line := ""
			for _, s := range results.Summarize(rows, results.SummaryOptions{}) {
				d := s.GBps
				line += fmt.Sprintf("  %s %.0f cv %.2f%% min %.0f", s.Config.Mode, d.Median, d.CVPct, d.Min)
			}
			t.Logf("%-9s rep %d:%s", rule.name, rep, line)
		}
	}
}
