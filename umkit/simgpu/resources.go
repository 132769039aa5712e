package simgpu

import (
	"math"
	"math/rand/v2"
)

// Resource is a part of the simulated machine whose speed the knobs can
// change: each operation is charged to the resource that umkit declares
// its configurations bound by (results.Bounds).
type Resource int

// The simulated resources.
const (
	HBM      Resource = iota // device-memory kernels and copies (HBMGBps)
	Launch                   // the fixed cost of each kernel (LaunchMs; a copy's or prefetch's goes to its path)
	Link                     // the CPU–GPU link: pinned copies, mapped access (LinkGBps)
	Pageable                 // the pageable path: copies from and to malloc'd memory, GPU access to it
	Faults                   // Unified Memory's driver: first touch, advised access, prefetches
	CPU                      // the CPU's loops: fills and the handoff's update (CPUGBps)
	NumResources
)

var resourceNames = [NumResources]string{"hbm", "launch", "link", "pageable", "faults", "cpu"}

func (r Resource) String() string { return resourceNames[r] }

// The noise's spread per resource, as coefficients of variation: between
// processes (each seed draws one factor per resource) and between
// operations of one process. They are the medians over configurations of
// four H200 runs on four hosts (h200-2026-12-02-setuploops, -rerun,
// -blockcheck and -reallocate, sizes from 16 MiB): between runs, of each
// configuration's median; within a run, of its trials.
var (
	processCV   = [NumResources]float64{HBM: 0.0025, Launch: 0.0081, Link: 0.0132, Pageable: 0.0887, Faults: 0.1371, CPU: 0.1205}
	operationCV = [NumResources]float64{HBM: 0.0064, Launch: 0.0294, Link: 0.0118, Pageable: 0.0634, Faults: 0.1019, CPU: 0.1094}
)

// noise is one process's run-to-run variation.
type noise struct {
	rng     *rand.Rand
	process [NumResources]float64 // this process's factor on each resource's speed
}

// SetNoise makes the device's speeds vary as a real GPU's do from one
// process to the next and one operation to the next, drawn from seed (and
// the ordinal, so GPUs of one node differ); seed 0 turns it off, the
// default, which makes every run alike. The factors are log-normal with
// the spreads above: fault servicing and the host CPU vary most, HBM least.
func (d *Device) SetNoise(seed uint64) {
	if seed == 0 {
		d.noise = nil
		return
	}
	n := &noise{rng: rand.New(rand.NewPCG(seed, uint64(d.info.Ordinal)))}
	for r := range n.process {
		n.process[r] = math.Exp(processCV[r] * n.rng.NormFloat64())
	}
	d.noise = n
}

// speed is the factor on resource r's rate for one operation: Slow's
// fraction taken off, and the noise's variation where it is on. It is
// exactly 1 with neither.
func (d *Device) speed(r Resource) float64 {
	f := 1 - d.Slow[r]
	if d.noise != nil {
		f *= d.noise.process[r] * math.Exp(operationCV[r]*d.noise.rng.NormFloat64())
	}
	return f
}
