// Package plots draws umlab's figures and tables from tidy result rows
// ([results.Row]): the same rows come from a live run, a results directory
// and the embedded paper datasets, so every figure works on all three.
//
// # Named figures
//
// [Catalog] is the one table of umlab's figures: each [Named] figure
// selects its rows, draws them, lays the numbers it drew out as a table
// ([PointsFrame]), names in a caption the platforms, runs and sizes drawn,
// and reads them in sentences whose every number is a value of that table.
// The notebooks show an entry with nb.Figure(id); `umbench report` draws
// them all. A figure is defined here once.
//
// # Figures
//
// A [Figure] is one or more panels, at most two side by side, with one
// shared legend. By default a figure has one panel per platform (GB200,
// GH200, GB10 in the paper's order, then the others), all with the same axis
// ranges. What a reader relies on holds for any rows:
//
//   - no mark pools configurations: where rows of two GPUs, groups,
//     strides or runs would fall into one mark, the figure adds the column
//     that tells them apart to a key ([Figure.Points] lists the marks);
//   - one colour per memory state (Okabe–Ito; a handoff policy takes its
//     state's) and per platform (Tol's bright palette) in every figure;
//   - a log axis only where the values span more than [LogSpan], so the
//     reuse model is drawn as the straight line it is, and a model line only
//     for a size its panel shows;
//   - every mark is a median with the 95 % bootstrap interval of the median
//     as its error bar.
//
// The figure functions follow the paper's: [BandwidthVsSize], [Bars] (dots
// on stems, one group per category), [StrideSweep], [PageTouch],
// [Oversubscription] (with the paper's ranges stated below 100 % as bands),
// [HandoffReuse] (measured points and model lines F + R·G) and [Trials]
// (one configuration's trials with its median and interval). [Lines] is the
// general form behind the line figures. A [Key] ([By]) says which columns
// make a series, a panel or a category; [Where], [Except] and [Nearest]
// select rows. [CheckRatios] and [FleetDeviation] draw check and fleet
// comparisons.
//
// # Tables and text
//
// [PointsFrame] lays out a figure's marks, [ModelTable] reuse-model
// parameters as the paper's Table III, [Flags] the quality flags with what
// each means, and [Methods] says in a paragraph how a run measured, from
// its rows and meta.json. Tables are gota DataFrames with errors in their
// Err field, as gota does.
//
// # Errors
//
// Functions return an error, never panic, for data that cannot be drawn:
// no rows ([ErrNoData]) or nothing positive on a logarithmic axis. Waived
// rows and NaN are left out.
//
// # Rendering
//
// [Figure.PNG] renders at 96 dpi on a white background with gonum/plot's
// embedded Liberation fonts, so output is byte-for-byte deterministic; the
// package tests compare against golden images in testdata (go test
// ./plots -args -regen rewrites them). [Figure.SVG] names Arial after
// Liberation Sans instead of embedding the font.
//
// # Ownership and imports
//
// plots owns figures and tables. It imports results, stats, model,
// datasets, fleet and check, all pure Go, so plots builds with
// CGO_ENABLED=0; it must not import cuda, umkit, fleet/node, claims or nb
// (.ci/run checks that neither cuda nor NVML is among its dependencies).
// Fitting belongs to model.
package plots // import "github.com/umlab/umlab/plots"
