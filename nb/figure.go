package nb

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/umlab/umlab/plots"
	"github.com/umlab/umlab/results"
)

// Shown is what Figure displays, for tests and for a notebook that wants
// the parts: the drawn figure with its table and reading, the caption
// naming the sources, and the claims said under it (Markdown).
type Shown struct {
	*plots.Shown
	Sources string // where the rows came from, by dataset or directory
	Claims  string
}

// Draw loads the data of a named figure (plots.Catalog) and draws it, with
// the claims its data measure checked on the local rows. Nothing to draw
// is an error wrapping plots.ErrNoData.
func Draw(id string) (*Shown, error) {
	n, err := plots.Lookup(id)
	if err != nil {
		return nil, err
	}
	rows, err := Load(n.Groups...)
	if err != nil {
		return nil, err
	}
	s, err := n.Draw(rows)
	if err != nil {
		return nil, err
	}
	out := &Shown{Shown: s, Sources: sourcesLine(s)}
	if len(n.Claims) > 0 && len(last.local) > 0 && drawsLocal(s) {
		run, gpu, err := localRun()
		if err != nil {
			return nil, err
		}
		if out.Claims, err = sayClaims(run, n.Notebook, n.Claims); err != nil {
			return nil, err
		}
		if gpu != "" && out.Claims != "" {
			out.Claims = fmt.Sprintf("The claims on GPU %s, the first of %d:\n\n", gpu, len(distinctGPUs(last.local))) + out.Claims
		}
	}
	return out, nil
}

// drawsLocal says whether a figure shows the local platform: the claims
// under it are checked on the local rows, so they are said only then.
func drawsLocal(s *plots.Shown) bool {
	return slices.ContainsFunc(s.Rows, func(r results.Row) bool { return r.Platform == Local() })
}

// sourcesLine names the datasets or directories the drawn rows came from.
func sourcesLine(s *plots.Shown) string {
	var parts []string
	for _, src := range last.sources {
		if slices.ContainsFunc(s.Rows, func(r results.Row) bool { return r.Platform == src.Platform }) {
			parts = append(parts, fmt.Sprintf("%s: `%s`", src.Platform, src.Name))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Sources: " + strings.Join(parts, "; ") + "."
}

// Figure displays a named figure (plots.Catalog) in one call: the figure,
// its caption and sources, what it shows in sentences computed from the
// numbers drawn, the table of those numbers, and the paper's claims that
// rest on them. A figure the data cannot draw is a note, not an error.
func Figure(id string) {
	s, err := Draw(id)
	if err != nil {
		if errors.Is(err, plots.ErrNoData) {
			Note("%s: nothing to show on these data (%v).", id, err)
			return
		}
		fail(err)
		return
	}
	if s.Figure != nil {
		Show(s.Figure, nil)
	} else {
		Markdown("**" + Text(s.Title) + "**")
	}
	Markdown("*" + Text(strings.TrimSpace(s.Caption+" "+s.Sources)) + "*")
	if len(s.Reading) > 0 {
		Markdown(bullets(s.Reading))
	}
	TableFolded(s.Table, "the numbers drawn")
	if s.Claims != "" {
		Markdown(s.Claims)
	}
}
