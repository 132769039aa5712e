// Package datasets holds, embedded in the binary, the figures published in
// the paper that umlab reproduces and the runs we measured ourselves, all in
// the one tidy schema of package results. A table or figure written for a
// live run works unchanged on every dataset here.
//
// # Datasets
//
// Each folder of the package directory that holds a results.csv is a
// dataset named after the folder, with a meta.json (results.Metadata) beside
// it. [List] describes them; [Load] and [LoadFrame] read one. The published
// datasets are
//
//	paper-gb200  GB200, the paper's primary platform
//	paper-gh200  GH200, the Grace–Hopper baseline
//	paper-gb10   GB10 (DGX Spark), used by the paper only for validation
//
// from Graddon, Jarmusch and Chandrasekaran, "Understanding NVIDIA
// Grace–Blackwell Unified Memory Through Placement-Controlled
// Microbenchmarks", arXiv:2610.20354. Measured datasets (folders such as
// h200-2026-07-01) are results directories written by umbench and copied in;
// README.md says how each was made.
//
// [LoadAny] accepts a dataset name or the path of a results directory, and
// [LoadMany] and [LoadManyFrame] put several side by side: the platform
// column tells platforms apart, run_id tells runs apart.
//
// # Published figures
//
// Every number the paper states in its text and tables (Sections V to IX,
// Tables I and III) is one row; numbers it shows only in figures are left
// out. A published row is a median: trial is 0 and verified is false. The
// source column names the section or table the figure comes from (V-A,
// Table III, ...), and reported is true for a figure stated in the paper and
// false for one derived from stated figures, as the note column explains.
// Bandwidths are useful bytes over time, in GB/s read as 1 GB = 1e9 bytes
// (umlab's convention; the paper does not define GB); handoff rows
// give total_ms, the time of one iteration.
//
// Two values exist only in the paper's data: the handoff phases
// [PhaseBaseline] (CPU-only plus GPU-only time, stated by the paper as one
// sum) and [PhaseExtra] (alternating time minus that sum). The page-touch
// rows have mode "managed" because the paper does not name the state of the
// managed allocation, and the prefetch and reuse references of the paper's
// separate advice-mode run have benchmark "advise" so that they do not
// collide with the size sweep's figures for the same configuration.
//
// # Model parameters
//
// Table III's reuse-model parameters are not trials; they live in a
// dataset's model.csv and are read with [ModelParameters] into package
// model's own types (model.Calibration: a model.Param and its validation
// errors), never into a type of this package.
//
// # Errors
//
// Loading an unknown name returns an error wrapping [ErrUnknown] that lists
// the known names. A malformed file gives an error naming the file and line.
//
// # The index
//
// [Index] describes every embedded dataset without reading its rows: what
// its metadata says and what its rows add up to (rows, GPUs, groups and
// their phases, configurations, trial counts, sizes). It is read from
// index.json, which go generate ./datasets writes ([BuildIndex]);
// TestIndexIsCurrent fails when it is stale. [Cover] picks, from it, the
// datasets a notebook's groups are taken from.
//
// # Resolving and the newest dataset
//
// [Resolve] is the one resolver of a data reference, used by umbench and by
// the notebooks alike: an embedded dataset's name, a results directory, or
// newest[:GROUP], the measured dataset [ByAge] puts first. ByAge is the one
// "newest dataset" rule: full runs before --quick ones, then the later start
// time, then the later name.
//
// # Ownership and imports
//
// datasets owns the embedded data, its descriptions, the resolver and the
// newest-dataset rule, and reads model.csv into model's types. It imports
// results and model (model never imports datasets) and must not import cuda,
// umkit, fleet/node, plots or nb.
package datasets
