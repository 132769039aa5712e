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
	n, r := drv(opDeviceCount, 0)
	return int(n[0]), check("cuDeviceGetCount", r)
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
	h, r := drv(opDeviceGet, 0, uint64(ordinal))
	if err := check("cuDeviceGet", r); err != nil {
		return Device{}, err
	}
	return Device{Ordinal: ordinal, handle: int32(h[0])}, nil
}

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
	mem, r := drv(opDeviceTotalMem, 0, uint64(d.handle))
	if a.TotalMemory = mem[0]; r != Success {
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
	// CUdevice_attribute numbers, identical in CUDA 11.4-13.0.
	for _, x := range []struct {
		attr int
		n    *int
		flag *bool
	}{
		{75, &a.ComputeMajor, nil},
		{76, &a.ComputeMinor, nil},
		{16, &a.Multiprocessors, nil},
		{37, &a.MemoryBusWidthBits, nil},
		{38, &a.L2CacheBytes, nil},
		{18, nil, &a.Integrated},
		{41, nil, &a.UnifiedAddressing},
		{19, nil, &a.CanMapHostMemory},
		{83, nil, &a.ManagedMemory},
		{89, nil, &a.ConcurrentManagedAccess},
		{88, nil, &a.PageableMemoryAccess},
		{100, nil, &a.PageableUsesHostPageTables},
		{86, nil, &a.HostNativeAtomics},
		{101, nil, &a.DirectManagedAccessFromHost},
	} {
		v, r := cDeviceAttr(d.handle, x.attr)
		if r != Success {
			return a, check(fmt.Sprintf("cuDeviceGetAttribute(%d)", x.attr), r)
		}
		if x.n != nil {
			*x.n = v
		} else {
			*x.flag = v != 0
		}
	}
	// Optional facts: deprecated or newer attributes that a driver may refuse.
	if v, r := cDeviceAttr(d.handle, 36); r == Success { // memory clock (kHz), deprecated in 13.0
		a.MemoryClockKHz = v
	}
	a.HostNUMAID = -1
	if v, r := cDeviceAttr(d.handle, 134); r == Success { // host NUMA id
		a.HostNUMAID = v
	}
	return a, nil
}

func formatUUID(u [16]byte) string {
	h := fmt.Sprintf("%x", u[:])
	return strings.Join([]string{"GPU-" + h[0:8], h[8:12], h[12:16], h[16:20], h[20:32]}, "-")
}
