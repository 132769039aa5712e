package stats

import (
	"math/bits"
	"sync"
)

// Up to maxLaneValues values, MedianCI walks every resample at once: the
// table of draws is transposed so that one word holds the counts of an
// index in eight resamples, a byte each, and the running counts of eight
// resamples are added in one addition (no lane can carry into the next:
// a running count never passes the number of values). A resample's
// median rank is where its running count first passes the middle
// position, found for eight lanes in one comparison: the ranks
// Resampler.Median finds one resample at a time, in an eighth of the
// additions.
const maxLaneValues = 127

const (
	laneHigh = 0x8080808080808080
	laneOne  = 0x0101010101010101
)

// lanes returns the draws of b resamples of n ≤ maxLaneValues values,
// transposed: word i·w + j holds the counts of index i in resamples
// 8j … 8j+7 (w = ⌈b/8⌉ words per index), drawn as Median draws them.
// Cached (laneCache).
func lanes(seed uint64, n, b int) []uint64 {
	key := [3]uint64{seed, uint64(n), uint64(b)}
	laneCache.Lock()
	tab, ok := laneCache.tables[key]
	laneCache.Unlock()
	if ok {
		return tab
	}
	r := NewResampler(seed)
	w := (b + 7) / 8
	tab = make([]uint64, n*w)
	for k := range b {
		for range n {
			tab[r.rng.IntN(n)*w+k/8] += 1 << (8 * (k % 8))
		}
	}
	laneCache.Lock()
	defer laneCache.Unlock()
	if laneCache.bytes+8*len(tab) <= laneCacheBytes {
		if laneCache.tables == nil {
			laneCache.tables = map[[3]uint64][]uint64{}
		}
		laneCache.tables[key] = tab
		laneCache.bytes += 8 * len(tab)
	}
	return tab
}

// laneCache keeps the tables of lanes: a summary bootstraps hundreds of
// configurations of the same number of trials with the same seed, so
// they share one table. It holds at most laneCacheBytes; larger or later
// tables are drawn afresh each time.
var laneCache struct {
	sync.Mutex
	tables map[[3]uint64][]uint64
	bytes  int
}

const laneCacheBytes = 32 << 20

// laneBootstrap is the percentile interval of the medians of b resamples
// of n ≤ maxLaneValues values, from their lanes.
func laneBootstrap(sorted []float64, order []int32, tab []uint64, b int, level float64) (lo, hi float64) {
	n := len(sorted)
	mid := n / 2
	upper := make([]int32, b) // rank at position mid of each sorted resample
	var lower []int32         // and at mid−1 (even n)
	if n%2 == 0 {
		lower = make([]int32, b)
	}
	crossings(order, tab, b, mid, upper, lower)
	return medianInterval(sorted, upper, lower, level)
}

// crossings walks the values in rank order (order[v] is the index of
// rank v), adding each index's counts to every resample's running count,
// and notes for each resample the rank at which its count first passes
// mid (upper) and, when lower is not nil, mid−1.
func crossings(order []int32, tab []uint64, b, mid int, upper, lower []int32) {
	w := (b + 7) / 8
	acc := make([]uint64, w)
	doneUp, doneLow := make([]uint64, w), make([]uint64, w)
	passUp, passLow := uint64(mid+1)*laneOne, uint64(mid)*laneOne
	left := b
	note := func(m uint64, j int, v int32, at []int32) int {
		found := 0
		for ; m != 0; m &= m - 1 {
			if k := 8*j + bits.TrailingZeros64(m)/8; k < len(at) {
				at[k] = v
				found++
			}
		}
		return found
	}
	for v, i := range order {
		row := tab[int(i)*w : int(i)*w+w]
		for j, c := range row {
			s := acc[j] + c
			acc[j] = s
			// A lane's high bit is set where its count passes the
			// threshold: counts and thresholds are under 128.
			if m := ((s | laneHigh) - passUp) & laneHigh &^ doneUp[j]; m != 0 {
				doneUp[j] |= m
				left -= note(m, j, int32(v), upper)
			}
			if lower != nil {
				if m := ((s | laneHigh) - passLow) & laneHigh &^ doneLow[j]; m != 0 {
					doneLow[j] |= m
					note(m, j, int32(v), lower)
				}
			}
		}
		if left == 0 {
			return
		}
	}
}
