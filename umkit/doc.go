// Package umkit is umlab's benchmark library: the seven benchmark groups of
// the paper (Table II), each measured into rows of the tidy schema of
// package results, one row per trial.
//
// # Definitions
//
// A benchmark is defined once, in one file, by its configuration type,
// which implements [Definition]: the type with its defaults and validation
// (hbm.go: [HBMConfig]), the configurations it runs ([Config]: group,
// benchmark, mode, sizes, useful bytes per iteration and bound, which the
// runner stamps on every row), and a measure function that adds what only
// it knows and the measurements. A package-level register call adds it to
// the registry. [Registry], [Groups], [NewPlan], the progress counts,
// `umbench list` and the command line's selection are derived from the
// definitions; host_copy.go (host.mapped_copy) shows a whole benchmark in
// one file. The words in the rows (groups, modes, patterns, bounds) are
// results' constants.
//
// A definition's zero value means the paper's defaults (5 warm-ups, 25
// trials; handoff 5 + 3 × 20; unset counts take settings.go's defaults,
// and N(0) is an explicit zero). [Measure] runs one definition on a
// [Device] into a DataFrame. Definitions are validated before anything
// touches the GPU; invalid values are errors that say what is allowed. On
// error the frame holds every configuration that finished.
//
// # Method
//
// Timing uses CUDA events around the measured region on one stream; CPU
// work is timed with a monotonic clock. A measured kernel and its two events
// are queued behind a hold kernel that the host releases once all three are
// queued ([Device.TimeKernel], cuda.Latch), so neither launch latency nor a
// delayed host thread is counted: on the H200 that took resident 256 MiB
// trials from 1–7 % variation to 0.6 %. Before every trial the memory state
// is re-established (state.go), then untimed passes over a scratch buffer
// bring the GPU back to steady clocks (an idle GPU runs its next kernel up
// to a quarter slower), and after the timed kernel the result is checked
// outside the timed region: a failed check is an error. The observed range
// attributes of managed memory are recorded with every trial.
//
// # Devices
//
// [Device] is the small interface the benchmarks need. [Open] returns one
// backed by the cuda package; umkit/simgpu is the simulated GPU beside it,
// which the tests and `umbench run --simulate` use, whose numbers are made
// up and never reported.
//
// # Whole runs
//
// [Run] measures a selection of benchmarks ([Registry], [Select]) into a
// results directory, appending each configuration as it finishes, so an
// interrupted run keeps its work and a resumed one skips it; [Describe]
// gathers the provenance written beside it, including how each
// memory-state definition re-established its states. Benchmarks a device
// cannot run become waived rows with the reason.
//
// # Ownership and imports
//
// umkit owns the benchmark definitions, the run loop, provenance and the
// counter passes (it fills results.CounterRow; the counters.csv format is
// results'). It imports cuda, cuda/cupti, internal/nvmlguard and
// results; it must not import model, datasets, plots, nb, fleet or cmd.
package umkit
