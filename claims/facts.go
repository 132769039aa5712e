package claims

import (
	"cmp"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/umlab/umlab/results"
)

// Interconnect kinds between the CPU's memory and the GPU.
const (
	LinkUnknown    = "unknown"
	LinkPCIe       = "PCIe"
	LinkC2C        = "NVLink-C2C"
	LinkIntegrated = "integrated" // one memory pool shared by CPU and GPU
)

// Facts are what a run's metadata says about the machine, in the terms the
// claims' reasons use.
type Facts struct {
	Platform string // H200, GB200, ...
	Device   string // the device's name
	// Link is how the GPU reaches CPU memory: LinkPCIe, LinkC2C,
	// LinkIntegrated or LinkUnknown; LinkText says it in words
	// ("PCIe Gen5 x16", "coherent NVLink-C2C (Table I)").
	Link, LinkText string
	// HostLinkGBps is the host link's raw peak per direction (PCIe), 0 when
	// unknown.
	HostLinkGBps float64
	// Capabilities reported by the driver. Known is false for published
	// runs, whose papers do not report them: the fields are then unset.
	Known                   bool
	ConcurrentManagedAccess bool
	PageableMemoryAccess    bool // ATS or HMM: the GPU can use pageable (malloc) memory
	DirectManagedFromHost   bool // the CPU reads GPU-resident managed memory without migrating it
	// OversubCapacityBytes is the capacity the oversubscription sweep
	// measured against (shrunk by a plain device allocation), 0 when the
	// run says nothing; OversubMaxPct the largest percentage measured and
	// OversubAllowed whether the run opted into percentages above 100.
	OversubCapacityBytes int64
	OversubMaxPct        float64
	OversubAllowed       bool
	// CPUThreads is the number of host threads of the handoff's CPU
	// update (meta.json's config), 0 when the run does not say.
	CPUThreads int
}

// FactsOf derives the facts from a run's metadata. For published runs the
// link comes from the memory organisation of the paper's Table I.
func FactsOf(m results.Metadata) Facts {
	d := m.Device
	f := Facts{Platform: m.Platform, Device: d.Name, Link: LinkUnknown, LinkText: "unknown link",
		HostLinkGBps: d.PeakHostLinkGBps}
	org := strings.ToLower(d.MemoryOrganization)
	switch {
	case strings.Contains(org, "c2c"):
		f.Link, f.LinkText = LinkC2C, "coherent NVLink-C2C"
	case strings.Contains(org, "shared") || strings.Contains(org, "integrated"):
		f.Link, f.LinkText = LinkIntegrated, "one LPDDR5X pool shared by CPU and GPU"
	case d.PCIeGeneration > 0:
		f.Link, f.LinkText = LinkPCIe, fmt.Sprintf("PCIe Gen%d x%d", d.PCIeGeneration, d.PCIeWidth)
	}
	if m.Kind == "published" {
		f.LinkText += " (paper, Table I)"
	} else {
		f.Known = true
		f.ConcurrentManagedAccess = d.ConcurrentManagedAccess
		f.PageableMemoryAccess = d.PageableMemoryAccess
		f.DirectManagedFromHost = d.DirectManagedAccessFromHost
	}
	if _, ok := m.Config.(map[string]any); ok { // as meta.json holds it
		var cfg map[string]struct {
			CPUThreads, CapacityBytes float64
			AllowOversubscription     bool
			Percents                  []float64
		}
		b, _ := json.Marshal(m.Config)
		_ = json.Unmarshal(b, &cfg) // a field of another type stays unset
		h, o := cfg[results.GroupHandoff], cfg[results.GroupOversub]
		f.CPUThreads, f.OversubCapacityBytes = int(h.CPUThreads), int64(o.CapacityBytes)
		f.OversubAllowed = o.AllowOversubscription
		for _, p := range o.Percents {
			f.OversubMaxPct = max(f.OversubMaxPct, p)
		}
	}
	return f
}

// Describe says the facts in one line, for reports.
func (f Facts) Describe() string {
	var b strings.Builder
	b.WriteString(cmp.Or(f.Device, f.Platform) + ", " + f.LinkText)
	if f.Known {
		fmt.Fprintf(&b, "; concurrent managed access %s, pageable memory access (ATS/HMM) %s, direct managed access from host %s",
			yesNo(f.ConcurrentManagedAccess), yesNo(f.PageableMemoryAccess), yesNo(f.DirectManagedFromHost))
	}
	if f.OversubCapacityBytes > 0 {
		fmt.Fprintf(&b, "; oversubscription sweep against a capacity shrunk to %s", bytesText(f.OversubCapacityBytes))
	}
	return b.String()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// bytesText formats a size in binary units (results.FormatBytes, umlab's
// one byte formatter).
func bytesText(b int64) string { return results.FormatBytes(b) }
