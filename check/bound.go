package check

import "github.com/umlab/umlab/results"

// resourceOf is what a row's configuration is bound by.
// TODO(issue 33): read the row's bound column once umkit declares it.
func resourceOf(r results.Row) string {
	small := r.SizeBytes > 0 && r.SizeBytes < 64<<20 && r.FootprintBytes < 64<<20
	switch r.Group {
	case "hbm":
		if small {
			return GPULaunch
		}
		return GPUMemory
	case "host":
		return HostLink
	case "transfer":
		switch r.Mode {
		case "pinned":
			return HostLink
		case "pageable":
			return HostPageable
		}
		return Faults
	case "managed", "pattern", "oversub":
		switch r.Mode {
		case "explicit", "managed_prefetch", "managed_reuse":
			if small {
				return GPULaunch
			}
			return GPUMemory
		}
		return Faults
	case "handoff":
		switch r.Phase {
		case "cpu_only":
			return HostCPU
		case "gpu_only":
			if r.Policy == "host_mapped" {
				return HostLink
			}
			if small {
				return GPULaunch
			}
			return GPUMemory
		}
		return Mixed
	}
	return Mixed
}
