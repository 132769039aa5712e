package umkit

import (
	"fmt"
	"slices"
	"strings"
)

// Benchmark describes one named benchmark of the suite.
type Benchmark struct {
	Name        string // group.benchmark, e.g. hbm.triad
	Group       string
	Description string
	// BytesPerIteration says which bytes one iteration moves: what the
	// bandwidth column divides by.
	BytesPerIteration string
	// Supported says whether the device can run it, and if not, why; the
	// run then records a waived row with that reason instead of failing.
	Supported func(DeviceInfo) (bool, string)
}

func always(DeviceInfo) (bool, string) { return true, "" }

func needsManaged(d DeviceInfo) (bool, string) {
	if !d.ManagedMemory {
		return false, "the device does not support managed memory"
	}
	return true, ""
}

func needsPrefetch(d DeviceInfo) (bool, string) {
	if ok, why := needsManaged(d); !ok {
		return ok, why
	}
	if !d.ConcurrentManagedAccess {
		return false, "prefetch and reuse need concurrent managed access, which the device does not report " +
			"(e.g. Windows/WSL, or a vGPU without unified memory)"
	}
	return true, ""
}

// Groups lists the benchmark groups in the order a run goes through them
// (paper Table II).
var Groups = []string{"hbm", "host", "transfer", "managed", "pattern", "oversub", "handoff"}

// Registry lists every benchmark.
var Registry = []Benchmark{
	{"hbm.copy", "hbm", "STREAM copy a = b on device memory: the local HBM baseline for a kernel that reads one array and writes another.",
		"2 × size (read b, write a)", always},
	{"hbm.triad", "hbm", "STREAM triad a = b + s·c on device memory: the paper's local-HBM reference (V-A).",
		"3 × size (read b and c, write a)", always},
	{"host.mapped_triad", "host", "The triad with all arrays in pinned host memory mapped into the device: GPU loads and stores cross the CPU–GPU link on every access (V-A).",
		"3 × size", func(d DeviceInfo) (bool, string) {
			if !d.CanMapHostMemory {
				return false, "the device cannot map host memory"
			}
			return true, ""
		}},
	{"host.system_triad", "host", "The triad on malloc'd (system-allocated) memory, which the GPU can dereference only with HMM or ATS (Grace).",
		"3 × size", func(d DeviceInfo) (bool, string) {
			if !d.PageableMemoryAccess {
				return false, "the device does not report pageable memory access (no HMM or ATS)"
			}
			return true, ""
		}},
	{"transfer.copy", "transfer", "Explicit cudaMemcpy host→device and device→host, from pinned and from pageable host memory (V-B).",
		"size", always},
	{"transfer.prefetch", "transfer", "cudaMemPrefetchAsync of CPU-written managed memory to the GPU, and of GPU-written managed memory to the CPU (V-B).",
		"size", needsPrefetch},
	{"managed.stream", "managed", "One streaming read-modify-write kernel under explicit, cold (CPU-initialised before every trial), prefetched, reused and advised managed memory (V-C, VI-A).",
		"2 × size (read and write x)", needsManaged},
	{"pattern.streaming", "pattern", "The streaming kernel over the fixed footprint, under explicit, cold, prefetched and reused memory.",
		"16 bytes per element", needsManaged},
	{"pattern.strided", "pattern", "Every stride-th element (stride 1 to 1024) over a fixed footprint: fewer useful bytes per cache line and page (VI-B).",
		"16 bytes per touched element", needsManaged},
	{"pattern.random", "pattern", "Every element once, in the order of a shuffled index array (whose 8 bytes per element count in the footprint, not in useful bytes) (VI-B).",
		"16 bytes per element", needsManaged},
	{"pattern.page_touch", "pattern", "One element per 4 KiB, 64 KiB or 2 MiB: sparse, page-like access (VI-C).",
		"16 bytes per touched element", needsManaged},
	{"oversub.streaming", "oversub", "The streaming kernel on a managed footprint of 25–90 % of free device memory (beyond with an explicit opt-in) (VII-A).",
		"16 bytes per element", needsManaged},
	{"oversub.strided", "oversub", "The strided kernel under capacity pressure.", "16 bytes per touched element", needsManaged},
	{"oversub.random", "oversub", "Random access under capacity pressure; the index array adds to the footprint.", "16 bytes per element", needsManaged},
	{"handoff", "handoff", "CPU update then R GPU passes over the same data, under managed, managed-prefetch, host-mapped and explicit-copy policies; CPU-only, GPU-only and alternating timed separately (VII-B).",
		"one CPU pass and R GPU passes, 16 bytes per element each", needsManaged},
}

// Select returns the benchmarks whose name or group matches one of the
// patterns: a group name ("pattern"), a full name ("pattern.random") or a
// name prefix ("pattern.s"). No patterns selects everything.
func Select(patterns []string) ([]Benchmark, error) {
	if len(patterns) == 0 {
		return slices.Clone(Registry), nil
	}
	var out []Benchmark
	for _, p := range patterns {
		p = strings.TrimSpace(p)
		found := false
		for _, b := range Registry {
			if b.Group == p || b.Name == p || strings.HasPrefix(b.Name, p) {
				found = true
				if !slices.ContainsFunc(out, func(x Benchmark) bool { return x.Name == b.Name }) {
					out = append(out, b)
				}
			}
		}
		if !found {
			names := make([]string, len(Registry))
			for i, b := range Registry {
				names[i] = b.Name
			}
			return nil, fmt.Errorf("umkit: no benchmark matches %q: groups are %s; benchmarks are %s",
				p, strings.Join(Groups, ", "), strings.Join(names, ", "))
		}
	}
	return out, nil
}
