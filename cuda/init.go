package cuda

import (
	"fmt"
	"sync"
)

// MinDriverVersion is the oldest driver API version (cuDriverGetVersion,
// 1000*major + 10*minor) that can JIT-compile the embedded kernels: they are
// PTX ISA 9.0, written by nvcc 13.0, which needs the R580 driver branch.
const MinDriverVersion = 13000

// MinDriverBranch names the driver release that MinDriverVersion means.
const MinDriverBranch = "R580"

// Init loads the NVIDIA driver library (libcuda.so.1) with dlopen, resolves
// every entry point umlab uses, checks that the driver can compile the
// embedded PTX and initialises the driver. It is idempotent and safe to call
// from several goroutines: the first call does the work and every call
// returns its result.
//
// Errors wrap ErrNoDriver (no libcuda.so.1, or an entry point missing),
// ErrPTXTooNew (the driver is older than MinDriverVersion) or ErrNoDevice.
func Init() error { return initOnce() }

var initOnce = sync.OnceValue(load)

func load() error {
	switch rc, msg := cLoad(); rc {
	case 0:
	case 1:
		return fmt.Errorf("%w: cannot load libcuda.so.1 (%s). libcuda.so.1 ships with the NVIDIA driver, "+
			"not with the CUDA toolkit: install the driver (%s or newer), or in a container run with "+
			"--gpus all and the NVIDIA Container Toolkit", ErrNoDriver, msg, MinDriverBranch)
	default:
		return fmt.Errorf("%w: %s; umlab needs driver %s or newer", ErrNoDriver, msg, MinDriverBranch)
	}
	v, r := drv(opDriverVersion, 0)
	if err := check("cuDriverGetVersion", r); err != nil {
		return err
	}
	if err := checkDriverVersion(int(v[0])); err != nil {
		return err
	}
	if r := do(opInit, 0); r != Success {
		if r == ErrorNoDevice {
			return fmt.Errorf("%w: the driver (CUDA %s) loaded but cuInit reports no device",
				ErrNoDevice, versionString(int(v[0])))
		}
		return check("cuInit", r)
	}
	return nil
}

// checkDriverVersion refuses drivers that cannot JIT the embedded PTX.
func checkDriverVersion(v int) error {
	if v >= MinDriverVersion {
		return nil
	}
	return fmt.Errorf("%w: the driver supports CUDA %s, but umlab's kernels are PTX ISA 9.0 "+
		"(nvcc 13.0), which needs CUDA %s, i.e. driver %s or newer: update the NVIDIA driver",
		ErrPTXTooNew, versionString(v), versionString(MinDriverVersion), MinDriverBranch)
}

func versionString(v int) string { return fmt.Sprintf("%d.%d", v/1000, v%1000/10) }

// DriverVersion returns the CUDA version the driver supports, as
// 1000*major + 10*minor (13000 for CUDA 13.0).
func DriverVersion() (int, error) {
	if err := Init(); err != nil {
		return 0, err
	}
	v, r := drv(opDriverVersion, 0)
	return int(v[0]), check("cuDriverGetVersion", r)
}
