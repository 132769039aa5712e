// Package nvml is umlab's binding of the few NVIDIA Management Library
// calls it uses: the driver version, PCIe link, NUMA node and nearest CPUs,
// clocks and clock event reasons of a GPU, and the PCIe byte counters.
//
// libnvidia-ml.so.1 is opened with dlopen at run time and every symbol
// resolved at once, so the package builds without a driver, a program using
// it starts on machines without one (Init then returns
// ERROR_LIBRARY_NOT_FOUND), and no call can fail later through lazy
// binding. Calls after a failed Init return an error; they never end the
// process.
//
// The API mirrors github.com/NVIDIA/go-nvml's for these calls. umlab left
// go-nvml because its cgo wrappers reference every NVML function, so a first
// build printed about 150 deprecation warnings that a user could not
// silence. The declarations here are our own, checked against nvml.h of
// CUDA 13.0.
//
// # Ownership and imports
//
// nvml owns the NVML binding and nothing above it (what a GPU's facts mean
// is umkit's, fleet/node's and internal/nvmlguard's). It is one of the three
// cgo packages (cuda, cuda/cupti, cuda/nvml: .ci/run checks that no other
// has cgo) and imports nothing of umlab. Only umkit, fleet/node and
// internal/nvmlguard import it; the pure packages must not, directly or
// through another package (.ci/run checks their dependencies).
package nvml
