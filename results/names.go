package results

// Values of the group column: the benchmark groups (paper Table II).
const (
	GroupHBM      = "hbm"
	GroupHost     = "host"
	GroupTransfer = "transfer"
	GroupManaged  = "managed"
	GroupPattern  = "pattern"
	GroupOversub  = "oversub"
	GroupHandoff  = "handoff"
)

// Groups lists the groups in the paper's order.
var Groups = []string{GroupHBM, GroupHost, GroupTransfer, GroupManaged, GroupPattern, GroupOversub, GroupHandoff}

// Values of the benchmark column.
const (
	BenchTriad     = "triad"
	BenchCopy      = "copy"
	BenchStream    = "stream"
	BenchPrefetch  = "prefetch"
	BenchAdvise    = "advise"
	BenchStrided   = "strided"
	BenchRandom    = "random"
	BenchSparse    = "sparse_random" // a random subset of elements through an index array
	BenchPageTouch = "page_touch"
	BenchHandoff   = "handoff"
)

// Benchmarks lists the benchmark column's values in the paper's order.
var Benchmarks = []string{BenchTriad, BenchCopy, BenchStream, BenchPrefetch, BenchAdvise, BenchStrided, BenchRandom,
	BenchSparse, BenchPageTouch, BenchHandoff}

// Values of the mode column: the memory state or kind of the measured
// allocation.
const (
	ModeExplicit           = "explicit"
	ModeHostMapped         = "host_mapped"
	ModeSystem             = "system"
	ModePinned             = "pinned"
	ModePageable           = "pageable"
	ModeManaged            = "managed"
	ModeManagedCold        = "managed_cold"
	ModeManagedPrefetch    = "managed_prefetch"
	ModeManagedReuse       = "managed_reuse"
	ModeAdvisePreferredGPU = "advise_preferred_gpu"
	ModeAdviseAccessedBy   = "advise_accessed_by"
	ModeAdvisePreferredCPU = "advise_preferred_cpu"
)

// Modes lists the mode column's values: explicit and host memory first,
// then the managed states in the paper's order.
var Modes = []string{ModeExplicit, ModeHostMapped, ModePinned, ModePageable, ModeManaged, ModeManagedCold,
	ModeManagedPrefetch, ModeManagedReuse, ModeAdvisePreferredGPU, ModeAdviseAccessedBy, ModeAdvisePreferredCPU, ModeSystem}

// Values of the pattern column.
const (
	PatternStreaming = "streaming"
	PatternStrided   = "strided"
	PatternRandom    = "random"
	PatternSparse    = "sparse_random"
	PatternPageTouch = "page_touch"
	PatternCopy      = "copy"
	PatternTriad     = "triad"
)

// Patterns lists the pattern column's values.
var Patterns = []string{PatternStreaming, PatternStrided, PatternRandom, PatternSparse, PatternPageTouch, PatternCopy, PatternTriad}

// Values of the policy column: the handoff policies (paper Table III).
const (
	PolicyExplicitCopy    = "explicit_copy"
	PolicyHostMapped      = "host_mapped"
	PolicyManaged         = "managed"
	PolicyManagedPrefetch = "managed_prefetch"
)

// Policies lists the handoff policies in Table III's order.
var Policies = []string{PolicyExplicitCopy, PolicyHostMapped, PolicyManaged, PolicyManagedPrefetch}

// Values of the phase column of handoff rows.
const (
	PhaseCPUOnly     = "cpu_only"
	PhaseGPUOnly     = "gpu_only"
	PhaseAlternating = "alternating"
)

// Phases lists the phases of our handoff rows.
var Phases = []string{PhaseCPUOnly, PhaseGPUOnly, PhaseAlternating}

// Values of the direction column of transfer rows.
const (
	DirectionH2D = "h2d"
	DirectionD2H = "d2h"
)

// Directions lists the direction column's values.
var Directions = []string{DirectionH2D, DirectionD2H}

// Values of the bound column: the resource a configuration's figure is
// bound by, declared by its benchmark definition, so that a node check can
// tell a slower GPU from a slower host. The first three are the GPU's
// (with its link), the others the host's.
const (
	BoundGPUMemory    = "gpu_memory"      // GPU-resident data streamed through HBM
	BoundGPULaunch    = "gpu_launch"      // GPU-resident kernels too short for their bytes to dominate: launch and latency
	BoundHostLink     = "host_link"       // the CPU–GPU link: pinned copies, host-mapped access
	BoundHostPageable = "host_pageable"   // the host's pageable memory path: pageable copies, malloc'd memory
	BoundFaults       = "fault_servicing" // Unified Memory's driver on the host: faults, migrations, prefetches, advice
	BoundHostCPU      = "host_cpu"        // the CPU's own loop (the handoff's CPU-only phase)
	BoundMixed        = "mixed"           // CPU, movement and GPU in turn (the handoff's alternating phase)
)

// Bounds lists the values of the bound column, the GPU's first.
var Bounds = []string{BoundGPUMemory, BoundGPULaunch, BoundHostLink, BoundHostPageable, BoundFaults, BoundHostCPU, BoundMixed}

// Classes of a resource (a value of the bound column): a change in the
// GPU's own resources (GPUBound) is the GPU's, in the others the host's.
const (
	ClassGPU  = "gpu"
	ClassHost = "host"
)

// ClassOf is the class of a resource.
func ClassOf(resource string) string {
	if GPUBound(resource) {
		return ClassGPU
	}
	return ClassHost
}
