package nvmlguard

import (
	"math/bits"
	"sync"

	"github.com/umlab/umlab/cuda/nvml"
)

// Ready initialises NVML once per process and reports whether it succeeded.
// No NVML call may be made when it returns false.
var Ready = sync.OnceValue(func() bool { return nvml.Init() == nvml.SUCCESS })

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
