// Package model turns umlab measurements into the measurement-calibrated
// analytical model of the paper's Section VIII: a reuse-amortized model of
// CPU–GPU handoff that is calibrated, validated and used to advise, and a
// decomposition of measured time into compute, access and memory-management
// terms. It reads the tidy rows of package results, so a live run, a results
// directory and an embedded dataset all work the same way.
//
// # Reuse-amortized model
//
// For a handoff policy p (ExplicitCopy, HostMapped, Managed,
// ManagedPrefetch), working set B and R GPU passes after each CPU update,
// one iteration is modelled as (Section VIII-B)
//
//	T̂_p(B, R) = F_p(B) + R·G_p(B)
//
// where F is the fixed cost of the CPU update and the handoff and G the cost
// of one GPU pass. [Calibrate] takes G from the median gpu_only time and
// F = T(B, 1) − G from the median alternating time at R = 1; nothing else is
// used for calibration. [Fit] calibrates and then validates on every
// alternating measurement with R ≠ 1 (the paper uses 2, 4, 8, 16 and 32),
// giving each point's absolute percentage error, the median and maximum per
// policy and size, and the median over sizes of at least
// Options.MinSizeBytes (16 MiB by default: the paper leaves out 64 KiB and
// 2 MiB, where launch and timing overheads are comparable to memory access).
// At each validation size and R the policy predicted fastest is compared with
// the one measured fastest, and the matches are counted beside the score of
// always naming the best constant policy at the same points: the model
// discriminates only where it scores more ([Report.Discriminates]). Every
// interval is a bootstrap: trials resampled (alternating sweeps round by
// round, as measured), the model recalibrated on each replicate; the
// aggregate median APE's is that of the aggregate itself.
//
// Published parameters, such as Table III, need no rows: [NewModel] builds a
// model from a slice of [Param], [FromParams] a report, and [Validate] checks
// such a model against measured rows.
//
// # Crossovers
//
// Two policies cost the same at R* = (F_a − F_b)/(G_b − G_a) (Section
// VIII-C). [CrossoverOf] returns a typed [Crossover], not a bare number: the
// lines may cross at some R* > 0, one policy may be faster at every R (also
// when R* ≤ 0), the lines may be parallel (equal G: the smaller F always
// wins) or identical.
//
// # Advice
//
// [Advise] ranks the calibrated policies for a [Workload] (working-set size,
// GPU passes per CPU update, access pattern) by predicted time, gives the
// break-even reuse against the runner-up and one sentence on why the first
// wins. Between calibrated sizes F and G are interpolated linearly in size,
// which is exact when a cost is a fixed part plus a per-byte part, and the
// advice says so; outside the calibrated sizes they are extrapolated
// ([Model.At] says how) with a warning, as are reuse beyond the validated
// range and access patterns the handoff benchmark does not measure.
//
// # Cost decomposition
//
// [Decompose] splits each managed, pattern, oversub and alternating handoff
// configuration into T_compute + T_access + T_fault + T_migration +
// T_eviction + T_sync and a residual (Section VIII-A). Access is useful
// bytes over calibrated bandwidths (HBM from the hbm triad, CPU memory from
// the host-mapped triad); the management terms are differences between
// memory states measured in the same rows: cold against resident kernels
// (fault and migration), prefetch time (migration), oversubscribed against
// below-capacity bandwidth (eviction), alternating against CPU-only plus
// GPU-only (synchronisation and handoff). A term whose inputs are missing is
// NaN with a note, never a failure. [DecompositionFrame] gives the table a
// notebook plots to show which term dominates where.
//
// # Output
//
// Reports and decompositions come as typed structs and as gota DataFrames
// ([Report.CalibrationFrame], [Report.PointsFrame], [Report.CrossoverFrame],
// [Report.FastestFrame], [DecompositionFrame]). [Report.WriteTable],
// [Advice.WriteText] and [WriteDecomposition] write plain text for the
// command line; [Report.WriteCSV] and [WriteFrameCSV] write CSV with full
// float precision and NaN as an empty field, as the results files do.
//
// # Errors
//
// Bad input is an error that wraps [ErrBadInput] and says what is missing
// or wrong: no handoff or gpu_only rows, a policy or size without its R = 1
// or GPU-only measurement, a policy of Options.Require missing at a size,
// alternating rows at one R only, a single policy, negative or infinite
// times, rows from several platforms. Nothing in the package panics on data.
//
// # Ownership and imports
//
// model owns fitting, validation, crossovers, advice, the cost decomposition
// and [Param], umlab's one model-parameter type ([Calibration] adds its
// validation errors). It imports results and
// nothing else of umlab; it must not import datasets (datasets imports model
// to read published parameters into Param), plots, umkit or cuda.
package model
