package check

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/umlab/umlab/results"
)

// Calibrate measures a GPU model's variation from runs of one suite: node
// holds several processes on one node, back to back (the spread between
// processes), hosts one process on each of several other nodes (the
// spread between nodes). Every spread is the upper end of a 90 %
// confidence bound on a standard deviation, so that a handful of runs
// that happen to agree do not make a check trigger-happy, and never below
// minSpread.
func Calibrate(gpu, source string, node, hosts [][]results.Row) *Prior {
	p := &Prior{GPU: gpu, Source: source, Configs: map[string]Spread{}, PerResource: map[string]ResourceSpread{}}
	j := newJudge(Options{Resamples: 400, MinTrials: 3, Seed: 1}, nil)
	nodeLogs, nodeNoise := logMedians(j, node)
	hostLogs, hostNoise := logMedians(j, append([][]results.Row{node[0]}, hosts...))
	resOf := map[string]string{}
	for _, rows := range node {
		for _, r := range rows {
			resOf[settingKey(r)] = results.BoundOf(r)
		}
	}
	perRes := map[string][]Spread{}
	measured := map[string][]float64{} // spreads between nodes, where other nodes measured the configuration
	for key, logs := range nodeLogs {
		if len(logs) < 2 {
			continue
		}
		// The trials' own noise is added at check time (each run's
		// bootstrap), so it comes off the spread between runs here.
		w := beyond(upperSD(logs), nodeNoise[key])
		b := math.NaN()
		if h := hostLogs[key]; len(h) >= 3 {
			b = beyond(upperSD(h), hostNoise[key]+w*w)
			measured[resOf[key]] = append(measured[resOf[key]], b)
		}
		s := Spread{Within: max(w, minSpread), Between: b}
		p.Configs[key] = s
		perRes[resOf[key]] = append(perRes[resOf[key]], s)
	}
	for res, ss := range perRes {
		between := 0.0
		if m := measured[res]; len(m) > 0 {
			between = p90(m)
		} else if len(hosts) > 0 {
			between = p90(valuesOf(ss, func(s Spread) float64 { return s.Within }))
		}
		p.PerResource[res] = ResourceSpread{
			Default: Spread{Within: p90(valuesOf(ss, func(s Spread) float64 { return s.Within })), Between: between},
			Process: Spread{Within: max(indexSD(p, res, resOf, nodeLogs, nodeNoise), minSpread), Between: indexSD(p, res, resOf, hostLogs, hostNoise)},
		}
		// A configuration no other node measured takes its resource's
		// spread between nodes (or, with no other node at all, none).
		for key, s := range p.Configs {
			if resOf[key] == res && math.IsNaN(s.Between) {
				s.Between = between
				p.Configs[key] = s
			}
		}
	}
	return p
}

// minSpread is the smallest spread a calibration gives a configuration
// (0.1 %): the clocks of one GPU are never steadier than that across
// processes.
const minSpread = 0.001

// beyond is the part of a spread sd beyond noise of variance v.
func beyond(sd, v float64) float64 { return math.Sqrt(math.Max(sd*sd-v, 0)) }

// logMedians gives, per configuration, the log median of each run that
// measured it (in the order of runs), and the mean over those runs of the
// trials' bootstrap variance of it.
func logMedians(j *judge, runs [][]results.Row) (map[string][]float64, map[string]float64) {
	out, noise := map[string][]float64{}, map[string]float64{}
	for _, rows := range runs {
		s, _ := collect(rows, false)
		for k, c := range s {
			if c.waived || len(c.runs) == 0 {
				continue
			}
			if e, ok := j.estimate(c); ok {
				out[k] = append(out[k], e.mean)
				noise[k] += e.within
			}
		}
	}
	for k := range noise {
		noise[k] /= float64(len(out[k]))
	}
	return out, noise
}

// upperSD is the upper end of the one-sided 90 % confidence bound of the
// standard deviation of x (chi-square with len(x)−1 degrees of freedom).
func upperSD(x []float64) float64 {
	_, ss := sumSquares(x)
	chi := distuv.ChiSquared{K: float64(len(x)) - 1}.Quantile(0.10)
	return math.Sqrt(ss / chi)
}

// sumSquares returns the mean of x and the sum of its squared deviations
// from it.
func sumSquares(x []float64) (mean, ss float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, ss
}

// p90 is the 90th percentile of v (its largest tenth's smallest).
func p90(v []float64) float64 {
	v = slices.Sorted(slices.Values(v))
	return v[int(math.Ceil(0.9*float64(len(v))))-1]
}

func valuesOf(ss []Spread, f func(Spread) float64) []float64 {
	v := make([]float64, len(ss))
	for i, s := range ss {
		v[i] = f(s)
	}
	return v
}

// indexSD is the upper-bound spread, across the runs of logs, of a
// resource's index: the mean of its configurations' log medians weighted
// by 1/Within², over the configurations every run measured.
func indexSD(p *Prior, res string, resOf map[string]string, logs map[string][]float64, noise map[string]float64) float64 {
	runs := 0
	for k, l := range logs {
		if resOf[k] == res {
			runs = max(runs, len(l))
		}
	}
	if runs < 3 {
		return 0
	}
	idx := make([]float64, runs)
	var sw, sw2v float64
	for k, l := range logs {
		s, ok := p.Configs[k]
		if resOf[k] != res || len(l) != runs || !ok {
			continue
		}
		w := 1 / (s.Within * s.Within)
		sw += w
		sw2v += w * w * noise[k]
		for i, v := range l {
			idx[i] += w * v
		}
	}
	if sw == 0 {
		return 0
	}
	for i := range idx {
		idx[i] /= sw
	}
	return beyond(upperSD(idx), sw2v/(sw*sw))
}

// WriteJSON writes the prior as check's embedded data (go run
// ./check/internal/calibrate writes prior_*.json with it): every spread
// to three significant digits, the resources of results.Bounds.
func (p *Prior) WriteJSON(w io.Writer) error {
	g3 := func(v float64) float64 {
		v, _ = strconv.ParseFloat(fmt.Sprintf("%.3g", v), 64)
		return v
	}
	r := Prior{GPU: p.GPU, Source: p.Source, Configs: map[string]Spread{}, PerResource: map[string]ResourceSpread{}}
	for k, s := range p.Configs {
		r.Configs[k] = Spread{g3(s.Within), g3(s.Between)}
	}
	for _, k := range results.Bounds {
		if s, ok := p.PerResource[k]; ok {
			r.PerResource[k] = ResourceSpread{Default: Spread{g3(s.Default.Within), g3(s.Default.Between)},
				Process: Spread{g3(s.Process.Within), g3(s.Process.Between)}}
		}
	}
	e := json.NewEncoder(w)
	e.SetEscapeHTML(false)
	e.SetIndent("", "\t")
	return e.Encode(r)
}
