package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/umlab/umlab/check"
	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/results"
)

// repeatDir holds the node check's calibration runs.
const repeatDir = "datasets/h200-2026-12-03-repeat"

// checkBlock is the node check on the H200's six back-to-back quick runs:
// every ordered pair, each run against the other five, each against a
// quick run of another host, and the calibration's spreads per resource.
func checkBlock() (string, error) {
	runs, err := repeatRuns()
	if err != nil {
		return "", err
	}
	qrows, qm, err := datasets.Load(datasets.CanonicalQuick)
	if err != nil {
		return "", err
	}
	other := check.Side{Name: datasets.CanonicalQuick, Rows: qrows, Meta: qm}
	count := func(pairs [][2]check.Side) (gpu, host map[check.Verdict]int, err error) {
		gpu, host = map[check.Verdict]int{}, map[check.Verdict]int{}
		for _, p := range pairs {
			rep, err := check.Compare(p[0], p[1], check.Options{})
			if err != nil {
				return nil, nil, err
			}
			gpu[rep.GPU]++
			host[rep.Host]++
		}
		return gpu, host, nil
	}
	var pairs, five, hosts [][2]check.Side
	for i, r := range runs {
		var others []check.Side
		for k, b := range runs {
			if k != i {
				pairs = append(pairs, [2]check.Side{r, b})
				others = append(others, b)
			}
		}
		five = append(five, [2]check.Side{r, pool(others)})
		hosts = append(hosts, [2]check.Side{r, other})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| `%s`, %s | checks | GPU verdicts | host verdicts |\n| --- | --- | --- | --- |\n", repeatDir, runs[0].Meta.Device.Name)
	for _, row := range []struct {
		what  string
		pairs [][2]check.Side
	}{
		{"every ordered pair of runs", pairs},
		{fmt.Sprintf("each run against the other %d", len(runs)-1), five},
		{"each run against `" + datasets.CanonicalQuick + "` (another host)", hosts},
	} {
		gpu, host, err := count(row.pairs)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s |\n", row.what, len(row.pairs), verdicts(gpu), verdicts(host))
	}
	p := check.PriorFor(runs[0].Meta.Device.Name)
	fmt.Fprintf(&b, "\nThe calibration (`check/prior_h200.json`), as standard deviations of a median's logarithm (0.010 ≈ 1 %%): a configuration's spread between processes of one node (the 90th percentile over the resource's configurations: the default for one the calibration lacks), and the spread common to all of a resource's configurations between processes and between nodes.\n\n| resource | class | per configuration (p90) | common, one node | common, between nodes |\n| --- | --- | --- | --- | --- |\n")
	for _, r := range results.Bounds {
		s, ok := p.PerResource[r]
		if !ok {
			continue
		}
		class := "host"
		if r == results.BoundGPUMemory || r == results.BoundGPULaunch || r == results.BoundHostLink {
			class = "GPU"
		}
		fmt.Fprintf(&b, "| %s | %s | %.3f | %.4f | %.4f |\n", r, class, s.Default.Within, s.Process.Within, s.Process.Between)
	}
	return b.String(), nil
}

// repeatRuns loads the calibration runs of repeatDir, in name order.
func repeatRuns() ([]check.Side, error) {
	dirs, _ := filepath.Glob(filepath.Join(root, repeatDir, "run*"))
	if len(dirs) < 3 {
		return nil, fmt.Errorf("%s: %d runs, want at least 3", repeatDir, len(dirs))
	}
	var runs []check.Side
	for _, d := range dirs {
		rows, m, err := results.LoadDir(d)
		if err != nil {
			return nil, err
		}
		runs = append(runs, check.Side{Name: filepath.Base(d), Rows: rows, Meta: m})
	}
	return runs, nil
}

func pool(ss []check.Side) check.Side {
	out := check.Side{Name: "the others", Meta: ss[0].Meta}
	for _, s := range ss {
		out.Rows = append(out.Rows, s.Rows...)
	}
	return out
}

// verdicts writes a tally, e.g. "30 pass" or "12 pass, 18 inconclusive".
func verdicts(m map[check.Verdict]int) string {
	var s []string
	for _, v := range []check.Verdict{check.Pass, check.Inconclusive, check.Fail, check.Skip} {
		if m[v] > 0 {
			s = append(s, fmt.Sprintf("%d %s", m[v], v))
		}
	}
	return strings.Join(s, ", ")
}
