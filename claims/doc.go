// Package claims holds every finding of the paper umlab reproduces
// (Graddon, Jarmusch and Chandrasekaran, arXiv:2610.20354: the abstract,
// Sections V to IX and Table III) as an executable check, and judges a run
// against each.
//
// # Claims
//
// A [Claim] has an id ("V-C.cold-fraction"), the paper's section, the
// statement, the published dataset its figure is computed from
// (paper-gb200, paper-gh200 or paper-gb10), a Measure function computing
// the same quantity from any run's rows, the relation claimed ([Relation]:
// near a figure, at most or at least a bound, the same ordering), the
// claimed direction where there is one, the mechanisms that may explain a
// difference and, where the paper leaves it open, the ambiguity the claim
// rests on. The statements' figures are read from the paper's datasets
// (and Table III's parameters), never typed; only the few the paper states
// in its text alone (VII-A's 25–90 % ranges, VIII-C's 0.40 % and 20 of
// 20) are constants. A claim names its sizes: no other size stands in for
// a missing one (a claim may accept a range, and then names the sizes it
// used).
//
// # Intervals
//
// Every measured figure carries a 95 % bootstrap interval, the percentile
// interval of the figure over replicates of the whole run: each replicate
// resamples the runs (where several runs of one machine and suite were
// combined, see [Load]), then each configuration's trials (the handoff's
// alternating sweeps round by round, as measured); every handoff
// configuration that updates on the CPU takes a draw of the CPU update's
// configuration-to-configuration variation measured in the same run; and
// a single measured run's figure takes a draw of its claim's run-to-run
// deviation, measured over five full H200 runs (TestStability writes
// tolerance.json). The components a figure is computed from show
// their own intervals in its text.
//
// # Verdicts
//
// [Evaluate] checks every claim on a [Run] and gives each a [Verdict]
// from the interval: Reproduces (the whole interval satisfies the relation
// and the direction), Qualitative (the whole interval lies outside the
// relation and inside the direction), KnownReason or Unexplained (it lies
// outside the direction, or outside the relation of a claim without one),
// Inconclusive (it straddles a line) or NotMeasured (the data the claim
// names are absent, an absolute figure of another device, a comparison of
// two platforms with one, or simulated data, which get no verdict). A
// [Mechanism] predicts the figure from the run's device facts ([Facts],
// from meta.json: the link and its bandwidth, the shared pool, concurrent
// managed access, ATS/HMM, direct managed access from the host, the
// handoff's CPU threads) and its own data; it explains a difference only
// where its prediction lies on the same side of the paper's tolerance and
// direction as the measured figure, within its stated factor. A check says
// which runs its figure rests on.
//
// # Output
//
// [Write] prints the checks as text, Markdown or CSV, with the intervals
// and [IntervalsNote].
//
// # Ownership and imports
//
// claims owns the catalogue of the paper's findings, their measures,
// verdicts and reasons, and the text that says them. It is pure Go: it
// imports results, datasets and model, never the GPU; it must not import
// cuda (NVML included), umkit, fleet/node, plots, report or cmd, and
// builds with CGO_ENABLED=0 (.ci/run checks this). report and
// cmd/umbench import it.
package claims
