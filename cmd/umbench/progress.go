package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/umlab/umlab/umkit"
)

// progress draws a one-line bar with ETA on a terminal, or a line per
// configuration otherwise.
type progress struct {
	w    io.Writer
	tty  bool
	last int
}

func newProgress(w io.Writer) *progress {
	return &progress{w: w, tty: isTerminal(w)}
}

func (p *progress) update(pr umkit.Progress) {
	eta := "?"
	if pr.ETA > 0 {
		eta = pr.ETA.Round(time.Second).String()
	}
	if !p.tty {
		fmt.Fprintf(p.w, "[%d/%d] %s (elapsed %s, ETA %s)\n", pr.Done, pr.Total, pr.Config, pr.Elapsed.Round(time.Second), eta)
		return
	}
	const width = 30
	filled := width * pr.Done / max(pr.Total, 1)
	line := fmt.Sprintf("\r[%s%s] %d/%d ETA %s  %s", strings.Repeat("#", filled), strings.Repeat(".", width-filled), pr.Done, pr.Total, eta, pr.Config)
	pad := max(p.last-len(line), 0)
	fmt.Fprint(p.w, line+strings.Repeat(" ", pad))
	p.last = len(line)
}

func (p *progress) finish() {
	if p.tty && p.last > 0 {
		fmt.Fprintln(p.w)
	}
}
