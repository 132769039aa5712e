// Package umkit is umlab's benchmark library: the seven benchmark groups of
// the paper (Table II) as functions that return a tidy gota DataFrame, one
// row per trial, in the schema of package results.
//
// # Groups
//
// [HBM], [Host], [Transfer], [Managed], [Patterns], [Sparse], [Oversub] and
// [Handoff] each take a context (cancel it to stop between trials), a
// [Device] and a config whose zero value means the paper's defaults (5
// warm-ups, 25 trials; handoff 5 + 3 × 20; unset counts take the defaults of
// iters.go, and N(0) is an explicit zero). Configs are validated before
// anything touches the GPU, and invalid values are errors that say what is
// allowed. On error the returned frame holds every configuration that
// finished.
//
// # Definitions
//
// Each config type is a [Definition]: it knows its registry entries, its
// defaults and validation, the configurations it runs ([Config], each with
// its numeric bytes per iteration) and how to run one. [Registry], [Groups],
// [NewPlan], the progress counts and the command line's selection are
// derived from the definitions; sparse.go shows how a file adds one.
//
// # Method
//
// Timing uses CUDA events around the measured region on one stream; CPU
// work is timed with a monotonic clock. A measured kernel and its two events
// are queued behind a hold kernel that the host releases once all three are
// queued ([Device.TimeKernel], cuda.Latch), so they run back to back and
// neither launch latency nor a delayed host thread is counted: on the H200
// that took resident 256 MiB trials from 1–7 % variation to 0.6 %. Before every trial the memory state
// is re-established (explicit: copy in; cold: a fresh allocation that the
// CPU writes, or with [StateSetup] RewriteHome the data brought home and
// rewritten; prefetched: the same and a prefetch; reused: the same and one
// untimed GPU pass, then, where the kernel touches every page, the data
// rewritten in place on the GPU and one untimed pass; advised: advice at
// allocation and CPU writes), then
// untimed passes over a scratch buffer bring the GPU back to steady clocks
// (an idle GPU runs its next kernel up to a quarter slower), and after the
// timed kernel the result is checked outside the timed region: a failed
// check is an error. The observed range attributes of managed memory are
// recorded with every trial.
//
// # Devices
//
// [Device] is the small interface the benchmarks need. [Open] returns one
// backed by the cuda package; tests use a deterministic simulated GPU
// (umkit/simgpu), whose numbers are made up and never reported.
//
// # Whole runs
//
// [Run] measures a selection of benchmarks ([Registry], [Select]) into a
// results directory, appending each configuration as it finishes, so an
// interrupted run keeps its work and a resumed one skips it; [Describe]
// gathers the provenance written beside it. Benchmarks a device cannot run
// become waived rows with the reason.
//
// # Ownership and imports
//
// umkit owns the benchmark definitions, the run loop, provenance and the
// counter passes (it fills results.CounterRow; the counters.csv format is
// results'). It imports cuda, cuda/cupti, internal/nvmlguard and
// results; it must not import model, datasets, plots, nb, fleet or cmd.
package umkit
