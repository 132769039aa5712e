package main

import (
	"fmt"
	"path/filepath"

	"github.com/umlab/umlab/check"
	"github.com/umlab/umlab/plots"
	"github.com/umlab/umlab/results"
)

// checkFigures draws the node check per resource for the last repeat
// against the other five, as measured and with its device-memory rows
// planted 5 % slower, as files of docs/, and returns the README's lines
// showing them.
func checkFigures() (string, error) {
	dirs, _ := filepath.Glob(filepath.Join(root, repeatDir, "run*"))
	if len(dirs) < 3 {
		return "", fmt.Errorf("%s: %d runs, want at least 3", repeatDir, len(dirs))
	}
	var base []check.Side
	var run check.Side
	for i, d := range dirs {
		rows, m, err := results.LoadDir(d)
		if err != nil {
			return "", err
		}
		s := check.Side{Name: filepath.Base(d), Rows: rows, Meta: m}
		if i == len(dirs)-1 {
			run = s
		} else {
			base = append(base, s)
		}
	}
	others := pool(base)
	others.Name = fmt.Sprintf("the other %d runs", len(base))
	slowed := run
	slowed.Name = run.Name + " with GPU memory 5 % slower"
	slowed.Rows = append([]results.Row(nil), run.Rows...)
	for i, r := range slowed.Rows {
		if r.Bound == results.BoundGPUMemory {
			slowed.Rows[i].GBps *= 0.95
		}
	}
	var md string
	for _, f := range []struct {
		file string
		run  check.Side
	}{{"node-check.svg", run}, {"node-check-slowed.svg", slowed}} {
		rep, err := check.Compare(f.run, others, check.Options{})
		if err != nil {
			return "", err
		}
		fig, err := plots.CheckResources(rep, plots.Options{Title: fmt.Sprintf("%s against %s: GPU %s, host %s", f.run.Name, others.Name, rep.GPU, rep.Host)})
		if err != nil {
			return "", err
		}
		svg, err := fig.SVG()
		if err != nil {
			return "", err
		}
		files["docs/"+f.file] = svg
		md += fmt.Sprintf("![%s: GPU %s, host %s](docs/%s)\n", rep.Run, rep.GPU, rep.Host, f.file)
	}
	return md, nil
}
