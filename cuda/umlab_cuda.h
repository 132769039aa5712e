// Minimal CUDA driver API declarations for umlab, written for this project
// (no NVIDIA header is copied). Types, enum values and signatures were checked
// against the CUDA 13.0 driver API (cuda.h of toolkit 13.0) and agree with
// the 12.x headers for every entry point used here.
#ifndef UMLAB_CUDA_H
#define UMLAB_CUDA_H

#include <stddef.h>
#include <stdint.h>

typedef int CUresult;      // enum cudaError_enum
typedef int CUdevice;      // device ordinal handle
typedef uint64_t CUdeviceptr;
typedef void *CUcontext, *CUmodule, *CUfunction, *CUstream, *CUevent;

typedef struct {
  int type; // CUmemLocationType: 1 device, 2 host
  int id;
} CUmemLocation; // 8 bytes, passed by value to the _v2 prefetch and advise

// Status of a symbol returned by cuGetProcAddress_v2.
typedef int CUdriverProcAddressQueryResult;

// Loader state. umlab_load returns 0 on success, 1 when libcuda.so.1 cannot
// be opened and 2 when an entry point is missing; msg receives the reason.
int umlab_load(char *msg, size_t msglen);

// Handles are passed as uintptr_t so that Go never converts integers to
// pointers. Every call that needs a context takes it first and makes it
// current on the calling OS thread before calling the driver.
//
// umlab_call runs the driver calls whose arguments and results are integers,
// sizes, addresses or handles: op names the call, a..e are its arguments in
// the order listed, and out receives what it writes back. loc_type: 1 device
// (loc_id = ordinal), 2 host; umlab_uses_v2 says which ABI prefetch and
// advise use (the CUDA 12.2+ one when 1).
enum {
  UMLAB_INIT,                // cuInit(0)
  UMLAB_DRIVER_VERSION,      // -> version
  UMLAB_DEVICE_COUNT,        // -> count
  UMLAB_DEVICE_GET,          // ordinal -> device
  UMLAB_DEVICE_TOTAL_MEM,    // device -> bytes
  UMLAB_CTX_RETAIN,          // device -> primary context
  UMLAB_CTX_RELEASE,         // device
  UMLAB_CTX_SYNCHRONIZE,     // (ctx)
  UMLAB_MEM_INFO,            // (ctx) -> free, total
  UMLAB_MEM_ALLOC,           // (ctx) bytes -> dptr
  UMLAB_MEM_ALLOC_MANAGED,   // (ctx) bytes -> dptr, attached globally
  UMLAB_MEM_FREE,            // (ctx) dptr
  UMLAB_HOST_ALLOC,          // (ctx) bytes, flags -> host pointer
  UMLAB_HOST_FREE,           // (ctx) host pointer
  UMLAB_HOST_DEVICE_POINTER, // (ctx) host pointer -> dptr
  UMLAB_MEMCPY_HTOD,         // (ctx) dst dptr, src host pointer, bytes, stream
  UMLAB_MEMCPY_DTOH,         // (ctx) dst host pointer, src dptr, bytes, stream
  UMLAB_MEMCPY_DTOD,         // (ctx) dst, src, bytes, stream
  UMLAB_MEMCPY_ANY,          // (ctx) dst, src, bytes, stream: unified addressing
  UMLAB_PREFETCH,            // (ctx) dptr, bytes, loc_type, loc_id, stream
  UMLAB_ADVISE,              // (ctx) dptr, bytes, advice, loc_type, loc_id
  UMLAB_STREAM_CREATE,       // (ctx) -> non-blocking stream
  UMLAB_STREAM_DESTROY,      // (ctx) stream
  UMLAB_STREAM_SYNCHRONIZE,  // (ctx) stream
  UMLAB_STREAM_QUERY,        // (ctx) stream
  UMLAB_EVENT_CREATE,        // (ctx) -> event with timing
  UMLAB_EVENT_DESTROY,       // (ctx) event
  UMLAB_EVENT_RECORD,        // (ctx) event, stream
  UMLAB_EVENT_SYNCHRONIZE,   // (ctx) event
  UMLAB_EVENT_QUERY,         // (ctx) event
  UMLAB_MODULE_UNLOAD,       // (ctx) module
};
typedef struct {
  CUresult r;
  uint64_t out[2];
} umlab_result;
umlab_result umlab_call(int op, uintptr_t ctx, uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e);

CUresult umlab_device_name(int dev, char *name, int len);
CUresult umlab_device_attr(int dev, int attr, int *value);
CUresult umlab_device_uuid(int dev, unsigned char uuid[16]);
CUresult umlab_device_pci_bus_id(int dev, char *id, int len);
void *umlab_pageable_alloc(size_t bytes);
void umlab_pageable_free(void *p);
void *umlab_host_view(uint64_t dptr);
CUresult umlab_range_attr(uintptr_t ctx, void *data, size_t data_size, int attr, uint64_t dptr, size_t bytes);
int umlab_uses_v2(void);
CUresult umlab_event_elapsed(uintptr_t ctx, float *ms, uintptr_t start, uintptr_t end);

// umlab_module_load JIT-compiles NUL-terminated PTX; on failure errlog holds
// the JIT compiler's message. wall_ms receives the JIT wall time.
CUresult umlab_module_load(uintptr_t ctx, uintptr_t *module, const char *ptx, char *errlog, size_t errlen, float *wall_ms);
CUresult umlab_module_function(uintptr_t ctx, uintptr_t *fn, uintptr_t module, const char *name);
// Every umlab kernel parameter is 8 bytes wide; args holds nargs of them.
CUresult umlab_launch(uintptr_t ctx, uintptr_t fn, unsigned gx, unsigned gy, unsigned gz,
                      unsigned bx, unsigned by, unsigned bz, unsigned smem, uintptr_t stream,
                      const uint64_t *args, int nargs);

// CPU-side hot loops, compiled C so CPU timings are not Go artefacts. The
// fill and checks work on element range [lo, hi) so that Go can split them
// over threads; the update is the measured CPU work of the handoff benchmark
// and runs on one thread, or on several pinned threads with _mt.
double umlab_seed_value(uint64_t seed, uint64_t i);
void umlab_fill_host(double *x, uint64_t lo, uint64_t hi, uint64_t seed);
const char *umlab_setup_loops_select(int baseline);
void umlab_update_host(double *x, uint64_t n, double mul, double add);
#define UMLAB_MAX_UPDATE_THREADS 256
int umlab_update_host_mt(double *x, uint64_t n, double mul, double add, int nthreads, const int *cpus);
uint64_t umlab_check_affine_host(const double *x, uint64_t lo, uint64_t hi, uint64_t seed, double mul, double add,
                                 uint64_t stride, uint64_t active, uint64_t *first_bad);
uint64_t umlab_check_triad_host(const double *a, uint64_t lo, uint64_t hi, uint64_t seed_b, uint64_t seed_c,
                                double s, uint64_t *first_bad);
#endif
