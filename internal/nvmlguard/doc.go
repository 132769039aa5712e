// Package nvmlguard is the one gate in front of NVML (cuda/nvml): NVML is
// initialised once per process, and every package that calls NVML (umkit for
// device facts and PCIe counters, fleet/node for the CPUs nearest a GPU)
// asks [Ready] first and makes no call when it is false. It also decodes
// NVML's CPU masks.
//
// It owns nothing else and imports no umlab package but cuda/nvml.
package nvmlguard
