/* NVML by dlopen: libnvidia-ml.so.1 is opened at run time (never linked)
 * and every symbol resolved eagerly (RTLD_NOW), so no lazy binding can fail
 * later. A symbol the library lacks leaves its pointer NULL and its call
 * returns NVML_ERROR_FUNCTION_NOT_FOUND. */
#include "umlab_nvml.h"

#include <dlfcn.h>
#include <stdio.h>

enum { NVML_SUCCESS = 0, NVML_ERROR_UNINITIALIZED = 1, NVML_ERROR_LIBRARY_NOT_FOUND = 12, NVML_ERROR_FUNCTION_NOT_FOUND = 13 };

static void *lib;
static int (*p_init)(void);
static int (*p_shutdown)(void);
static const char *(*p_error_string)(int);
static int (*p_driver_version)(char *, unsigned int);
static int (*p_by_uuid)(const char *, umlab_nvml_device *);
static int (*p_pcie_gen)(umlab_nvml_device, unsigned int *);
static int (*p_pcie_width)(umlab_nvml_device, unsigned int *);
static int (*p_numa)(umlab_nvml_device, unsigned int *);
static int (*p_affinity)(umlab_nvml_device, unsigned int, unsigned long *);
static int (*p_clock)(umlab_nvml_device, int, unsigned int *);
static int (*p_max_clock)(umlab_nvml_device, int, unsigned int *);
static int (*p_reasons)(umlab_nvml_device, unsigned long long *);
static int (*p_fields)(umlab_nvml_device, int, umlab_nvml_field_value *);

int umlab_nvml_load(char *msg, size_t n) {
  if (lib) return NVML_SUCCESS;
  void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror();
    snprintf(msg, n, "%s", e ? e : "dlopen libnvidia-ml.so.1 failed");
    return NVML_ERROR_LIBRARY_NOT_FOUND;
  }
  p_init = (int (*)(void))dlsym(h, "nvmlInit_v2");
  p_shutdown = (int (*)(void))dlsym(h, "nvmlShutdown");
  p_error_string = (const char *(*)(int))dlsym(h, "nvmlErrorString");
  p_driver_version = (int (*)(char *, unsigned int))dlsym(h, "nvmlSystemGetDriverVersion");
  p_by_uuid = (int (*)(const char *, umlab_nvml_device *))dlsym(h, "nvmlDeviceGetHandleByUUID");
  p_pcie_gen = (int (*)(umlab_nvml_device, unsigned int *))dlsym(h, "nvmlDeviceGetCurrPcieLinkGeneration");
  p_pcie_width = (int (*)(umlab_nvml_device, unsigned int *))dlsym(h, "nvmlDeviceGetCurrPcieLinkWidth");
  p_numa = (int (*)(umlab_nvml_device, unsigned int *))dlsym(h, "nvmlDeviceGetNumaNodeId");
  p_affinity = (int (*)(umlab_nvml_device, unsigned int, unsigned long *))dlsym(h, "nvmlDeviceGetCpuAffinity");
  p_clock = (int (*)(umlab_nvml_device, int, unsigned int *))dlsym(h, "nvmlDeviceGetClockInfo");
  p_max_clock = (int (*)(umlab_nvml_device, int, unsigned int *))dlsym(h, "nvmlDeviceGetMaxClockInfo");
  /* The R535 name, and the older one for older drivers. */
  p_reasons = (int (*)(umlab_nvml_device, unsigned long long *))dlsym(h, "nvmlDeviceGetCurrentClocksEventReasons");
  if (!p_reasons)
    p_reasons = (int (*)(umlab_nvml_device, unsigned long long *))dlsym(h, "nvmlDeviceGetCurrentClocksThrottleReasons");
  p_fields = (int (*)(umlab_nvml_device, int, umlab_nvml_field_value *))dlsym(h, "nvmlDeviceGetFieldValues");
  if (!p_init) {
    snprintf(msg, n, "libnvidia-ml.so.1 has no nvmlInit_v2");
    dlclose(h);
    return NVML_ERROR_FUNCTION_NOT_FOUND;
  }
  lib = h;
  return NVML_SUCCESS;
}

#define CALL(p, ...) return lib == NULL ? NVML_ERROR_UNINITIALIZED : (p) == NULL ? NVML_ERROR_FUNCTION_NOT_FOUND : (p)(__VA_ARGS__)

int umlab_nvml_init(void) {
  if (!lib) return NVML_ERROR_UNINITIALIZED;
  return p_init();
}
int umlab_nvml_shutdown(void) {
  if (!lib) return NVML_ERROR_UNINITIALIZED;
  return p_shutdown ? p_shutdown() : NVML_ERROR_FUNCTION_NOT_FOUND;
}
const char *umlab_nvml_error_string(int r) { return lib && p_error_string ? p_error_string(r) : NULL; }
int umlab_nvml_driver_version(char *buf, unsigned int n) { CALL(p_driver_version, buf, n); }
int umlab_nvml_device_by_uuid(const char *uuid, umlab_nvml_device *d) { CALL(p_by_uuid, uuid, d); }
int umlab_nvml_pcie_gen(umlab_nvml_device d, unsigned int *v) { CALL(p_pcie_gen, d, v); }
int umlab_nvml_pcie_width(umlab_nvml_device d, unsigned int *v) { CALL(p_pcie_width, d, v); }
int umlab_nvml_numa_node(umlab_nvml_device d, unsigned int *v) { CALL(p_numa, d, v); }
int umlab_nvml_cpu_affinity(umlab_nvml_device d, unsigned int words, unsigned long *set) { CALL(p_affinity, d, words, set); }
int umlab_nvml_clock(umlab_nvml_device d, int type, unsigned int *mhz) { CALL(p_clock, d, type, mhz); }
int umlab_nvml_max_clock(umlab_nvml_device d, int type, unsigned int *mhz) { CALL(p_max_clock, d, type, mhz); }
int umlab_nvml_clock_event_reasons(umlab_nvml_device d, unsigned long long *v) { CALL(p_reasons, d, v); }
int umlab_nvml_field_values(umlab_nvml_device d, int n, umlab_nvml_field_value *v) { CALL(p_fields, d, n, v); }
