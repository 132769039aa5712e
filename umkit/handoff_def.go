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
// block of trials, i.e. per configuration (policy and size; the CPU-only
// and GPU-only phases and the alternating phase at each reuse count) and
// repetition, labelled "… (repetition N)". Sequential order runs a
// configuration's repetitions back to back; interleaved order (the
// default) shuffles the configurations within each repetition (see
// HandoffConfig.Order). The group is measured by one run (r.handoff: the
// phases share buffers and the cumulative check), so every entry but the
// first follows it.
func (c HandoffConfig) Configs() []Config {
	c = c.Defaults()
	var confs []Config
	for _, policy := range c.Policies {
		for _, size := range c.Sizes {
			l := fmt.Sprintf("handoff %s %s", policy, fmtBytes(size))
			k := Config{Definition: "handoff", Entry: "handoff", Group: "handoff", Benchmark: "handoff", SizeBytes: size, Follows: true}
			cpu, gpu := k, k
			cpu.Label, cpu.BytesPerIteration = l+" cpu_only", 2*size
			gpu.Label, gpu.BytesPerIteration = l+" gpu_only", 2*size
			confs = append(confs, cpu, gpu)
			for _, reuse := range c.Reuse {
				a := k
				a.Label, a.BytesPerIteration = fmt.Sprintf("%s alternating R=%d", l, reuse), 2*size*int64(1+reuse)
				confs = append(confs, a)
			}
		}
	}
	var out []Config
	for _, b := range handoffOrder(len(confs), c.Repetitions, c.Order, c.OrderSeed) {
		x := confs[b.conf]
		x.Label = fmt.Sprintf("%s (repetition %d)", x.Label, b.rep)
		out = append(out, x)
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
