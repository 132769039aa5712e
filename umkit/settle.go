package umkit

import (
	"fmt"
	"math"
)

// Settling: a GPU that has idled, even for the few milliseconds a CPU
// re-initialisation takes, runs its next kernel at lower clocks (a quarter
// slower after 50 ms on the H200: cuda/perfdiag_test.go
// TestResidentBetweenStates). So before every timed kernel of a
// memory-state trial, untimed passes over a scratch device buffer, which
// the measured kernel does not use, bring the GPU back to steady clocks.
const settleBytes = 256 << 20 // scratch: well beyond any L2, one pass ≈ 0.14 ms on an H200

// The settling rule; variables so that perfdiag_test.go can compare rules.
var (
	settleMinPasses = 4
	settleMaxPasses = 48
	settleTolerance = 0.01 // stop once a pass is within 1 % of the fastest so far
)

// scratch allocates the settling buffer once per runner (groups that shrink
// free memory call it first). Without room for it, runs are unsettled.
func (r *runner) scratch() Buffer {
	if r.settleBuf != nil || r.settleOff {
		return r.settleBuf
	}
	b, err := r.dev.Alloc(DeviceMem, settleBytes)
	if err != nil {
		r.settleOff = true
		r.warn(fmt.Sprintf("no room for the %s settling buffer (%v): timed kernels may start at idle clocks", fmtBytes(settleBytes), err))
		return nil
	}
	r.settleBuf = b
	return b
}

// settle runs timed scratch passes until the GPU's speed has stopped
// improving (settleMinPasses to settleMaxPasses) and returns their number.
func (r *runner) settle() (int, error) {
	b := r.scratch()
	if b == nil {
		return 0, nil
	}
	defer r.groups.spend(partSettle)()
	k := Kernel{Kind: KRMW, X: b, N: settleBytes / 8, Mul: 1, Add: 0}
	best := math.Inf(1)
	for i := 0; i < settleMaxPasses; i++ {
		// Not r.timed: during a counter pass, settling opens no counting window.
		ms, err := timedOn(r.dev, func() error { return r.dev.Launch(k) })
		if err != nil {
			return i, fmt.Errorf("settling pass: %w", err)
		}
		improved := ms < best*(1-settleTolerance)
		best = math.Min(best, ms)
		if i+1 >= settleMinPasses && !improved {
			return i + 1, nil
		}
	}
	return settleMaxPasses, nil
}

func (r *runner) close() {
	if r.settleBuf != nil {
		r.dev.Free(r.settleBuf)
		r.settleBuf = nil
	}
}
