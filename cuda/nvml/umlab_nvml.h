/* The few NVML entry points umlab uses, declared here (not nvml.h) and
 * resolved with dlopen/dlsym from libnvidia-ml.so.1 at run time. Checked
 * against nvml.h of CUDA 13.0 (NVML API 12.x; driver R580). */
#ifndef UMLAB_NVML_H
#define UMLAB_NVML_H

#include <stddef.h>

typedef struct umlab_nvml_device *umlab_nvml_device;

/* nvmlFieldValue_t: 40 bytes, stable since NVML 10. */
typedef struct {
  unsigned int field_id;
  unsigned int scope_id;
  long long timestamp;
  long long latency_usec;
  int value_type;
  int nvml_return;
  unsigned char value[8];
} umlab_nvml_field_value;

/* umlab_nvml_load opens the library and resolves every symbol; it returns
 * 0, or NVML_ERROR_LIBRARY_NOT_FOUND (12) with a message in msg. */
int umlab_nvml_load(char *msg, size_t n);
int umlab_nvml_init(void);
int umlab_nvml_shutdown(void);
const char *umlab_nvml_error_string(int r);
int umlab_nvml_driver_version(char *buf, unsigned int n);
int umlab_nvml_device_by_uuid(const char *uuid, umlab_nvml_device *d);
int umlab_nvml_pcie_gen(umlab_nvml_device d, unsigned int *v);
int umlab_nvml_pcie_width(umlab_nvml_device d, unsigned int *v);
int umlab_nvml_numa_node(umlab_nvml_device d, unsigned int *v);
int umlab_nvml_cpu_affinity(umlab_nvml_device d, unsigned int words, unsigned long *set);
int umlab_nvml_clock(umlab_nvml_device d, int type, unsigned int *mhz);
int umlab_nvml_max_clock(umlab_nvml_device d, int type, unsigned int *mhz);
int umlab_nvml_clock_event_reasons(umlab_nvml_device d, unsigned long long *v);
int umlab_nvml_field_values(umlab_nvml_device d, int n, umlab_nvml_field_value *v);

#endif
