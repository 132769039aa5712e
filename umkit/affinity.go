package umkit

import (
	"fmt"
	"runtime"

	"github.com/umlab/umlab/results"
	"golang.org/x/sys/unix"
)

// pinThread locks the calling goroutine to its OS thread and that thread to
// one CPU: cpu itself when >= 0, the last CPU near the GPU (from NVML) when
// -1 (the last rather than the first, which often serves interrupts), or
// none when -2. It returns the CPU chosen (-1 if unpinned) and a
// function that undoes it.
func pinThread(cpu int, uuid string) (int, func(), error) {
	if cpu == -2 {
		return -1, func() {}, nil
	}
	if cpu == -1 {
		var cur unix.CPUSet
		if err := unix.SchedGetaffinity(0, &cur); err != nil {
			return -1, func() {}, nil
		}
		if near, err := readNVML(uuid, &results.Device{}); err == nil {
			for _, c := range near {
				if cur.IsSet(c) {
					cpu = c
				}
			}
		}
		for i := 0; cpu < 0 && i < 1024; i++ {
			if cur.IsSet(1023 - i) {
				cpu = 1023 - i
			}
		}
		if cpu < 0 {
			return -1, func() {}, nil
		}
	}
	runtime.LockOSThread()
	var old unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		runtime.UnlockOSThread()
		return -1, func() {}, fmt.Errorf("umkit: reading CPU affinity: %w", err)
	}
	var set unix.CPUSet
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		runtime.UnlockOSThread()
		return -1, func() {}, fmt.Errorf("umkit: pinning the host thread to CPU %d: %w", cpu, err)
	}
	return cpu, func() {
		unix.SchedSetaffinity(0, &old)
		runtime.UnlockOSThread()
	}, nil
}

// updateCPUs returns the cores of an n-thread CPU update: first (the pinned
// host thread), then the other cores of the GPU's NUMA-local set that the
// process may use, from the highest down, then any other allowed cores. When
// the host thread is unpinned (first < 0) every thread is unpinned (-1).
// cur is the set of cores allowed before the host thread was pinned.
func updateCPUs(first, n int, uuid string, cur unix.CPUSet) ([]int, error) {
	cpus := []int{first}
	if first < 0 {
		for len(cpus) < n {
			cpus = append(cpus, -1)
		}
		return cpus, nil
	}
	used := map[int]bool{first: true}
	near, _ := readNVML(uuid, &results.Device{})
	add := func(c int) {
		if len(cpus) < n && !used[c] && cur.IsSet(c) {
			used[c] = true
			cpus = append(cpus, c)
		}
	}
	for i := len(near) - 1; i >= 0; i-- {
		add(near[i])
	}
	for c := 1023; c >= 0; c-- {
		add(c)
	}
	if len(cpus) < n {
		return nil, fmt.Errorf("umkit: handoff: %d CPU-update threads, but this process may use only %d cores", n, len(cpus))
	}
	return cpus, nil
}
