// Package check sets a run's measurements against a baseline's,
// configuration by configuration, and says whether this GPU still performs
// as it did: after a driver upgrade, in a node-acceptance job, in a Slurm
// prolog.
//
// # Method
//
// For every configuration present in both (same benchmark, mode, sizes,
// strides, oversubscription level and fleet mode), the ratio of the run's
// median bandwidth to the baseline's is estimated with a percentile
// bootstrap: both samples are resampled with replacement, independently,
// and the ratio of medians is taken each time. The interval is the central
// Options.Confidence of those ratios. A ratio below 1 means the run is
// slower.
//
// # Verdicts
//
// With the default thresholds (Options.FailPct 5, Options.WarnPct 2):
//
//   - fail: the whole interval lies below −5 % (certainly more than 5 % slower;
//     reason "below -5 %"), or the run has unverified trials where the
//     baseline had none;
//   - warn: the whole interval lies below −2 % ("below -2 %"), or the median
//     ratio is below −5 % while the interval is too wide to be sure
//     ("median < -5 %"), or the configuration is waived in the run but was
//     measured in the baseline;
//   - pass: anything else; a whole interval above +5 % says "above +5 %"
//     (faster than the baseline: worth a look at the settings);
//   - skip: too few trials on one side (Options.MinTrials) to judge.
//
// # Like with like
//
// [Compare] refuses, with [ErrNotComparable], a baseline of published
// figures (one value per configuration), and runs on different GPU models
// (the platform column and the metadata's device name). Different trial or
// warm-up counts, drivers and commits are allowed and listed in
// Report.Notes: a driver upgrade is what a check is for.
//
// # Ownership and imports
//
// check owns the run-against-baseline comparison, its verdicts and their
// text (`umbench check`, plots' check table). It is pure Go: it reads
// [results.Row] values and never touches a GPU. It imports results and
// nothing else of umlab; it must not import cuda (NVML included), umkit,
// fleet/node or cmd, and builds with CGO_ENABLED=0 (.ci/run checks this).
package check
