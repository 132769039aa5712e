// Package check sets a run's measurements against a baseline's and says
// whether this GPU, and separately its host, still perform as they did:
// after a driver upgrade, in a node-acceptance job, in a Slurm prolog.
//
// # What bounds a configuration
//
// Every configuration is bound by one resource, declared by its benchmark
// definition (the rows' bound column): GPU memory, GPU launch and latency,
// the host link (pinned copies, host-mapped access), the host's pageable
// memory path, fault servicing (cold, advised and oversubscribed managed
// memory), the host CPU (the handoff's CPU-only phase) or a mix (the
// handoff's alternating phase). The first three make the GPU verdict, the
// others the host verdict: a slower host is reported as a host difference,
// with both hosts' CPUs, never as a GPU failure.
//
// # Method
//
// A side's rows may come from several processes (run IDs: a directory of
// runs, or umbench run --repeat N). For each configuration the change is
// the mean over processes of the log median, run minus baseline. Its
// variance adds the trials' noise (a bootstrap of each process's median)
// to the spread between processes — measured from the sides' processes
// where there are several, pooled with the calibration of the GPU model
// (Prior) worth two processes — and, when run and baseline are on
// different GPUs, the spread between nodes (from the calibration alone).
// A one-process baseline cannot measure its spread: the report says so
// and uses the calibration's, which is conservative (an upper 90 %
// confidence bound on each standard deviation; configurations it did not
// measure take their resource's 90th percentile).
//
// A resource's change is the inverse-variance weighted mean of its
// configurations' changes, with the spread common to all of them in one
// process (a process running slow as a whole) added to its variance.
//
// # Verdicts
//
// A change is judged against the larger of the threshold (Options.FailPct,
// 3 %) and the variation a healthy node shows (tol, the interval's
// half-width at Options.Confidence): fail when it is slower beyond both,
// inconclusive when it is slower than the threshold but within the
// variation, pass otherwise. On the H200's calibration a 5 % slowdown of
// GPU memory or of the host link fails every pair of its six repeats.
//
// With ~130 configurations judged at once a false alarm somewhere would be
// likely, so resources are judged with intervals Bonferroni-adjusted over
// the resources of their class, and a configuration's failure stands only
// at a false-discovery rate of Options.FDR (Benjamini–Hochberg) over the
// configurations of its class; one that does not is inconclusive. The GPU
// verdict is the worst of the GPU resources and of the GPU configurations
// that failed; the host verdict likewise. Report.OK gives the exit status:
// the GPU verdict alone, or, strict, both verdicts and conclusive.
//
// Unverified trials are no measurements: they are left out (the loaders
// leave them out and count them in Metadata.Unverified; rows given with
// them are counted here), and a run whose trials failed verification
// where the baseline's passed fails that configuration; one waived in the
// run but measured in the baseline fails too.
//
// # Like with like
//
// [Compare] refuses, with [ErrNotComparable], a baseline of published
// figures (one value per configuration), simulated data against measured,
// and runs on different GPU models (the platform column and the
// metadata's device name). Different trial or warm-up counts, drivers and
// commits are allowed and listed in Report.Notes: a driver upgrade is
// what a check is for.
//
// # Calibration
//
// prior_h200.json is generated (check/internal/calibrate/h200.sh) from six
// quick runs made back to back on one H200
// (datasets/h200-2026-12-03-repeat) and the default suites of five other
// H200 nodes. Calibrate makes a Prior for another GPU model from such
// runs.
//
// # Ownership and imports
//
// check owns the run-against-baseline comparison, its verdicts and their
// text (`umbench check`, plots' check figure). It is pure Go: it reads
// [results.Row] values and never touches a GPU. It imports results and
// stats and nothing else of umlab; it must not import cuda (NVML
// included), umkit, fleet/node or cmd, and builds with CGO_ENABLED=0
// (.ci/run checks this).
package check
