package cuda

import (
	"fmt"
	"strings"
)

// Device is a CUDA device.
type Device struct {
	Ordinal int
	handle  int32
}

// DeviceCount returns the number of CUDA devices.
func DeviceCount() (int, error) {
	if err := Init(); err != nil {
		return 0, err
	}
	n, r := cDeviceCount()
	return n, check("cuDeviceGetCount", r)
}

// GetDevice returns the device with the given ordinal.
func GetDevice(ordinal int) (Device, error) {
	n, err := DeviceCount()
	if err != nil {
		return Device{}, err
	}
	if n == 0 {
		return Device{}, ErrNoDevice
	}
	if ordinal < 0 || ordinal >= n {
		return Device{}, argError("GetDevice", "ordinal %d out of range: %d device(s), ordinals 0..%d", ordinal, n, n-1)
	}
	h, r := cDeviceGet(ordinal)
	if err := check("cuDeviceGet", r); err != nil {
		return Device{}, err
	}
	return Device{Ordinal: ordinal, handle: h}, nil
}

// Device attribute numbers (CUdevice_attribute, identical in CUDA 11.4-13.0).
const (
	attrMultiprocessorCount        = 16
	attrIntegrated                 = 18
	attrCanMapHostMemory           = 19
	attrMemoryClockRate            = 36 // kHz; deprecated in 13.0 and may fail
	attrGlobalMemoryBusWidth       = 37 // bits
	attrL2CacheSize                = 38
	attrUnifiedAddressing          = 41
	attrComputeCapabilityMajor     = 75
	attrComputeCapabilityMinor     = 76
	attrManagedMemory              = 83
	attrHostNativeAtomicSupported  = 86
	attrPageableMemoryAccess       = 88
	attrConcurrentManagedAccess    = 89
	attrPageableUsesHostPageTables = 100
	attrDirectManagedMemFromHost   = 101
	attrHostNUMAID                 = 134
)

// Attributes are the device facts umlab records and decides by.
type Attributes struct {
	Name                    string
	UUID                    string // GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx
	PCIBusID                string
	ComputeMajor            int
	ComputeMinor            int
	Multiprocessors         int
	TotalMemory             uint64
	MemoryClockKHz          int // 0 when the driver no longer reports it
	MemoryBusWidthBits      int
	L2CacheBytes            int
	Integrated              bool
	UnifiedAddressing       bool
	CanMapHostMemory        bool
	ManagedMemory           bool
	ConcurrentManagedAccess bool
	// PageableMemoryAccess: the GPU can access malloc'd memory (HMM or ATS).
	PageableMemoryAccess bool
	// PageableUsesHostPageTables: it does so through the CPU's page tables (ATS, Grace).
	PageableUsesHostPageTables  bool
	HostNativeAtomics           bool
	DirectManagedAccessFromHost bool
	HostNUMAID                  int // -1 when unknown
}

// ComputeCapability returns "major.minor".
func (a Attributes) ComputeCapability() string {
	return fmt.Sprintf("%d.%d", a.ComputeMajor, a.ComputeMinor)
}

// PeakMemoryGBps is the theoretical device memory bandwidth from the memory
// clock and bus width (double data rate), or 0 when either is unknown.
func (a Attributes) PeakMemoryGBps() float64 {
	return 2 * float64(a.MemoryClockKHz) * 1e3 * float64(a.MemoryBusWidthBits) / 8 / 1e9
}

// Attributes reads the device's attributes.
func (d Device) Attributes() (Attributes, error) {
	var a Attributes
	var r Result
	if a.Name, r = cDeviceName(d.handle); r != Success {
		return a, check("cuDeviceGetName", r)
	}
	if a.TotalMemory, r = cDeviceTotalMem(d.handle); r != Success {
		return a, check("cuDeviceTotalMem", r)
	}
	u, r := cDeviceUUID(d.handle)
	if r != Success {
		return a, check("cuDeviceGetUuid", r)
	}
	a.UUID = formatUUID(u)
	if a.PCIBusID, r = cDevicePCIBusID(d.handle); r != Success {
		return a, check("cuDeviceGetPCIBusId", r)
	}
	ints := []struct {
		attr int
		dst  *int
	}{
		{attrComputeCapabilityMajor, &a.ComputeMajor},
		{attrComputeCapabilityMinor, &a.ComputeMinor},
		{attrMultiprocessorCount, &a.Multiprocessors},
		{attrGlobalMemoryBusWidth, &a.MemoryBusWidthBits},
		{attrL2CacheSize, &a.L2CacheBytes},
	}
	for _, x := range ints {
		v, r := cDeviceAttr(d.handle, x.attr)
		if r != Success {
			return a, check(fmt.Sprintf("cuDeviceGetAttribute(%d)", x.attr), r)
		}
		*x.dst = v
	}
	bools := []struct {
		attr int
		dst  *bool
	}{
		{attrIntegrated, &a.Integrated},
		{attrUnifiedAddressing, &a.UnifiedAddressing},
		{attrCanMapHostMemory, &a.CanMapHostMemory},
		{attrManagedMemory, &a.ManagedMemory},
		{attrConcurrentManagedAccess, &a.ConcurrentManagedAccess},
		{attrPageableMemoryAccess, &a.PageableMemoryAccess},
		{attrPageableUsesHostPageTables, &a.PageableUsesHostPageTables},
		{attrHostNativeAtomicSupported, &a.HostNativeAtomics},
		{attrDirectManagedMemFromHost, &a.DirectManagedAccessFromHost},
	}
	for _, x := range bools {
		v, r := cDeviceAttr(d.handle, x.attr)
		if r != Success {
			return a, check(fmt.Sprintf("cuDeviceGetAttribute(%d)", x.attr), r)
		}
		*x.dst = v != 0
	}
	// Optional facts: deprecated or newer attributes that a driver may refuse.
	if v, r := cDeviceAttr(d.handle, attrMemoryClockRate); r == Success {
		a.MemoryClockKHz = v
	}
	a.HostNUMAID = -1
	if v, r := cDeviceAttr(d.handle, attrHostNUMAID); r == Success {
		a.HostNUMAID = v
	}
	return a, nil
}

func formatUUID(u [16]byte) string {
	h := fmt.Sprintf("%x", u[:])
	return strings.Join([]string{"GPU-" + h[0:8], h[8:12], h[12:16], h[16:20], h[20:32]}, "-")
}
