package simgpu

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/umlab/umlab/results"
)

// The knobs: environment variables that set up the simulated GPUs of a
// command (FromEnv). doc.go says what each does.
const (
	EnvGPUs        = "UMLAB_SIM_GPUS"
	EnvMemory      = "UMLAB_SIM_MEMORY"
	EnvKernelDelay = "UMLAB_SIM_KERNEL_DELAY"
	EnvHangAfter   = "UMLAB_SIM_HANG_AFTER"
	EnvDropLaunch  = "UMLAB_SIM_DROP_LAUNCH"
	EnvHangHome    = "UMLAB_SIM_HANG_HOME_AFTER"
	EnvFailAlloc   = "UMLAB_SIM_FAIL_ALLOC_AFTER"
	EnvDriverKeeps = "UMLAB_SIM_DRIVER_KEEPS"
	EnvSlow        = "UMLAB_SIM_SLOW"
	EnvNoise       = "UMLAB_SIM_NOISE"
)

// defaultKeptFrom is the smallest freed buffer after which the driver keeps
// memory when UMLAB_SIM_DRIVER_KEEPS names no FROM.
const defaultKeptFrom = 512 << 20

// maxSlow is the largest fraction a resource may be slowed by.
const maxSlow = 0.9

// Knobs are the settings of a command's simulated GPUs.
type Knobs struct {
	Injected
	GPUs   int    // simulated GPUs, ordinals 0 to GPUs-1
	Memory int64  // device memory; 0: New's
	Noise  uint64 // SetNoise's seed; 0: none
}

// Injected are a simulated GPU's slowdowns and injected faults.
type Injected struct {
	// Slow takes a fraction off each resource's rate: Slow[HBM] = 0.05
	// makes device-memory kernels 5 % slower in GB/s.
	Slow           [NumResources]float64
	FailAllocAfter int           // > 0: allocations after this many fail as out of memory
	KernelDelay    time.Duration // real time every launch takes (interruptions, watchdogs)
	// DropLaunch > 0: launch DropLaunch (from 1) reports success and does
	// nothing; only verification can notice.
	DropLaunch int
	// HangAfter > 0: the launch after this many never returns until Release.
	HangAfter int
	// HangHomeAfter > 0: the HomeFillHost after this many never returns
	// until Release (a hang in a trial's set-up, outside timed regions).
	HangHomeAfter int
	// KeptAfterFree is memory the driver keeps, once, when a prefetched
	// managed buffer of at least KeptAfterFreeFrom bytes is freed (an H200
	// lost about 105 MiB of a 1021 MiB oversub capacity after freeing a 918
	// MiB one, 2026-12-02): a plain Free and Alloc that close to the
	// capacity is then refused; Reallocate is not.
	KeptAfterFree, KeptAfterFreeFrom uint64
}

// FromEnv reads the knobs from the environment. A bad value is an error
// that names the variable, the value and what is allowed; every error it
// returns is one.
func FromEnv() (Knobs, error) {
	k := Knobs{GPUs: 1}
	ints := []struct {
		env string
		dst *int
		min int
	}{{EnvGPUs, &k.GPUs, 1}, {EnvHangAfter, &k.HangAfter, 1}, {EnvHangHome, &k.HangHomeAfter, 1}, {EnvFailAlloc, &k.FailAllocAfter, 0}, {EnvDropLaunch, &k.DropLaunch, 1}}
	for _, e := range ints {
		if v := os.Getenv(e.env); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < e.min || n > 1<<20 {
				return k, fmt.Errorf("%s=%q: want a whole number from %d to %d", e.env, v, e.min, 1<<20)
			}
			*e.dst = n
		}
	}
	if v := os.Getenv(EnvMemory); v != "" {
		b, err := results.ParseBytes(v)
		if err != nil || b < 64<<20 {
			return k, fmt.Errorf("%s=%q: want a size of at least 64MiB, e.g. 8GiB", EnvMemory, v)
		}
		k.Memory = b
	}
	if v := os.Getenv(EnvDriverKeeps); v != "" {
		size, from, hasFrom := strings.Cut(v, "@")
		kept, err := results.ParseBytes(size)
		keptFrom := int64(defaultKeptFrom)
		if err == nil && hasFrom {
			keptFrom, err = results.ParseBytes(from)
		}
		if err != nil || kept <= 0 || keptFrom <= 0 {
			return k, fmt.Errorf("%s=%q: want SIZE or SIZE@FROM, sizes above 0, e.g. 105MiB or 105MiB@512MiB (memory kept once a prefetched managed buffer of at least FROM, default 512MiB, is freed)", EnvDriverKeeps, v)
		}
		k.KeptAfterFree, k.KeptAfterFreeFrom = uint64(kept), uint64(keptFrom)
	}
	if v := os.Getenv(EnvKernelDelay); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || d > time.Hour {
			return k, fmt.Errorf("%s=%q: want a duration from 0 to 1h, e.g. 50ms", EnvKernelDelay, v)
		}
		k.KernelDelay = d
	}
	var err error
	if k.Slow, err = parseSlow(os.Getenv(EnvSlow)); err != nil {
		return k, err
	}
	if v := os.Getenv(EnvNoise); v != "" {
		if k.Noise, err = strconv.ParseUint(v, 10, 64); err != nil {
			return k, fmt.Errorf("%s=%q: want a seed, a whole number (0: no noise), e.g. 1", EnvNoise, v)
		}
	}
	return k, nil
}

func parseSlow(v string) (slow [NumResources]float64, err error) {
	if v == "" {
		return slow, nil
	}
	bad := func(why string) error {
		return fmt.Errorf("%s=%q: %s: want RESOURCE:FRACTION pairs separated by commas, each resource once (%s), "+
			"each fraction from 0 to %g, the share of its speed taken off, e.g. hbm:0.05,link:0.05,faults:0.3",
			EnvSlow, v, why, strings.Join(resourceNames[:], ", "), maxSlow)
	}
	seen := map[string]bool{}
	for _, pair := range strings.Split(v, ",") {
		name, frac, ok := strings.Cut(strings.TrimSpace(pair), ":")
		r := slices.Index(resourceNames[:], name)
		if !ok || r < 0 {
			return slow, bad(fmt.Sprintf("%q is not a resource", name))
		}
		if seen[name] {
			return slow, bad(name + " twice")
		}
		seen[name] = true
		f, err := strconv.ParseFloat(frac, 64)
		if err != nil || !(f >= 0 && f <= maxSlow) {
			return slow, bad(fmt.Sprintf("%s's fraction %q", name, frac))
		}
		slow[r] = f
	}
	return slow, nil
}

// Open returns the simulated GPU of an ordinal with the knobs applied.
func (k Knobs) Open(ordinal int) (*Device, error) {
	if ordinal < 0 || ordinal >= k.GPUs {
		return nil, fmt.Errorf("no simulated GPU %d: %s=%d simulates ordinals 0 to %d", ordinal, EnvGPUs, k.GPUs, k.GPUs-1)
	}
	d := NewGPU(ordinal)
	if k.Memory > 0 {
		d.SetMemory(uint64(k.Memory))
	}
	d.Injected = k.Injected
	d.SetNoise(k.Noise)
	return d, nil
}
