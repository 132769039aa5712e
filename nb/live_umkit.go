package nb

import (
	"context"

	"github.com/umlab/umlab/internal/fakegpu"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
)

// This file wires the live path of Data to umkit: the GPU, and the
// simulated one of the fake mode.
func init() {
	liveAvailable = umkit.Available
	liveRun = func(ctx context.Context, o LiveOptions) (results.Metadata, error) {
		return umkit.Run(ctx, umkitOptions(o))
	}
	fakeRun = func(ctx context.Context, o LiveOptions) (results.Metadata, error) {
		uo := umkitOptions(o)
		uo.Device = fakegpu.New()
		uo.Warn = func(string) {}
		return umkit.Run(ctx, uo)
	}
}

func umkitOptions(o LiveOptions) umkit.Options {
	uo := umkit.Options{Groups: o.Groups, Quick: o.Quick, Out: o.Out, Resume: o.Resume,
		Command: "notebook (plots/nb.Data)"}
	if o.Progress != nil {
		uo.Progress = func(p umkit.Progress) {
			o.Progress(LiveProgress{Done: p.Done, Total: p.Total, Config: p.Config, Elapsed: p.Elapsed, ETA: p.ETA})
		}
	}
	return uo
}
