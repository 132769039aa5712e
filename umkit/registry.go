package umkit

import (
	"fmt"
	"slices"
	"strings"
)

// Benchmark describes one named benchmark of the suite.
type Benchmark struct {
	Name        string // group.benchmark, e.g. hbm.triad
	Group       string
	Description string
	// Useful says which bytes of one iteration count as useful (what the
	// gbps column divides by); each Config carries the number.
	Useful string
	// Supported says whether the device can run it, and if not, why; the
	// run then records a waived row with that reason instead of failing.
	Supported func(DeviceInfo) (bool, string)

	def string // the Definition's Name, set when the registry is built
}

func always(DeviceInfo) (bool, string) { return true, "" }

// needs is a Supported test: whether the device has what it needs, and
// if not, why.
func needs(has func(DeviceInfo) bool, why string) func(DeviceInfo) (bool, string) {
	return func(d DeviceInfo) (bool, string) {
		if !has(d) {
			return false, why
		}
		return true, ""
	}
}

var (
	needsManaged = needs(func(d DeviceInfo) bool { return d.ManagedMemory },
		"the device does not support managed memory")
	needsMapping = needs(func(d DeviceInfo) bool { return d.CanMapHostMemory },
		"the device cannot map host memory")
	needsPageable = needs(func(d DeviceInfo) bool { return d.PageableMemoryAccess },
		"the device does not report pageable memory access (no HMM or ATS)")
)

func needsPrefetch(d DeviceInfo) (bool, string) {
	if ok, why := needsManaged(d); !ok {
		return ok, why
	}
	if !d.ConcurrentManagedAccess {
		return false, "prefetch and reuse need concurrent managed access, which the device does not report " +
			"(e.g. Windows/WSL, or a vGPU without unified memory)"
	}
	return true, ""
}

// Select returns the benchmarks whose name or group matches one of the
// patterns: a group name ("pattern"), a full name ("pattern.random") or a
// name prefix ("pattern.s"). No patterns selects everything.
func Select(patterns []string) ([]Benchmark, error) {
	if len(patterns) == 0 {
		return slices.Clone(Registry), nil
	}
	var out []Benchmark
	for _, p := range patterns {
		p = strings.TrimSpace(p)
		found := false
		for _, b := range Registry {
			if b.Group == p || b.Name == p || strings.HasPrefix(b.Name, p) {
				found = true
				if !slices.ContainsFunc(out, func(x Benchmark) bool { return x.Name == b.Name }) {
					out = append(out, b)
				}
			}
		}
		if !found {
			names := make([]string, len(Registry))
			for i, b := range Registry {
				names[i] = b.Name
			}
			return nil, fmt.Errorf("umkit: no benchmark matches %q: groups are %s; benchmarks are %s",
				p, strings.Join(Groups, ", "), strings.Join(names, ", "))
		}
	}
	return out, nil
}

// entry makes a registry entry; the group is the name's first part.
func entry(name, useful string, supported func(DeviceInfo) (bool, string), description string) Benchmark {
	group, _, _ := strings.Cut(name, ".")
	return Benchmark{Name: name, Group: group, Description: description, Useful: useful, Supported: supported}
}
