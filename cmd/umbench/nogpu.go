package main

import (
	"errors"
	"fmt"

	"github.com/umlab/umlab/cuda"
	"github.com/umlab/umlab/umkit"
)

// openDevice opens a GPU; tests replace it with a simulated device.
var openDevice = umkit.Open

// openCounters opens the Unified Memory counters; tests replace it.
var openCounters = umkit.OpenCounters

// noGPU is the error of a device command on a machine without a driver
// or a GPU: one paragraph on what to do instead.
type noGPU struct{ err error }

func (e noGPU) Unwrap() error { return e.err }

func (e noGPU) Error() string {
	why := "no NVIDIA driver: libcuda.so.1 did not load"
	if errors.Is(e.err, cuda.ErrNoDevice) {
		why = "the NVIDIA driver reports no GPU"
	}
	self := selfCommand()
	return fmt.Sprintf("no GPU to measure (%s). Instead:\n"+
		"  %s run --simulate --quick   the simulated GPU: made-up numbers, marked SIMULATED\n"+
		"  %s datasets                 measured runs to read (summary, model, reproduce)\n"+
		"  bash docker/install.sh lab  the notebooks, on the same bundled data\n"+
		"To measure, install the NVIDIA driver %s or newer (in a container: --gpus all).",
		why, self, self, cuda.MinDriverBranch)
}

// openGPU opens GPU ordinal (checked ≥ 0 by each command) with open.
// Without a driver or a GPU the error is a noGPU paragraph; other failures
// say "no usable GPU" and why.
func openGPU(open func(int) (umkit.Device, error), ordinal int) (umkit.Device, error) {
	dev, err := open(ordinal)
	if err != nil {
		return nil, orNoGPU(fmt.Errorf("no usable GPU: %w", err))
	}
	return dev, nil
}

// orNoGPU turns an error that says there is no driver or no GPU into the
// noGPU paragraph; other errors stay as they are.
func orNoGPU(err error) error {
	if errors.Is(err, cuda.ErrNoDriver) || errors.Is(err, cuda.ErrNoDevice) {
		return noGPU{err}
	}
	return err
}
