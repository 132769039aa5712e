// CPU-side loops of the benchmarks: the seeded fill, the CPU update of the
// handoff benchmark and result checks. They are C so that CPU timings
// measure memory, not Go's bounds checks or garbage collector.
#define _GNU_SOURCE // pthread_attr_setaffinity_np
#include <pthread.h>
#include <sched.h>

#include "umlab_cuda.h"

// seed_value is the value of element i of a buffer filled with seed: a
// splitmix64 hash reduced to an integer in [1, 2^20], so every benchmark
// operation (adds of small integers, products by powers of two) stays exact
// in float64 and results can be compared for equality. The CUDA kernels use
// the same function (kernels/umlab.cu).
static inline double seed_value(uint64_t seed, uint64_t i) {
  uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return (double)(z >> 44) + 1.0;
}

double umlab_seed_value(uint64_t seed, uint64_t i) { return seed_value(seed, i); }

// The loops that set up and check state outside every measurement (the
// fill and the checks' counts, never the measured update), in two builds
// where GCC targets x86-64: one vectorised for x86-64-v4 (AVX-512, whose
// 64-bit multiplies the hash needs) and one for any x86-64. The hash is
// most of a check's work and a large part of the CPU's first write of
// fresh managed pages. Contraction stays off, so both builds round as
// plain code does.
#define SETUP_NAME(f) f##_base
#if defined(__GNUC__) && !defined(__clang__)
#define SETUP_ATTR __attribute__((optimize("O3", "fp-contract=off")))
#else
#define SETUP_ATTR
#endif
#include "umlab_setup_loops.h"
#undef SETUP_NAME
#undef SETUP_ATTR

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define UMLAB_HAVE_V4 1
#define SETUP_NAME(f) f##_v4
#define SETUP_ATTR __attribute__((target("arch=x86-64-v4"), optimize("O3", "fp-contract=off")))
#include "umlab_setup_loops.h"
#undef SETUP_NAME
#undef SETUP_ATTR
#endif

typedef struct {
  const char *name;
  void (*fill)(double *, uint64_t, uint64_t, uint64_t);
  uint64_t (*count_affine)(const double *, uint64_t, uint64_t, uint64_t, double, double);
  uint64_t (*count_triad)(const double *, uint64_t, uint64_t, uint64_t, uint64_t, double);
} setup_loops;

static const setup_loops loops_base = {
#if defined(__x86_64__)
    "x86-64",
#else
    "portable",
#endif
    fill_base, count_affine_base, count_triad_base};
#ifdef UMLAB_HAVE_V4
static const setup_loops loops_v4 = {"x86-64-v4", fill_v4, count_affine_v4, count_triad_v4};
#endif
static const setup_loops *loops = &loops_base;

// umlab_setup_loops_select picks the build of the set-up loops: the fastest
// this CPU runs, or the baseline one when baseline is set (for tests). Not
// safe while a loop runs; Go calls it at package init and in tests.
const char *umlab_setup_loops_select(int baseline) {
  loops = &loops_base;
#ifdef UMLAB_HAVE_V4
  __builtin_cpu_init();
  if (!baseline && __builtin_cpu_supports("x86-64-v4")) loops = &loops_v4;
#else
  (void)baseline;
#endif
  return loops->name;
}

void umlab_fill_host(double *x, uint64_t lo, uint64_t hi, uint64_t seed) { loops->fill(x, lo, hi, seed); }

void umlab_update_host(double *x, uint64_t n, double mul, double add) {
  for (uint64_t i = 0; i < n; i++) x[i] = x[i] * mul + add;
}

typedef struct {
  double *x;
  uint64_t lo, hi;
  double mul, add;
} umlab_update_part;

static void *update_part(void *p) {
  umlab_update_part *u = p;
  umlab_update_host(u->x + u->lo, u->hi - u->lo, u->mul, u->add);
  return NULL;
}

// umlab_update_host_mt is umlab_update_host split over nthreads threads, in
// contiguous parts whose boundaries fall on 4 KiB pages so that no page is
// written by two threads. Part 0 runs on the calling thread (already pinned
// by the caller); part k > 0 on a new thread pinned to cpus[k] when cpus is
// not NULL and cpus[k] >= 0. Returns 0, or the pthread error of the first
// thread that could not start (the update is then incomplete).
int umlab_update_host_mt(double *x, uint64_t n, double mul, double add, int nthreads, const int *cpus) {
  if (nthreads <= 1 || n < 2 * 512) {
    umlab_update_host(x, n, mul, add);
    return 0;
  }
  if (nthreads > UMLAB_MAX_UPDATE_THREADS) nthreads = UMLAB_MAX_UPDATE_THREADS;
  umlab_update_part parts[UMLAB_MAX_UPDATE_THREADS];
  pthread_t tid[UMLAB_MAX_UPDATE_THREADS];
  int started[UMLAB_MAX_UPDATE_THREADS] = {0};
  uint64_t chunk = ((n + nthreads - 1) / nthreads + 511) / 512 * 512; // elements, whole 4 KiB pages
  int err = 0;
  for (int k = 0; k < nthreads; k++) {
    uint64_t lo = (uint64_t)k * chunk, hi = lo + chunk;
    if (lo > n) lo = n;
    if (hi > n) hi = n;
    parts[k] = (umlab_update_part){x, lo, hi, mul, add};
  }
  for (int k = 1; k < nthreads && !err; k++) {
    if (parts[k].lo == parts[k].hi) continue;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    if (cpus && cpus[k] >= 0) {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(cpus[k], &set);
      pthread_attr_setaffinity_np(&attr, sizeof set, &set);
    }
    err = pthread_create(&tid[k], &attr, update_part, &parts[k]);
    pthread_attr_destroy(&attr);
    started[k] = err == 0;
  }
  update_part(&parts[0]);
  for (int k = 1; k < nthreads; k++)
    if (started[k]) pthread_join(tid[k], NULL);
  return err;
}

// affine_want is the value a check of (seed, mul, add, stride, active)
// expects at i: the kernel touched the active elements 0, stride, 2·stride, ….
static double affine_want(uint64_t i, uint64_t seed, double mul, double add, uint64_t stride, uint64_t active) {
  double v = seed_value(seed, i);
  return i % stride == 0 && i / stride < active ? v * mul + add : v;
}

// first_mismatch is the first index of [lo, hi) that a check finds wrong,
// or UINT64_MAX: the slow scan, run only once a count found something.
static uint64_t first_mismatch(const double *x, uint64_t lo, uint64_t hi, uint64_t seed, double mul, double add,
                               uint64_t stride, uint64_t active) {
  for (uint64_t i = lo; i < hi; i++)
    if (x[i] != affine_want(i, seed, mul, add, stride, active)) return i;
  return UINT64_MAX;
}

uint64_t umlab_check_affine_host(const double *x, uint64_t lo, uint64_t hi, uint64_t seed, double mul, double add,
                                 uint64_t stride, uint64_t active, uint64_t *first_bad) {
  *first_bad = UINT64_MAX;
  if (lo >= hi || stride == 0) return 0;
  uint64_t bad;
  if (stride == 1) {
    // Touched: [lo, mid); untouched: [mid, hi).
    uint64_t mid = active < lo ? lo : active > hi ? hi : active;
    bad = loops->count_affine(x, lo, mid, seed, mul, add) + loops->count_affine(x, mid, hi, seed, 1, 0);
  } else {
    // Count as if nothing were touched, then correct at the touched
    // elements k·stride in [lo, hi), k < active: one in stride.
    bad = loops->count_affine(x, lo, hi, seed, 1, 0);
    uint64_t k = lo / stride + (lo % stride != 0), end = (hi - 1) / stride + 1;
    if (end > active) end = active;
    for (; k < end; k++) {
      uint64_t i = k * stride;
      double v = seed_value(seed, i);
      bad += (uint64_t)(x[i] != v * mul + add) - (uint64_t)(x[i] != v);
    }
  }
  if (bad > 0) *first_bad = first_mismatch(x, lo, hi, seed, mul, add, stride, active);
  return bad;
}

uint64_t umlab_check_triad_host(const double *a, uint64_t lo, uint64_t hi, uint64_t seed_b, uint64_t seed_c,
                                double s, uint64_t *first_bad) {
  *first_bad = UINT64_MAX;
  uint64_t bad = loops->count_triad(a, lo, hi, seed_b, seed_c, s);
  for (uint64_t i = lo; bad > 0 && i < hi; i++)
    if (a[i] != seed_value(seed_b, i) + s * seed_value(seed_c, i)) {
      *first_bad = i;
      break;
    }
  return bad;
}
