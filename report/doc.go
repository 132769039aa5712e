// Package report renders one run as a self-contained HTML page: the
// device and its provenance, the paper's claims at a glance, the summary
// with quality flags, the figures of the six notebooks (PNG data URIs drawn
// by package plots), the reuse model with its validation, and the claims
// table of package claims. The page needs no network and no file beside
// it; every string is escaped by html/template. `umbench report` writes it.
//
// # Ownership and imports
//
// report owns the HTML page and its layout, nothing it shows: the numbers
// and sentences come from results, model, claims, datasets and plots,
// which it imports. It is pure Go; it must not import cuda (NVML
// included), umkit, fleet/node or cmd, and builds with CGO_ENABLED=0
// (.ci/run checks this). Only cmd/umbench imports it.
package report
