package cupti

import (
	"errors"
	"fmt"
)

// Result is a CUPTI status code (CUptiResult). It implements error; the
// names come from a table here (cupti_result.h of CUDA 13.0), so they are
// available when no library is loaded.
type Result int

// CUPTI status codes the package refers to by name.
const (
	Success                     Result = 0
	ErrorNotInitialized         Result = 15
	ErrorNotSupported           Result = 27
	ErrorUMNotSupported         Result = 28
	ErrorUMNotSupportedOnDevice Result = 29
	ErrorUMNotSupportedNonP2P   Result = 30
	ErrorUMNotSupportedWithMPS  Result = 31
	ErrorVirtualizedDevice      Result = 33
	ErrorInsufficientPrivileges Result = 35
	ErrorMultipleSubscribers    Result = 39
)

var resultNames = map[Result]string{
	0: "CUPTI_SUCCESS", 1: "CUPTI_ERROR_INVALID_PARAMETER", 2: "CUPTI_ERROR_INVALID_DEVICE",
	3: "CUPTI_ERROR_INVALID_CONTEXT", 4: "CUPTI_ERROR_INVALID_EVENT_DOMAIN_ID", 5: "CUPTI_ERROR_INVALID_EVENT_ID",
	6: "CUPTI_ERROR_INVALID_EVENT_NAME", 7: "CUPTI_ERROR_INVALID_OPERATION", 8: "CUPTI_ERROR_OUT_OF_MEMORY",
	9: "CUPTI_ERROR_HARDWARE", 10: "CUPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT", 11: "CUPTI_ERROR_API_NOT_IMPLEMENTED",
	12: "CUPTI_ERROR_MAX_LIMIT_REACHED", 13: "CUPTI_ERROR_NOT_READY", 14: "CUPTI_ERROR_NOT_COMPATIBLE",
	15: "CUPTI_ERROR_NOT_INITIALIZED", 16: "CUPTI_ERROR_INVALID_METRIC_ID", 17: "CUPTI_ERROR_INVALID_METRIC_NAME",
	18: "CUPTI_ERROR_QUEUE_EMPTY", 19: "CUPTI_ERROR_INVALID_HANDLE", 20: "CUPTI_ERROR_INVALID_STREAM",
	21: "CUPTI_ERROR_INVALID_KIND", 22: "CUPTI_ERROR_INVALID_EVENT_VALUE", 23: "CUPTI_ERROR_DISABLED",
	24: "CUPTI_ERROR_INVALID_MODULE", 25: "CUPTI_ERROR_INVALID_METRIC_VALUE", 26: "CUPTI_ERROR_HARDWARE_BUSY",
	27: "CUPTI_ERROR_NOT_SUPPORTED", 28: "CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED",
	29: "CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_ON_DEVICE", 30: "CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_ON_NON_P2P_DEVICES",
	31: "CUPTI_ERROR_UM_PROFILING_NOT_SUPPORTED_WITH_MPS", 32: "CUPTI_ERROR_CDP_TRACING_NOT_SUPPORTED",
	33: "CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED", 34: "CUPTI_ERROR_CUDA_COMPILER_NOT_COMPATIBLE",
	35: "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES", 36: "CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED",
	37: "CUPTI_ERROR_OPENACC_UNDEFINED_ROUTINE", 38: "CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED",
	39: "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED", 40: "CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES",
	41: "CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED", 42: "CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED",
	43: "CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED", 44: "CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED",
	45: "CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED", 46: "CUPTI_ERROR_INVALID_CHIP_NAME", 999: "CUPTI_ERROR_UNKNOWN",
}

// Name returns CUPTI's name for r, such as CUPTI_ERROR_NOT_INITIALIZED.
func (r Result) Name() string {
	if n, ok := resultNames[r]; ok {
		return n
	}
	if s := cResultString(r); s != "" {
		return s
	}
	return fmt.Sprintf("CUptiResult(%d)", int(r))
}

func (r Result) Error() string { return "cupti: " + r.Name() }

// Sentinel errors, matched with errors.Is.
var (
	// ErrNotFound: no libcupti could be loaded. The error names every place
	// searched and the UMLAB_CUPTI variable.
	ErrNotFound = errors.New("cupti: no usable libcupti found")
	// ErrUnsupportedVersion: the library's CUPTI_API_VERSION has no record
	// layout in this package.
	ErrUnsupportedVersion = errors.New("cupti: unsupported CUPTI version")
	// ErrUnsupported: CUPTI cannot collect Unified Memory counters here
	// (platform, device, MPS, virtualisation, privileges, another profiler).
	ErrUnsupported = errors.New("cupti: Unified Memory counters are not supported here")
	// ErrBusy: a Collector is already open in this process (CUPTI's activity
	// API is process-wide).
	ErrBusy = errors.New("cupti: a collector is already open")
	// ErrClosed: the Collector was closed.
	ErrClosed = errors.New("cupti: use after close")
	// ErrState: Start, Snapshot or Stop called out of order.
	ErrState = errors.New("cupti: call out of order")
)

// unsupportedWhy explains the codes that mean "cannot collect here".
var unsupportedWhy = map[Result]string{
	ErrorNotSupported:           "the operation is not supported on this system",
	ErrorUMNotSupported:         "this platform (OS or architecture) does not support Unified Memory counters",
	ErrorUMNotSupportedOnDevice: "this device does not support Unified Memory counters",
	ErrorUMNotSupportedNonP2P: "a multi-GPU system without peer-to-peer access between every pair of devices " +
		"does not support Unified Memory counters: make one GPU visible (CUDA_VISIBLE_DEVICES=<ordinal>)",
	ErrorUMNotSupportedWithMPS: "Unified Memory counters are not supported under MPS (the Multi-Process Service): " +
		"run without the MPS daemon",
	ErrorVirtualizedDevice: "CUPTI does not support this virtualised device (vGPU or a hypervisor without profiling enabled)",
	ErrorInsufficientPrivileges: "profiling needs privileges this process lacks: run as root, or load the driver " +
		"with NVreg_RestrictProfilingToAdminUsers=0",
	38:                       "the legacy profiler is not supported on this device",
	ErrorMultipleSubscribers: "another profiler (Nsight Systems, Nsight Compute, nvprof, a CUPTI tool) is already attached to this process",
	40:                       "CUPTI lacks privileges on this virtualised device: enable profiling for the vGPU",
	41:                       "CUPTI does not support confidential computing mode",
	42:                       "CUPTI does not support CMP (crypto mining) devices",
	43:                       "CUPTI does not support MIG instances",
	44:                       "CUPTI does not support SLI devices",
	45:                       "CUPTI does not support WSL",
}

// callError wraps a status with the call that returned it.
type callError struct {
	call string
	res  Result
}

func (e *callError) Error() string {
	if why, ok := unsupportedWhy[e.res]; ok {
		return fmt.Sprintf("cupti: %s: %s: %s", e.call, e.res.Name(), why)
	}
	return fmt.Sprintf("cupti: %s: %s", e.call, e.res.Name())
}

func (e *callError) Unwrap() error { return e.res }

func (e *callError) Is(target error) bool {
	_, unsupported := unsupportedWhy[e.res]
	return (target == ErrUnsupported && unsupported) || (target == ErrBusy && e.res == ErrorMultipleSubscribers)
}

func check(call string, r Result) error {
	if r == Success {
		return nil
	}
	return &callError{call, r}
}
