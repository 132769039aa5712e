// Minimal CUPTI declarations for umlab's Unified Memory counters, written for
// this project (no NVIDIA header is copied). Signatures, enum values and
// record layouts were checked against the CUPTI headers of CUDA 12.6
// (CUPTI_API_VERSION 24), 12.9 Update 1 (28), 13.0 (130001) and 13.5
// (130500): cupti_activity.h, cupti_activity_deprecated.h, cupti_result.h
// and cupti_version.h of the pip wheels nvidia-cuda-cupti-cu12 and
// nvidia-cuda-cupti.
#ifndef UMLAB_CUPTI_H
#define UMLAB_CUPTI_H

#include <stddef.h>
#include <stdint.h>

typedef int CUptiResult; // enum CUptiResult: 0 success, 12 MAX_LIMIT_REACHED, 21 INVALID_KIND, ...

// The entry points umlab uses, resolved eagerly with dlsym. CUPTIAPI is empty
// on Linux (it is __stdcall only on Windows).
typedef struct {
  CUptiResult (*GetVersion)(uint32_t *version);
  CUptiResult (*GetResultString)(CUptiResult result, const char **str);
  CUptiResult (*ActivityConfigureUnifiedMemoryCounter)(void *config, uint32_t count);
  CUptiResult (*ActivityRegisterCallbacks)(void (*requested)(uint8_t **, size_t *, size_t *),
                                           void (*completed)(void *, uint32_t, uint8_t *, size_t, size_t));
  CUptiResult (*ActivityEnable)(int kind);
  CUptiResult (*ActivityDisable)(int kind);
  CUptiResult (*ActivityFlushAll)(uint32_t flag);
  CUptiResult (*ActivityGetNextRecord)(uint8_t *buffer, size_t valid, void **record);
  CUptiResult (*ActivityGetNumDroppedRecords)(void *context, uint32_t stream, size_t *dropped);
} umlab_cupti_api;

// umlab_cupti_load opens path with dlopen (a bare soname goes through the
// loader's search: LD_LIBRARY_PATH, ld.so.cache) and resolves every entry
// point into *out. It returns 0 on success, 1 when dlopen fails and 2 when an
// entry point is missing; msg then says which. The library is never closed.
int umlab_cupti_load(const char *path, umlab_cupti_api *out, char *msg, size_t msglen);
// umlab_cupti_install makes api the table every other call uses.
void umlab_cupti_install(const umlab_cupti_api *api);
CUptiResult umlab_cupti_version_of(const umlab_cupti_api *api, uint32_t *version);
// umlab_cupti_result_string asks the installed library to name r; NULL when
// no library is installed or it does not know r.
const char *umlab_cupti_result_string(CUptiResult r);

// Record layouts. Every field umlab reads, by byte offset, for each record
// struct that CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER (25) has used, and
// the CUPTI_API_VERSION range (cuptiGetVersion) that emits it.
typedef struct {
  const char *name;
  uint32_t first_api, last_api;
  uint32_t size;             // sizeof the record, 8-byte aligned and packed
  uint32_t off_kind;         // CUpti_ActivityKind kind (uint32)
  uint32_t off_counter_kind; // CUpti_ActivityUnifiedMemoryCounterKind counterKind (uint32)
  uint32_t off_value;        // uint64_t value
} umlab_cupti_layout;

int umlab_cupti_layout_count(void);
const umlab_cupti_layout *umlab_cupti_layout_at(int i);
// umlab_cupti_layout_for returns the index of the layout for a
// CUPTI_API_VERSION, or -1 when none is known.
int umlab_cupti_layout_for(uint32_t api_version);

// Totals of the records parsed. Index i of records/sums is counter kind i
// (1 HTOD bytes .. 8 DTOD bytes); index 0 collects unknown counter kinds.
#define UMLAB_UM_KINDS 9
typedef struct {
  uint64_t records[UMLAB_UM_KINDS];
  uint64_t sums[UMLAB_UM_KINDS];
  uint64_t um_records;      // records of activity kind 25
  uint64_t other_records;   // records of any other activity kind (skipped)
  uint64_t incomplete;      // buffers whose iteration stopped on an incomplete or invalid record
  uint64_t spacing_errors;  // consecutive kind-25 records not layout.size bytes apart
  uint64_t last_spacing;    // bytes between the last two consecutive kind-25 records
  uint64_t buffers;         // buffers parsed
} umlab_cupti_totals;

// The parser, shared by real CUPTI buffers and the tests: next iterates the
// buffer (cuptiActivityGetNextRecord, or a simulation of it), and the fields
// are read at layout L's offsets.
typedef CUptiResult (*umlab_cupti_next_fn)(uint8_t *buffer, size_t valid, uint8_t **record);
void umlab_cupti_parse(uint8_t *buffer, size_t valid, umlab_cupti_next_fn next, const umlab_cupti_layout *L,
                       umlab_cupti_totals *t);

// Collection. umlab_cupti_register selects the layout and registers the
// buffer callbacks (once per process); the completion callback parses each
// buffer into process-wide totals under a mutex.
CUptiResult umlab_cupti_register(int layout);
// umlab_cupti_configure enables (enable=1) counter kinds[0..n) for every
// device (cuptiActivityConfigureUnifiedMemoryCounter).
CUptiResult umlab_cupti_configure(const int *kinds, int n, int enable);
CUptiResult umlab_cupti_enable(void);  // cuptiActivityEnable(25)
CUptiResult umlab_cupti_disable(void); // cuptiActivityDisable(25)
CUptiResult umlab_cupti_flush(uint32_t flag);
CUptiResult umlab_cupti_dropped(uint64_t *dropped);
void umlab_cupti_read(umlab_cupti_totals *t);
void umlab_cupti_reset(void);

// Test hooks: umlab_cupti_accumulate_simulated parses a buffer of records
// stride bytes apart (a stand-in for cuptiActivityGetNextRecord, which
// returns MAX_LIMIT_REACHED at the end and INVALID_KIND for a cut-off
// record) with layout index `layout`, through the same accumulation as the
// completion callback.
void umlab_cupti_accumulate_simulated(uint8_t *buffer, size_t valid, size_t stride, int layout);
void umlab_cupti_parse_simulated(uint8_t *buffer, size_t valid, size_t stride, int layout, umlab_cupti_totals *t);

#endif
