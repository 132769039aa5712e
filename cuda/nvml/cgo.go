package nvml

// This is the package's only file that imports "C": the calls, each a thin
// wrapper around a dlopen trampoline of umlab_nvml.c.

/*
#cgo CFLAGS: -O2 -std=gnu11
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "umlab_nvml.h"
*/
import "C"

import (
	"fmt"
	"sync"
	"unsafe"
)

// load opens the library once; the message says why it could not.
var load = sync.OnceValues(func() (Return, string) {
	var msg [512]C.char
	r := C.umlab_nvml_load(&msg[0], C.size_t(len(msg)))
	return Return(r), C.GoString(&msg[0])
})

// Init opens libnvidia-ml.so.1 (once) and initialises NVML. Without the
// library it returns ERROR_LIBRARY_NOT_FOUND; every other call then
// returns ERROR_UNINITIALIZED instead of ending the process.
func Init() Return {
	if r, _ := load(); r != SUCCESS {
		return r
	}
	return Return(C.umlab_nvml_init())
}

// ErrorString names a status code: NVML's own text when the library is
// loaded, else this package's table; it never calls into a library that
// failed to load.
func ErrorString(r Return) string {
	if s := C.umlab_nvml_error_string(C.int(r)); s != nil && *s != 0 {
		return C.GoString(s)
	}
	if s, ok := names[r]; ok {
		return s
	}
	return fmt.Sprintf("NVML error %d", int32(r))
}

// Device is a GPU handle (nvmlDevice_t).
type Device struct{ h C.umlab_nvml_device }

// SystemGetDriverVersion is the driver's version, e.g. 580.159.04.
func SystemGetDriverVersion() (string, Return) {
	var b [96]C.char
	r := C.umlab_nvml_driver_version(&b[0], C.uint(len(b)))
	return C.GoString(&b[0]), Return(r)
}

// DeviceGetHandleByUUID finds a GPU by its UUID (GPU-...).
func DeviceGetHandleByUUID(uuid string) (Device, Return) {
	cs := C.CString(uuid)
	defer C.free(unsafe.Pointer(cs))
	var d Device
	r := C.umlab_nvml_device_by_uuid(cs, &d.h)
	return d, Return(r)
}

// GetCurrPcieLinkGeneration is the PCIe generation the link runs at.
func (d Device) GetCurrPcieLinkGeneration() (int, Return) {
	var v C.uint
	r := C.umlab_nvml_pcie_gen(d.h, &v)
	return int(v), Return(r)
}

// GetCurrPcieLinkWidth is the PCIe link's lane count.
func (d Device) GetCurrPcieLinkWidth() (int, Return) {
	var v C.uint
	r := C.umlab_nvml_pcie_width(d.h, &v)
	return int(v), Return(r)
}

// GetNumaNodeId is the NUMA node of the GPU's memory or link.
func (d Device) GetNumaNodeId() (int, Return) {
	var v C.uint
	r := C.umlab_nvml_numa_node(d.h, &v)
	return int(v), Return(r)
}

// GetCpuAffinity returns the mask of CPUs nearest the GPU, one word per
// 64 CPUs (the platform's unsigned long), for a machine of numCPUs CPUs.
func (d Device) GetCpuAffinity(numCPUs int) ([]uint, Return) {
	set := make([]C.ulong, max(1, (numCPUs+63)/64))
	r := C.umlab_nvml_cpu_affinity(d.h, C.uint(len(set)), &set[0])
	out := make([]uint, len(set))
	for i, w := range set {
		out[i] = uint(w)
	}
	return out, Return(r)
}

// GetClockInfo is a clock's current frequency in MHz.
func (d Device) GetClockInfo(t ClockType) (uint32, Return) {
	var v C.uint
	r := C.umlab_nvml_clock(d.h, C.int(t), &v)
	return uint32(v), Return(r)
}

// GetMaxClockInfo is a clock's highest frequency in MHz.
func (d Device) GetMaxClockInfo(t ClockType) (uint32, Return) {
	var v C.uint
	r := C.umlab_nvml_max_clock(d.h, C.int(t), &v)
	return uint32(v), Return(r)
}

// GetCurrentClocksEventReasons is the mask of reasons the clocks are
// held below their maximum (ClocksEventReason*).
func (d Device) GetCurrentClocksEventReasons() (uint64, Return) {
	var v C.ulonglong
	r := C.umlab_nvml_clock_event_reasons(d.h, &v)
	return uint64(v), Return(r)
}

// GetFieldValues reads the fields named in v, filling each in place.
func (d Device) GetFieldValues(v []FieldValue) Return {
	if len(v) == 0 {
		return SUCCESS
	}
	cv := make([]C.umlab_nvml_field_value, len(v))
	for i := range v {
		cv[i].field_id = C.uint(v[i].FieldId)
		cv[i].scope_id = C.uint(v[i].ScopeId)
	}
	r := C.umlab_nvml_field_values(d.h, C.int(len(v)), &cv[0])
	for i := range v {
		v[i].Timestamp = int64(cv[i].timestamp)
		v[i].LatencyUsec = int64(cv[i].latency_usec)
		v[i].ValueType = uint32(cv[i].value_type)
		v[i].NvmlReturn = uint32(cv[i].nvml_return)
		v[i].Value = *(*[8]byte)(unsafe.Pointer(&cv[i].value))
	}
	return Return(r)
}

// Sizes checked at compile time against the Go mirror.
var _ = [1]struct{}{}[unsafe.Sizeof(C.umlab_nvml_field_value{})-40]
