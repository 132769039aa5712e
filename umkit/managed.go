package umkit

import (
	"context"
	"fmt"

	"github.com/go-gota/gota/dataframe"
)

// Managed runs one streaming read-modify-write kernel (x = x + 1, 16 bytes
// moved per element) under each memory state of the paper (Section IV-C):
// explicit device memory, managed memory initialised by the CPU before every
// trial (cold), prefetched, reused after an untimed GPU pass, and with the
// advice preferred-GPU, accessed-by-GPU and preferred-CPU. The observed
// range attributes are recorded with every trial.
func Managed(ctx context.Context, dev Device, cfg ManagedConfig) (dataframe.DataFrame, error) {
	if err := cfg.Validate(); err != nil {
		return dataframe.DataFrame{}, err
	}
	return collect(dev, func(r *runner) error { return r.managed(ctx, cfg) })
}

func (r *runner) managed(ctx context.Context, cfg ManagedConfig) error {
	cfg = cfg.Defaults()
	for _, mode := range cfg.Modes {
		for _, size := range cfg.Sizes {
			n := uint64(size / 8)
			base := r.row("managed", "stream", mode)
			base.SizeBytes, base.FootprintBytes, base.UsefulBytes = size, size, 2*size
			base.ActiveElements, base.StrideElements = int64(n), 1
			w := workload{n: n, kernel: Kernel{Kind: KRMW, N: n, Mul: 1, Add: 1}, stride: 1, active: n}
			label := fmt.Sprintf("managed %s %s", mode, fmtBytes(size))
			if err := r.runState(ctx, base, label, mode, w, cfg.Common); err != nil {
				return err
			}
		}
	}
	return nil
}
