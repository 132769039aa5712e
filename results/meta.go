package results

import (
	"encoding/json"
	"fmt"
	"time"
)

// Metadata is the provenance of a run, written beside its CSV as meta.json.
type Metadata struct {
	RunID     string            `json:"run_id"`
	Platform  string            `json:"platform"`
	Kind      string            `json:"kind"` // measured or published
	Command   string            `json:"command,omitempty"`
	Config    any               `json:"config,omitempty"`
	Module    string            `json:"module_version,omitempty"`
	Commit    string            `json:"commit,omitempty"`
	Host      string            `json:"host,omitempty"`
	Start     time.Time         `json:"start"`
	End       time.Time         `json:"end,omitempty"`
	Device    Device            `json:"device"`
	UVMParams map[string]string `json:"uvm_module_parameters,omitempty"`
	Source    string            `json:"source,omitempty"` // published data: the paper
	Notes     []string          `json:"notes,omitempty"`
}

// Device holds the facts of the GPU a run measured.
type Device struct {
	Name                        string  `json:"name"`
	UUID                        string  `json:"uuid,omitempty"`
	Index                       int     `json:"index"`
	ComputeCapability           string  `json:"compute_capability,omitempty"`
	SMs                         int     `json:"sms,omitempty"`
	MemoryBytes                 uint64  `json:"memory_bytes,omitempty"`
	FreeMemoryBytes             uint64  `json:"free_memory_bytes,omitempty"`
	DriverVersion               string  `json:"driver_version,omitempty"`
	CUDADriverVersion           int     `json:"cuda_driver_version,omitempty"`
	Toolkit                     string  `json:"toolkit,omitempty"`
	CPU                         string  `json:"cpu,omitempty"`
	MemoryOrganization          string  `json:"memory_organization,omitempty"`
	PCIeGeneration              int     `json:"pcie_generation,omitempty"`
	PCIeWidth                   int     `json:"pcie_width,omitempty"`
	NUMANode                    int     `json:"numa_node"`
	CPUAffinity                 string  `json:"cpu_affinity,omitempty"`
	SMClockMHz                  int     `json:"sm_clock_mhz,omitempty"`
	MemClockMHz                 int     `json:"mem_clock_mhz,omitempty"`
	MaxSMClockMHz               int     `json:"max_sm_clock_mhz,omitempty"`
	ThrottleReasons             string  `json:"throttle_reasons,omitempty"`
	PeakMemoryGBps              float64 `json:"peak_memory_gbps,omitempty"`
	PeakHostLinkGBps            float64 `json:"peak_host_link_gbps,omitempty"`
	ManagedMemory               bool    `json:"managed_memory"`
	ConcurrentManagedAccess     bool    `json:"concurrent_managed_access"`
	PageableMemoryAccess        bool    `json:"pageable_memory_access"`
	PageableUsesHostPageTables  bool    `json:"pageable_memory_access_uses_host_page_tables"`
	HostNativeAtomics           bool    `json:"host_native_atomic_supported"`
	DirectManagedAccessFromHost bool    `json:"direct_managed_mem_access_from_host"`
	CanMapHostMemory            bool    `json:"can_map_host_memory"`
}

// WriteMetadata writes m as indented JSON to path, atomically: a crash
// leaves the old file or the new one, never a part.
func WriteMetadata(path string, m Metadata) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("results: metadata: %w", err)
	}
	return WriteFileAtomic(path, append(b, '\n'), 0o644)
}

// ReadMetadata reads a meta.json file.
func ReadMetadata(path string) (Metadata, error) { return ReadJSON[Metadata](path) }

// ReadJSON reads the JSON file at path (a regular file of at most
// MaxMetaBytes) into a T; errors name the file. It is the one JSON reader
// of umlab's files (meta.json, fleet.json, workers.json).
func ReadJSON[T any](path string) (T, error) {
	b, err := ReadFileLimited(path, MaxMetaBytes)
	if err != nil {
		var zero T
		return zero, err
	}
	return DecodeJSON[T](b, path)
}

// DecodeJSON parses b, the content of the file name, into a T; errors name
// the file.
func DecodeJSON[T any](b []byte, name string) (T, error) {
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return v, fmt.Errorf("%s: %w", name, err)
	}
	return v, nil
}
