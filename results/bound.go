package results

import "cmp"

// LaunchBoundBytes is where a kernel over GPU-resident data stops being
// bound by its fixed cost: on an H200 (h200-2026-12-02-setuploops) a
// kernel took about 3.1 µs however little it moved, while 16 MiB at
// 4.3 TB/s take 3.9 µs; below that its launch and latency dominate.
const LaunchBoundBytes = 16 << 20

// KernelBound is the bound of a kernel over GPU-resident data that moves
// useful bytes: gpu_launch below LaunchBoundBytes, gpu_memory from there.
func KernelBound(useful int64) string {
	if useful < LaunchBoundBytes {
		return BoundGPULaunch
	}
	return BoundGPUMemory
}

// boundResident stands, in legacyBounds, for KernelBound of the row's
// useful bytes (its size where the file has none: published rows).
const boundResident = "resident"

// legacyBounds is what the benchmark definitions declare as the bound of
// their configurations, for rows of files written before the bound column
// (ReadCSV fills it from here, and only then). The first entry whose set
// fields all match a row gives its bound; umkit's TestLegacyBounds holds
// it to the definitions on every configuration they produce.
var legacyBounds = []struct {
	group, benchmark, mode, policy, phase, direction, bound string
	beyond                                                  bool // oversub_pct above 100: eviction
}{
	{group: GroupHBM, bound: boundResident},
	{group: GroupHost, mode: ModeSystem, bound: BoundHostPageable},
	{group: GroupHost, bound: BoundHostLink},
	{group: GroupTransfer, mode: ModePageable, bound: BoundHostPageable},
	{group: GroupTransfer, benchmark: BenchPrefetch, bound: BoundFaults},
	{group: GroupTransfer, bound: BoundHostLink},
	{group: GroupOversub, beyond: true, bound: BoundFaults},
	{group: GroupHandoff, phase: PhaseCPUOnly, bound: BoundHostCPU},
	{group: GroupHandoff, phase: PhaseAlternating, bound: BoundMixed},
	{group: GroupHandoff, phase: PhaseGPUOnly, policy: PolicyHostMapped, bound: BoundHostLink},
	{group: GroupHandoff, phase: PhaseGPUOnly, bound: boundResident},
	{group: GroupHandoff}, // a waived policy's row, the paper's other phases: none
	// The memory states of managed, pattern and oversub.
	{mode: ModeManagedCold, bound: BoundFaults},
	{mode: ModeAdvisePreferredGPU, bound: BoundFaults},
	{mode: ModeAdvisePreferredCPU, bound: BoundFaults},
	{mode: ModeAdviseAccessedBy, bound: BoundFaults},
	{mode: ModeExplicit, bound: boundResident},
	{mode: ModeManagedPrefetch, bound: boundResident},
	{mode: ModeManagedReuse, bound: boundResident},
}

// GPUBound reports whether a resource is the GPU's own (GPU memory,
// launch, the host link): a change there is the GPU's, a change in the
// others (pageable host memory, fault servicing, the CPU, mixed) the
// host's.
func GPUBound(bound string) bool {
	return bound == BoundGPUMemory || bound == BoundGPULaunch || bound == BoundHostLink
}

// BoundOf is a row's bound column, or, for a row made without it, what
// LegacyBound says rows of older files are bound by.
func BoundOf(r Row) string { return cmp.Or(r.Bound, LegacyBound(r)) }

// LegacyBound is the bound of a row from a file written before the bound
// column, as the definitions declare it (legacyBounds); "" for a row no
// definition makes.
func LegacyBound(r Row) string {
	for _, e := range legacyBounds {
		if (e.group == "" || e.group == r.Group) && (e.benchmark == "" || e.benchmark == r.Benchmark) &&
			(e.mode == "" || e.mode == r.Mode) && (e.policy == "" || e.policy == r.Policy) &&
			(e.phase == "" || e.phase == r.Phase) && (e.direction == "" || e.direction == r.Direction) &&
			(!e.beyond || r.OversubPct > 100) {
			if e.bound == boundResident {
				return KernelBound(cmp.Or(r.UsefulBytes, r.SizeBytes))
			}
			return e.bound
		}
	}
	return ""
}
