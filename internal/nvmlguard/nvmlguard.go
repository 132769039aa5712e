package nvmlguard

import (
	"math/bits"
	"sync"

	"github.com/umlab/umlab/cuda/nvml"
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
