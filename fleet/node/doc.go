// Package node is the worker side of a fleet run: it measures every GPU of
// one node with one `umbench run` worker process per GPU.
//
// It owns spawning, CPU pinning, supervision, GPU discovery (CUDA for the
// devices, NVML for the CPUs nearest each, gated by internal/nvmlguard) and
// workers.json. It may import cuda (cuda/nvml too), results and fleet; the pure
// packages (results, fleet, model, datasets, plots) must not import it.
//
// [RunNode] starts one worker per GPU (the umbench binary again, with
// `run --gpu N --out ROOT/<host>/gpuN` and the caller's selection flags),
// pinned from its first instruction to the CPUs nearest its GPU ([Discover]
// reads them through NVML, gated on a successful nvml.Init; [AssignCPUs]
// splits shared sets between concurrent workers). Workers run one at a
// time ([fleet.Isolated]) or all at once ([fleet.Concurrent]). Each
// worker learns its mode from its environment ([fleet.EnvMode] and the
// others), and after it ends [fleet.Annotate] records the mode in its
// results.
//
// [Supervise] is the process supervisor underneath: a worker that exits
// non-zero, runs past the per-worker timeout, or prints nothing for the
// stall limit is stopped (SIGTERM to its process group, SIGKILL after a
// grace period) and reported with its GPU and the end of its stderr, while
// the others finish. ROOT/<host>/workers.json ([Report]) holds every
// worker's outcome and is kept current while they run; each worker's
// stdout.log and stderr.log are in its results directory.
package node
