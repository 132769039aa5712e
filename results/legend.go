package results

import "fmt"

// FlagLegend explains the quality flags that occur in sum, in a fixed
// order, one line each ("short_kernel: ..."), with the thresholds of o
// (zero values: Summarize's defaults).
func FlagLegend(sum []SummaryRow, o SummaryOptions) []string {
	o = o.withDefaults()
	meaning := []struct{ flag, text string }{
		{FlagShortKernel, fmt.Sprintf("median kernel under %g ms: the timer and the launch weigh on the figure", o.ShortKernelMs)},
		{FlagHighCV, fmt.Sprintf("trials vary by more than %g %% (coefficient of variation): read the interval", o.HighCVPct)},
		{FlagUnverified, "some trial's result was not verified"},
		{FlagWaived, "not supported on this system (the row says why): nothing measured"},
		{FlagAbovePeak, "faster than the device's theoretical peak: check the bytes counted"},
		{FlagThrottled, "the GPU reported a throttle reason during the run"},
	}
	seen := map[string]bool{}
	for _, s := range sum {
		for _, f := range s.Flags {
			seen[f] = true
		}
	}
	var out []string
	for _, m := range meaning {
		if seen[m.flag] {
			out = append(out, m.flag+": "+m.text)
		}
	}
	return out
}
