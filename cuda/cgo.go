package cuda

// This is the package's only file that imports "C". It holds the driver
// calls of umlab_cuda.c (most through the one entry point drv) and thin
// wrappers of the CPU loops in umlab_host.c; everything else in the package
// is plain Go.

/*
#cgo CFLAGS: -O2 -std=gnu11
#cgo LDFLAGS: -ldl -lpthread
#include <stdlib.h>
#include "umlab_cuda.h"
*/
import "C"

import "unsafe"

// The driver calls drv runs, with their arguments and results as listed in
// umlab_cuda.h.
const (
	opInit              = C.UMLAB_INIT
	opDriverVersion     = C.UMLAB_DRIVER_VERSION
	opDeviceCount       = C.UMLAB_DEVICE_COUNT
	opDeviceGet         = C.UMLAB_DEVICE_GET
	opDeviceTotalMem    = C.UMLAB_DEVICE_TOTAL_MEM
	opCtxRetain         = C.UMLAB_CTX_RETAIN
	opCtxRelease        = C.UMLAB_CTX_RELEASE
	opCtxSynchronize    = C.UMLAB_CTX_SYNCHRONIZE
	opMemInfo           = C.UMLAB_MEM_INFO
	opMemAlloc          = C.UMLAB_MEM_ALLOC
	opMemAllocManaged   = C.UMLAB_MEM_ALLOC_MANAGED
	opMemFree           = C.UMLAB_MEM_FREE
	opHostAlloc         = C.UMLAB_HOST_ALLOC
	opHostFree          = C.UMLAB_HOST_FREE
	opHostDevicePointer = C.UMLAB_HOST_DEVICE_POINTER
	opMemcpyHtoD        = C.UMLAB_MEMCPY_HTOD
	opMemcpyDtoH        = C.UMLAB_MEMCPY_DTOH
	opMemcpyDtoD        = C.UMLAB_MEMCPY_DTOD
	opMemcpyAny         = C.UMLAB_MEMCPY_ANY
	opPrefetch          = C.UMLAB_PREFETCH
	opAdvise            = C.UMLAB_ADVISE
	opStreamCreate      = C.UMLAB_STREAM_CREATE
	opStreamDestroy     = C.UMLAB_STREAM_DESTROY
	opStreamSynchronize = C.UMLAB_STREAM_SYNCHRONIZE
	opStreamQuery       = C.UMLAB_STREAM_QUERY
	opEventCreate       = C.UMLAB_EVENT_CREATE
	opEventDestroy      = C.UMLAB_EVENT_DESTROY
	opEventRecord       = C.UMLAB_EVENT_RECORD
	opEventSynchronize  = C.UMLAB_EVENT_SYNCHRONIZE
	opEventQuery        = C.UMLAB_EVENT_QUERY
	opModuleUnload      = C.UMLAB_MODULE_UNLOAD
)

// drv runs driver call op with context ctx made current (0: none) on up to
// five integer, address or handle arguments, and returns the values the
// call wrote back. Nothing passes through Go memory, so a call allocates
// nothing (it runs in polling loops).
func drv(op int, ctx uintptr, in ...uint64) ([2]uint64, Result) {
	var a [5]uint64
	copy(a[:], in)
	x := C.umlab_call(C.int(op), C.uintptr_t(ctx), C.uint64_t(a[0]), C.uint64_t(a[1]), C.uint64_t(a[2]),
		C.uint64_t(a[3]), C.uint64_t(a[4]))
	return [2]uint64{uint64(x.out[0]), uint64(x.out[1])}, Result(x.r)
}

// do is drv for calls that write nothing back.
func do(op int, ctx uintptr, in ...uint64) Result {
	_, r := drv(op, ctx, in...)
	return r
}

func cLoad() (int, string) {
	var msg [512]C.char
	rc := C.umlab_load(&msg[0], C.size_t(len(msg)))
	return int(rc), C.GoString(&msg[0])
}

func cDeviceName(dev int32) (string, Result) {
	var b [256]C.char
	r := C.umlab_device_name(C.int(dev), &b[0], C.int(len(b)))
	return C.GoString(&b[0]), Result(r)
}

func cDeviceAttr(dev int32, attr int) (int, Result) {
	var v C.int
	r := C.umlab_device_attr(C.int(dev), C.int(attr), &v)
	return int(v), Result(r)
}

func cDeviceUUID(dev int32) ([16]byte, Result) {
	var u [16]C.uchar
	r := C.umlab_device_uuid(C.int(dev), &u[0])
	return *(*[16]byte)(unsafe.Pointer(&u)), Result(r)
}

func cDevicePCIBusID(dev int32) (string, Result) {
	var b [64]C.char
	r := C.umlab_device_pci_bus_id(C.int(dev), &b[0], C.int(len(b)))
	return C.GoString(&b[0]), Result(r)
}

func cPageableAlloc(bytes uint64) unsafe.Pointer { return C.umlab_pageable_alloc(C.size_t(bytes)) }
func cPageableFree(p unsafe.Pointer)             { C.umlab_pageable_free(p) }
func cHostView(dptr uint64) unsafe.Pointer       { return C.umlab_host_view(C.uint64_t(dptr)) }

// hostAddr is the numeric address of host memory, the device pointer that
// unified addressing gives it.
func hostAddr(p unsafe.Pointer) uint64 { return uint64(uintptr(p)) }

func cUsesV2() bool { return C.umlab_uses_v2() != 0 }

// cRangeAttrInts reads an int-valued range attribute into out, whose
// values on entry are the defaults for entries the driver does not set.
func cRangeAttrInts(ctx uintptr, attr int, p, bytes uint64, out []int32) Result {
	buf := (*C.int)(C.malloc(C.size_t(4 * len(out))))
	defer C.free(unsafe.Pointer(buf))
	vals := unsafe.Slice(buf, len(out))
	for i := range out {
		vals[i] = C.int(out[i]) // entries the driver leaves alone keep the caller's value
	}
	r := C.umlab_range_attr(C.uintptr_t(ctx), unsafe.Pointer(buf), C.size_t(4*len(out)), C.int(attr), C.uint64_t(p), C.size_t(bytes))
	for i := range out {
		out[i] = int32(vals[i])
	}
	return Result(r)
}

func cEventElapsed(ctx uintptr, start, end uint64) (float32, Result) {
	var ms C.float
	r := C.umlab_event_elapsed(C.uintptr_t(ctx), &ms, C.uintptr_t(start), C.uintptr_t(end))
	return float32(ms), Result(r)
}

func cModuleLoad(ctx uintptr, ptx []byte) (mod uintptr, jitMs float32, log string, res Result) {
	src := C.CString(string(ptx)) // NUL-terminated copy in C memory
	defer C.free(unsafe.Pointer(src))
	var errlog [8192]C.char
	var m C.uintptr_t
	var wall C.float
	r := C.umlab_module_load(C.uintptr_t(ctx), &m, src, &errlog[0], C.size_t(len(errlog)), &wall)
	return uintptr(m), float32(wall), C.GoString(&errlog[0]), Result(r)
}

func cModuleFunction(ctx, m uintptr, name string) (uintptr, Result) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var f C.uintptr_t
	r := C.umlab_module_function(C.uintptr_t(ctx), &f, C.uintptr_t(m), cs)
	return uintptr(f), Result(r)
}

func cLaunch(ctx, fn uintptr, grid, block [3]uint32, smem uint32, stream uint64, args []uint64) Result {
	var a [16]C.uint64_t
	for i, v := range args {
		a[i] = C.uint64_t(v)
	}
	return Result(C.umlab_launch(C.uintptr_t(ctx), C.uintptr_t(fn),
		C.uint(grid[0]), C.uint(grid[1]), C.uint(grid[2]),
		C.uint(block[0]), C.uint(block[1]), C.uint(block[2]),
		C.uint(smem), C.uintptr_t(stream), &a[0], C.int(len(args))))
}

func cSeedValue(seed, i uint64) float64 {
	return float64(C.umlab_seed_value(C.uint64_t(seed), C.uint64_t(i)))
}

func cSetupLoopsSelect(baseline bool) string {
	b := C.int(0)
	if baseline {
		b = 1
	}
	return C.GoString(C.umlab_setup_loops_select(b))
}

func cFillHost(p unsafe.Pointer, lo, hi, seed uint64) {
	C.umlab_fill_host((*C.double)(p), C.uint64_t(lo), C.uint64_t(hi), C.uint64_t(seed))
}

func cUpdateHost(p unsafe.Pointer, n uint64, mul, add float64) {
	C.umlab_update_host((*C.double)(p), C.uint64_t(n), C.double(mul), C.double(add))
}

func cUpdateHostMT(p unsafe.Pointer, n uint64, mul, add float64, cpus []int32) int {
	var c *C.int
	if len(cpus) > 0 {
		c = (*C.int)(unsafe.Pointer(&cpus[0]))
	}
	return int(C.umlab_update_host_mt((*C.double)(p), C.uint64_t(n), C.double(mul), C.double(add), C.int(len(cpus)), c))
}

func cCheckAffineHost(p unsafe.Pointer, lo, hi, seed uint64, mul, add float64, stride, active uint64) (bad, first uint64) {
	var f C.uint64_t
	b := C.umlab_check_affine_host((*C.double)(p), C.uint64_t(lo), C.uint64_t(hi), C.uint64_t(seed), C.double(mul), C.double(add),
		C.uint64_t(stride), C.uint64_t(active), &f)
	return uint64(b), uint64(f)
}

func cCheckTriadHost(p unsafe.Pointer, lo, hi, seedB, seedC uint64, s float64) (bad, first uint64) {
	var f C.uint64_t
	b := C.umlab_check_triad_host((*C.double)(p), C.uint64_t(lo), C.uint64_t(hi), C.uint64_t(seedB), C.uint64_t(seedC), C.double(s), &f)
	return uint64(b), uint64(f)
}
