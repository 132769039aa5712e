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

// Trampolines: every call that needs a context takes it first and makes it
// current on the calling OS thread before calling the driver. Handles are
// passed as uintptr_t so that Go never converts integers to pointers.
CUresult umlab_init(void);
CUresult umlab_driver_version(int *v);
CUresult umlab_device_count(int *n);
CUresult umlab_device_get(int ordinal, int *dev);
CUresult umlab_device_name(int dev, char *name, int len);
CUresult umlab_device_attr(int dev, int attr, int *value);
CUresult umlab_device_total_mem(int dev, size_t *bytes);
CUresult umlab_device_uuid(int dev, unsigned char uuid[16]);
CUresult umlab_device_pci_bus_id(int dev, char *id, int len);

CUresult umlab_ctx_retain(int dev, uintptr_t *ctx);
CUresult umlab_ctx_release(int dev);
CUresult umlab_ctx_synchronize(uintptr_t ctx);
CUresult umlab_mem_info(uintptr_t ctx, size_t *free_bytes, size_t *total_bytes);

CUresult umlab_mem_alloc(uintptr_t ctx, uint64_t *dptr, size_t bytes);
CUresult umlab_mem_alloc_managed(uintptr_t ctx, uint64_t *dptr, size_t bytes);
CUresult umlab_mem_free(uintptr_t ctx, uint64_t dptr);
CUresult umlab_host_alloc(uintptr_t ctx, void **p, size_t bytes, unsigned flags);
CUresult umlab_host_free(uintptr_t ctx, void *p);
CUresult umlab_host_device_pointer(uintptr_t ctx, uint64_t *dptr, void *p);
void *umlab_pageable_alloc(size_t bytes);
void umlab_pageable_free(void *p);
void *umlab_host_view(uint64_t dptr);

CUresult umlab_memcpy_htod(uintptr_t ctx, uint64_t dst, const void *src, size_t bytes, uintptr_t stream);
CUresult umlab_memcpy_dtoh(uintptr_t ctx, void *dst, uint64_t src, size_t bytes, uintptr_t stream);
CUresult umlab_memcpy_dtod(uintptr_t ctx, uint64_t dst, uint64_t src, size_t bytes, uintptr_t stream);
CUresult umlab_memcpy_any(uintptr_t ctx, uint64_t dst, uint64_t src, size_t bytes, uintptr_t stream);

// loc_type: 1 device (id = ordinal), 2 host. use_v2 selects the CUDA 12.2+ ABI.
CUresult umlab_prefetch(uintptr_t ctx, uint64_t dptr, size_t bytes, int loc_type, int loc_id, uintptr_t stream);
CUresult umlab_advise(uintptr_t ctx, uint64_t dptr, size_t bytes, int advice, int loc_type, int loc_id);
CUresult umlab_range_attr(uintptr_t ctx, void *data, size_t data_size, int attr, uint64_t dptr, size_t bytes);
int umlab_uses_v2(void);

CUresult umlab_stream_create(uintptr_t ctx, uintptr_t *stream);
CUresult umlab_stream_destroy(uintptr_t ctx, uintptr_t stream);
CUresult umlab_stream_synchronize(uintptr_t ctx, uintptr_t stream);
CUresult umlab_stream_query(uintptr_t ctx, uintptr_t stream);
CUresult umlab_event_create(uintptr_t ctx, uintptr_t *event);
CUresult umlab_event_destroy(uintptr_t ctx, uintptr_t event);
CUresult umlab_event_record(uintptr_t ctx, uintptr_t event, uintptr_t stream);
CUresult umlab_event_synchronize(uintptr_t ctx, uintptr_t event);
CUresult umlab_event_query(uintptr_t ctx, uintptr_t event);
CUresult umlab_event_elapsed(uintptr_t ctx, float *ms, uintptr_t start, uintptr_t end);

// umlab_module_load JIT-compiles NUL-terminated PTX; on failure errlog holds
// the JIT compiler's message. wall_ms receives the JIT wall time.
CUresult umlab_module_load(uintptr_t ctx, uintptr_t *module, const char *ptx, char *errlog, size_t errlen, float *wall_ms);
CUresult umlab_module_unload(uintptr_t ctx, uintptr_t module);
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
