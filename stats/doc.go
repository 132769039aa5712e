// Package stats holds the small, pure statistics umlab reports with its
// medians: the median itself and percentile-bootstrap confidence intervals
// (Efron's percentile method, resampling with replacement), seeded so that
// a report is reproducible.
//
// # Ownership and imports
//
// stats owns the median and the bootstrap intervals; grouping and the
// summary of trials stay in results, which imports it (as model does). It
// depends on gonum only and touches no GPU: it must not import any umlab
// package, and builds with CGO_ENABLED=0 (.ci/run checks this).
package stats
