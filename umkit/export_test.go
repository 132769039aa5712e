package umkit

// NewCounters runs counter passes with any source, and a PCIe counter
// (nil: NVML's, found by the GPU's UUID when the run starts).
func NewCounters(src CounterSource, pcie PCIeCounter) *Counters {
	return &Counters{src: src, pcie: pcie, about: "Unified Memory counters"}
}
