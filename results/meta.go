package results

import (
	"encoding/json"
	"fmt"
	"strings"
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
	// GroupTimes is where the wall time went: one span per benchmark group
	// and process, every earlier segment's first when the run was resumed.
	GroupTimes []GroupTime `json:"group_times,omitempty"`
}

// GroupTime is the wall-clock span of one benchmark group in one process
// (segment) of a run, from the group's set-up to its teardown. Time a
// stopped segment spent on configurations measured again on resume counts
// in both segments: the spans say where the wall time went.
type GroupTime struct {
	Group   string    `json:"group"`
	Segment string    `json:"segment"` // the run ID of the process
	Start   time.Time `json:"start"`
	End     time.Time `json:"end"`
	// Stopped: the process ended inside the group (interrupted, hung, out
	// of time or failed); End is when it stopped.
	Stopped bool `json:"stopped,omitempty"`
}

// GroupWall adds up each group's spans over segments, the groups in the
// order they first ran.
func GroupWall(ts []GroupTime) (groups []string, wall map[string]time.Duration) {
	wall = map[string]time.Duration{}
	for _, t := range ts {
		if _, ok := wall[t.Group]; !ok {
			groups = append(groups, t.Group)
		}
		wall[t.Group] += t.End.Sub(t.Start)
	}
	return groups, wall
}

// FormatGroupWall says where a run's wall time went, e.g. "hbm 3s,
// handoff 16m6s (16m9s in groups)", and over how many segments when there
// were several; empty when ts is.
func FormatGroupWall(ts []GroupTime) string {
	groups, wall := GroupWall(ts)
	if len(groups) == 0 {
		return ""
	}
	round := func(d time.Duration) time.Duration {
		if d < 10*time.Second {
			return d.Round(100 * time.Millisecond)
		}
		return d.Round(time.Second)
	}
	var parts []string
	var sum time.Duration
	for _, g := range groups {
		parts = append(parts, fmt.Sprintf("%s %s", g, round(wall[g])))
		sum += wall[g]
	}
	segments := map[string]bool{}
	stopped := 0
	for _, t := range ts {
		segments[t.Segment] = true
		if t.Stopped {
			stopped++
		}
	}
	over := ""
	if len(segments) > 1 {
		over = fmt.Sprintf(" over %d segments, %d stopped inside a group", len(segments), stopped)
	}
	return fmt.Sprintf("%s (%s in groups%s)", strings.Join(parts, ", "), round(sum), over)
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
