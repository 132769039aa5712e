// Loader and trampolines for the CUDA driver API. libcuda.so.1 is opened with
// dlopen at run time (never linked), every entry point is resolved eagerly
// into the table below, and the trampolines call through it.
#include "umlab_cuda.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef CUresult (*pfn_getproc)(const char *, void **, int, uint64_t, CUdriverProcAddressQueryResult *);

static struct {
  CUresult (*Init)(unsigned);
  CUresult (*DriverGetVersion)(int *);
  CUresult (*DeviceGetCount)(int *);
  CUresult (*DeviceGet)(CUdevice *, int);
  CUresult (*DeviceGetName)(char *, int, CUdevice);
  CUresult (*DeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*DeviceTotalMem)(size_t *, CUdevice);
  CUresult (*DeviceGetUuid)(unsigned char *, CUdevice);
  CUresult (*DeviceGetPCIBusId)(char *, int, CUdevice);
  CUresult (*PrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*PrimaryCtxRelease)(CUdevice);
  CUresult (*CtxSetCurrent)(CUcontext);
  CUresult (*CtxSynchronize)(void);
  CUresult (*MemGetInfo)(size_t *, size_t *);
  CUresult (*MemAlloc)(CUdeviceptr *, size_t);
  CUresult (*MemFree)(CUdeviceptr);
  CUresult (*MemAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*MemHostAlloc)(void **, size_t, unsigned);
  CUresult (*MemFreeHost)(void *);
  CUresult (*MemHostGetDevicePointer)(CUdeviceptr *, void *, unsigned);
  CUresult (*MemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
  CUresult (*MemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
  CUresult (*MemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*MemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*MemPrefetchAsync)(CUdeviceptr, size_t, CUdevice, CUstream);
  CUresult (*MemPrefetchAsync_v2)(CUdeviceptr, size_t, CUmemLocation, unsigned, CUstream);
  CUresult (*MemAdvise)(CUdeviceptr, size_t, int, CUdevice);
  CUresult (*MemAdvise_v2)(CUdeviceptr, size_t, int, CUmemLocation);
  CUresult (*MemRangeGetAttribute)(void *, size_t, int, CUdeviceptr, size_t);
  CUresult (*StreamCreate)(CUstream *, unsigned);
  CUresult (*StreamDestroy)(CUstream);
  CUresult (*StreamSynchronize)(CUstream);
  CUresult (*StreamQuery)(CUstream);
  CUresult (*EventCreate)(CUevent *, unsigned);
  CUresult (*EventDestroy)(CUevent);
  CUresult (*EventRecord)(CUevent, CUstream);
  CUresult (*EventSynchronize)(CUevent);
  CUresult (*EventQuery)(CUevent);
  CUresult (*EventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*ModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
  CUresult (*ModuleUnload)(CUmodule);
  CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                           unsigned, CUstream, void **, void **);
} api;

static int use_v2; // prefetch and advise through the CUDA 12.2 ABI

// entry: base name for cuGetProcAddress_v2, the ABI version to ask for, the
// exported symbol to dlsym when cuGetProcAddress_v2 is unavailable, and the
// slot to fill. required=0 entries may be missing (the other ABI is used).
struct entry {
  const char *base;
  int version;
  const char *symbol;
  void **slot;
  int required;
};

#define E(b, v, s, f, r) {b, v, s, (void **)&api.f, r}

int umlab_load(char *msg, size_t msglen) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(msg, msglen, "%s", dlerror());
    return 1;
  }
  pfn_getproc getproc = (pfn_getproc)dlsym(lib, "cuGetProcAddress_v2");
  CUresult (*drv_version)(int *) = (CUresult(*)(int *))dlsym(lib, "cuDriverGetVersion");
  if (!drv_version) {
    snprintf(msg, msglen, "libcuda.so.1 has no cuDriverGetVersion");
    return 2;
  }
  int version = 0;
  if (drv_version(&version) != 0) {
    snprintf(msg, msglen, "cuDriverGetVersion failed");
    return 2;
  }
  use_v2 = version >= 12020;
  struct entry table[] = {
      E("cuInit", 2000, "cuInit", Init, 1),
      E("cuDriverGetVersion", 2020, "cuDriverGetVersion", DriverGetVersion, 1),
      E("cuDeviceGetCount", 2000, "cuDeviceGetCount", DeviceGetCount, 1),
      E("cuDeviceGet", 2000, "cuDeviceGet", DeviceGet, 1),
      E("cuDeviceGetName", 2000, "cuDeviceGetName", DeviceGetName, 1),
      E("cuDeviceGetAttribute", 2000, "cuDeviceGetAttribute", DeviceGetAttribute, 1),
      E("cuDeviceTotalMem", 3020, "cuDeviceTotalMem_v2", DeviceTotalMem, 1),
      E("cuDeviceGetUuid", 11040, "cuDeviceGetUuid_v2", DeviceGetUuid, 1),
      E("cuDeviceGetPCIBusId", 4010, "cuDeviceGetPCIBusId", DeviceGetPCIBusId, 1),
      E("cuDevicePrimaryCtxRetain", 7000, "cuDevicePrimaryCtxRetain", PrimaryCtxRetain, 1),
      E("cuDevicePrimaryCtxRelease", 11000, "cuDevicePrimaryCtxRelease_v2", PrimaryCtxRelease, 1),
      E("cuCtxSetCurrent", 4000, "cuCtxSetCurrent", CtxSetCurrent, 1),
      E("cuCtxSynchronize", 2000, "cuCtxSynchronize", CtxSynchronize, 1),
      E("cuMemGetInfo", 3020, "cuMemGetInfo_v2", MemGetInfo, 1),
      E("cuMemAlloc", 3020, "cuMemAlloc_v2", MemAlloc, 1),
      E("cuMemFree", 3020, "cuMemFree_v2", MemFree, 1),
      E("cuMemAllocManaged", 6000, "cuMemAllocManaged", MemAllocManaged, 1),
      E("cuMemHostAlloc", 2020, "cuMemHostAlloc", MemHostAlloc, 1),
      E("cuMemFreeHost", 2000, "cuMemFreeHost", MemFreeHost, 1),
      E("cuMemHostGetDevicePointer", 3020, "cuMemHostGetDevicePointer_v2", MemHostGetDevicePointer, 1),
      E("cuMemcpyHtoDAsync", 3020, "cuMemcpyHtoDAsync_v2", MemcpyHtoDAsync, 1),
      E("cuMemcpyDtoHAsync", 3020, "cuMemcpyDtoHAsync_v2", MemcpyDtoHAsync, 1),
      E("cuMemcpyDtoDAsync", 3020, "cuMemcpyDtoDAsync_v2", MemcpyDtoDAsync, 1),
      E("cuMemcpyAsync", 4000, "cuMemcpyAsync", MemcpyAsync, 1),
      E("cuMemPrefetchAsync", 8000, "cuMemPrefetchAsync", MemPrefetchAsync, !use_v2),
      E("cuMemPrefetchAsync", 12020, "cuMemPrefetchAsync_v2", MemPrefetchAsync_v2, use_v2),
      E("cuMemAdvise", 8000, "cuMemAdvise", MemAdvise, !use_v2),
      E("cuMemAdvise", 12020, "cuMemAdvise_v2", MemAdvise_v2, use_v2),
      E("cuMemRangeGetAttribute", 8000, "cuMemRangeGetAttribute", MemRangeGetAttribute, 1),
      E("cuStreamCreate", 2000, "cuStreamCreate", StreamCreate, 1),
      E("cuStreamDestroy", 4000, "cuStreamDestroy_v2", StreamDestroy, 1),
      E("cuStreamSynchronize", 2000, "cuStreamSynchronize", StreamSynchronize, 1),
      E("cuStreamQuery", 2000, "cuStreamQuery", StreamQuery, 1),
      E("cuEventCreate", 2000, "cuEventCreate", EventCreate, 1),
      E("cuEventDestroy", 4000, "cuEventDestroy_v2", EventDestroy, 1),
      E("cuEventRecord", 2000, "cuEventRecord", EventRecord, 1),
      E("cuEventSynchronize", 2000, "cuEventSynchronize", EventSynchronize, 1),
      E("cuEventQuery", 2000, "cuEventQuery", EventQuery, 1),
      E("cuEventElapsedTime", 2000, "cuEventElapsedTime", EventElapsedTime, 1),
      E("cuModuleLoadDataEx", 2010, "cuModuleLoadDataEx", ModuleLoadDataEx, 1),
      E("cuModuleUnload", 2000, "cuModuleUnload", ModuleUnload, 1),
      E("cuModuleGetFunction", 2000, "cuModuleGetFunction", ModuleGetFunction, 1),
      E("cuLaunchKernel", 4000, "cuLaunchKernel", LaunchKernel, 1),
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    struct entry *e = &table[i];
    void *p = NULL;
    if (getproc) {
      CUdriverProcAddressQueryResult status = 0;
      if (getproc(e->base, &p, e->version, 0, &status) != 0 || status != 0) p = NULL;
    }
    if (!p) p = dlsym(lib, e->symbol);
    *e->slot = p;
    if (!p && e->required) {
      snprintf(msg, msglen, "libcuda.so.1 (CUDA %d.%d) has no %s", version / 1000, version % 1000 / 10,
               e->symbol);
      return 2;
    }
  }
  return 0; // lib stays open for the life of the process
}

// The context current on this OS thread, as far as umlab set it. Each
// trampoline binds the context it is given, so a goroutine may move between
// threads freely: a single cgo call always runs on one thread.
static __thread uintptr_t bound;

static CUresult bind(uintptr_t ctx) {
  if (bound == ctx) return 0;
  CUresult r = api.CtxSetCurrent((CUcontext)ctx);
  if (r == 0) bound = ctx;
  return r;
}

#define BIND(ctx)                   \
  do {                              \
    CUresult _r = bind(ctx);        \
    if (_r != 0) return _r;         \
  } while (0)

CUresult umlab_device_name(int dev, char *name, int len) { return api.DeviceGetName(name, len, dev); }
CUresult umlab_device_attr(int dev, int attr, int *value) { return api.DeviceGetAttribute(value, attr, dev); }
CUresult umlab_device_uuid(int dev, unsigned char uuid[16]) { return api.DeviceGetUuid(uuid, dev); }
CUresult umlab_device_pci_bus_id(int dev, char *id, int len) { return api.DeviceGetPCIBusId(id, len, dev); }

// location is (type, id) in the _v2 ABI's form; legacy_location in the old
// one's, a device ordinal or CU_DEVICE_CPU (-1).
static CUmemLocation location(uint64_t type, uint64_t id) {
  CUmemLocation l = {(int)type, type == 1 ? (int)id : 0};
  return l;
}
static int legacy_location(uint64_t type, uint64_t id) { return type == 1 ? (int)id : -1; }

#define STREAM(v) ((CUstream)(uintptr_t)(v))
#define EVENT(v) ((CUevent)(uintptr_t)(v))
#define HOST(v) ((void *)(uintptr_t)(v))

umlab_result umlab_call(int op, uintptr_t ctx, uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e) {
  umlab_result x = {0, {0, 0}};
  if (ctx && (x.r = bind(ctx)) != 0) return x;
  int n = 0;
  size_t z[2] = {0, 0};
  void *p = NULL;
  CUdeviceptr dp = 0;
  switch (op) {
  case UMLAB_INIT:
    x.r = api.Init(0);
    break;
  case UMLAB_DRIVER_VERSION:
    x.r = api.DriverGetVersion(&n);
    x.out[0] = n;
    break;
  case UMLAB_DEVICE_COUNT:
    x.r = api.DeviceGetCount(&n);
    x.out[0] = n;
    break;
  case UMLAB_DEVICE_GET:
    x.r = api.DeviceGet(&n, (int)a);
    x.out[0] = n;
    break;
  case UMLAB_DEVICE_TOTAL_MEM:
    x.r = api.DeviceTotalMem(&z[0], (int)a);
    x.out[0] = z[0];
    break;
  case UMLAB_CTX_RETAIN:
    x.r = api.PrimaryCtxRetain(&p, (int)a);
    x.out[0] = (uintptr_t)p;
    break;
  case UMLAB_CTX_RELEASE:
    bound = 0;
    x.r = api.PrimaryCtxRelease((int)a);
    break;
  case UMLAB_CTX_SYNCHRONIZE:
    x.r = api.CtxSynchronize();
    break;
  case UMLAB_MEM_INFO:
    x.r = api.MemGetInfo(&z[0], &z[1]);
    x.out[0] = z[0];
    x.out[1] = z[1];
    break;
  case UMLAB_MEM_ALLOC:
    x.r = api.MemAlloc(&dp, a);
    x.out[0] = dp;
    break;
  case UMLAB_MEM_ALLOC_MANAGED:
    x.r = api.MemAllocManaged(&dp, a, 1 /* CU_MEM_ATTACH_GLOBAL */);
    x.out[0] = dp;
    break;
  case UMLAB_MEM_FREE:
    x.r = api.MemFree(a);
    break;
  case UMLAB_HOST_ALLOC:
    x.r = api.MemHostAlloc(&p, a, (unsigned)b);
    x.out[0] = (uintptr_t)p;
    break;
  case UMLAB_HOST_FREE:
    x.r = api.MemFreeHost(HOST(a));
    break;
  case UMLAB_HOST_DEVICE_POINTER:
    x.r = api.MemHostGetDevicePointer(&dp, HOST(a), 0);
    x.out[0] = dp;
    break;
  case UMLAB_MEMCPY_HTOD:
    x.r = api.MemcpyHtoDAsync(a, HOST(b), c, STREAM(d));
    break;
  case UMLAB_MEMCPY_DTOH:
    x.r = api.MemcpyDtoHAsync(HOST(a), b, c, STREAM(d));
    break;
  case UMLAB_MEMCPY_DTOD:
    x.r = api.MemcpyDtoDAsync(a, b, c, STREAM(d));
    break;
  case UMLAB_MEMCPY_ANY:
    x.r = api.MemcpyAsync(a, b, c, STREAM(d));
    break;
  case UMLAB_PREFETCH:
    x.r = use_v2 ? api.MemPrefetchAsync_v2(a, b, location(c, d), 0, STREAM(e))
                 : api.MemPrefetchAsync(a, b, legacy_location(c, d), STREAM(e));
    break;
  case UMLAB_ADVISE:
    x.r = use_v2 ? api.MemAdvise_v2(a, b, (int)c, location(d, e))
                 : api.MemAdvise(a, b, (int)c, legacy_location(d, e));
    break;
  case UMLAB_STREAM_CREATE:
    x.r = api.StreamCreate(&p, 1 /* CU_STREAM_NON_BLOCKING */);
    x.out[0] = (uintptr_t)p;
    break;
  case UMLAB_STREAM_DESTROY:
    x.r = api.StreamDestroy(STREAM(a));
    break;
  case UMLAB_STREAM_SYNCHRONIZE:
    x.r = api.StreamSynchronize(STREAM(a));
    break;
  case UMLAB_STREAM_QUERY:
    x.r = api.StreamQuery(STREAM(a));
    break;
  case UMLAB_EVENT_CREATE:
    x.r = api.EventCreate(&p, 0 /* CU_EVENT_DEFAULT: timing enabled */);
    x.out[0] = (uintptr_t)p;
    break;
  case UMLAB_EVENT_DESTROY:
    x.r = api.EventDestroy(EVENT(a));
    break;
  case UMLAB_EVENT_RECORD:
    x.r = api.EventRecord(EVENT(a), STREAM(b));
    break;
  case UMLAB_EVENT_SYNCHRONIZE:
    x.r = api.EventSynchronize(EVENT(a));
    break;
  case UMLAB_EVENT_QUERY:
    x.r = api.EventQuery(EVENT(a));
    break;
  case UMLAB_MODULE_UNLOAD:
    x.r = api.ModuleUnload((CUmodule)(uintptr_t)a);
    break;
  default:
    x.r = 1; // CUDA_ERROR_INVALID_VALUE: no such op
  }
  return x;
}

void *umlab_pageable_alloc(size_t bytes) {
  void *p = NULL;
  if (posix_memalign(&p, 4096, bytes) != 0) return NULL;
  return p;
}
void umlab_pageable_free(void *p) { free(p); }
void *umlab_host_view(uint64_t dptr) { return (void *)(uintptr_t)dptr; }

int umlab_uses_v2(void) { return use_v2; }

CUresult umlab_range_attr(uintptr_t ctx, void *data, size_t data_size, int attr, uint64_t dptr, size_t bytes) {
  BIND(ctx);
  return api.MemRangeGetAttribute(data, data_size, attr, dptr, bytes);
}
CUresult umlab_event_elapsed(uintptr_t ctx, float *ms, uintptr_t start, uintptr_t end) {
  BIND(ctx);
  return api.EventElapsedTime(ms, (CUevent)start, (CUevent)end);
}

CUresult umlab_module_load(uintptr_t ctx, uintptr_t *module, const char *ptx, char *errlog, size_t errlen,
                           float *wall_ms) {
  BIND(ctx);
  // CU_JIT_WALL_TIME (2) returns a float in its value slot;
  // CU_JIT_ERROR_LOG_BUFFER (5) and its size (6) receive ptxas's message.
  int opts[3] = {2, 5, 6};
  void *vals[3];
  vals[0] = NULL;
  vals[1] = errlog;
  vals[2] = (void *)(uintptr_t)errlen;
  if (errlen > 0) errlog[0] = 0;
  CUmodule m = NULL;
  CUresult r = api.ModuleLoadDataEx(&m, ptx, 3, opts, vals);
  float wt = 0;
  memcpy(&wt, &vals[0], sizeof wt);
  *wall_ms = wt;
  *module = (uintptr_t)m;
  return r;
}
CUresult umlab_module_function(uintptr_t ctx, uintptr_t *fn, uintptr_t module, const char *name) {
  BIND(ctx);
  CUfunction f = NULL;
  CUresult r = api.ModuleGetFunction(&f, (CUmodule)module, name);
  *fn = (uintptr_t)f;
  return r;
}
CUresult umlab_launch(uintptr_t ctx, uintptr_t fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                      unsigned by, unsigned bz, unsigned smem, uintptr_t stream, const uint64_t *args,
                      int nargs) {
  BIND(ctx);
  uint64_t vals[16];
  void *params[16];
  if (nargs < 0 || nargs > 16) return 1; // CUDA_ERROR_INVALID_VALUE
  for (int i = 0; i < nargs; i++) {
    vals[i] = args[i];
    params[i] = &vals[i];
  }
  return api.LaunchKernel((CUfunction)fn, gx, gy, gz, bx, by, bz, smem, (CUstream)stream, params, NULL);
}
