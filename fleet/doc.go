// Package fleet measures every GPU of a node and compares GPUs across
// nodes: it supervises one `umbench run` worker process per GPU, merges
// the results directories of many GPUs and nodes into one, and sets each
// GPU's medians against the fleet's.
//
// # Workers
//
// [RunNode] starts one worker per GPU (the umbench binary again, with
// `run --gpu N --out ROOT/<host>/gpuN` and the caller's selection flags),
// pinned from its first instruction to the CPUs nearest its GPU ([Discover]
// reads them through NVML, gated on a successful nvml.Init; [AssignCPUs]
// splits shared sets between concurrent workers). Workers run one at a
// time ([Isolated]: figures free of interference) or all at once
// ([Concurrent]: figures that include contention for host memory, PCIe and
// CPU cores). Each worker learns its mode from its environment ([EnvMode]
// and the others) and [Annotate] records it in its results: a token such as
// "fleet=concurrent:4" in the note column of every row, and a sentence in
// the metadata notes.
//
// [Supervise] is the process supervisor underneath: a worker that exits
// non-zero, runs past the per-worker timeout, or prints nothing for the
// stall limit is stopped (SIGTERM to its process group, SIGKILL after a
// grace period) and reported with its GPU and the end of its stderr, while
// the others finish. ROOT/<host>/workers.json ([Report]) holds every
// worker's outcome and is kept current while they run; each worker's
// stdout.log and stderr.log are in its results directory.
//
// # Merging
//
// [Load] walks directories for results (every directory with results.csv
// and meta.json is one GPU's part; a merged directory is split back into
// its parts) and refuses files whose columns differ from the schema with a
// [SchemaError] that names the columns. [Check] reports every other
// difference that weakens a comparison, precisely: configurations present
// on some GPUs only, trial and warm-up counts, waivers, umbench commits,
// drivers, run plans setting by setting, nvidia_uvm parameters, modes.
// [Merge] writes one results directory: all rows (each keeps its host, GPU
// UUID and run ID), the metadata the parts share, and fleet.json
// ([Manifest]) with each part's origin, metadata and the problems found.
//
// # Comparing
//
// [Compare] takes, for each configuration, each GPU's median (bandwidth
// where there is one, otherwise time) and the fleet median, the median of
// those medians, and flags a GPU beyond ±5 % of it (slow or fast, whatever
// the metric's direction) or with a robust z-score beyond 3.5, computed
// from the median absolute deviation of the GPUs' medians with a floor of
// 0.5 % of the median, so that GPUs agreeing to 0.1 % do not turn a 1 %
// difference into an outlier. GPUs measured in different modes or of
// different platforms are never compared with each other. [Frame] turns the
// result into a gota DataFrame, [PerGPU] sums it up per GPU, and
// plots.FleetDeviation draws it.
//
// With two GPUs the median lies halfway between them: when they differ by
// more than twice the tolerance both are flagged, one slow and one fast,
// and only a third GPU can say which is off.
package fleet
