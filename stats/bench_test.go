package stats

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// The summary's bootstrap: 1,000 resamples of one configuration's trials
// (25 for most groups, 60 for the handoff sweep), now and as it was.
func BenchmarkMedianCI(b *testing.B) {
	for _, n := range []int{25, 60} {
		rng := rand.New(rand.NewPCG(1, 2))
		x := make([]float64, n)
		for i := range x {
			x[i] = 100 + rng.NormFloat64()
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				MedianCI(x, DefaultLevel, 1000, 1)
			}
		})
		b.Run(fmt.Sprintf("before,n=%d", n), func(b *testing.B) {
			for b.Loop() {
				refMedianCI(x, DefaultLevel, 1000, 1)
			}
		})
	}
}
