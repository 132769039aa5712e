package node

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"

	"github.com/umlab/umlab/fleet"

	"golang.org/x/sys/unix"
)

// allowedCPUs returns the CPUs this process may run on.
func allowedCPUs() ([]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil, err
	}
	return cpusOf(&set), nil
}

func cpusOf(set *unix.CPUSet) []int {
	var out []int
	for c := 0; c < len(set)*64; c++ {
		if set.IsSet(c) {
			out = append(out, c)
		}
	}
	return out
}

func setOf(cpus []int) unix.CPUSet {
	var set unix.CPUSet
	for _, c := range cpus {
		set.Set(c)
	}
	return set
}

// AssignCPUs returns the CPUs each worker is pinned to, one list per GPU
// (nil where unknown). Isolated workers get all the CPUs nearest their
// GPU. Concurrent workers whose GPUs share their nearest CPUs split them
// into disjoint blocks, in GPU order, so that their CPU work does not
// compete for one core (umkit pins its measuring thread to the last CPU of
// the set); with fewer CPUs than GPUs, they share the set.
func AssignCPUs(gpus []GPU, concurrent bool) [][]int {
	out := make([][]int, len(gpus))
	if !concurrent {
		for i, g := range gpus {
			out[i] = slices.Clone(g.CPUs)
		}
		return out
	}
	share := map[string][]int{} // CPU list → indices of the GPUs nearest it
	var keys []string
	for i, g := range gpus {
		if len(g.CPUs) == 0 {
			continue
		}
		k := fleet.FormatCPUs(g.CPUs)
		if _, ok := share[k]; !ok {
			keys = append(keys, k)
		}
		share[k] = append(share[k], i)
	}
	for _, k := range keys {
		idx := share[k]
		cpus := slices.Clone(gpus[idx[0]].CPUs)
		slices.Sort(cpus)
		n, w := len(cpus), len(idx)
		if n < w {
			for _, i := range idx {
				out[i] = slices.Clone(cpus)
			}
			continue
		}
		start := 0
		for j, i := range idx {
			size := n / w
			if j < n%w {
				size++
			}
			out[i] = slices.Clone(cpus[start : start+size])
			start += size
		}
	}
	return out
}

// PinProcess restricts every thread of this process to cpus. A Go program
// has several OS threads; each is set through /proc/self/task, twice, so
// that a thread started during the first pass (which may have inherited the
// old set) is caught by the second. Threads started later inherit the set.
func PinProcess(cpus []int) error {
	set := setOf(cpus)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for pass := 0; pass < 2; pass++ {
		ents, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return unix.SchedSetaffinity(0, &set)
		}
		for _, e := range ents {
			tid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			if err := unix.SchedSetaffinity(tid, &set); err != nil && err != unix.ESRCH {
				return fmt.Errorf("fleet: pinning thread %d to CPUs %s: %w", tid, fleet.FormatCPUs(cpus), err)
			}
		}
	}
	return nil
}

// CurrentCPUs returns the CPUs the calling thread may run on, as a list
// ("" if unknown).
func CurrentCPUs() string {
	c, err := allowedCPUs()
	if err != nil {
		return ""
	}
	return fleet.FormatCPUs(c)
}
