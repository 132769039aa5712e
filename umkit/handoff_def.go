package umkit

import (
	"context"
	"fmt"
)

// The handoff group's definition (handoff.go holds its measurement).

// Name is the group's name.
func (HandoffConfig) Name() string { return "handoff" }

// Entries are the group's registry entries.
func (HandoffConfig) Entries() []Benchmark {
	return []Benchmark{entry("handoff", "one CPU pass and R GPU passes, 16 bytes per element each", needsManaged,
		"CPU update then R GPU passes over the same data, under managed, managed-prefetch, host-mapped and explicit-copy policies; CPU-only, GPU-only and alternating timed separately (VII-B).")}
}

func (c HandoffConfig) configure(s Selection) Definition {
	c.Common, c.Sizes = s.Common, s.sizesOr([]int64{16 * MiB, 256 * MiB})
	c.Order, c.OrderSeed, c.CPUThreads = s.HandoffOrder, s.OrderSeed, s.CPUThreads
	if s.Quick {
		c.Repetitions, c.Reuse = quickHandoffRepeats, []int{1, 4, 32}
	}
	return c
}

func (c HandoffConfig) defaults() Definition { return c.Defaults() }

// Configs lists what the group measures, in run order: one entry per
// configuration (policy and size; the CPU-only and GPU-only phases and the
// alternating phase at each reuse count) and repetition, labelled "…
// (repetition N)". Sequential order runs a configuration's repetitions
// back to back; interleaved order (the default) shuffles, within each
// repetition, the blocks of every policy and size (CPU-only, GPU-only and
// the sweep of every R, whose trials alternate R round by round) and lists
// a sweep's configurations together, in ascending R (see
// HandoffConfig.Order). The group is measured by one run (r.handoff: the
// phases share buffers and the cumulative check), so every entry but the
// first follows it.
func (c HandoffConfig) Configs() []Config {
	c = c.Defaults()
	specs := c.units()
	var out []Config
	for _, b := range handoffOrder(len(specs), c.Repetitions, c.Order, c.OrderSeed) {
		u := specs[b.conf]
		l := fmt.Sprintf("handoff %s %s %s", u.policy, fmtBytes(u.size), u.phase)
		for _, reuse := range u.reuse {
			k := Config{Definition: "handoff", Entry: "handoff", Group: "handoff", Benchmark: "handoff", SizeBytes: u.size, Follows: true,
				Label: l, BytesPerIteration: 2 * u.size}
			if u.phase == "alternating" {
				k.Label, k.BytesPerIteration = fmt.Sprintf("%s R=%d", l, reuse), 2*u.size*int64(1+reuse)
			}
			k.Label = fmt.Sprintf("%s (repetition %d)", k.Label, b.rep)
			out = append(out, k)
		}
	}
	if len(out) > 0 {
		out[0].Follows = false
	}
	return withRows(out, c.Trials.Int())
}

// start: the whole group is one run, which pins its host thread itself.
func (c HandoffConfig) start(r *runner) (func(context.Context, Config) error, func(), error) {
	return noStart(func(ctx context.Context, _ Config) error { return r.handoff(ctx, c) })
}
