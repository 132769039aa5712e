// Package plots draws umlab's figures and tables from tidy result rows
// ([results.Row]): the same rows come from a live run, a results directory
// and the embedded paper datasets, so every figure works on all three.
//
// # Figures
//
// A [Figure] is one or more panels drawn side by side with one shared
// legend to their right. By default a figure has one panel per platform
// (GB200, GH200, GB10 in the paper's order, then any other platform such as
// the local H200), all with the same axis ranges, so the platforms can be
// compared at a glance; series keep their colour across panels.
//
//	fig, err := plots.StrideSweep(rows, plots.Options{})
//	png, err := fig.PNG()
//
// The figures follow the paper's:
//
//   - [BandwidthVsSize]: useful bandwidth against working-set size, log-log,
//     with sizes labelled in powers of two (64 KiB, 1 MiB, ...);
//   - [Bars]: grouped bars, one group per category (mode, path) and one bar
//     per series (platform), on a linear axis;
//   - [StrideSweep], [PageTouch]: bandwidth against stride or page interval;
//   - [Oversubscription]: bandwidth against the footprint as a percentage of
//     GPU memory, with the capacity boundary marked;
//   - [HandoffReuse]: time per CPU–GPU exchange against the GPU passes R
//     after each CPU update, measured points and the model lines F + R·G.
//
// [Lines] is the general form behind the line figures: any two columns. A
// [Key] ([By]) says which columns make a series, a panel or a category.
//
// # Tables
//
// [Summary] describes rows grouped by some columns (median, min, max and
// coefficient of variation, computed with gonum); [Pivot] lays one median
// out as a grid, such as mode × platform. All return gota DataFrames,
// sorted (gota's own aggregation returns rows in random order), with
// errors in the frame's Err field as gota does.
//
// # The reuse model
//
// [FitReuse] fits package model's reuse model (model.Fit) to each
// platform's handoff rows; [PublishedModels] reads the parameters a
// dataset publishes (the paper's Table III). [ModelTable] lays parameters
// out as Table III, [CompareModels] sets published beside fitted ones, and
// [AdviceTable] asks the advisor (model.Advise) for a list of workloads.
// [HandoffReuse] draws the fitted or published lines over the measurements.
//
// # Errors
//
// Functions return an error, never panic, for data that cannot be drawn:
// no rows ([ErrNoData]) or nothing positive on a logarithmic axis. Rows that
// are waived, NaN, or not positive on a log axis are left out (gonum/plot
// panics on values ≤ 0 on a log scale); error bars are clamped to stay
// positive. Bar charts always use a linear axis for the same reason.
//
// # Rendering
//
// [Figure.PNG] renders at 96 dpi on a white background with gonum/plot's
// embedded Liberation fonts, so output is byte-for-byte deterministic; the
// package tests compare against golden images in testdata (go test -regen
// rewrites them). [PNG] renders a single *plot.Plot.
//
// # Ownership and imports
//
// plots owns figures and tables. It imports results, model, datasets,
// fleet and check, all pure Go, so plots builds with CGO_ENABLED=0; it must not import
// cuda, umkit, fleet/node or nb (.ci/run checks that neither cuda nor NVML
// is among its dependencies).
package plots // import "github.com/umlab/umlab/plots"
