package check

import (
	"bytes"
	"embed"
	"encoding/json"
	"io/fs"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/umlab/umlab/results"
)

// resourceRank orders resources as results.Bounds does, the GPU's first.
func resourceRank(resource string) int {
	if i := slices.Index(results.Bounds, resource); i >= 0 {
		return i
	}
	return len(results.Bounds)
}

// Prior is what a calibration measured of one GPU model's variation, as
// standard deviations of the log of a configuration's median (0.01 is
// about 1 %): between processes on one node, and in addition between
// nodes. Configurations it did not measure take their resource's values,
// the 90th percentile of its configurations' (conservative).
type Prior struct {
	GPU    string // the device name it was measured on, e.g. "NVIDIA H200"
	Source string // the datasets and the command that made it
	// Configs maps a configuration (settingKey) to its spreads.
	Configs map[string]Spread
	// PerResource holds the per-resource defaults, and the spread common
	// to all of a resource's configurations in one process (Process).
	PerResource map[string]ResourceSpread
}

// Spread is one configuration's variation.
type Spread struct {
	Within  float64 // between processes on one node
	Between float64 // between nodes, beyond Within
}

// ResourceSpread is a resource's default Spread and the variation common
// to its configurations (the sd of their weighted mean between processes,
// and between nodes).
type ResourceSpread struct {
	Default Spread
	Process Spread
}

// Spread returns a configuration's spreads: within one node, and the
// extra between nodes (0 when run and baseline share their GPU).
func (p *Prior) Spread(key, resource string, sameGPU bool) (within, between float64) {
	s, ok := p.Configs[key]
	if !ok {
		s = p.resource(resource).Default
	}
	if sameGPU {
		return s.Within, 0
	}
	return s.Within, s.Between
}

// Process returns the variation common to a resource's configurations
// in one process (within) and between nodes (between; 0 on one GPU).
func (p *Prior) Process(resource string, sameGPU bool) (s Spread) {
	s = p.resource(resource).Process
	if sameGPU {
		s.Between = 0
	}
	return s
}

// NodeSpread is the variation of a configuration's median between
// healthy GPUs of this model in different processes on different nodes,
// as the standard deviation of its log: what a fleet comparison judges a
// GPU's difference from the fleet against (the row's fleet mode aside).
func (p *Prior) NodeSpread(r results.Row) float64 {
	r.Note = ""
	w, b := p.Spread(settingKey(r), results.BoundOf(r), false)
	return math.Hypot(w, b)
}

func (p *Prior) resource(r string) ResourceSpread {
	if s, ok := p.PerResource[r]; ok {
		return s
	}
	// An unknown resource takes the widest the calibration knows.
	var w ResourceSpread
	for _, s := range p.PerResource {
		w.Default.Within = max(w.Default.Within, s.Default.Within)
		w.Default.Between = max(w.Default.Between, s.Default.Between)
		w.Process.Within = max(w.Process.Within, s.Process.Within)
		w.Process.Between = max(w.Process.Between, s.Process.Between)
	}
	return w
}

//go:embed prior_*.json
var priorFiles embed.FS

// priors are the calibrations this package carries (prior_*.json, written
// by check/internal/calibrate), in file-name order: the H200's first,
// whose spreads stand in for a model never calibrated (TestPriorFiles).
var priors = sync.OnceValue(func() (ps []*Prior) {
	names, _ := fs.Glob(priorFiles, "prior_*.json")
	for _, name := range names {
		b, _ := priorFiles.ReadFile(name)
		p := new(Prior)
		d := json.NewDecoder(bytes.NewReader(b))
		d.DisallowUnknownFields() // a renamed field must not decode to zero spreads
		if err := d.Decode(p); err != nil {
			panic("check: embedded " + name + ": " + err.Error()) // built in: the tests of PriorFor fail
		}
		ps = append(ps, p)
	}
	return ps
})

// PriorFor returns the calibration of a GPU model (by device name or
// platform), or, for a model never calibrated, the per-resource defaults
// of the first calibration alone, saying so in its Source.
func PriorFor(model string) *Prior {
	for _, p := range priors() {
		if strings.EqualFold(p.GPU, model) || strings.HasSuffix(strings.ToUpper(p.GPU), " "+strings.ToUpper(model)) {
			return p
		}
	}
	d := *priors()[0]
	d.Configs = nil
	d.Source = "no calibration of " + model + ": the per-resource spreads of " + d.GPU + "'s (" + d.Source + ")"
	return &d
}
