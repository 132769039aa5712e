package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/umlab/umlab/fleet/node"
	"github.com/umlab/umlab/internal/fakegpu"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
)

// The simulated GPU: umbench run --simulate, or UMLAB_SIMULATE=1 for every
// command, runs on internal/fakegpu, the deterministic device the tests
// use. Its numbers are made up; every row and meta.json say so. Fault knobs
// (environment variables, for tests and for trying what umbench does when
// things go wrong):
const (
	EnvSimulate       = "UMLAB_SIMULATE"             // 1: simulate every command
	EnvSimGPUs        = "UMLAB_SIM_GPUS"             // number of simulated GPUs (default 1)
	EnvSimMemory      = "UMLAB_SIM_MEMORY"           // device memory, e.g. 8GiB (default 80GiB)
	EnvSimKernelDelay = "UMLAB_SIM_KERNEL_DELAY"     // real time each kernel takes, e.g. 50ms
	EnvSimHangAfter   = "UMLAB_SIM_HANG_AFTER"       // the launch after this many never returns
	EnvSimDropLaunch  = "UMLAB_SIM_DROP_LAUNCH"      // launch N (from 1) reports success and does nothing
	EnvSimHangHome    = "UMLAB_SIM_HANG_HOME_AFTER"  // the home-and-fill set-up after this many never returns
	EnvSimFailAlloc   = "UMLAB_SIM_FAIL_ALLOC_AFTER" // allocations after this many fail
	// Device memory the driver keeps, once, when a prefetched managed buffer
	// of at least FROM bytes (default 512MiB) is freed, e.g. 105MiB@512MiB:
	// what an H200 did under oversub's capacity (fakegpu's KeptAfterFree).
	EnvSimDriverKeeps = "UMLAB_SIM_DRIVER_KEEPS"
)

// defaultKeptFrom is the smallest freed buffer after which the driver keeps
// memory when UMLAB_SIM_DRIVER_KEEPS names no FROM.
const defaultKeptFrom = 512 << 20

// simKnobs are the fault knobs read from the environment.
type simKnobs struct {
	gpus, hangAfter, hangHome, failAllocAfter, dropLaunch int
	memory                                                int64
	delay                                                 time.Duration
	kept, keptFrom                                        int64 // UMLAB_SIM_DRIVER_KEEPS
}

// simulating reports whether the command runs on the simulated GPU: flag
// is the command's --simulate; UMLAB_SIMULATE=1 (or true) turns it on for
// every command.
func simulating(flag bool) (bool, error) {
	if flag {
		return true, nil
	}
	switch v := os.Getenv(EnvSimulate); strings.ToLower(v) {
	case "", "0", "false":
		return false, nil
	case "1", "true":
		return true, nil
	default:
		return false, usagef("%s=%q: want 1 or 0", EnvSimulate, v)
	}
}

// deviceOpener returns how to open a GPU: the simulated one when --simulate
// or UMLAB_SIMULATE asks for it, else the real one.
func deviceOpener(flag bool) (open func(int) (umkit.Device, error), simulate bool, err error) {
	simulate, err = simulating(flag)
	if err != nil {
		return nil, false, err
	}
	if simulate {
		return openSimulated, true, nil
	}
	return openDevice, false, nil
}

func readKnobs() (simKnobs, error) {
	k := simKnobs{gpus: 1}
	ints := []struct {
		env string
		dst *int
		min int
	}{{EnvSimGPUs, &k.gpus, 1}, {EnvSimHangAfter, &k.hangAfter, 1}, {EnvSimHangHome, &k.hangHome, 1}, {EnvSimFailAlloc, &k.failAllocAfter, 0}, {EnvSimDropLaunch, &k.dropLaunch, 1}}
	for _, e := range ints {
		if v := os.Getenv(e.env); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < e.min || n > 1<<20 {
				return k, usagef("%s=%q: want a whole number from %d to %d", e.env, v, e.min, 1<<20)
			}
			*e.dst = n
		}
	}
	if v := os.Getenv(EnvSimMemory); v != "" {
		b, err := ParseSize(v)
		if err != nil || b < 64<<20 {
			return k, usagef("%s=%q: want a size of at least 64MiB, e.g. 8GiB", EnvSimMemory, v)
		}
		k.memory = b
	}
	if v := os.Getenv(EnvSimDriverKeeps); v != "" {
		size, from, hasFrom := strings.Cut(v, "@")
		kept, err := ParseSize(size)
		k.keptFrom = defaultKeptFrom
		if err == nil && hasFrom {
			k.keptFrom, err = ParseSize(from)
		}
		if err != nil || kept <= 0 || k.keptFrom <= 0 {
			return k, usagef("%s=%q: want SIZE or SIZE@FROM, sizes above 0, e.g. 105MiB or 105MiB@512MiB (memory kept once a prefetched managed buffer of at least FROM, default 512MiB, is freed)", EnvSimDriverKeeps, v)
		}
		k.kept = kept
	}
	if v := os.Getenv(EnvSimKernelDelay); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || d > time.Hour {
			return k, usagef("%s=%q: want a duration from 0 to 1h, e.g. 50ms", EnvSimKernelDelay, v)
		}
		k.delay = d
	}
	return k, nil
}

// openSimulated opens simulated GPU ordinal with the knobs of the
// environment.
func openSimulated(ordinal int) (umkit.Device, error) {
	k, err := readKnobs()
	if err != nil {
		return nil, err
	}
	if ordinal < 0 || ordinal >= k.gpus {
		return nil, fmt.Errorf("no simulated GPU %d: %s=%d simulates ordinals 0 to %d", ordinal, EnvSimGPUs, k.gpus, k.gpus-1)
	}
	d := fakegpu.NewGPU(ordinal)
	if k.memory > 0 {
		d.SetMemory(uint64(k.memory))
	}
	d.KernelDelay, d.HangAfter, d.HangHomeAfter, d.FailAllocAfter = k.delay, k.hangAfter, k.hangHome, k.failAllocAfter
	d.DropLaunch = k.dropLaunch
	d.KeptAfterFree, d.KeptAfterFreeFrom = uint64(k.kept), uint64(k.keptFrom)
	return d, nil
}

// discoverSimulated lists the simulated GPUs for umbench run --gpus.
func discoverSimulated(ords []int) ([]node.GPU, []string, error) {
	k, err := readKnobs()
	if err != nil {
		return nil, nil, err
	}
	var list []node.GPU
	if ords == nil {
		for i := 0; i < k.gpus; i++ {
			ords = append(ords, i)
		}
	}
	for _, o := range ords {
		if o >= k.gpus {
			return nil, nil, fmt.Errorf("no simulated GPU %d: %s=%d simulates ordinals 0 to %d", o, EnvSimGPUs, k.gpus, k.gpus-1)
		}
		d := fakegpu.NewGPU(o)
		list = append(list, node.GPU{Ordinal: o, UUID: d.Info().UUID, Name: d.Info().Name})
	}
	return list, nil, nil
}

// banner heads a table made from simulated rows.
func banner(w io.Writer, rows []results.Row) {
	if results.Simulated(rows) {
		fmt.Fprintf(w, "*** %s ***\n", results.SimulatedBanner)
	}
}
