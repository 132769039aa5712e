package claims

import (
	"strings"
	"testing"
)

// TestTrendWords: a series is said to rise or fall only where the change
// exceeds the tolerance within which it is said to stay; a plateau that
// starts within that tolerance of the first point is variation, with the
// series given.
func TestTrendWords(t *testing.T) {
	pts := func(v ...float64) []point {
		var out []point
		for i, x := range v {
			out = append(out, point{label: "R = " + string(rune('1'+i)), v: x})
		}
		return out
	}
	for _, c := range []struct {
		name string
		v    []float64
		want []string
		not  []string
	}{
		{"flat", []float64{100, 102, 104}, []string{"stays within 100–104 ms"}, []string{"rises", "falls"}},
		{"rise then plateau", []float64{100, 200, 205, 210}, []string{"rises from 100 ms at R = 1 to 200 ms at R = 2, then stays within 200–210 ms"}, nil},
		// Like the handoff of managed memory at 1 GiB on an H200: down
		// from 500 ms and back to 499, then up to 543; 499 against 500 is
		// no fall.
		{"no fall to the plateau", []float64{500, 460, 499, 520, 543}, []string{"varies within 460–543 ms from R = 1 to R = 5", "(500 at R = 1, 460 at R = 2"}, []string{"falls", "rises"}},
		{"fall then plateau", []float64{500, 300, 310, 320}, []string{"falls from 500 ms at R = 1 to 300 ms at R = 2"}, nil},
		// No plateau, and the last point near the first: a spike, not a rise.
		{"spike", []float64{100, 200, 105}, []string{"varies within 100–200 ms from R = 1 to R = 3 (100 at R = 1, 200 at R = 2, 105 at R = 3 ms)"}, []string{"rises", "falls"}},
		{"no plateau, rising", []float64{100, 150, 130, 200}, []string{"rises from 100 ms at R = 1 to 200 ms at R = 4 (not monotonically"}, nil},
	} {
		got := trend("T", pts(c.v...), "ms")
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", c.name, got, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(got, w) {
				t.Errorf("%s: %q says %q", c.name, got, w)
			}
		}
	}
}
