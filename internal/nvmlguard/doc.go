// Package nvmlguard is the one gate in front of NVML: go-nvml ends the
// process if any NVML call follows a failed nvml.Init, so every package that
// calls NVML (umkit for device facts and PCIe counters, fleet/node for the
// CPUs nearest a GPU) asks [Ready] first. It also decodes NVML's CPU masks.
//
// It owns nothing else and must not import any umlab package.
package nvmlguard
