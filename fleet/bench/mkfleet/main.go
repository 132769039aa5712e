// Command mkfleet makes a synthetic fleet for the fleet benchmarks: n GPUs,
// eight per node, each a copy of one measured run (a results directory or
// an embedded dataset) with its own host, GPU UUID and run IDs, and its
// bandwidths and times scaled by a factor of its own (about 1 % apart,
// one GPU in 64 about 8 % slow). The numbers are synthetic: they exercise
// merge, compare and summary at scale and are no measurement of any GPU.
//
//	go run ./fleet/bench/mkfleet -from h200-2026-12-02-setuploops -n 1024 -out /tmp/fleet
//
// writes /tmp/fleet/node000/gpu0 … /tmp/fleet/node127/gpu7.
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"

	"github.com/umlab/umlab/datasets"
	"github.com/umlab/umlab/results"
)

func main() {
	from := flag.String("from", "h200-2026-12-02-setuploops", "the run to copy: an embedded dataset or a results directory")
	n := flag.Int("n", 64, "GPUs")
	out := flag.String("out", "", "the fleet's root directory (must not exist)")
	flag.Parse()
	if err := run(*from, *n, *out); err != nil {
		fmt.Fprintln(os.Stderr, "mkfleet:", err)
		os.Exit(1)
	}
}

func run(from string, n int, out string) error {
	if out == "" || n < 1 {
		return fmt.Errorf("give -out DIR and -n ≥ 1")
	}
	if _, err := os.Stat(out); err == nil {
		return fmt.Errorf("%s exists", out)
	}
	rows, meta, _, err := datasets.Resolve(from)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(2026, 12))
	scale := make([]float64, n)
	for i := range scale {
		scale[i] = 1 + 0.01*math.Max(-3, math.Min(3, rng.NormFloat64()))
		if i%64 == 37 {
			scale[i] *= 0.92
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	sem := make(chan struct{}, 2)
	for i := range n {
		sem <- struct{}{}
		wg.Go(func() {
			errs[i] = writeGPU(out, i, scale[i], rows, meta)
			<-sem
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// writeGPU writes GPU i of the fleet.
func writeGPU(out string, i int, s float64, rows []results.Row, meta results.Metadata) error {
	host, gpu := fmt.Sprintf("node%03d", i/8), i%8
	uuid := fmt.Sprintf("GPU-%08x-0000-4000-8000-%012d", 0xbe4c4000+i, i)
	mine := make([]results.Row, len(rows))
	for j, r := range rows {
		r.Host, r.GPUUUID, r.RunID = host, uuid, fmt.Sprintf("%s-g%04d", r.RunID, i)
		r.GBps *= s
		for _, t := range []*float64{&r.KernelMs, &r.PrefetchMs, &r.TransferMs, &r.CPUMs, &r.TotalMs, &r.SyncMs} {
			*t /= s
		}
		mine[j] = r
	}
	m := meta
	m.Host, m.RunID = host, fmt.Sprintf("%s-g%04d", meta.RunID, i)
	m.Device.UUID, m.Device.Index = uuid, gpu
	return results.WriteDir(filepath.Join(out, host, fmt.Sprintf("gpu%d", gpu)), mine, m)
}
