// Package report renders one run as a self-contained HTML page: the
// device and its provenance, the paper's claims at a glance, the summary
// with quality flags, the figures of the six notebooks (PNG data URIs drawn
// by package plots), the reuse model with its validation, and the claims
// table of package claims. The page needs no network and no file beside
// it; every string is escaped by html/template. `umbench report` writes it.
package report
