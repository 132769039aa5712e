// CPU-side loops of the benchmarks: the seeded fill, the CPU update of the
// handoff benchmark and result checks. They are C so that CPU timings
// measure memory, not Go's bounds checks or garbage collector.
#define _GNU_SOURCE // pthread_attr_setaffinity_np
#include <pthread.h>
#include <sched.h>

#include "umlab_cuda.h"

// umlab_seed_value is the value of element i of a buffer filled with seed: a
// splitmix64 hash reduced to an integer in [1, 2^20], so every benchmark
// operation (adds of small integers, products by powers of two) stays exact
// in float64 and results can be compared for equality. The CUDA kernels use
// the same function (kernels/umlab.cu).
double umlab_seed_value(uint64_t seed, uint64_t i) {
  uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return (double)(z >> 44) + 1.0;
}

void umlab_fill_host(double *x, uint64_t lo, uint64_t hi, uint64_t seed) {
  for (uint64_t i = lo; i < hi; i++) x[i] = umlab_seed_value(seed, i);
}

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

static int touched(uint64_t i, uint64_t stride, uint64_t active) {
  return i % stride == 0 && i / stride < active;
}

uint64_t umlab_check_affine_host(const double *x, uint64_t lo, uint64_t hi, uint64_t seed, double mul, double add,
                                 uint64_t stride, uint64_t active, uint64_t *first_bad) {
  uint64_t bad = 0;
  *first_bad = UINT64_MAX;
  for (uint64_t i = lo; i < hi; i++) {
    double v = umlab_seed_value(seed, i);
    double want = touched(i, stride, active) ? v * mul + add : v;
    if (x[i] != want) {
      if (bad == 0) *first_bad = i;
      bad++;
    }
  }
  return bad;
}

uint64_t umlab_check_triad_host(const double *a, uint64_t lo, uint64_t hi, uint64_t seed_b, uint64_t seed_c,
                                double s, uint64_t *first_bad) {
  uint64_t bad = 0;
  *first_bad = UINT64_MAX;
  for (uint64_t i = lo; i < hi; i++) {
    double want = umlab_seed_value(seed_b, i) + s * umlab_seed_value(seed_c, i);
    if (a[i] != want) {
      if (bad == 0) *first_bad = i;
      bad++;
    }
  }
  return bad;
}
