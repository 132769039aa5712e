// Package report renders one run as a self-contained HTML page to attach
// to a paper: a table of contents; a methods paragraph generated from the
// run's meta.json and rows (warm-ups, trials, sizes, timer, rewrite method,
// commit, driver: plots.Methods); the device and its provenance; the
// paper's claims at a glance; the summary with the 95 % interval of every
// median and the quality flags with their legend; the named figures of the
// notebooks (plots.Catalog, the same definitions, as SVG data URIs); the
// reuse model with intervals; and the claims table of package claims. A
// simulated run carries a SIMULATED banner at the top. The page needs no
// network and no file beside it; every string is escaped by html/template.
// `umbench report` writes it.
//
// # Ownership and imports
//
// report owns the HTML page and its layout (page.html), nothing it shows:
// the numbers and sentences come from results, model, claims, datasets and
// plots, which it imports. It is pure Go; it must not import cuda (NVML
// included), umkit, fleet/node or cmd, and builds with CGO_ENABLED=0
// (.ci/run checks this). Only cmd/umbench imports it.
package report
