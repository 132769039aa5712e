// Package nvmlguard is the one gate in front of NVML: go-nvml ends the
// process if any NVML call follows a failed nvml.Init, so every package that
// calls NVML (umkit for device facts and PCIe counters, fleet/node for the
// CPUs nearest a GPU) asks [Ready] first. It also decodes NVML's CPU masks.
//
// It owns nothing else and must not import any umlab package.
package nvmlguard

import (
	"math/bits"
	"sync"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

var (
	once sync.Once
	ok   bool
)

// Ready initialises NVML once per process and reports whether it succeeded.
// No NVML call may be made when it returns false.
func Ready() bool {
	once.Do(func() { ok = nvml.Init() == nvml.SUCCESS })
	return ok
}

// CPUs lists the CPUs set in an NVML CPU mask (as returned by
// Device.GetCpuAffinity: word w, bit b is CPU w·64 + b).
func CPUs(mask []uint) []int {
	var cpus []int
	for w, word := range mask {
		for word != 0 {
			b := bits.TrailingZeros64(uint64(word))
			cpus = append(cpus, w*64+b)
			word &^= 1 << b
		}
	}
	return cpus
}
