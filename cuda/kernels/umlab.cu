// umlab's CUDA kernels. Compiled to PTX for a low virtual architecture by
// gen.sh (go generate ./cuda) and embedded in the Go binary; the driver
// JIT-compiles the PTX for whatever GPU it finds.
//
// Conventions: every parameter is 8 bytes wide (pointers, unsigned long long,
// double), so the Go launcher passes a flat array of uint64; sizes count
// float64 elements. Data values are small integers from seed_value, so every
// result is exact and checks compare for equality.

typedef unsigned long long u64;

__device__ __forceinline__ double seed_value(u64 seed, u64 i) {
  u64 z = seed + (i + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return (double)(z >> 44) + 1.0;
}

__device__ __forceinline__ u64 global_id() { return (u64)blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __forceinline__ u64 grid_size() { return (u64)gridDim.x * blockDim.x; }

// Streaming kernels: each thread moves VEC double2 vectors per array, loaded
// all before any is stored so that several independent loads are in flight.
// Block b covers vectors [b*blockDim*VEC, (b+1)*blockDim*VEC); within it,
// thread t takes t, t+blockDim, ... so each load instruction is coalesced.
// Buffers come from cuMemAlloc/cuMemAllocManaged/cuMemHostAlloc, which align
// to at least 256 bytes, so double2 accesses are aligned; an odd trailing
// element is handled by thread 0 of the last block.
#define VEC 4
// The triad moves TRIAD_VEC vectors per array and thread: one double2 of b
// and one of c, so two 16-byte loads per thread and more threads in flight.
// H200, 1 GiB per array, median of 25, three runs each (2026-12-01):
// TRIAD_VEC 1: 4375–4380 GB/s; 2: 4348–4352; 4 (VEC): 4309–4312.
#define TRIAD_VEC 1
// The copy, likewise, moves COPY_VEC vectors per thread: one 16-byte load
// and one store. H200, 1 GiB per array, 256 threads per block, medians of
// 25 in three interleaved rounds (2026-12-01, GPU-51b44cf0): COPY_VEC 1:
// 4240–4248 GB/s; 2: 4103–4109; 4 (VEC): 4041–4046; 8: 4014–4024. Plain
// loads and stores instead of the streaming hints: within 0.3 %.
#define COPY_VEC 1

// stream applies op to element i of every array: each thread loads VEC
// double2 vectors per input with the streaming cache hint (__ldcs), all
// before any store, then stores VEC results (__stcs). Op provides
// load(v) → inputs of vector v, apply(inputs) → output, store(v, out), and
// scalar(i) for the odd last element.
template <class Op, int V = VEC>
__device__ __forceinline__ void stream(Op op, u64 n) {
  u64 nv = n / 2;
  u64 base = (u64)blockIdx.x * blockDim.x * V + threadIdx.x;
  typename Op::In in[V];
  if (base + (V - 1) * blockDim.x < nv) {
#pragma unroll
    for (int k = 0; k < V; k++) in[k] = op.load(base + k * blockDim.x);
#pragma unroll
    for (int k = 0; k < V; k++) op.store(base + k * blockDim.x, op.apply(in[k]));
  } else {
    for (int k = 0; k < V; k++) {
      u64 j = base + k * blockDim.x;
      if (j < nv) op.store(j, op.apply(op.load(j)));
    }
  }
  if ((n & 1) && blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) op.scalar(n - 1);
}

struct One {
  double2 a;
};
struct Two {
  double2 a, b;
};

// c = a
struct CopyOp {
  const double *__restrict__ a;
  double *__restrict__ c;
  typedef One In;
  __device__ One load(u64 v) const { return {__ldcs((const double2 *)a + v)}; }
  __device__ double2 apply(One x) const { return x.a; }
  __device__ void store(u64 v, double2 r) const { __stcs((double2 *)c + v, r); }
  __device__ void scalar(u64 i) const { c[i] = a[i]; }
};

// b = s*c
struct ScaleOp {
  double *__restrict__ b;
  const double *__restrict__ c;
  double s;
  typedef One In;
  __device__ One load(u64 v) const { return {__ldcs((const double2 *)c + v)}; }
  __device__ double2 apply(One x) const { return make_double2(s * x.a.x, s * x.a.y); }
  __device__ void store(u64 v, double2 r) const { __stcs((double2 *)b + v, r); }
  __device__ void scalar(u64 i) const { b[i] = s * c[i]; }
};

// c = a + b
struct AddOp {
  const double *__restrict__ a, *__restrict__ b;
  double *__restrict__ c;
  typedef Two In;
  __device__ Two load(u64 v) const { return {__ldcs((const double2 *)a + v), __ldcs((const double2 *)b + v)}; }
  __device__ double2 apply(Two x) const { return make_double2(x.a.x + x.b.x, x.a.y + x.b.y); }
  __device__ void store(u64 v, double2 r) const { __stcs((double2 *)c + v, r); }
  __device__ void scalar(u64 i) const { c[i] = a[i] + b[i]; }
};

// a = b + s*c
struct TriadOp {
  double *__restrict__ a;
  const double *__restrict__ b, *__restrict__ c;
  double s;
  typedef Two In;
  __device__ Two load(u64 v) const { return {__ldcs((const double2 *)b + v), __ldcs((const double2 *)c + v)}; }
  __device__ double2 apply(Two x) const { return make_double2(x.a.x + s * x.b.x, x.a.y + s * x.b.y); }
  __device__ void store(u64 v, double2 r) const { __stcs((double2 *)a + v, r); }
  __device__ void scalar(u64 i) const { a[i] = b[i] + s * c[i]; }
};

// x = x*mul + add, with ordinary loads and stores: the array is read and
// written in place.
struct RMWOp {
  double *__restrict__ x;
  double mul, add;
  typedef One In;
  __device__ One load(u64 v) const { return {((const double2 *)x)[v]}; }
  __device__ double2 apply(One r) const { return make_double2(r.a.x * mul + add, r.a.y * mul + add); }
  __device__ void store(u64 v, double2 r) const { ((double2 *)x)[v] = r; }
  __device__ void scalar(u64 i) const { x[i] = x[i] * mul + add; }
};

extern "C" __global__ void umlab_copy(const double *__restrict__ a, double *__restrict__ c, u64 n) {
  stream<CopyOp, COPY_VEC>(CopyOp{a, c}, n);
}

extern "C" __global__ void umlab_scale(double *__restrict__ b, const double *__restrict__ c, double s, u64 n) {
  stream(ScaleOp{b, c, s}, n);
}

extern "C" __global__ void umlab_add(const double *__restrict__ a, const double *__restrict__ b,
                                     double *__restrict__ c, u64 n) {
  stream(AddOp{a, b, c}, n);
}

extern "C" __global__ void umlab_triad(double *__restrict__ a, const double *__restrict__ b,
                                       const double *__restrict__ c, double s, u64 n) {
  stream<TriadOp, TRIAD_VEC>(TriadOp{a, b, c, s}, n);
}

// The reference a naive implementation would use: a grid-stride loop of
// scalar accesses. Kept to show what the tuned kernel gains.
extern "C" __global__ void umlab_triad_naive(double *a, const double *b, const double *c, double s, u64 n) {
  for (u64 i = global_id(); i < n; i += grid_size()) a[i] = b[i] + s * c[i];
}

// Streaming read-modify-write, x = x*mul + add: the managed-memory kernel and
// the GPU pass of the handoff benchmark (mul 1, add 1).
extern "C" __global__ void umlab_rmw(double *__restrict__ x, double mul, double add, u64 n) {
  stream(RMWOp{x, mul, add}, n);
}

// Strided read-modify-write: elements 0, stride, 2*stride, ... (active of them).
extern "C" __global__ void umlab_strided(double *x, double mul, double add, u64 stride, u64 active) {
  for (u64 i = global_id(); i < active; i += grid_size()) {
    u64 j = i * stride;
    x[j] = x[j] * mul + add;
  }
}

// Page touch: one element every interval_bytes bytes (active of them).
extern "C" __global__ void umlab_page_touch(double *x, double mul, double add, u64 interval_bytes, u64 active) {
  u64 step = interval_bytes / sizeof(double);
  for (u64 i = global_id(); i < active; i += grid_size()) {
    u64 j = i * step;
    x[j] = x[j] * mul + add;
  }
}

// Random read-modify-write through an index array: x[idx[i]] for i < active.
extern "C" __global__ void umlab_random(double *x, const u64 *__restrict__ idx, double mul, double add, u64 active) {
  for (u64 i = global_id(); i < active; i += grid_size()) {
    u64 j = idx[i];
    x[j] = x[j] * mul + add;
  }
}

// permute maps i in [0, n) to a distinct j in [0, n): a 4-round balanced
// Feistel network over the smallest even bit width holding n, with cycle
// walking back into range. It makes a shuffled index array on the device in
// one pass, with no host-side shuffle of billions of entries.
__device__ u64 permute(u64 i, u64 n, u64 seed) {
  int bits = 2;
  while (bits < 64 && (1ull << bits) < n) bits += 2;
  int half = bits / 2;
  u64 mask = (1ull << half) - 1;
  u64 v = i;
  do {
    u64 l = v >> half, r = v & mask;
    for (u64 round = 0; round < 4; round++) {
      u64 z = (r + seed + round * 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull;
      z ^= z >> 31;
      u64 f = (z * 0x94D049BB133111EBull) >> 17;
      u64 nl = r;
      r = (l ^ f) & mask;
      l = nl;
    }
    v = (l << half) | r;
  } while (v >= n);
  return v;
}

extern "C" __global__ void umlab_perm_fill(u64 *idx, u64 n, u64 seed) {
  for (u64 i = global_id(); i < n; i += grid_size()) idx[i] = permute(i, n, seed);
}

extern "C" __global__ void umlab_fill(double *x, u64 n, u64 seed) {
  for (u64 i = global_id(); i < n; i += grid_size()) x[i] = seed_value(seed, i);
}

// result[0] counts mismatches; result[1] holds the smallest bad index and
// must start at ~0.
__device__ void report_bad(u64 *result, u64 i) {
  atomicAdd(result, 1ull);
  atomicMin(result + 1, i);
}

// Checks x[i] == seed_value(seed,i)*mul + add where i is touched (i % stride
// == 0 and i/stride < active) and x[i] == seed_value(seed,i) elsewhere.
extern "C" __global__ void umlab_check_affine(const double *x, u64 n, u64 seed, double mul, double add, u64 stride,
                                              u64 active, u64 *result) {
  for (u64 i = global_id(); i < n; i += grid_size()) {
    double v = seed_value(seed, i);
    double want = (i % stride == 0 && i / stride < active) ? v * mul + add : v;
    if (x[i] != want) report_bad(result, i);
  }
}

// Checks a[i] == seed_value(seed_b,i) + s*seed_value(seed_c,i).
extern "C" __global__ void umlab_check_triad(const double *a, u64 n, u64 seed_b, u64 seed_c, double s, u64 *result) {
  for (u64 i = global_id(); i < n; i += grid_size()) {
    double want = seed_value(seed_b, i) + s * seed_value(seed_c, i);
    if (a[i] != want) report_bad(result, i);
  }
}

// Checks that idx holds a permutation of [0, n): marks seen entries in a
// zeroed scratch array of n bytes and counts duplicates or out-of-range ones.
extern "C" __global__ void umlab_check_perm(const u64 *idx, u64 n, unsigned char *seen, u64 *result) {
  for (u64 i = global_id(); i < n; i += grid_size()) {
    u64 j = idx[i];
    if (j >= n) {
      report_bad(result, i);
      continue;
    }
    unsigned int *word = (unsigned int *)(seen + (j & ~3ull));
    unsigned int bit = 1u << (8 * (j & 3));
    if (atomicOr(word, bit) & bit) report_bad(result, i);
  }
}

// Prepares a check result: no mismatch yet, first bad index ~0.
extern "C" __global__ void umlab_check_init(u64 *result) {
  if (global_id() == 0) {
    result[0] = 0;
    result[1] = ~0ull;
  }
}

// Zeroes nwords 8-byte words.
extern "C" __global__ void umlab_zero(u64 *p, u64 nwords) {
  for (u64 i = global_id(); i < nwords; i += grid_size()) p[i] = 0;
}

// Checks a[i] == y[i] + s*z[i] (z may be null: a[i] == y[i]) by reading the
// inputs rather than regenerating them. It is as light as the kernel it
// checks, so the GPU comes out of a check in the state it went in: the
// hashing checks are compute-heavy enough to slow the next measured kernel.
extern "C" __global__ void umlab_check_combo(const double *a, const double *y, const double *z, double s, u64 n,
                                             u64 *result) {
  for (u64 i = global_id(); i < n; i += grid_size()) {
    double want = z ? y[i] + s * z[i] : y[i];
    if (a[i] != want) report_bad(result, i);
  }
}

// Holds a stream until the host writes a value >= want to *flag (host-mapped
// pinned memory), or timeout_ns of GPU time pass. Work queued behind it (a
// start event, the kernel to be timed, the stop event) then runs back to
// back, so launch latency and host delays stay out of event timings: the
// method of NVIDIA's nvbandwidth. The timeout means a host that never
// releases cannot hang the GPU; it sets *timed_out, and the timing is void.
extern "C" __global__ void umlab_hold(const volatile u64 *flag, u64 want, u64 timeout_ns, u64 *timed_out) {
  if (global_id() != 0) return;
  u64 t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  while (*flag < want) {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (t - t0 > timeout_ns) {
      *timed_out = 1;
      return;
    }
  }
}
