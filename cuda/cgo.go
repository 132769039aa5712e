package cuda

// This is the package's only file that imports "C". It holds thin wrappers
// around the C trampolines in umlab_cuda.c and the CPU loops in
// umlab_host.c; everything else in the package is plain Go.

/*
#cgo CFLAGS: -O2 -std=gnu11
#cgo LDFLAGS: -ldl -lpthread
#include <stdlib.h>
#include "umlab_cuda.h"
*/
import "C"

import "unsafe"

func cLoad() (int, string) {
	var msg [512]C.char
	rc := C.umlab_load(&msg[0], C.size_t(len(msg)))
	return int(rc), C.GoString(&msg[0])
}

func cInit() Result { return Result(C.umlab_init()) }

func cDriverVersion() (int, Result) {
	var v C.int
	r := C.umlab_driver_version(&v)
	return int(v), Result(r)
}

func cDeviceCount() (int, Result) {
	var n C.int
	r := C.umlab_device_count(&n)
	return int(n), Result(r)
}

func cDeviceGet(ordinal int) (int32, Result) {
	var d C.int
	r := C.umlab_device_get(C.int(ordinal), &d)
	return int32(d), Result(r)
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

func cDeviceTotalMem(dev int32) (uint64, Result) {
	var b C.size_t
	r := C.umlab_device_total_mem(C.int(dev), &b)
	return uint64(b), Result(r)
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

func cCtxRetain(dev int32) (uintptr, Result) {
	var c C.uintptr_t
	r := C.umlab_ctx_retain(C.int(dev), &c)
	return uintptr(c), Result(r)
}

func cCtxRelease(dev int32) Result { return Result(C.umlab_ctx_release(C.int(dev))) }

func cCtxSynchronize(ctx uintptr) Result {
	return Result(C.umlab_ctx_synchronize(C.uintptr_t(ctx)))
}

func cMemInfo(ctx uintptr) (free, total uint64, res Result) {
	var f, t C.size_t
	r := C.umlab_mem_info(C.uintptr_t(ctx), &f, &t)
	return uint64(f), uint64(t), Result(r)
}

func cMemAlloc(ctx uintptr, bytes uint64) (uint64, Result) {
	var p C.uint64_t
	r := C.umlab_mem_alloc(C.uintptr_t(ctx), &p, C.size_t(bytes))
	return uint64(p), Result(r)
}

func cMemAllocManaged(ctx uintptr, bytes uint64) (uint64, Result) {
	var p C.uint64_t
	r := C.umlab_mem_alloc_managed(C.uintptr_t(ctx), &p, C.size_t(bytes))
	return uint64(p), Result(r)
}

func cMemFree(ctx uintptr, p uint64) Result {
	return Result(C.umlab_mem_free(C.uintptr_t(ctx), C.uint64_t(p)))
}

func cHostAlloc(ctx uintptr, bytes uint64, flags uint) (unsafe.Pointer, Result) {
	var p unsafe.Pointer
	r := C.umlab_host_alloc(C.uintptr_t(ctx), &p, C.size_t(bytes), C.uint(flags))
	return p, Result(r)
}

func cHostFree(ctx uintptr, p unsafe.Pointer) Result {
	return Result(C.umlab_host_free(C.uintptr_t(ctx), p))
}

func cHostDevicePointer(ctx uintptr, p unsafe.Pointer) (uint64, Result) {
	var d C.uint64_t
	r := C.umlab_host_device_pointer(C.uintptr_t(ctx), &d, p)
	return uint64(d), Result(r)
}

func cPageableAlloc(bytes uint64) unsafe.Pointer { return C.umlab_pageable_alloc(C.size_t(bytes)) }
func cPageableFree(p unsafe.Pointer)             { C.umlab_pageable_free(p) }
func cHostView(dptr uint64) unsafe.Pointer       { return C.umlab_host_view(C.uint64_t(dptr)) }

// hostAddr is the numeric address of host memory, the device pointer that
// unified addressing gives it.
func hostAddr(p unsafe.Pointer) uint64 { return uint64(uintptr(p)) }

func cMemcpyHtoD(ctx uintptr, dst uint64, src unsafe.Pointer, bytes uint64, stream uintptr) Result {
	return Result(C.umlab_memcpy_htod(C.uintptr_t(ctx), C.uint64_t(dst), src, C.size_t(bytes), C.uintptr_t(stream)))
}

func cMemcpyDtoH(ctx uintptr, dst unsafe.Pointer, src uint64, bytes uint64, stream uintptr) Result {
	return Result(C.umlab_memcpy_dtoh(C.uintptr_t(ctx), dst, C.uint64_t(src), C.size_t(bytes), C.uintptr_t(stream)))
}

func cMemcpyDtoD(ctx uintptr, dst, src uint64, bytes uint64, stream uintptr) Result {
	return Result(C.umlab_memcpy_dtod(C.uintptr_t(ctx), C.uint64_t(dst), C.uint64_t(src), C.size_t(bytes), C.uintptr_t(stream)))
}

func cMemcpyAny(ctx uintptr, dst, src uint64, bytes uint64, stream uintptr) Result {
	return Result(C.umlab_memcpy_any(C.uintptr_t(ctx), C.uint64_t(dst), C.uint64_t(src), C.size_t(bytes), C.uintptr_t(stream)))
}

func cUsesV2() bool { return C.umlab_uses_v2() != 0 }

func cPrefetch(ctx uintptr, p, bytes uint64, locType, locID int, stream uintptr) Result {
	return Result(C.umlab_prefetch(C.uintptr_t(ctx), C.uint64_t(p), C.size_t(bytes), C.int(locType), C.int(locID), C.uintptr_t(stream)))
}

func cAdvise(ctx uintptr, p, bytes uint64, advice, locType, locID int) Result {
	return Result(C.umlab_advise(C.uintptr_t(ctx), C.uint64_t(p), C.size_t(bytes), C.int(advice), C.int(locType), C.int(locID)))
}

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

func cStreamCreate(ctx uintptr) (uintptr, Result) {
	var s C.uintptr_t
	r := C.umlab_stream_create(C.uintptr_t(ctx), &s)
	return uintptr(s), Result(r)
}

func cStreamDestroy(ctx, s uintptr) Result {
	return Result(C.umlab_stream_destroy(C.uintptr_t(ctx), C.uintptr_t(s)))
}

func cStreamSynchronize(ctx, s uintptr) Result {
	return Result(C.umlab_stream_synchronize(C.uintptr_t(ctx), C.uintptr_t(s)))
}

func cEventCreate(ctx uintptr) (uintptr, Result) {
	var e C.uintptr_t
	r := C.umlab_event_create(C.uintptr_t(ctx), &e)
	return uintptr(e), Result(r)
}

func cEventDestroy(ctx, e uintptr) Result {
	return Result(C.umlab_event_destroy(C.uintptr_t(ctx), C.uintptr_t(e)))
}

func cEventRecord(ctx, e, s uintptr) Result {
	return Result(C.umlab_event_record(C.uintptr_t(ctx), C.uintptr_t(e), C.uintptr_t(s)))
}

func cEventSynchronize(ctx, e uintptr) Result {
	return Result(C.umlab_event_synchronize(C.uintptr_t(ctx), C.uintptr_t(e)))
}

func cStreamQuery(ctx, s uintptr) Result {
	return Result(C.umlab_stream_query(C.uintptr_t(ctx), C.uintptr_t(s)))
}

func cEventQuery(ctx, e uintptr) Result {
	return Result(C.umlab_event_query(C.uintptr_t(ctx), C.uintptr_t(e)))
}

func cEventElapsed(ctx, start, end uintptr) (float32, Result) {
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

func cModuleUnload(ctx, m uintptr) Result {
	return Result(C.umlab_module_unload(C.uintptr_t(ctx), C.uintptr_t(m)))
}

func cModuleFunction(ctx, m uintptr, name string) (uintptr, Result) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	var f C.uintptr_t
	r := C.umlab_module_function(C.uintptr_t(ctx), &f, C.uintptr_t(m), cs)
	return uintptr(f), Result(r)
}

func cLaunch(ctx, fn uintptr, grid, block [3]uint32, smem uint32, stream uintptr, args []uint64) Result {
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
