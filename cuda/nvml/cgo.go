package nvml

// This is the package's only file that imports "C": thin wrappers around
// the dlopen trampolines of umlab_nvml.c.

/*
#cgo CFLAGS: -O2 -std=gnu11
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "umlab_nvml.h"
*/
import "C"

import (
	"unsafe"
)

func cLoad() (Return, string) {
	var msg [512]C.char
	r := C.umlab_nvml_load(&msg[0], C.size_t(len(msg)))
	return Return(r), C.GoString(&msg[0])
}

func cInit() Return     { return Return(C.umlab_nvml_init()) }
func cShutdown() Return { return Return(C.umlab_nvml_shutdown()) }

func cErrorString(r Return) string {
	s := C.umlab_nvml_error_string(C.int(r))
	if s == nil {
		return ""
	}
	return C.GoString(s)
}

func cDriverVersion() (string, Return) {
	var b [96]C.char
	r := C.umlab_nvml_driver_version(&b[0], C.uint(len(b)))
	return C.GoString(&b[0]), Return(r)
}

func cDeviceByUUID(uuid string) (Device, Return) {
	cs := C.CString(uuid)
	defer C.free(unsafe.Pointer(cs))
	var d C.umlab_nvml_device
	r := C.umlab_nvml_device_by_uuid(cs, &d)
	return Device{h: unsafe.Pointer(d)}, Return(r)
}

func handle(d Device) C.umlab_nvml_device { return C.umlab_nvml_device(d.h) }

func cUint(f func(C.umlab_nvml_device, *C.uint) C.int, d Device) (int, Return) {
	var v C.uint
	r := f(handle(d), &v)
	return int(v), Return(r)
}

func cPCIeGen(d Device) (int, Return) {
	return cUint(func(h C.umlab_nvml_device, v *C.uint) C.int { return C.umlab_nvml_pcie_gen(h, v) }, d)
}

func cPCIeWidth(d Device) (int, Return) {
	return cUint(func(h C.umlab_nvml_device, v *C.uint) C.int { return C.umlab_nvml_pcie_width(h, v) }, d)
}

func cNUMANode(d Device) (int, Return) {
	return cUint(func(h C.umlab_nvml_device, v *C.uint) C.int { return C.umlab_nvml_numa_node(h, v) }, d)
}

func cCPUAffinity(d Device, words int) ([]uint, Return) {
	set := make([]C.ulong, words)
	r := C.umlab_nvml_cpu_affinity(handle(d), C.uint(words), &set[0])
	out := make([]uint, words)
	for i, w := range set {
		out[i] = uint(w)
	}
	return out, Return(r)
}

func cClock(d Device, t ClockType, max bool) (uint32, Return) {
	var v C.uint
	var r C.int
	if max {
		r = C.umlab_nvml_max_clock(handle(d), C.int(t), &v)
	} else {
		r = C.umlab_nvml_clock(handle(d), C.int(t), &v)
	}
	return uint32(v), Return(r)
}

func cClockEventReasons(d Device) (uint64, Return) {
	var v C.ulonglong
	r := C.umlab_nvml_clock_event_reasons(handle(d), &v)
	return uint64(v), Return(r)
}

func cFieldValues(d Device, v []FieldValue) Return {
	if len(v) == 0 {
		return SUCCESS
	}
	cv := make([]C.umlab_nvml_field_value, len(v))
	for i := range v {
		cv[i].field_id = C.uint(v[i].FieldId)
		cv[i].scope_id = C.uint(v[i].ScopeId)
	}
	r := C.umlab_nvml_field_values(handle(d), C.int(len(v)), &cv[0])
	for i := range v {
		v[i].Timestamp = int64(cv[i].timestamp)
		v[i].LatencyUsec = int64(cv[i].latency_usec)
		v[i].ValueType = uint32(cv[i].value_type)
		v[i].NvmlReturn = uint32(cv[i].nvml_return)
		for j := range v[i].Value {
			v[i].Value[j] = byte(cv[i].value[j])
		}
	}
	return Return(r)
}

// Sizes checked at compile time against the Go mirror.
var _ = [1]struct{}{}[unsafe.Sizeof(C.umlab_nvml_field_value{})-40]
