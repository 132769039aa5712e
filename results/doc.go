// Package results is the one tidy schema that every umlab result uses: a live
// benchmark run, a results directory written by umbench, and the datasets
// embedded from the paper all become the same long DataFrame, one row per
// trial, with the column names declared here.
//
// # Schema
//
// Columns are snake_case and carry their unit in their name (size_bytes,
// kernel_ms, gbps). [Columns] lists them in file order; [Row] is the Go form
// of one row. Numbers that do not apply to a row are NaN in memory and empty
// in CSV, never zero.
//
// # Files
//
// [WriteCSV] writes full float precision (gota's own writer rounds to six
// decimals, which turns 1.5e-7 ms into 0). [ReadCSV] checks the header and
// every value and reports the file and line of anything malformed.
// [RowReader] and [RowWriter] are the same one row at a time, so that a
// file of any size streams through without being held; both go through
// one typed table of a row's fields, so no value is boxed on its way. A
// results directory holds results.csv and meta.json ([Metadata]); [Appender]
// adds rows as configurations finish so that an interrupted run keeps what
// it measured, under a lock ([LockDir]; [Held] tells whether a run holds
// it). A merged fleet keeps its rows in shards ([ShardsDir]), each a GPU's
// results directory, which [LoadDir] reads whole up to the limit of one
// file.
// counters.csv, the counter passes of a --counters run, is also defined here
// ([CounterRow], [ReadCounterCSV], [WriteCounterCSV], [CounterAppender],
// [JoinCounters]): umkit fills and writes its rows, every reader reads them
// through this package.
//
// # Safe files and bounded readers
//
// Every file of a results directory is written relative to the directory
// without following a symbolic link, and must be a regular file of one
// link ([ErrNotRegular] otherwise); [WriteFileAtomic] replaces only a
// regular file and honours the umask; [LockDir] is taken before anything
// else in the directory is touched, and a refused LockDir writes nothing.
// [CheckOutput] and [WriteOutput] are the check and the write of a
// command's own output file, which may not be one of a run's files
// ([RunFiles]). Every reader checks the file type before a non-blocking
// open (a FIFO never hangs it) and stops at [MaxCSVBytes], [MaxLineBytes],
// [MaxCSVRows] or [MaxMetaBytes] ([ErrTooLarge]), naming the file and the
// limit; each has a fuzz target (FuzzReadCSV, FuzzReadCounterCSV,
// FuzzReadMetadata, FuzzResume).
//
// # Unverified trials
//
// [ScreenUnverified] is the one place unverified trials are left out of the
// rows used for statistics; the loaders in package datasets call it and put
// the count in [Metadata].Unverified for every command to say.
//
// # Summaries
//
// [Summarize] groups trials by configuration and computes median, min, max,
// standard deviation and coefficient of variation with gonum and the
// median's bootstrap interval with stats, then adds the quality flags a
// reader needs to trust a number. It is [DescribeTrials] (itself
// [DescribeTrialStats] and [TrialIntervals]) per configuration, then
// [SummaryOptions.Finish]: a summary kept on disk (package fleet's
// per-GPU digests) is finished as it is read.
//
// # Names, formatting, grouping, frames
//
// The values of the group, benchmark, mode, pattern, policy, phase and
// direction columns are constants here ([GroupHBM], [ModeManagedCold],
// [PolicyExplicitCopy], ...). [FormatBytes], [FormatNumber] and [FormatRate]
// are umlab's one byte and rate formatting, [Sig4] and [Decimals4] its
// four-significant-digit rounding, [AlignLines], [Wrap], [CutRunes] and
// [TableWidth] its plain-text table layout; [GroupStats] its one
// group-by-and-median helper; [Build] its one DataFrame builder, driven by the
// column table ([RowFields], [ConfigFields]); [ReadJSON] its one reader of
// JSON files.
//
// # Ownership and imports
//
// results owns the schema and its column table, the CSV and metadata files,
// the appender, the counters file format, summaries and the helpers above.
// It imports stats (the bootstrap intervals of summaries) and nothing else
// of umlab; it must not import cuda, umkit or any package that imports
// results, and builds with CGO_ENABLED=0.
package results
