// Package simgpu is the simulated GPU: a deterministic stand-in that
// implements umkit.Device and its optional interfaces (Marker,
// UpdateThreader, HomeFiller, Reallocator), so that the benchmark
// library's logic, state machine and schema are tested, and the whole
// command line runs (umbench run --simulate), without hardware. Buffers
// hold real data (up to DataLimit bytes each; larger ones are symbolic),
// every operation is applied to it, and time is simulated from a simple
// model of where pages are: GPU-resident data streams at HBMGBps, host
// memory at LinkGBps, and cold managed data costs a fault-and-migrate
// rate. The numbers it produces are made up and must never be reported as
// measurements.
//
// # Resources, slowdowns and noise
//
// Every operation is charged to one Resource, the one umkit declares its
// configurations bound by (results.Bounds): HBM, Launch, Link, Pageable,
// Faults or CPU. Device.Slow takes a fraction off a resource's speed, and
// SetNoise makes speeds vary from one process (seed) to the next and one
// operation to the next, by spreads measured on H200s (resources.go):
// what a node check must tell apart from a real slowdown. Without either
// (the default) every run of the same plan gives the same rows.
//
// # Knobs
//
// FromEnv reads these environment variables, for the command line's
// simulated GPUs (Knobs.Open); a bad value is an error that names it and
// what is allowed:
//
//	UMLAB_SIM_GPUS              simulated GPUs on the node (default 1)
//	UMLAB_SIM_MEMORY            device memory, e.g. 8GiB (default 80GiB; at least 64MiB)
//	UMLAB_SIM_KERNEL_DELAY      real time each kernel launch takes, e.g. 50ms (interruptions, watchdogs)
//	UMLAB_SIM_HANG_AFTER        the launch after this many never returns (a hung GPU)
//	UMLAB_SIM_DROP_LAUNCH       launch N (from 1) reports success and does nothing (only verification notices)
//	UMLAB_SIM_HANG_HOME_AFTER   the home-and-fill set-up after this many never returns
//	UMLAB_SIM_FAIL_ALLOC_AFTER  allocations after this many fail as out of memory
//	UMLAB_SIM_DRIVER_KEEPS      SIZE[@FROM]: device memory the driver keeps, once, when a prefetched
//	                            managed buffer of at least FROM (default 512MiB) is freed, e.g.
//	                            105MiB@512MiB, as an H200 did under oversub's capacity
//	UMLAB_SIM_SLOW              RESOURCE:FRACTION,...: resources slower by a fraction of their speed
//	                            (0 to 0.9), e.g. hbm:0.05,link:0.05,faults:0.3; resources hbm (device-
//	                            memory kernels and copies), launch (each kernel's fixed cost),
//	                            link (pinned copies, mapped access), pageable (pageable copies and
//	                            malloc'd access), faults (cold and advised first touch,
//	                            prefetches), cpu (the CPU's loops: fills, the handoff's update)
//	UMLAB_SIM_NOISE             SEED: run-to-run noise drawn from this seed (0 or unset: none);
//	                            repeats of a node are runs with different seeds
//
// # Imports
//
// It imports cuda (for its error values), results (byte sizes) and umkit
// (the interface it implements); only tests, nb's simulated mode and
// umbench import it.
package simgpu
