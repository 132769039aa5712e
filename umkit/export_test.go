package umkit

import "github.com/umlab/umlab/results"

// NewCounters runs counter passes with any source, and a PCIe counter
// (nil: NVML's, found by the GPU's UUID when the run starts).
func NewCounters(src CounterSource, pcie PCIeCounter) *Counters {
	return &Counters{src: src, pcie: pcie, about: "Unified Memory counters"}
}

// Rows returns the counter rows of this run (and of the run resumed).
func (c *Counters) Rows() []results.CounterRow {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]results.CounterRow(nil), c.rows...)
}
