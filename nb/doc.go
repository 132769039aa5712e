// Package nb is the glue between umlab and a GoNB notebook: it displays
// figures, tables and text in the notebook, and it chooses where a
// notebook's data comes from. A notebook cell is one or two calls.
//
// # Cells
//
// [Figure] shows a named figure of plots.Catalog in one call: the figure,
// a caption naming its runs, sentences computed from the numbers drawn,
// the table of those numbers, and the paper's claims that rest on them
// (each reason written once per notebook). [Method] says how the local run
// measured and what its quality flags are; [Summary] what a notebook showed
// on the data loaded; [ClaimsTable] its sections' claims; [Counters] the
// counter passes of the local platform, from the figures' run or with both
// runs named; [Advise] the decision guide of notebook 06. nb/claims.go is
// the one place that uses package claims.
//
// # Display
//
// [Markdown], [HTML], [PNG], [Show] (a figure from package plots) and
// [Table] (a gota DataFrame as an HTML table) display in the notebook and
// then wait for GoNB to acknowledge (gonbui.Sync): GoNB stops reading the
// display pipe when the cell's process exits, and output sent just before
// that is otherwise sometimes lost. Outside a notebook they print nothing.
//
// [Show] and [Table] display a short note instead of a figure or table when
// the data has nothing to draw ([plots.ErrNoData]): a platform that lacks a
// measurement is not an error in a teaching notebook. Any other error fails
// the cell (they panic), so a broken figure never passes a headless run.
//
// # Data: live or bundled
//
// [Data] returns the rows of the given benchmark groups: the paper's
// published platforms (GB200, GH200, GB10) and one local platform, side by
// side. Where the local rows come from depends on the mode ([Mode]):
//
//   - live: a CUDA driver and a GPU are present (umkit.Available). The
//     groups are measured with umkit's quick sizes (or as [Options] say),
//     the progress is shown in the cell, and the results are kept under the
//     cache directory (~/.cache/umlab/notebooks, or $UMLAB_CACHE_DIR): a
//     later cell, or a re-run, reads them back (umkit's resume) instead of
//     measuring again. UMLAB_REFRESH=1 measures again, once per kernel
//     session.
//   - bundled: no GPU. The local platform is, group by group, the newest
//     measured h200-* dataset embedded in package datasets that holds the
//     group, or the dataset or results directory named by
//     UMLAB_LOCAL_DATASET (only the groups asked for; "none" shows the
//     paper alone).
//
// UMLAB_NOTEBOOK_MODE=live or bundled forces a mode (CI runs bundled).
// UMLAB_NOTEBOOK_MODE=simulated (or fake) runs the live path on the
// simulated GPU the tests use (umkit/simgpu: platform "Fake", made-up
// numbers, cached apart, its source of kind "simulated"): it tests a
// notebook's live path, progress display and cache on a machine without a
// GPU. Every GoNB cell is a new process, so each cell that needs data calls
// [Data]; bundled data loads in milliseconds and live data from the cache.
//
// # Options
//
// [Options] choose the groups, sizes, trial and warm-up counts (umkit's
// quick ones by default, or the paper's with Full) and the mode of a live or
// simulated measurement: nb.Options{Groups: []string{"managed"},
// Sizes: []int64{1 << 30}}.Data(). The live path calls umkit directly
// (umkit.Open, umkit.Run); its cache lives under
// <cache>/<gpu|simulated>/<GPU UUID>/<options>/<group>, so another GPU or
// other options measure afresh. [Data] and [Load] are Options{Groups: ...}.
//
// # Ownership and imports
//
// nb owns the notebook data layer and display. It imports umkit (live and
// simulated runs), umkit/simgpu, plots, claims, model, datasets (the one
// resolver) and results; a notebook never talks to cuda, and nb must not
// import it directly.
package nb // import "github.com/umlab/umlab/nb"
