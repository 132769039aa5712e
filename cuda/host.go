package cuda

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
)

// HostThreads is how many threads FillHost and the host checks use. They
// re-establish and verify state outside the measurements, and managed pages
// fault back to the CPU several times faster from several threads.
var HostThreads = min(runtime.NumCPU(), 16)

// parallel runs f over [from, to) split into HostThreads contiguous ranges
// of whole 2 MiB blocks, each on its own OS thread (a cgo call holds one).
func parallel(from, to uint64, f func(lo, hi uint64)) {
	parts := splitRange(from, to)
	if len(parts) == 1 {
		f(from, to)
		return
	}
	var wg sync.WaitGroup
	for _, p := range parts {
		wg.Go(func() { f(p[0], p[1]) })
	}
	wg.Wait()
}

// splitRange splits [from, to) into at most HostThreads contiguous ranges
// of whole 2 MiB blocks (the last may be shorter), as many as the blocks
// allow, so that a 16 MiB buffer gets 8 threads: written on one thread, a
// fresh 16 MiB managed buffer took 13 ms and a 64 MiB one on 16 threads
// 6.5 ms (H200, 2026-12-01).
func splitRange(from, to uint64) [][2]uint64 {
	const block = 2 << 20 / 8
	n := to - from
	parts := min(uint64(max(HostThreads, 1)), n/block)
	if parts <= 1 {
		return [][2]uint64{{from, to}}
	}
	chunk := (n/parts + block - 1) / block * block
	var out [][2]uint64
	for lo := from; lo < to; lo += chunk {
		out = append(out, [2]uint64{lo, min(lo+chunk, to)})
	}
	return out
}

// merge combines the mismatches of parts of a buffer.
type merge struct {
	mu sync.Mutex
	m  Mismatch
}

func (g *merge) add(bad, first uint64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if bad > 0 && (g.m.Count == 0 || first < g.m.First) {
		g.m.First = first
	}
	g.m.Count += bad
}

// SeedValue is the value of element i of a buffer filled with seed: an
// integer in [1, 2^20] from a splitmix64 hash. The CPU fill and the device
// kernels compute the same function, and every benchmark operation on such
// values (adding small integers, scaling by powers of two) is exact in
// float64, so checks compare for equality.
func SeedValue(seed, i uint64) float64 { return cSeedValue(seed, i) }

func hostNeed(call string, b *Buffer, n uint64) error {
	if err := b.usable(call); err != nil {
		return err
	}
	if b.host == nil {
		return argError(call, "%s memory is not accessible from the CPU", b.kind)
	}
	if n == 0 || n > b.bytes/8 {
		return argError(call, "%d elements in a buffer of %d bytes", n, b.bytes)
	}
	return nil
}

// FillHost writes SeedValue(seed, i) to x[i] for i < n from the CPU, on
// HostThreads threads. For managed memory this touches every page on the
// CPU, making it CPU-resident: the "CPU-initialised" state of the paper's
// cold first-touch mode.
func FillHost(x *Buffer, n, seed uint64) error {
	if err := hostNeed("FillHost", x, n); err != nil {
		return err
	}
	fillRange(x, 0, n, seed)
	return nil
}

// setupLoops is chosen once: the fastest build the CPU has.
var setupLoops = cSetupLoopsSelect(false)

// SetupLoops names the build of FillHost and the host checks that this
// process runs: "x86-64-v4" (vectorised for AVX-512) where the CPU has it,
// else "x86-64", or "portable" on other architectures. The handoff's
// measured CPU update is one build everywhere.
func SetupLoops() string { return setupLoops }

// CPUModel is the host CPU's model as /proc/cpuinfo names it (its first
// "model name"), or "" where it names none (Linux on arm64 does not).
func CPUModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// fillRange is FillHost's write of elements [from, to), unchecked.
func fillRange(x *Buffer, from, to, seed uint64) {
	parallel(from, to, func(lo, hi uint64) { cFillHost(x.host, lo, hi, seed) })
}

// UpdateHost applies x = x*mul + add to n elements from the CPU: the CPU
// update of the handoff benchmark.
func UpdateHost(x *Buffer, n uint64, mul, add float64) error {
	if err := hostNeed("UpdateHost", x, n); err != nil {
		return err
	}
	cUpdateHost(x.host, n, mul, add)
	return nil
}

// MaxUpdateThreads is the most threads UpdateHostThreads uses.
const MaxUpdateThreads = 256

// UpdateHostThreads is UpdateHost split over len(cpus) threads, each
// updating a contiguous run of whole 4 KiB pages: the calling thread takes
// the first part, and thread k > 0 is pinned to CPU cpus[k] (unpinned when
// cpus[k] < 0). With one CPU or fewer it is UpdateHost. Threads are created
// for each call: their start-up (tens of µs) is part of the update, as it
// would be for an application that forks its update loop.
func UpdateHostThreads(x *Buffer, n uint64, mul, add float64, cpus []int) error {
	if err := hostNeed("UpdateHostThreads", x, n); err != nil {
		return err
	}
	if len(cpus) > MaxUpdateThreads {
		return argError("UpdateHostThreads", "%d threads: at most %d", len(cpus), MaxUpdateThreads)
	}
	if len(cpus) <= 1 {
		cUpdateHost(x.host, n, mul, add)
		return nil
	}
	c := make([]int32, len(cpus))
	for i, v := range cpus {
		c[i] = int32(v)
	}
	if rc := cUpdateHostMT(x.host, n, mul, add, c); rc != 0 {
		return fmt.Errorf("cuda: UpdateHostThreads: starting a thread failed (error %d): the update is incomplete", rc)
	}
	return nil
}

// CheckAffineHost is CheckAffine run by the CPU.
func CheckAffineHost(x *Buffer, n, seed uint64, mul, add float64, stride, active uint64) (Mismatch, error) {
	if err := hostNeed("CheckAffineHost", x, n); err != nil {
		return Mismatch{}, err
	}
	if stride == 0 {
		return Mismatch{}, argError("CheckAffineHost", "stride 0")
	}
	var g merge
	g.m.First = ^uint64(0)
	parallel(0, n, func(lo, hi uint64) { g.add(cCheckAffineHost(x.host, lo, hi, seed, mul, add, stride, active)) })
	return g.m, nil
}
