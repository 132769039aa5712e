package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/umlab/umlab/fleet/node"
	"github.com/umlab/umlab/results"
	"github.com/umlab/umlab/umkit"
	"github.com/umlab/umlab/umkit/simgpu"
)

// The simulated GPU: umbench run --simulate, or UMLAB_SIMULATE=1 for every
// command, runs on umkit/simgpu, the deterministic device the tests use.
// Its numbers are made up; every row and meta.json say so. Its knobs
// (UMLAB_SIM_*, for tests and for trying what umbench does when things go
// wrong or a node is slower) are read by simgpu.FromEnv; simgpu's package
// documentation lists them.
const (
	EnvSimulate       = "UMLAB_SIMULATE" // 1: simulate every command
	EnvSimGPUs        = simgpu.EnvGPUs
	EnvSimMemory      = simgpu.EnvMemory
	EnvSimKernelDelay = simgpu.EnvKernelDelay
	EnvSimHangAfter   = simgpu.EnvHangAfter
	EnvSimDropLaunch  = simgpu.EnvDropLaunch
	EnvSimHangHome    = simgpu.EnvHangHome
	EnvSimFailAlloc   = simgpu.EnvFailAlloc
	EnvSimDriverKeeps = simgpu.EnvDriverKeeps
)

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

// readKnobs reads the simulated GPU's knobs; a bad one is a usage error.
func readKnobs() (simgpu.Knobs, error) {
	k, err := simgpu.FromEnv()
	if err != nil {
		return k, usagef("%v", err)
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
	d, err := k.Open(ordinal)
	if err != nil {
		return nil, err
	}
	return d, nil
}

// discoverSimulated lists the simulated GPUs for umbench run --gpus.
func discoverSimulated(ords []int) ([]node.GPU, []string, error) {
	k, err := readKnobs()
	if err != nil {
		return nil, nil, err
	}
	if ords == nil {
		for i := 0; i < k.GPUs; i++ {
			ords = append(ords, i)
		}
	}
	var list []node.GPU
	for _, o := range ords {
		d, err := k.Open(o)
		if err != nil {
			return nil, nil, err
		}
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
