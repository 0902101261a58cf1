// rand_kernels.cu - the kernels of warpmem's stand-in for cuRAND's host
// API (src/rt/api_rand.c): one launch per curandGenerate* call, named
// warpmem_<the call>_<generator>.  The generators' algorithms are the ones
// curand_kernel.h publishes (XORWOW: Marsaglia's xorshift with a Weyl
// sequence, seeded by a salted 64-bit seed; Philox4x32-10: Salmon et al.'s
// counter-based cipher, key = seed, counter = (position/4, subsequence)),
// written here from the algorithms.  The host API's ordering, as NVIDIA's
// cuRAND 10.4 produced it on an H200 (docs/results/h200-2026-12-03-libs):
// 4096 threads, thread t on subsequence t; "item" j of a call (c 32-bit
// values making o outputs: a value, a Box-Muller pair, a double) is thread
// j mod 4096's values c*(j/4096) .. c*(j/4096)+c-1 (Philox: c = 4, one
// counter, for integers and floats; c = 8, two counters making four
// doubles, for doubles); calls continue where the last ended, the offset
// counting 32-bit values.
#define T 4096u

// XORWOW's state, per thread: v[0..4], d; and the position it is at.
struct Xorwow {
  unsigned v[5], d;
};
__device__ static unsigned xorwow_next(Xorwow &s) {
  unsigned t = s.v[0] ^ (s.v[0] >> 2);
  s.v[0] = s.v[1], s.v[1] = s.v[2], s.v[2] = s.v[3], s.v[3] = s.v[4];
  s.v[4] = (s.v[4] ^ (s.v[4] << 4)) ^ (t ^ (t << 1));
  s.d += 362437u;
  return s.v[4] + s.d;
}

// Philox4x32-10 of counter c under key k.
__device__ static uint4 philox(uint4 c, uint2 k) {
  for (int r = 0; r < 10; r++) {
    if (r) k.x += 0x9E3779B9u, k.y += 0xBB67AE85u;
    unsigned long long p0 = (unsigned long long)0xD2511F53u * c.x, p1 = (unsigned long long)0xCD9E8D57u * c.z;
    c = make_uint4((unsigned)(p1 >> 32) ^ c.y ^ k.x, (unsigned)p1, (unsigned)(p0 >> 32) ^ c.w ^ k.y, (unsigned)p0);
  }
  return c;
}

// The distributions, from 32-bit values as curand_kernel.h's functions
// make them.
__device__ static float uniform(unsigned x) { return x * 2.3283064e-10f + (2.3283064e-10f / 2.0f); }
__device__ static double uniform_double(unsigned x, unsigned y) {
  unsigned long long z = (unsigned long long)x ^ ((unsigned long long)y << 21);
  return z * 1.1102230246251565e-16 + (1.1102230246251565e-16 / 2.0);
}
__device__ static float2 box_muller(unsigned x, unsigned y) {
  float u = x * 2.3283064e-10f + (2.3283064e-10f / 2.0f);
  const float c = 2.3283064e-10f * 6.2831855f;
  float v = y * c + c / 2.0f;
  float s = sqrtf(-2.0f * logf(u)), sn, cs;
  __sincosf(v, &sn, &cs);
  return make_float2(sn * s, cs * s);
}
__device__ static double2 box_muller_double(unsigned x0, unsigned x1, unsigned y0, unsigned y1) {
  unsigned long long zx = (unsigned long long)x0 ^ ((unsigned long long)x1 << 21);
  unsigned long long zy = (unsigned long long)y0 ^ ((unsigned long long)y1 << 21);
  double u = zx * 1.1102230246251565e-16 + (1.1102230246251565e-16 / 2.0);
  double v = zy * (1.1102230246251565e-16 * 2.0) + 1.1102230246251565e-16;
  double s = sqrt(-2.0 * log(u)), sn, cs;
  sincospi(v, &sn, &cs);
  return make_double2(sn * s, cs * s);
}

// What an item makes: out[0..o) from its c values r[].
enum { D_BITS, D_UNIFORM, D_NORMAL, D_LOGNORMAL, D_UNIFORM_D, D_NORMAL_D, D_LOGNORMAL_D };
template <int Dist>
__device__ static void make(const unsigned *r, int c, double mean, double sd, void *out, long long n0, long long at,
                            long long n) {
  // output e of the item goes to out[at + e] if 0 <= at + e < n
#define PUT(T_, e, val) \
  if (at + (e) >= 0 && at + (e) < n) ((T_ *)out)[at + (e)] = (val)
  if (Dist == D_BITS) {
    for (int e = 0; e < c; e++) PUT(unsigned, e, r[e]);
  } else if (Dist == D_UNIFORM) {
    for (int e = 0; e < c; e++) PUT(float, e, uniform(r[e]));
  } else if (Dist == D_NORMAL || Dist == D_LOGNORMAL) {
    for (int e = 0; e < c; e += 2) {
      float2 z = box_muller(r[e], r[e + 1]);
      float a = (float)mean + (float)sd * z.x, b = (float)mean + (float)sd * z.y;
      if (Dist == D_LOGNORMAL) a = expf(a), b = expf(b);
      PUT(float, e, a);
      PUT(float, e + 1, b);
    }
  } else if (Dist == D_UNIFORM_D) {
    for (int e = 0; e < c; e += 2) PUT(double, e / 2, uniform_double(r[e], r[e + 1]));
  } else {
    for (int e = 0; e < c; e += 4) {
      double2 z = box_muller_double(r[e], r[e + 1], r[e + 2], r[e + 3]);
      double a = mean + sd * z.x, b = mean + sd * z.y;
      if (Dist == D_LOGNORMAL_D) a = exp(a), b = exp(b);
      PUT(double, e / 2, a);
      PUT(double, e / 2 + 1, b);
    }
  }
#undef PUT
  (void)n0;
}

// One call: items j0 .. j0+items-1 (c values, o outputs each); output e of
// item j goes to out[(j - j0) * o + e - skip].  Thread t takes the items of
// subsequence t.
template <int Dist>
__device__ static void xorwow_call(unsigned *state, unsigned long long *pos, unsigned long long j0,
                                   unsigned long long items, int c, int o, int skip, double mean, double sd,
                                   void *out, long long n) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= T) return;
  Xorwow s;
  for (int i = 0; i < 5; i++) s.v[i] = state[6 * t + i];
  s.d = state[6 * t + 5];
  unsigned long long p = pos[t];
  unsigned long long j = j0 + ((t + T - (unsigned)(j0 % T)) % T); // the first item j >= j0 of thread t
  for (; j < j0 + items; j += T) {
    unsigned long long want = (unsigned long long)c * (j / T);
    for (; p < want; p++) xorwow_next(s); // the host keeps gaps short (api_rand.c)
    unsigned r[8];
    for (int i = 0; i < c; i++) r[i] = xorwow_next(s);
    p += c;
    make<Dist>(r, c, mean, sd, out, 0, (long long)(j - j0) * o - skip, n);
  }
  for (int i = 0; i < 5; i++) state[6 * t + i] = s.v[i];
  state[6 * t + 5] = s.d;
  pos[t] = p;
}

template <int Dist>
__device__ static void philox_call(unsigned long long seed, unsigned long long j0, unsigned long long items, int c,
                                   int o, int skip, double mean, double sd, void *out, long long n) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= T) return;
  uint2 key = make_uint2((unsigned)seed, (unsigned)(seed >> 32));
  unsigned long long j = j0 + ((t + T - (unsigned)(j0 % T)) % T);
  for (; j < j0 + items; j += T) {
    unsigned r[8];
    for (int i = 0; i < c / 4; i++) { // c / 4 counters an item, in a row
      unsigned long long ctr = (unsigned long long)(c / 4) * (j / T) + i;
      uint4 v = philox(make_uint4((unsigned)ctr, (unsigned)(ctr >> 32), t, 0), key);
      r[4 * i] = v.x, r[4 * i + 1] = v.y, r[4 * i + 2] = v.z, r[4 * i + 3] = v.w;
    }
    make<Dist>(r, c, mean, sd, out, 0, (long long)(j - j0) * o - skip, n);
  }
}

#define XORWOW_KERNEL(call, Dist)                                                                            \
  extern "C" __global__ void warpmem_##call##_xorwow(unsigned *state, unsigned long long *pos,              \
                                                     unsigned long long j0, unsigned long long items, int c, \
                                                     int o, int skip, double mean, double sd, void *out,     \
                                                     long long n) {                                          \
    xorwow_call<Dist>(state, pos, j0, items, c, o, skip, mean, sd, out, n);                                  \
  }
#define PHILOX_KERNEL(call, Dist)                                                                            \
  extern "C" __global__ void warpmem_##call##_philox(unsigned long long seed, unsigned long long j0,          \
                                                     unsigned long long items, int c, int o, int skip,       \
                                                     double mean, double sd, void *out, long long n) {       \
    philox_call<Dist>(seed, j0, items, c, o, skip, mean, sd, out, n);                                        \
  }
#define BOTH(call, Dist) XORWOW_KERNEL(call, Dist) PHILOX_KERNEL(call, Dist)
BOTH(curandGenerate, D_BITS)
BOTH(curandGenerateUniform, D_UNIFORM)
BOTH(curandGenerateNormal, D_NORMAL)
BOTH(curandGenerateLogNormal, D_LOGNORMAL)
BOTH(curandGenerateUniformDouble, D_UNIFORM_D)
BOTH(curandGenerateNormalDouble, D_NORMAL_D)
BOTH(curandGenerateLogNormalDouble, D_LOGNORMAL_D)
