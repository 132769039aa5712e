package umkit

import (
	"context"
	"fmt"

	"github.com/umlab/umlab/results"
)

// handoffBlock measures one block: the warm-ups (first block of the unit)
// or a settling iteration (when another configuration used the buffers
// since), then cfg.Trials trials of repetition b.rep of each of the unit's
// configurations (a sweep's in rounds), emitted together once the block
// is done; after the unit's last block, a counter pass per configuration.
// Each configuration is one progress step (HandoffConfig.Configs lists
// them), taken when its block is done.
func (r *runner) handoffBlock(ctx context.Context, cfg HandoffConfig, u handoffUnit, b handoffBlock) error {
	k := newBlockRun(cfg, u, b)
	lead := u.confs[0]
	last := lead.blocks+1 == cfg.Repetitions
	if r.skipRep(k.bases[0]) {
		k.steps(r, " (done earlier)")
		return nil
	}
	if err := lead.enter(); err != nil {
		return fmt.Errorf("umkit: %s: %w", k.name, err)
	}
	if err := k.warm(ctx); err != nil {
		return err
	}
	lead.h.last = lead
	rows := make([]results.Row, 0, cfg.Trials.Int()*len(u.confs))
	for i := 0; i < cfg.Trials.Int(); i++ {
		err := k.round(ctx, i, func(j, pos int, row results.Row) {
			row.Trial, row.Verified = int64(i), true
			if u.sweep {
				row.RoundPosition = int64(pos + 1)
			}
			rows = append(rows, row)
		})
		if err != nil {
			return fmt.Errorf("umkit: %s: trial %d: %w", k.name, i, err)
		}
	}
	if err := lead.leave("the block's accumulated data"); err != nil {
		return fmt.Errorf("umkit: %s: %w", k.name, err)
	}
	if err := r.emit(rows); err != nil {
		return err
	}
	if last && r.counters != nil {
		for j, c := range u.confs {
			if err := c.enter(); err != nil {
				return err
			}
			if err := r.counterPass(ctx, r.counters, k.bases[j], c.label, c.iter, k.trials[j]); err != nil {
				return err
			}
			c.iter++
			if err := c.leave(c.label + " counter pass"); err != nil {
				return err
			}
		}
	}
	k.steps(r, "")
	return nil
}

// blockRun is one block being measured: its unit's configurations, with
// the block's rows, progress labels and trials.
type blockRun struct {
	cfg    HandoffConfig
	u      handoffUnit
	b      handoffBlock
	bases  []results.Row
	labels []string
	trials []trial
	name   string // the block, in messages
}

func newBlockRun(cfg HandoffConfig, u handoffUnit, b handoffBlock) *blockRun {
	k := &blockRun{cfg: cfg, u: u, b: b}
	for _, c := range u.confs {
		base := c.base
		base.Warmups, base.Repetition, base.OrderIndex = int64(cfg.Warmups.Int()), int64(b.rep), int64(b.index)
		if u.sweep {
			base.RoundPosition = 1 // marks the rows as a sweep's for skipRep; set per trial
		}
		k.bases = append(k.bases, base)
		k.labels = append(k.labels, fmt.Sprintf("%s (repetition %d)", c.label, b.rep))
		k.trials = append(k.trials, c.trial())
	}
	k.name = k.labels[0]
	if u.sweep {
		k.name = fmt.Sprintf("%s alternating R sweep (repetition %d)", u.confs[0].h.label, b.rep)
	}
	return k
}

// steps counts the block done for each configuration, one progress step each.
func (k *blockRun) steps(r *runner, suffix string) {
	for i, c := range k.u.confs {
		c.blocks++
		r.step(k.labels[i] + suffix)
	}
}

// round runs round i: every configuration once, in the round's order,
// handing each row to keep (nil: warm-up).
func (k *blockRun) round(ctx context.Context, i int, keep func(j, pos int, row results.Row)) error {
	order := []int{0}
	if k.u.sweep {
		order = roundOrder(k.cfg.OrderSeed, k.b.rep, k.b.conf, i, len(k.u.confs))
	}
	for pos, j := range order {
		if err := ctx.Err(); err != nil {
			return err
		}
		c, row := k.u.confs[j], k.bases[j]
		if err := k.trials[j](c.iter, &row); err != nil {
			return err
		}
		c.iter++
		if keep != nil {
			keep(j, pos, row)
		}
	}
	return nil
}

// warm runs the unit's warm-ups before its first block, or before a later
// one whose buffers another phase used since, one settling iteration.
func (k *blockRun) warm(ctx context.Context) error {
	lead, warmups := k.u.confs[0], k.cfg.Warmups.Int()
	switch {
	case !lead.warmed:
		for w := 0; w < warmups; w++ {
			if err := k.round(ctx, k.cfg.Trials.Int()+w, nil); err != nil { // rounds past the trials' own
				return fmt.Errorf("umkit: %s: warm-up %d: %w", k.name, w, err)
			}
		}
		for _, c := range k.u.confs {
			c.warmed = true
		}
	case needsSettling(lead.h.last, lead) && warmups > 0:
		// One iteration re-establishes where the phase leaves the data;
		// for a sweep the smallest R's, any R's ends the same way.
		row := k.bases[0]
		if err := k.trials[0](lead.iter, &row); err != nil {
			return fmt.Errorf("umkit: %s: settling: %w", k.name, err)
		}
		lead.iter++
	}
	return nil
}

// needsSettling reports whether a block of c must start with a settling
// iteration because prev, the configuration that used the same buffers
// last, left them in another state. Alternating iterations leave the data
// where the next one starts from (on the GPU after its passes, or in the
// host array for explicit_copy) whatever R, so an alternating block after
// another R's needs none; after a CPU-only or GPU-only block it does.
func needsSettling(prev, c *handoffConf) bool {
	return prev != nil && prev != c && !(prev.phase == results.PhaseAlternating && c.phase == results.PhaseAlternating)
}
