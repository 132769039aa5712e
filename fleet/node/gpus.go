package node

import (
	"fmt"
	"slices"

	"github.com/umlab/umlab/cuda"
	"github.com/umlab/umlab/cuda/nvml"
	"github.com/umlab/umlab/fleet"
	"github.com/umlab/umlab/internal/nvmlguard"
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

// nearestCPUs asks NVML for the CPUs nearest the GPU with this UUID.
func nearestCPUs(uuid string) ([]int, error) {
	if !nvmlguard.Ready() {
		return nil, fmt.Errorf("NVML (libnvidia-ml.so.1) is not available")
	}
	d, ret := nvml.DeviceGetHandleByUUID(uuid)
	if ret != nvml.SUCCESS {
		return nil, fmt.Errorf("NVML has no device %s: %s", uuid, nvml.ErrorString(ret))
	}
	// The argument is a CPU count; cuda/nvml sizes the mask from it. 4096
	// covers any machine Linux runs on without CONFIG_MAXSMP.
	set, ret := d.GetCpuAffinity(4096)
	if ret != nvml.SUCCESS {
		return nil, fmt.Errorf("NVML CPU affinity of %s: %s", uuid, nvml.ErrorString(ret))
	}
	return nvmlguard.CPUs(set), nil
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
					o, fleet.FormatCPUs(near), fleet.FormatCPUs(allowed)))
			}
		}
		gpus = append(gpus, g)
	}
	return gpus, warns, nil
}
