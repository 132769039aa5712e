package cuda

import (
	"fmt"
	"testing"
)

// TestDiagSetupLoops compares the builds of the set-up loops, interleaved
// trial by trial on 16 threads (HostThreads): the CPU's first write of a
// fresh 1 GiB managed buffer (after its free and allocation, as a
// reallocating rewrite does), the host check of that CPU-resident buffer,
// and the host check of a 1 GiB pinned buffer (a d2h copy's). Needs the
// x86-64-v4 build (AVX-512); UMLAB_PERF=2 only.
func TestDiagSetupLoops(t *testing.T) {
	c, s, man := coldContext(t)
	defer func() { man.Free() }() // every trial replaces man
	defer cSetupLoopsSelect(false)
	if SetupLoops() != "x86-64-v4" {
		t.Skipf("this CPU runs the %s build only", SetupLoops())
	}
	n := man.Bytes() / 8
	pinned, err := c.AllocHost(n*8, false)
	must(t, err)
	defer pinned.Free()
	must(t, FillHost(pinned, n, 3))
	fmt.Printf("SETUPLOOPS CPU %s, %d host threads\n", CPUModel(), HostThreads)
	builds := []bool{true, false} // baseline, fastest
	parts := interleaved(25, 2, len(builds), func(i, w int) []float64 {
		seed := uint64(100*i + w)
		must(t, c.RMW(man, 1, 1, n, s)) // GPU-resident, as after a cold kernel
		must(t, c.SyncStream(s))
		must(t, man.Free())
		man, err = c.AllocManaged(n * 8)
		must(t, err)
		cSetupLoopsSelect(builds[w])
		var m1, m2 Mismatch
		wr := wallMs(t, func() error { return FillHost(man, n, seed) })
		cm := wallMs(t, func() (err error) { m1, err = CheckAffineHost(man, n, seed, 1, 0, 1, n); return })
		cp := wallMs(t, func() (err error) { m2, err = CheckAffineHost(pinned, n, 3, 1, 0, 1, n); return })
		cSetupLoopsSelect(false)
		if !m1.OK() || !m2.OK() {
			t.Fatalf("baseline=%v: checks %v %v", builds[w], m1, m2)
		}
		return []float64{wr, cm, cp}
	})
	q := quantile
	for w, base := range builds {
		p, name := parts[w], "x86-64-v4"
		if base {
			name = "x86-64"
		}
		fmt.Printf("SETUPLOOPS 1 GiB %-9s: fresh managed write %.1f ms (10th–90th %.1f–%.1f), check it %.1f ms (%.1f–%.1f), check pinned %.1f ms (%.1f–%.1f)\n",
			name, q(p[0], 0.5), q(p[0], 0.1), q(p[0], 0.9), q(p[1], 0.5), q(p[1], 0.1), q(p[1], 0.9), q(p[2], 0.5), q(p[2], 0.1), q(p[2], 0.9))
	}
}
