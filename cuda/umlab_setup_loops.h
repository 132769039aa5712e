// The set-up loops of umlab_host.c, included there once per build with
// SETUP_NAME (the build's suffix) and SETUP_ATTR (its target and options)
// defined. Branch-free, so that they vectorise. No include guard: each
// inclusion defines another build.

SETUP_ATTR static void SETUP_NAME(fill)(double *x, uint64_t lo, uint64_t hi, uint64_t seed) {
  for (uint64_t i = lo; i < hi; i++) x[i] = seed_value(seed, i);
}

// count_affine counts the elements of [lo, hi) that differ from
// seed_value(seed, i) * mul + add.
SETUP_ATTR static uint64_t SETUP_NAME(count_affine)(const double *x, uint64_t lo, uint64_t hi, uint64_t seed,
                                                    double mul, double add) {
  uint64_t bad = 0;
  for (uint64_t i = lo; i < hi; i++) bad += x[i] != seed_value(seed, i) * mul + add;
  return bad;
}

// count_triad counts the elements of [lo, hi) that differ from b + s·c.
SETUP_ATTR static uint64_t SETUP_NAME(count_triad)(const double *a, uint64_t lo, uint64_t hi, uint64_t seed_b,
                                                   uint64_t seed_c, double s) {
  uint64_t bad = 0;
  for (uint64_t i = lo; i < hi; i++) bad += a[i] != seed_value(seed_b, i) + s * seed_value(seed_c, i);
  return bad;
}
