package results

import (
	"math"
	"strings"
	"testing"
)

func TestHeadlinesAndLegend(t *testing.T) {
	row := func(group, mode string, size int64, gbps, ms float64, flags ...string) SummaryRow {
		c := NewRow()
		c.Group, c.Mode, c.SizeBytes = group, mode, size
		return SummaryRow{Config: c, GBps: Stats{Median: gbps}, TotalMs: Stats{Median: ms}, Flags: flags}
	}
	nan := math.NaN()
	sum := []SummaryRow{
		row("hbm", "a", 1<<20, 900, 1), row("hbm", "b", 1<<30, 4000, 1), row("hbm", "c", 1<<30, 3000, 1, FlagHighCV),
		row("hbm", "d", 1<<30, 100, 1), row("hbm", "w", 2<<30, nan, nan, FlagWaived),
		row("handoff", "x", 1<<30, nan, 10), row("handoff", "y", 1<<30, nan, 5), row("handoff", "z", 1<<30, nan, 7),
	}
	got := Headlines(sum, 2)
	var modes []string
	for _, s := range got {
		modes = append(modes, s.Config.Group+":"+s.Config.Mode)
	}
	// hbm at 1 GiB (the waived 2 GiB row does not count): highest b, lowest
	// d, in sum's order; handoff without bandwidths: shortest y, longest x.
	if want := "hbm:b hbm:d handoff:x handoff:y"; strings.Join(modes, " ") != want {
		t.Errorf("Headlines = %v, want %s", modes, want)
	}
	if n := len(Headlines(sum, 3)); n != 6 {
		t.Errorf("Headlines(sum, 3) has %d rows, want 6", n)
	}
	legend := FlagLegend(got, SummaryOptions{})
	if len(legend) != 0 {
		t.Errorf("no flags shown, legend %q", legend)
	}
	legend = FlagLegend(sum, SummaryOptions{HighCVPct: 7})
	if len(legend) != 2 || !strings.HasPrefix(legend[0], FlagHighCV+": ") || !strings.Contains(legend[0], "7 %") ||
		!strings.HasPrefix(legend[1], FlagWaived+": ") {
		t.Errorf("FlagLegend = %q", legend)
	}
}
