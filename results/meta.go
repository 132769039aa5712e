package results

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
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
	// Rewrites says, for each definition of the plan that re-establishes
	// CPU-written memory states before its cold, prefetched and advised
	// trials, how (umkit's StateSetup.Rewrite); nil in runs from before it
	// was recorded (PlanRewrite then reads the plan).
	Rewrites map[string]string `json:"rewrites,omitempty"`
	// Unverified is what the loader left out of the rows it returned with
	// this metadata (see ScreenUnverified); never written to meta.json.
	Unverified Unverified `json:"-"`
}

// GroupTime is the wall-clock span of one benchmark group in one process
// (segment) of a run, from the group's set-up to its teardown. Time a
// stopped segment spent on configurations measured again on resume counts
// in both segments: the spans say where the wall time went.
type GroupTime struct {
	Group   string `json:"group"`
	Segment string `json:"segment"` // the run ID of the process
	// Part is, in a merged directory (umbench merge), the label of the
	// part the span comes from, e.g. "node1/gpu0": parts may have run at
	// the same time, so their spans are not added up.
	Part  string    `json:"part,omitempty"`
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	// Stopped: the process ended inside the group (interrupted, hung, out
	// of time or failed); End is when it stopped.
	Stopped bool `json:"stopped,omitempty"`
	// Parts splits the span by what the process was doing; nil in runs
	// from before it was recorded.
	Parts *GroupParts `json:"parts,omitempty"`
}

// GroupParts is the wall time, in seconds, a group spent on each kind of
// work, warm-ups and trials together. The parts do not overlap; the rest of
// the span (GroupParts.Other) is allocation, initialisation, copies that
// set a state up, and the group's own set-up and teardown.
type GroupParts struct {
	// TimedS: the timed regions themselves: kernels, copies and prefetches
	// timed with events, the CPU loops and alternating iterations of
	// handoff.
	TimedS float64 `json:"timed_s"`
	// RewriteS: re-establishing the CPU-written state before each cold,
	// prefetched or advised trial: bringing managed data home (or
	// allocating it again) and writing it on the CPU.
	RewriteS float64 `json:"rewrite_s"`
	// SettleS: the untimed passes that bring the GPU to steady clocks
	// before a timed kernel.
	SettleS float64 `json:"settle_s"`
	// VerifyS: checking results, outside the timed regions.
	VerifyS float64 `json:"verify_s"`
}

func (p GroupParts) plus(q GroupParts) GroupParts {
	return GroupParts{p.TimedS + q.TimedS, p.RewriteS + q.RewriteS, p.SettleS + q.SettleS, p.VerifyS + q.VerifyS}
}

// Other is the part of a span of wall seconds that no part accounts for.
func (p GroupParts) Other(wall float64) float64 {
	return wall - p.TimedS - p.RewriteS - p.SettleS - p.VerifyS
}

// ByPart splits spans by the part of a merged directory they come from
// (GroupTime.Part), the parts in the order they first appear; spans of a
// plain run, even a resumed one, stay together.
func ByPart(ts []GroupTime) (parts []string, spans map[string][]GroupTime) {
	spans = map[string][]GroupTime{}
	for _, t := range ts {
		if _, ok := spans[t.Part]; !ok {
			parts = append(parts, t.Part)
		}
		spans[t.Part] = append(spans[t.Part], t)
	}
	return parts, spans
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
	var parts []string
	var sum time.Duration
	for _, g := range groups {
		parts = append(parts, fmt.Sprintf("%s %s", g, roundWall(wall[g])))
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
	return fmt.Sprintf("%s (%s in groups%s)", strings.Join(parts, ", "), roundWall(sum), over)
}

// FormatGroupParts says what each group's wall time went on, one line per
// group that recorded its parts, e.g. "oversub 2m49s: timed 56s, rewrite
// 1m13s, settle 5s, verify 3s, other 32s". A group's spans over segments
// add up; spans from before parts were recorded are left out, wall time
// and parts alike. Empty when no span recorded parts.
func FormatGroupParts(ts []GroupTime) string {
	recorded := slices.DeleteFunc(slices.Clone(ts), func(t GroupTime) bool { return t.Parts == nil })
	groups, wall := GroupWall(recorded)
	sum := map[string]GroupParts{}
	for _, t := range recorded {
		sum[t.Group] = sum[t.Group].plus(*t.Parts)
	}
	var lines []string
	for _, g := range groups {
		p := sum[g]
		lines = append(lines, fmt.Sprintf("%s %s: timed %s, rewrite %s, settle %s, verify %s, other %s", g, roundWall(wall[g]),
			seconds(p.TimedS), seconds(p.RewriteS), seconds(p.SettleS), seconds(p.VerifyS), seconds(p.Other(wall[g].Seconds()))))
	}
	return strings.Join(lines, "\n")
}

// roundWall rounds a wall time for display: to the second, or to a tenth
// below 10 s.
func roundWall(d time.Duration) time.Duration {
	if d < 10*time.Second && d > -10*time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}

func seconds(s float64) time.Duration { return roundWall(time.Duration(s * float64(time.Second))) }

// PlanRewrite is how a run re-established the CPU-written memory states
// before cold, prefetched and advised trials (umkit's StateSetup.Rewrite):
// the ways its definitions name (Metadata.Rewrites), joined with "+" where
// they differ, and "" where none re-establishes such states or the plan
// cannot be read. Runs from before Rewrites was recorded are read from
// their plan (Metadata.Config): each definition's Rewrite setting, or in
// plans from before that setting, "home" for each definition whose modes
// are memory states.
func PlanRewrite(m Metadata) string {
	ways := m.Rewrites
	if ways == nil {
		ways = planRewrites(m.Config)
	}
	var out []string
	for _, d := range slices.Sorted(maps.Keys(ways)) {
		if !slices.Contains(out, ways[d]) {
			out = append(out, ways[d])
		}
	}
	return strings.Join(out, "+")
}

// memoryStates are the modes whose data the CPU writes before each trial.
var memoryStates = []string{ModeManagedCold, ModeManagedPrefetch, ModeManagedReuse,
	ModeAdvisePreferredGPU, ModeAdviseAccessedBy, ModeAdvisePreferredCPU}

// planRewrites reads the rewrite settings from the plan of a run that did
// not record Rewrites: an object per definition, or one per group holding
// its definitions (nb's live runs, a plan per group).
func planRewrites(config any) map[string]string {
	b, err := json.Marshal(config)
	if err != nil {
		return nil
	}
	var plan any
	if json.Unmarshal(b, &plan) != nil {
		return nil
	}
	set, before := map[string]string{}, map[string]string{}
	var walk func(name string, v any)
	walk = func(name string, v any) {
		c, _ := v.(map[string]any)
		modes, hasModes := c["Modes"].([]any)
		if w, ok := c["Rewrite"].(string); ok {
			set[name] = w
		} else if hasModes && slices.ContainsFunc(modes, func(m any) bool { s, _ := m.(string); return slices.Contains(memoryStates, s) }) {
			before[name] = "home"
		} else if !hasModes {
			for k, x := range c {
				walk(k, x)
			}
		}
	}
	walk("", plan)
	if len(set) > 0 {
		return set
	}
	return before
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
