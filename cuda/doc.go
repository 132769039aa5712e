// Package cuda is umlab's binding to the NVIDIA CUDA driver, shaped for
// Unified Memory benchmarks. With cuda/cupti it holds all of umlab's cgo.
//
// # Loading
//
// Nothing links against libcuda. [Init] opens libcuda.so.1 with dlopen,
// resolves every entry point eagerly through cuGetProcAddress_v2 (or dlsym
// of the explicit versioned names on drivers without it) into a table, and C
// trampolines call through that table. The declarations are our own
// (umlab_cuda.h), checked against CUDA 13.0. So `go build` needs neither a
// CUDA toolkit nor a driver, and a binary runs wherever a driver is
// installed. Without one, Init returns an error wrapping [ErrNoDriver] that
// says what was looked for.
//
// # Kernels
//
// The kernels (kernels/umlab.cu) are compiled to PTX for compute_75 by a
// pinned nvcc (`go generate ./cuda`), committed, and embedded. [NewContext]
// loads them, so JIT compilation happens before any timed region and is
// reported by [Context.ModuleLoadTime]. The PTX is ISA 9.0, which needs
// driver R580 (CUDA 13.0) or newer; older drivers get [ErrPTXTooNew].
//
// A [Latch] holds a stream with a spinning one-thread kernel until the host
// releases it (or a timeout passes), so that work queued behind it, such as
// an event, a kernel and an event, runs back to back: event timings then
// exclude launch latency and host delays.
//
// # Contexts and threads
//
// A [Context] wraps a device's primary context. CUDA binds contexts to OS
// threads; every Context method makes its context current inside the same C
// call that does the work, so goroutines need not lock OS threads.
//
// # Memory
//
// Buffers come in five kinds ([MemKind]): device, managed, pinned host,
// mapped pinned host and pageable host. Device and managed allocations are
// refused with an error matching [ErrWouldOversubscribe] when they would
// leave less than a margin of device memory free; managed oversubscription
// needs [Context.SetOversubscription]. [Context.Prefetch], [Context.Advise]
// and [Context.RangeAttributes] use the CUDA 12.2 (_v2) entry points when the
// driver has them and the legacy ones otherwise.
//
// # Data and checks
//
// Buffers are filled with [SeedValue], small integers from a hash, by the
// device ([Context.Fill]) or the CPU ([FillHost]); every benchmark operation
// on them is exact, so checks ([Context.CheckAffine], [CheckAffineHost], ...)
// compare for equality. CPU loops are C, so CPU timings measure memory.
//
// # Errors
//
// Driver failures are [Result] values (with the driver's names, available
// without a driver) wrapped with the call that failed. Bad sizes, buffers and
// launch shapes are errors wrapping [ErrInvalidArgument] that name the call
// or kernel. Nothing panics on a runtime condition.
//
// # Ownership and imports
//
// cuda owns the driver binding (dlopen, the entry-point table, the
// trampolines), contexts, streams, events, allocations with their guard,
// Unified Memory calls, the kernels and the CPU loops. cgo lives only here,
// in cuda/cupti and in cuda/nvml, and cuda imports nothing of umlab (.ci/run
// checks both). Only umkit, cuda/cupti, fleet/node, umkit/simgpu and
// cmd/umbench import it; the pure packages (results, fleet, model,
// datasets, plots) must not, directly or indirectly.
package cuda
