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

// Values of the policy column: the handoff policies (paper Table III).
const (
	PolicyExplicitCopy    = "explicit_copy"
	PolicyHostMapped      = "host_mapped"
	PolicyManaged         = "managed"
	PolicyManagedPrefetch = "managed_prefetch"
)

// Values of the phase column of handoff rows.
const (
	PhaseCPUOnly     = "cpu_only"
	PhaseGPUOnly     = "gpu_only"
	PhaseAlternating = "alternating"
)

// Values of the direction column of transfer rows.
const (
	DirectionH2D = "h2d"
	DirectionD2H = "d2h"
)
