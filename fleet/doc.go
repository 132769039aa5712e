// Package fleet compares GPUs across a node and across nodes: it merges
// the results directories of many GPUs into one and sets each GPU's
// medians against the fleet's. It is pure Go (no cgo, no NVML, no CUDA):
// the worker side that measures a node (spawning, pinning, supervision, GPU
// discovery) is package fleet/node.
//
// It owns the fleet's file formats (fleet.json, the "fleet=" token of a
// row's note and the worker environment, [Annotation]), merge, compare and
// their DataFrames. It imports results and stats and nothing else of umlab; it must
// not import cuda (NVML included) or umkit (.ci/run checks this).
//
// # Annotations
//
// A worker learns from its environment ([EnvMode] and the others) how it
// is measured within its node: one at a time ([Isolated]: figures free of
// interference) or all at once ([Concurrent]: figures that include
// contention for host memory, PCIe and CPU cores). [Annotate] records it
// in its results: a token such as "fleet=concurrent:4" in the note column
// of every row, and a sentence in the metadata notes; results.FleetMode
// reads it back.
//
// # Two levels: each GPU's digest, then the fleet
//
// A fleet of a thousand GPUs is tens of millions of trials; the analysis
// never holds them. [Load] walks directories for results (every directory
// with results.csv and meta.json is one GPU's part; a merged directory is
// split back into its parts) and reads each part as its digest: per
// configuration, the summary statistics, the medians and spread Compare
// reads, the counts Check reads and the run-to-run spread of the medians.
// A digest is made once from a results.csv and kept beside it
// ([CacheName]), made again when the file changes. Load leaves out the
// summaries' bootstrap intervals, which comparisons do not need;
// [LoadSummaries] reads them for [Summarize]. Rows stay on disk:
// [Part.EachRow] streams them where they are asked for. Results of older schemas read as every reader reads
// them; a file with a column this umbench does not know is a
// [SchemaError] that names it. Every directory passed over is named in a
// warning with the reason (symbolic links are not followed).
//
// # Merging
//
// [Check] reports every difference that weakens a comparison, precisely:
// configurations present on some GPUs only, trial and warm-up counts,
// waivers, umbench commits, drivers, run plans setting by setting,
// nvidia_uvm parameters, modes; it takes time in proportion to parts times
// configurations. [Merge] writes one merged directory: each part's rows in
// a results directory of its own (a shard, results.ShardsDir: copied as
// they are, never held together, so that no file passes a reader's
// limits), the metadata the parts share, and fleet.json ([Manifest]) with
// each part's origin, shard, metadata and the problems found. It refuses
// simulated parts with measured ones, a part whose run still holds its
// lock, an --out that is not empty and one another merge holds, before it
// writes anything.
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
// plots.FleetDeviation draws it. [Summarize] is umbench summary of every
// part, from their digests.
//
// With two GPUs the median lies halfway between them: when they differ by
// more than twice the tolerance both are flagged, one slow and one fast,
// and only a third GPU can say which is off.
package fleet
