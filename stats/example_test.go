package stats_test

import (
	"fmt"

	"github.com/umlab/umlab/stats"
)

func ExampleMedianCI() {
	trials := []float64{10.1, 10.3, 9.9, 10.0, 10.2, 10.4, 9.8, 10.1, 10.0, 10.2}
	ci := stats.MedianCI(trials, 0.95, 1000, 1)
	fmt.Printf("median %.2f ms, 95 %% CI [%.2f, %.2f]\n", ci.Est, ci.Lo, ci.Hi)
	// Output: median 10.10 ms, 95 % CI [9.95, 10.20]
}
