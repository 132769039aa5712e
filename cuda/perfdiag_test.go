package cuda

import (
	"fmt"
	"os"
	"sort"
	"testing"
	"time"
)

// TestTriadBetweenTrials measures the 1 GiB triad with different work
// between timed trials, to find what makes a trial slower than in a
// back-to-back loop. UMLAB_PERF=2 only.
func TestTriadBetweenTrials(t *testing.T) {
	if os.Getenv("UMLAB_PERF") != "2" {
		t.Skip("set UMLAB_PERF=2 (GPU node)")
	}
	c := gpuContext(t)
	const n = 1 << 27
	s, _ := c.NewStream()
	defer s.Destroy()
	e1, _ := c.NewEvent()
	e2, _ := c.NewEvent()
	bufs := make([]*Buffer, 3)
	for i := range bufs {
		b, err := c.AllocDevice(n * 8)
		must(t, err)
		defer b.Free()
		bufs[i] = b
	}
	a, b, cc := bufs[0], bufs[1], bufs[2]
	must(t, c.Fill(b, n, 1, s))
	must(t, c.Fill(cc, n, 2, s))
	tiny, _ := c.AllocDevice(16)
	defer tiny.Free()
	between := map[string]func(i int){
		"1 back-to-back":     func(int) {},
		"2 check_combo":      func(i int) { c.CheckCombo(a, b, cc, 3, n, s) },
		"3 check_triad":      func(i int) { c.CheckTriad(a, n, 1, 2, 3, s) },
		"4 host sleep 2ms":   func(int) { time.Sleep(2 * time.Millisecond) },
		"5 tiny kernel":      func(int) { c.Launch(KernelCheckInit, Dim{1, 1, 1}, Dim{1, 1, 1}, s, tiny.DevicePtr()); c.SyncStream(s) },
		"6 16-byte readback": func(int) { c.runCheck(s, func(uint64) error { return nil }) },
	}
	var keys []string
	for k := range between {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var ms []float64
		for i := 0; i < 30; i++ {
			e1.Record(s)
			c.StreamTriad(a, b, cc, 3, n, s)
			e2.Record(s)
			m, err := ElapsedMs(e1, e2)
			must(t, err)
			if i >= 5 {
				ms = append(ms, m)
			}
			between[k](i)
		}
		sort.Float64s(ms)
		fmt.Printf("DIAG %-20s triad %.0f GB/s\n", k, 3*float64(n*8)/(ms[len(ms)/2]*1e6))
	}
}
