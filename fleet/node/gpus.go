package fleet

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"

	"github.com/NVIDIA/go-nvml/pkg/nvml"

	"github.com/umlab/umlab/cuda"
)

// GPU is one GPU of a node-level run.
type GPU struct {
	Ordinal int    `json:"ordinal"`        // CUDA ordinal, as umbench run --gpu takes it
	UUID    string `json:"uuid,omitempty"` // from the driver
	Name    string `json:"name,omitempty"`
	// CPUs nearest the GPU (NVML's CPU affinity), within the CPUs this
	// process may use; nil when unknown.
	CPUs []int `json:"cpus,omitempty"`
}

var (
	nvmlOnce sync.Once
	nvmlOK   bool
)

// nvmlReady initialises NVML once. go-nvml ends the process if any other
// NVML call follows a failed Init, so every call below is gated on it.
func nvmlReady() bool {
	nvmlOnce.Do(func() { nvmlOK = nvml.Init() == nvml.SUCCESS })
	return nvmlOK
}

// nearestCPUs asks NVML for the CPUs nearest the GPU with this UUID.
func nearestCPUs(uuid string) ([]int, error) {
	if !nvmlReady() {
		return nil, fmt.Errorf("NVML (libnvidia-ml.so.1) is not available")
	}
	d, ret := nvml.DeviceGetHandleByUUID(uuid)
	if ret != nvml.SUCCESS {
		return nil, fmt.Errorf("NVML has no device %s: %s", uuid, nvml.ErrorString(ret))
	}
	// The argument is a CPU count; go-nvml sizes the mask from it. 4096
	// covers any machine Linux runs on without CONFIG_MAXSMP.
	set, ret := d.GetCpuAffinity(4096)
	if ret != nvml.SUCCESS {
		return nil, fmt.Errorf("NVML CPU affinity of %s: %s", uuid, nvml.ErrorString(ret))
	}
	var cpus []int
	for w, word := range set {
		for word != 0 {
			b := bits.TrailingZeros64(uint64(word))
			cpus = append(cpus, w*bits.UintSize+b)
			word &^= 1 << b
		}
	}
	return cpus, nil
}

// Discover lists the GPUs with the given CUDA ordinals (every GPU when
// ordinals is nil) and the CPUs nearest each, read through NVML and limited
// to the CPUs this process may use (a Slurm allocation, taskset). It opens
// no CUDA context. The warnings say where the nearest CPUs are unknown (no
// NVML, or none of them allowed here); those workers run unpinned.
func Discover(ordinals []int) ([]GPU, []string, error) {
	n, err := cuda.DeviceCount()
	if err != nil {
		return nil, nil, fmt.Errorf("no usable GPU: %w", err)
	}
	if n == 0 {
		return nil, nil, fmt.Errorf("no usable GPU: %w", cuda.ErrNoDevice)
	}
	if ordinals == nil {
		for i := 0; i < n; i++ {
			ordinals = append(ordinals, i)
		}
	}
	allowed, aerr := allowedCPUs()
	var gpus []GPU
	var warns []string
	for _, o := range ordinals {
		if o < 0 || o >= n {
			return nil, nil, fmt.Errorf("GPU %d does not exist: this node has %d GPU(s), ordinals 0..%d", o, n, n-1)
		}
		d, err := cuda.GetDevice(o)
		if err != nil {
			return nil, nil, err
		}
		a, err := d.Attributes()
		if err != nil {
			return nil, nil, fmt.Errorf("GPU %d: %w", o, err)
		}
		g := GPU{Ordinal: o, UUID: a.UUID, Name: a.Name}
		near, err := nearestCPUs(a.UUID)
		switch {
		case err != nil:
			warns = append(warns, fmt.Sprintf("GPU %d runs unpinned: %v", o, err))
		case aerr != nil:
			warns = append(warns, fmt.Sprintf("GPU %d runs unpinned: reading this process's CPU affinity: %v", o, aerr))
		default:
			for _, c := range near {
				if slices.Contains(allowed, c) {
					g.CPUs = append(g.CPUs, c)
				}
			}
			if len(g.CPUs) == 0 {
				warns = append(warns, fmt.Sprintf("GPU %d runs unpinned: none of its nearest CPUs (%s) is allowed here (%s)",
					o, FormatCPUs(near), FormatCPUs(allowed)))
			}
		}
		gpus = append(gpus, g)
	}
	return gpus, warns, nil
}
