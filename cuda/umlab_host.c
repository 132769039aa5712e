// CPU-side loops of the benchmarks: the seeded fill, the CPU update of the
// handoff benchmark and result checks. They are C so that CPU timings
// measure memory, not Go's bounds checks or garbage collector.
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
