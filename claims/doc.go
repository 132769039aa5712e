// Package claims holds every finding of the paper umlab reproduces
// (Graddon, Jarmusch and Chandrasekaran, arXiv:2610.20354: the abstract,
// Sections V to IX and Table III) as an executable check, and judges a run
// against each.
//
// # Claims
//
// A [Claim] has an id ("V-C.cold-fraction"), the paper's section, the
// statement, the published dataset its figure is computed from
// (paper-gb200, paper-gh200 or paper-gb10; the figures are read from the
// embedded datasets, never retyped, except the three the paper states only
// as text: the 4683–4736 and 4674–4701 GB/s ranges of VII-A, the 0.40 %
// aggregate error and "all 20" policy matches of VIII-C), a Measure
// function computing the same quantity from any run's rows, the relation
// claimed ([Relation]: near a figure, at most or at least a bound, the same
// ordering) and, where the paper leaves it open, the ambiguity the claim
// rests on (1 GiB triad read as per array, GB = 10^9 bytes, dense against
// sparse random, what the streaming kernel counts, the page-touch state).
//
// # Verdicts
//
// [Evaluate] checks every claim on a [Run] and gives each a [Verdict]:
// Reproduces (the relation holds), Qualitative (same direction, different
// magnitude, with both figures), KnownReason (it differs and the run's
// device facts or its own data say why: a PCIe link instead of
// NVLink-C2C, no direct host access to managed memory, a dense random
// benchmark, the CPU update's variation...), Unexplained, or NotMeasured
// (and why: a missing group, oversubscription above 100 % without the
// opt-in, a claim that compares two platforms). [Facts] are derived from
// the run's meta.json.
//
// # Output
//
// [Write] prints the checks as text, Markdown or CSV; [Frame] gives them as
// a DataFrame; [Check.Sentence] says one in a sentence whose numbers come
// from the data, for notebooks.
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
