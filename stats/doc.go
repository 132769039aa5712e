// Package stats holds the small, pure statistics umlab reports with its
// medians: the median itself and percentile-bootstrap confidence intervals
// (Efron's percentile method, resampling with replacement), seeded so that
// a report is reproducible.
//
// # One median, at the speed of the data
//
// [Median] is umlab's one median (NaN ignored, the mean of the two middle
// values for an even count); it selects rather than sorts. [MedianCI]
// never copies or sorts a resample: the values are ranked once, each
// resample is the number of times each index was drawn (for up to 127
// values, drawn once per process for every series of the same length and
// seed), and its median is read by adding up those counts in rank order.
// The draws are those of math/rand/v2's PCG and IntN, so every interval
// is the one the plain copy-and-sort bootstrap gives
// (TestSameNumbersAsBefore pins this).
//
// # Ownership and imports
//
// stats owns the median and the bootstrap intervals; grouping and the
// summary of trials stay in results, which imports it (as model does). It
// depends on gonum only and touches no GPU: it must not import any umlab
// package, and builds with CGO_ENABLED=0 (.ci/run checks this).
package stats
