package nvml

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
