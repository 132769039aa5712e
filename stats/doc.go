// Package stats holds the small, pure statistics umlab reports with its
// medians: the median itself and percentile-bootstrap confidence intervals
// (Efron's percentile method, resampling with replacement), seeded so that
// a report is reproducible. It depends on gonum only and touches no GPU.
package stats
