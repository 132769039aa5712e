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

// EnvSimulate=1 runs every command on the simulated GPU, as run --simulate
// does: umkit/simgpu, the deterministic device the tests use. Its numbers
// are made up; every row and meta.json say so. Its knobs (UMLAB_SIM_*)
// are read by simgpu.FromEnv, whose package documentation lists them.
const EnvSimulate = "UMLAB_SIMULATE"

// deviceOpener returns how to open a GPU: the simulated one when flag
// (the command's --simulate) or UMLAB_SIMULATE (1 or true) asks for it,
// else the real one.
func deviceOpener(flag bool) (open func(int) (umkit.Device, error), simulate bool, err error) {
	v := os.Getenv(EnvSimulate)
	switch l := strings.ToLower(v); {
	case flag || l == "1" || l == "true":
		return openSimulated, true, nil
	case l == "" || l == "0" || l == "false":
		return openDevice, false, nil
	}
	return nil, false, usagef("%s=%q: want 1 or 0", EnvSimulate, v)
}

// readKnobs reads the simulated GPU's knobs; a bad one is a usage error.
func readKnobs() (simgpu.Knobs, error) {
	k, err := simgpu.FromEnv()
	if err != nil {
		return k, usagef("%v", err)
	}
	return k, nil
}

// openSimulated opens simulated GPU ordinal with the environment's knobs.
func openSimulated(ordinal int) (umkit.Device, error) {
	k, err := readKnobs()
	if err != nil {
		return nil, err
	}
	d, err := k.Open(ordinal)
	if err != nil {
		return nil, err // not a typed nil in the interface
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
		for i := range k.GPUs {
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
