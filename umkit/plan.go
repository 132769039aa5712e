package umkit

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/umlab/umlab/results"
)

// Plan is what a run measures: the selected definitions with their
// defaults applied, validated, in run order, and the benchmarks the device
// cannot run (each becomes one waived row).
type Plan struct {
	Groups []Definition
	Waived []Benchmark
}

// Configs lists every configuration of the plan in run order (waived
// benchmarks not included).
func (p Plan) Configs() []Config {
	var out []Config
	for _, d := range p.Groups {
		out = append(out, d.Configs()...)
	}
	return out
}

// Configurations counts the configurations the plan measures (each becomes
// trials rows, or one waived row): the progress total.
func (p Plan) Configurations() int { return len(p.Waived) + len(p.Configs()) }

// DefinitionOf returns the plan's definition of type T, if it has one.
func DefinitionOf[T Definition](p Plan) (T, bool) {
	for _, d := range p.Groups {
		if t, ok := d.(T); ok {
			return t, true
		}
	}
	var none T
	return none, false
}

// MarshalJSON writes the plan as the metadata's config: an object keyed by
// definition name, in run order.
func (p Plan) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, d := range p.Groups {
		v, err := json.Marshal(d)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(d.Name())
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

// NewPlan turns options into validated definitions for a device. It
// touches no GPU.
func NewPlan(o Options, info DeviceInfo) (Plan, error) {
	var p Plan
	for _, g := range o.Groups {
		if !slices.Contains(Groups, g) {
			return p, fmt.Errorf("umkit: unknown group %q: groups are %s", g, strings.Join(Groups, ", "))
		}
	}
	sel, err := Select(append(slices.Clone(o.Groups), o.Benchmarks...))
	if err != nil {
		return p, err
	}
	w, t := o.Warmups.Int(), o.Trials.Int()
	if err := firstError(failIf(w < 0 || w > maxWarmups, "warmups %d: allowed 0 to %d", w, maxWarmups),
		failIf(o.Trials.IsSet() && (t < 1 || t > maxTrials), "trials %d: allowed 1 to %d", t, maxTrials),
	); err != nil {
		return p, err
	}
	s := Selection{Options: o, Common: Common{Trials: o.Trials, Warmups: o.Warmups}}
	if o.Quick {
		s.Common = Common{Trials: o.Trials.Or(QuickTrials), Warmups: o.Warmups.Or(QuickWarmups)}
	}
	chosen := map[string][]string{} // definition → selected benchmarks
	for _, b := range sel {
		// host.system_triad waives itself per configuration, with the sizes.
		if ok, _ := b.Supported(info); !ok && b.Name != hostEntries[results.ModeSystem] {
			p.Waived = append(p.Waived, b)
			continue
		}
		chosen[b.def] = append(chosen[b.def], b.suffix())
	}
	var errs []error
	for _, d := range definitions {
		names, ok := chosen[d.Name()]
		if !ok {
			continue
		}
		s := s
		s.Benchmarks = names
		c := withDefaults[d.Name()](d.configure(s))
		errs = append(errs, c.Validate())
		p.Groups = append(p.Groups, c)
	}
	return p, errors.Join(errs...)
}
