package nvml

import (
	"fmt"
	"sync"
	"unsafe"
)

// Return is an NVML status code (nvmlReturn_t).
type Return int32

// Status codes umlab meets (nvml.h).
const (
	SUCCESS                  Return = 0
	ERROR_UNINITIALIZED      Return = 1
	ERROR_INVALID_ARGUMENT   Return = 2
	ERROR_NOT_SUPPORTED      Return = 3
	ERROR_NO_PERMISSION      Return = 4
	ERROR_NOT_FOUND          Return = 6
	ERROR_INSUFFICIENT_SIZE  Return = 7
	ERROR_DRIVER_NOT_LOADED  Return = 9
	ERROR_LIBRARY_NOT_FOUND  Return = 12
	ERROR_FUNCTION_NOT_FOUND Return = 13
	ERROR_GPU_IS_LOST        Return = 15
	ERROR_UNKNOWN            Return = 999
)

var names = map[Return]string{
	SUCCESS: "Success", ERROR_UNINITIALIZED: "Uninitialized", ERROR_INVALID_ARGUMENT: "Invalid Argument",
	ERROR_NOT_SUPPORTED: "Not Supported", ERROR_NO_PERMISSION: "Insufficient Permissions", ERROR_NOT_FOUND: "Not Found",
	ERROR_INSUFFICIENT_SIZE: "Insufficient Size", ERROR_DRIVER_NOT_LOADED: "Driver Not Loaded",
	ERROR_LIBRARY_NOT_FOUND: "NVML Shared Library Not Found", ERROR_FUNCTION_NOT_FOUND: "Function Not Found",
	ERROR_GPU_IS_LOST: "GPU is lost", ERROR_UNKNOWN: "Unknown Error",
}

// Error implements error.
func (r Return) Error() string { return ErrorString(r) }

// ErrorString names a status code: NVML's own text when the library is
// loaded, else this package's table; it never calls into a library that
// failed to load.
func ErrorString(r Return) string {
	if s := cErrorString(r); s != "" {
		return s
	}
	if s, ok := names[r]; ok {
		return s
	}
	return fmt.Sprintf("NVML error %d", int32(r))
}

// ClockType selects a clock domain (nvmlClockType_t).
type ClockType int32

// Clock domains.
const (
	CLOCK_GRAPHICS ClockType = 0
	CLOCK_SM       ClockType = 1
	CLOCK_MEM      ClockType = 2
)

// Clock event ("throttle") reasons, a bit mask (nvmlClocksEventReason*).
const (
	ClocksEventReasonGpuIdle                   = 1
	ClocksEventReasonApplicationsClocksSetting = 2
	ClocksEventReasonSwPowerCap                = 4
	ClocksEventReasonHwSlowdown                = 8
	ClocksEventReasonSyncBoost                 = 16
	ClocksEventReasonSwThermalSlowdown         = 32
	ClocksEventReasonHwThermalSlowdown         = 64
	ClocksEventReasonHwPowerBrakeSlowdown      = 128
	ClocksEventReasonDisplayClockSetting       = 256
)

// Field identifiers for Device.GetFieldValues (NVML_FI_*).
const (
	FI_DEV_PCIE_COUNT_TX_BYTES = 197 // bytes the GPU sent over PCIe, cumulative
	FI_DEV_PCIE_COUNT_RX_BYTES = 198 // bytes the GPU received over PCIe, cumulative
)

// ValueType is the type of a FieldValue's value (nvmlValueType_t).
type ValueType uint32

// Value types.
const (
	VALUE_TYPE_DOUBLE             ValueType = 0
	VALUE_TYPE_UNSIGNED_INT       ValueType = 1
	VALUE_TYPE_UNSIGNED_LONG      ValueType = 2
	VALUE_TYPE_UNSIGNED_LONG_LONG ValueType = 3
	VALUE_TYPE_SIGNED_LONG_LONG   ValueType = 4
	VALUE_TYPE_SIGNED_INT         ValueType = 5
	VALUE_TYPE_UNSIGNED_SHORT     ValueType = 6
)

// FieldValue is one field of nvmlDeviceGetFieldValues (nvmlFieldValue_t):
// set FieldId (and ScopeId) before the call; Value is the little-endian
// union of the value, of type ValueType.
type FieldValue struct {
	FieldId     uint32
	ScopeId     uint32
	Timestamp   int64
	LatencyUsec int64
	ValueType   uint32
	NvmlReturn  uint32
	Value       [8]byte
}

// Device is a GPU handle (nvmlDevice_t).
type Device struct{ h unsafe.Pointer } // a C pointer, never Go memory

var (
	loadOnce sync.Once
	loadRet  Return
	loadMsg  string
)

// Init opens libnvidia-ml.so.1 (once) and initialises NVML. Without the
// library it returns ERROR_LIBRARY_NOT_FOUND; every other call then
// returns ERROR_UNINITIALIZED instead of ending the process.
func Init() Return {
	loadOnce.Do(func() { loadRet, loadMsg = cLoad() })
	if loadRet != SUCCESS {
		return loadRet
	}
	return cInit()
}

// LoadError is the loader's message when Init could not open the library.
func LoadError() string { return loadMsg }

// Shutdown releases NVML (the library stays loaded).
func Shutdown() Return { return cShutdown() }

// SystemGetDriverVersion is the driver's version, e.g. 580.159.04.
func SystemGetDriverVersion() (string, Return) { return cDriverVersion() }

// DeviceGetHandleByUUID finds a GPU by its UUID (GPU-...).
func DeviceGetHandleByUUID(uuid string) (Device, Return) { return cDeviceByUUID(uuid) }

// GetCurrPcieLinkGeneration is the PCIe generation the link runs at.
func (d Device) GetCurrPcieLinkGeneration() (int, Return) { return cPCIeGen(d) }

// GetCurrPcieLinkWidth is the PCIe link's lane count.
func (d Device) GetCurrPcieLinkWidth() (int, Return) { return cPCIeWidth(d) }

// GetNumaNodeId is the NUMA node of the GPU's memory or link.
func (d Device) GetNumaNodeId() (int, Return) { return cNUMANode(d) }

// GetCpuAffinity returns the mask of CPUs nearest the GPU, one word per
// 64 CPUs (the platform's unsigned long), for a machine of numCPUs CPUs.
func (d Device) GetCpuAffinity(numCPUs int) ([]uint, Return) {
	const wordBits = 64
	words := max(1, (numCPUs+wordBits-1)/wordBits)
	return cCPUAffinity(d, words)
}

// GetClockInfo is a clock's current frequency in MHz.
func (d Device) GetClockInfo(t ClockType) (uint32, Return) { return cClock(d, t, false) }

// GetMaxClockInfo is a clock's highest frequency in MHz.
func (d Device) GetMaxClockInfo(t ClockType) (uint32, Return) { return cClock(d, t, true) }

// GetCurrentClocksEventReasons is the mask of reasons the clocks are
// held below their maximum (ClocksEventReason*).
func (d Device) GetCurrentClocksEventReasons() (uint64, Return) { return cClockEventReasons(d) }

// GetFieldValues reads the fields named in v, filling each in place.
func (d Device) GetFieldValues(v []FieldValue) Return { return cFieldValues(d, v) }
