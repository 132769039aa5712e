// Command umbench measures, summarises and models CUDA Unified Memory on
// the GPU it runs on; without one, it reads the embedded datasets and runs
// on a simulated GPU.
//
//	umbench info | list | datasets            the GPU, the benchmarks, the embedded runs
//	umbench run [--quick] [--simulate] ...    measure; results go to --out as they finish
//	umbench summary|model|decompose|counters  DIR | --dataset NAME
//	umbench advise --size 1GiB --reuse 4      [DIR | --dataset NAME]
//	umbench reproduce|report|compare|merge    DIR... | --dataset NAME[,NAME]
//	umbench check --baseline NAME|DIR         [DIR | --dataset NAME] (default: a quick run here)
//
// # Layout
//
// One file per command (info.go, run.go, summary.go, ...), each a flag set
// on a cobra command and calls into the libraries; help.go holds the one
// help layout (100 columns) and source.go the one way every reading
// command names its data. Every command exits non-zero on failure (2 for
// a usage error, 3 at a run's --time-limit, 130 when interrupted) and
// never panics on a missing driver or GPU: nogpu.go says what to do
// instead.
//
// # Output
//
// Standard output and error pass through internal/sanitize's Writer
// (output.go), so that no terminal escape or bidi override read from a
// data file reaches the terminal raw. Unverified trials, which the loaders
// leave out, are counted in one line by every command that computes from
// trials (unverified.go).
//
// # Ownership and imports
//
// umbench owns only the command line: flags, output and exit codes.
// Library questions are answered by the packages: which data a name means
// (datasets.Open, datasets.Parts), summaries and their headlines (results),
// the model (model), fleet merge and compare (fleet), the worker side of a
// node run (fleet/node) and measurements (umkit). It may import every
// umlab package; none imports it.
package main
