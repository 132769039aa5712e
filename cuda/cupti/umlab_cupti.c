// Loader, buffer callbacks and record parser for CUPTI's Unified Memory
// counters. libcupti is opened with dlopen at run time (never linked), the
// entry points are resolved eagerly into a table, and the buffer callbacks
// sum the records into static totals that Go reads.
#include "umlab_cupti.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  CUPTI_SUCCESS = 0,
  CUPTI_ERROR_NOT_INITIALIZED = 15,
  CUPTI_ERROR_MAX_LIMIT_REACHED = 12,
  CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER = 25,
  SCOPE_PROCESS_SINGLE_DEVICE = 1, // CUpti_ActivityUnifiedMemoryCounterScope (deprecated since CUDA 7.0, still read)
};

// CUpti_ActivityUnifiedMemoryCounterConfig: 16 bytes, fields in this order in
// every header checked (offsets 0, 4, 8, 12).
typedef struct {
  uint32_t scope;
  uint32_t kind;
  uint32_t deviceId;
  uint32_t enable;
} um_config;

// The layouts, from the headers named in umlab_cupti.h:
//   CUpti_ActivityUnifiedMemoryCounter2 { uint32 kind; uint32 counterKind;
//     uint64 value, start, end, address; uint32 srcId, dstId, streamId,
//     processId, flags, pad; }                                   64 bytes
//   CUpti_ActivityUnifiedMemoryCounter3 = Counter2's fields, then
//     uint64 processors[5] at offset 64                          104 bytes
// CUPTI 12.6 (API 24) documents kind 25 as Counter2; 12.8 (API 26) deprecated
// Counter2 and from then on kind 25 is Counter3 (12.8, 12.9, 13.x). CUPTI
// fills only the newest struct. API 25 appears in no header, so it is left
// out. CUDA 11.x (API 13..18) used Counter2 (CUPTI 11.0 documentation).
static const umlab_cupti_layout layouts[] = {
    {"CUpti_ActivityUnifiedMemoryCounter2", 13, 24, 64, 0, 4, 8},
    {"CUpti_ActivityUnifiedMemoryCounter3", 26, 28, 104, 0, 4, 8},
    {"CUpti_ActivityUnifiedMemoryCounter3", 130000, 139999, 104, 0, 4, 8},
};

int umlab_cupti_layout_count(void) { return (int)(sizeof layouts / sizeof layouts[0]); }

const umlab_cupti_layout *umlab_cupti_layout_at(int i) {
  if (i < 0 || i >= umlab_cupti_layout_count()) return NULL;
  return &layouts[i];
}

int umlab_cupti_layout_for(uint32_t v) {
  for (int i = 0; i < umlab_cupti_layout_count(); i++) {
    if (v >= layouts[i].first_api && v <= layouts[i].last_api) return i;
  }
  return -1;
}

// ---------------------------------------------------------------- loader

static umlab_cupti_api api; // installed table; all NULL until a library is chosen

struct sym {
  const char *name;
  void **slot;
};

int umlab_cupti_load(const char *path, umlab_cupti_api *out, char *msg, size_t msglen) {
  memset(out, 0, sizeof *out);
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *e = dlerror();
    snprintf(msg, msglen, "%s", e ? e : "dlopen failed");
    return 1;
  }
  struct sym table[] = {
      {"cuptiGetVersion", (void **)&out->GetVersion},
      {"cuptiGetResultString", (void **)&out->GetResultString},
      {"cuptiActivityConfigureUnifiedMemoryCounter", (void **)&out->ActivityConfigureUnifiedMemoryCounter},
      {"cuptiActivityRegisterCallbacks", (void **)&out->ActivityRegisterCallbacks},
      {"cuptiActivityEnable", (void **)&out->ActivityEnable},
      {"cuptiActivityDisable", (void **)&out->ActivityDisable},
      {"cuptiActivityFlushAll", (void **)&out->ActivityFlushAll},
      {"cuptiActivityGetNextRecord", (void **)&out->ActivityGetNextRecord},
      {"cuptiActivityGetNumDroppedRecords", (void **)&out->ActivityGetNumDroppedRecords},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    *table[i].slot = dlsym(lib, table[i].name);
    if (!*table[i].slot) {
      snprintf(msg, msglen, "%s has no %s", path, table[i].name);
      memset(out, 0, sizeof *out);
      return 2; // the handle stays open: closing a half-used CUPTI is not worth the risk
    }
  }
  return 0;
}

void umlab_cupti_install(const umlab_cupti_api *a) { api = *a; }

CUptiResult umlab_cupti_version_of(const umlab_cupti_api *a, uint32_t *v) {
  if (!a->GetVersion) return CUPTI_ERROR_NOT_INITIALIZED;
  return a->GetVersion(v);
}

const char *umlab_cupti_result_string(CUptiResult r) {
  const char *s = NULL;
  if (!api.GetResultString || api.GetResultString(r, &s) != CUPTI_SUCCESS) return NULL;
  return s;
}

// ---------------------------------------------------------------- parser

static inline uint32_t rd32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

static inline uint64_t rd64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

void umlab_cupti_parse(uint8_t *buffer, size_t valid, umlab_cupti_next_fn next, const umlab_cupti_layout *L,
                       umlab_cupti_totals *t) {
  uint8_t *rec = NULL, *prev = NULL;
  t->buffers++;
  if (!buffer || valid == 0) return;
  for (;;) {
    CUptiResult r = next(buffer, valid, &rec);
    if (r == CUPTI_ERROR_MAX_LIMIT_REACHED) break; // end of the buffer
    if (r != CUPTI_SUCCESS || !rec) {              // INVALID_KIND: incomplete or invalid record
      t->incomplete++;
      break;
    }
    if (rd32(rec + L->off_kind) != CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER) {
      t->other_records++;
      prev = NULL;
      continue;
    }
    uint32_t ck = rd32(rec + L->off_counter_kind);
    if (ck >= UMLAB_UM_KINDS) ck = 0;
    t->records[ck]++;
    t->sums[ck] += rd64(rec + L->off_value);
    t->um_records++;
    if (prev) {
      t->last_spacing = (uint64_t)(rec - prev);
      if (t->last_spacing != L->size) t->spacing_errors++;
    }
    prev = rec;
  }
}

static void add_totals(umlab_cupti_totals *dst, const umlab_cupti_totals *src) {
  for (int i = 0; i < UMLAB_UM_KINDS; i++) {
    dst->records[i] += src->records[i];
    dst->sums[i] += src->sums[i];
  }
  dst->um_records += src->um_records;
  dst->other_records += src->other_records;
  dst->incomplete += src->incomplete;
  dst->spacing_errors += src->spacing_errors;
  if (src->last_spacing) dst->last_spacing = src->last_spacing;
  dst->buffers += src->buffers;
}

// ---------------------------------------------------------------- collection

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static umlab_cupti_totals totals; // guarded by mu
static int layout_index = -1;
static int registered;

enum { BUFFER_BYTES = 8 << 20 };

static CUptiResult real_next(uint8_t *buffer, size_t valid, uint8_t **record) {
  return api.ActivityGetNextRecord(buffer, valid, (void **)record);
}

// accumulate parses one buffer and adds it to the totals; the parsing runs
// outside the lock.
static void accumulate(uint8_t *buffer, size_t valid, umlab_cupti_next_fn next, int layout) {
  umlab_cupti_totals local;
  memset(&local, 0, sizeof local);
  umlab_cupti_parse(buffer, valid, next, &layouts[layout], &local);
  pthread_mutex_lock(&mu);
  add_totals(&totals, &local);
  pthread_mutex_unlock(&mu);
}

// Called by CUPTI, on its own thread or in cuptiActivityFlushAll.
static void buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
  void *p = NULL;
  if (posix_memalign(&p, 8, BUFFER_BYTES) != 0) p = NULL; // records are 8-byte aligned
  *buffer = p;
  *size = p ? BUFFER_BYTES : 0;
  *max_records = 0; // as many as fit
}

static void buffer_completed(void *ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid) {
  (void)ctx;
  (void)stream;
  (void)size;
  if (buffer && valid > 0 && layout_index >= 0) accumulate(buffer, valid, real_next, layout_index);
  free(buffer);
}

CUptiResult umlab_cupti_register(int layout) {
  if (layout < 0 || layout >= umlab_cupti_layout_count() || !api.ActivityRegisterCallbacks) return 1;
  layout_index = layout;
  if (registered) return CUPTI_SUCCESS;
  CUptiResult r = api.ActivityRegisterCallbacks(buffer_requested, buffer_completed);
  if (r == CUPTI_SUCCESS) registered = 1;
  return r;
}

CUptiResult umlab_cupti_configure(const int *kinds, int n, int enable) {
  if (n <= 0 || n > 16) return 1;
  um_config cfg[16];
  for (int i = 0; i < n; i++) {
    cfg[i].scope = SCOPE_PROCESS_SINGLE_DEVICE;
    cfg[i].kind = (uint32_t)kinds[i];
    cfg[i].deviceId = 0;
    cfg[i].enable = enable ? 1 : 0;
  }
  return api.ActivityConfigureUnifiedMemoryCounter(cfg, (uint32_t)n);
}

CUptiResult umlab_cupti_enable(void) { return api.ActivityEnable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER); }
CUptiResult umlab_cupti_disable(void) { return api.ActivityDisable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER); }
CUptiResult umlab_cupti_flush(uint32_t flag) { return api.ActivityFlushAll(flag); }

CUptiResult umlab_cupti_dropped(uint64_t *dropped) {
  size_t n = 0;
  CUptiResult r = api.ActivityGetNumDroppedRecords(NULL, 0, &n);
  *dropped = n;
  return r;
}

void umlab_cupti_read(umlab_cupti_totals *t) {
  pthread_mutex_lock(&mu);
  *t = totals;
  pthread_mutex_unlock(&mu);
}

void umlab_cupti_reset(void) {
  pthread_mutex_lock(&mu);
  memset(&totals, 0, sizeof totals);
  pthread_mutex_unlock(&mu);
}

// ---------------------------------------------------------------- test hooks

// sim_stride is the record size the simulated iteration steps by; each
// simulated parse sets it on its own thread.
static __thread size_t sim_stride;

static CUptiResult simulated_next(uint8_t *buffer, size_t valid, uint8_t **record) {
  size_t off = *record ? (size_t)(*record - buffer) + sim_stride : 0;
  if (off == valid) return CUPTI_ERROR_MAX_LIMIT_REACHED;
  if (sim_stride == 0 || off + sim_stride > valid) return 21; // CUPTI_ERROR_INVALID_KIND: a cut-off record
  *record = buffer + off;
  return CUPTI_SUCCESS;
}

void umlab_cupti_accumulate_simulated(uint8_t *buffer, size_t valid, size_t stride, int layout) {
  if (layout < 0 || layout >= umlab_cupti_layout_count()) return;
  sim_stride = stride;
  accumulate(buffer, valid, simulated_next, layout);
}

void umlab_cupti_parse_simulated(uint8_t *buffer, size_t valid, size_t stride, int layout, umlab_cupti_totals *t) {
  if (layout < 0 || layout >= umlab_cupti_layout_count()) return;
  sim_stride = stride;
  umlab_cupti_parse(buffer, valid, simulated_next, &layouts[layout], t);
}
