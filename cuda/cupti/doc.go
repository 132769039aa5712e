// Package cupti measures CUDA Unified Memory traffic with CUPTI's Unified
// Memory counters: bytes migrated host to device, device to host and device
// to device, CPU page faults, GPU page fault groups, thrashing, throttling
// and remote mapping.
//
// # Loading
//
// libcupti ships with the CUDA toolkit, not with the driver, so it may be
// missing where umlab runs. Nothing links against it: [Open] opens it with
// dlopen and resolves the few entry points used eagerly into a table; the
// declarations are our own (umlab_cupti.h), checked against the CUPTI
// headers of CUDA 12.6, 12.9, 13.0 and 13.5. The library is the one named
// by UMLAB_CUPTI ([EnvLibrary]) if set; otherwise the first usable one of:
// the dynamic loader's search for libcupti.so.13 and libcupti.so.12
// (LD_LIBRARY_PATH, ld.so.cache), CUDA toolkit directories
// (extras/CUPTI/lib64, lib64 and targets/<arch>/lib under $CUDA_HOME,
// $CUDA_PATH, /usr/local/cuda*, /opt/cuda and the NVIDIA HPC SDK;
// $CONDA_PREFIX/lib), and the pip wheels nvidia-cuda-cupti
// (nvidia/cu13/lib) and nvidia-cuda-cupti-cu12 (nvidia/cuda_cupti/lib) in
// python3's site directories and the usual virtual-environment places.
// Nothing is loaded from the working directory, a relative path or a place
// other users can write. CUPTI 13 is preferred when the driver supports
// CUDA 13; a CUPTI newer in major version than the driver is skipped. When
// nothing fits, the error wraps [ErrNotFound] or [ErrUnsupportedVersion]
// and lists what was searched and tried.
//
// # Records
//
// Activity kind 25 (CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER) has been
// CUpti_ActivityUnifiedMemoryCounter2 (64 bytes) up to CUPTI 12.6 and
// CUpti_ActivityUnifiedMemoryCounter3 (104 bytes: Counter2's fields, then
// processors[5]) from CUPTI 12.8 on, 13.x included. [Layouts] is the table
// (it lives in umlab_cupti.c next to the parser); the layout is chosen from
// cuptiGetVersion, and a CUPTI_API_VERSION without one is refused. Only
// kind, counterKind and value are read. The parser also checks the spacing
// between consecutive records against the layout's size ([Counts]
// SpacingErrors, RecordSize), so a wrong layout shows in the counts.
//
// # Collection
//
// The buffer callbacks are C: CUPTI calls them on its own thread, and they
// sum each buffer's records per counter kind into static totals under a
// mutex. [Collector.Start] zeroes the totals and enables the activity kind,
// [Collector.Snapshot] flushes and reads them, [Collector.Stop] flushes,
// disables and reads. Counter collection slows Unified Memory down (the
// driver reports every migration and fault), so it is on only between Start
// and Stop: a timed measurement and a counter pass are separate runs.
//
// # Order
//
// CUPTI wants the counters configured after driver initialisation and
// before the activity kind is enabled, and NVIDIA's sample configures them
// before any context exists. [Open] initialises the driver (cuInit) and
// configures; call it before cuda.NewContext (or umkit.Open). CUPTI's
// activity API is process-wide: one [Collector] at a time ([ErrBusy]).
//
// # Errors
//
// CUPTI failures are [Result] values (names from a table here) wrapped with
// the call that failed; the codes that mean "not here" (UM profiling not
// supported on the platform or device, MPS, virtualised devices, missing
// privileges, another profiler attached, MIG, WSL, confidential computing)
// match [ErrUnsupported] with errors.Is and say why.
//
// # Ownership and imports
//
// cupti owns the CUPTI loader, the record layouts and the counter
// collection; it is one of the three packages with cgo. It imports cuda and
// nothing else of umlab, and only umkit (and cmd/umbench) may import it.
package cupti
