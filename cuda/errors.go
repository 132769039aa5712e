package cuda

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Result is a CUDA driver status code (CUresult). It implements error; its
// names come from a table in this package, so they are available when no
// driver is loaded.
type Result int

// Success is CUDA_SUCCESS.
const Success Result = 0

// Driver status codes the package refers to by name (CUDA 13.0 cuda.h).
const (
	ErrorOutOfMemory    Result = 2
	ErrorNotInitialized Result = 3
	ErrorNoDevice       Result = 100
	ErrorUnsupportedPTX Result = 222
	ErrorNotReady       Result = 600
	ErrorNotSupported   Result = 801
)

var resultNames = map[Result]string{
	0: "CUDA_SUCCESS", 1: "CUDA_ERROR_INVALID_VALUE", 2: "CUDA_ERROR_OUT_OF_MEMORY",
	3: "CUDA_ERROR_NOT_INITIALIZED", 4: "CUDA_ERROR_DEINITIALIZED", 5: "CUDA_ERROR_PROFILER_DISABLED",
	34: "CUDA_ERROR_STUB_LIBRARY", 46: "CUDA_ERROR_DEVICE_UNAVAILABLE",
	100: "CUDA_ERROR_NO_DEVICE", 101: "CUDA_ERROR_INVALID_DEVICE", 102: "CUDA_ERROR_DEVICE_NOT_LICENSED",
	200: "CUDA_ERROR_INVALID_IMAGE", 201: "CUDA_ERROR_INVALID_CONTEXT", 202: "CUDA_ERROR_CONTEXT_ALREADY_CURRENT",
	205: "CUDA_ERROR_MAP_FAILED", 206: "CUDA_ERROR_UNMAP_FAILED", 207: "CUDA_ERROR_ARRAY_IS_MAPPED",
	208: "CUDA_ERROR_ALREADY_MAPPED", 209: "CUDA_ERROR_NO_BINARY_FOR_GPU", 210: "CUDA_ERROR_ALREADY_ACQUIRED",
	211: "CUDA_ERROR_NOT_MAPPED", 214: "CUDA_ERROR_ECC_UNCORRECTABLE", 215: "CUDA_ERROR_UNSUPPORTED_LIMIT",
	216: "CUDA_ERROR_CONTEXT_ALREADY_IN_USE", 217: "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED",
	218: "CUDA_ERROR_INVALID_PTX", 219: "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT", 220: "CUDA_ERROR_NVLINK_UNCORRECTABLE",
	221: "CUDA_ERROR_JIT_COMPILER_NOT_FOUND", 222: "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
	223: "CUDA_ERROR_JIT_COMPILATION_DISABLED", 224: "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY",
	300: "CUDA_ERROR_INVALID_SOURCE", 301: "CUDA_ERROR_FILE_NOT_FOUND",
	302: "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND", 303: "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED",
	304: "CUDA_ERROR_OPERATING_SYSTEM", 400: "CUDA_ERROR_INVALID_HANDLE", 401: "CUDA_ERROR_ILLEGAL_STATE",
	500: "CUDA_ERROR_NOT_FOUND", 600: "CUDA_ERROR_NOT_READY", 700: "CUDA_ERROR_ILLEGAL_ADDRESS",
	701: "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", 702: "CUDA_ERROR_LAUNCH_TIMEOUT",
	703: "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING", 704: "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED",
	705: "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED", 708: "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE",
	709: "CUDA_ERROR_CONTEXT_IS_DESTROYED", 710: "CUDA_ERROR_ASSERT", 711: "CUDA_ERROR_TOO_MANY_PEERS",
	712: "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED", 713: "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED",
	714: "CUDA_ERROR_HARDWARE_STACK_ERROR", 715: "CUDA_ERROR_ILLEGAL_INSTRUCTION",
	716: "CUDA_ERROR_MISALIGNED_ADDRESS", 717: "CUDA_ERROR_INVALID_ADDRESS_SPACE", 718: "CUDA_ERROR_INVALID_PC",
	719: "CUDA_ERROR_LAUNCH_FAILED", 720: "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE",
	800: "CUDA_ERROR_NOT_PERMITTED", 801: "CUDA_ERROR_NOT_SUPPORTED", 802: "CUDA_ERROR_SYSTEM_NOT_READY",
	803: "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", 804: "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
	999: "CUDA_ERROR_UNKNOWN",
}

// Name returns the driver's name for r, such as CUDA_ERROR_OUT_OF_MEMORY.
func (r Result) Name() string {
	if n, ok := resultNames[r]; ok {
		return n
	}
	return fmt.Sprintf("CUresult(%d)", int(r))
}

func (r Result) Error() string { return "cuda: " + r.Name() }

// Sentinel errors, matched with errors.Is.
var (
	// ErrNoDriver: libcuda.so.1 could not be loaded or lacks an entry point.
	ErrNoDriver = errors.New("cuda: no usable NVIDIA driver")
	// ErrNoDevice: the driver loaded but reports no CUDA device.
	ErrNoDevice = errors.New("cuda: no CUDA device")
	// ErrPTXTooNew: the driver is older than the embedded PTX needs.
	ErrPTXTooNew = errors.New("cuda: the NVIDIA driver is too old for umlab's kernels")
	// ErrWouldOversubscribe: an allocation would exceed free memory.
	ErrWouldOversubscribe = errors.New("cuda: allocation would exceed free memory")
	// ErrUnsupported: the device lacks a feature the call needs.
	ErrUnsupported = errors.New("cuda: not supported on this device")
	// ErrInvalidArgument: a size, buffer or launch shape is invalid.
	ErrInvalidArgument = errors.New("cuda: invalid argument")
	// ErrClosed: the context or buffer was already released.
	ErrClosed = errors.New("cuda: use after close")
)

// callError wraps a driver status with the call that returned it.
type callError struct {
	call string
	res  Result
}

func (e *callError) Error() string { return fmt.Sprintf("cuda: %s: %s", e.call, e.res.Name()) }
func (e *callError) Unwrap() error { return e.res }

// check turns a status into an error naming the call, or nil on success.
func check(call string, r Result) error {
	if r == Success {
		return nil
	}
	return &callError{call, r}
}

// argError reports an invalid argument to call.
func argError(call, format string, a ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrInvalidArgument, call, fmt.Sprintf(format, a...))
}

// OversubscribeError details a refused allocation. It matches
// ErrWouldOversubscribe with errors.Is.
type OversubscribeError struct {
	What      string // device, managed or pinned host memory
	Requested uint64 // bytes asked for
	Free      uint64 // bytes free before the allocation
	Margin    uint64 // bytes kept free
	Slack     uint64 // bytes of the margin the allocation could use (a replacement, ReallocManaged)
}

func (e *OversubscribeError) Error() string {
	reserve := byteSize(int64(e.Margin)) + " kept in reserve"
	if e.Slack > 0 {
		reserve += fmt.Sprintf(" (%s of it usable by a replacement)", byteSize(int64(e.Slack)))
	}
	return fmt.Sprintf("cuda: refusing %s allocation of %s: only %s free and %s; "+
		"oversubscribing managed memory can hang the GPU, so it needs an explicit opt-in",
		e.What, byteSize(int64(e.Requested)), byteSize(int64(e.Free)), reserve)
}

func (e *OversubscribeError) Is(target error) bool { return target == ErrWouldOversubscribe }

// byteSize writes a byte count for this package's messages in binary units
// ("1 GiB", "1.5 MiB"), as results.FormatBytes does; cuda is the lowest
// floor and imports nothing of umlab, so it keeps its own.
func byteSize(b int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
	v, i := float64(b), 0
	for math.Abs(v) >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', -1, 64) + " " + units[i]
	}
	return strconv.FormatFloat(v, 'g', 4, 64) + " " + units[i]
}
