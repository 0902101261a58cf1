// warpIntrinsics.cu - the integer and warp intrinsics that bit-twiddling
// and hashing code uses: __reduce_*_sync (sm_80), __match_any_sync, funnel
// shifts, byte permutes, __dp4a, bit reversal, leading zeros, __fns,
// __sad, mul-hi and saturating adds.
#include "census_common.h"

__global__ void warp_reduce_ops(const unsigned *in, unsigned *out) {
  unsigned v = in[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned s = __reduce_add_sync(0xffffffffu, v);
  unsigned mn = __reduce_min_sync(0xffffffffu, v), mx = __reduce_max_sync(0xffffffffu, v);
  unsigned a = __reduce_and_sync(0xffffffffu, v), o = __reduce_or_sync(0xffffffffu, v);
  unsigned x = __reduce_xor_sync(0xffffffffu, v);
  if ((threadIdx.x & 31) == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = s + mn + mx + a + o + x;
}

__device__ __forceinline__ unsigned rotl(unsigned x, int r) { return __funnelshift_l(x, x, r); }

__global__ void hash_mix(const unsigned *keys, unsigned *hashes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned h = keys[i] * 0xcc9e2d51u;
  h = rotl(h, 15) * 0x1b873593u;
  h ^= __byte_perm(h, 0, 0x0123);
  h += __brev(h) ^ (unsigned)__clz(h) ^ (unsigned)__ffs(h) ^ __popc(h);
  h ^= __umulhi(h, 0x85ebca6bu) + __funnelshift_r(h, h >> 3, 7);
  hashes[i] = h;
}

__global__ void int8_dot(const int *a, const int *b, int *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = __dp4a(a[i], b[i], 0) + __dp2a_lo(a[i], b[i], 1);
}

__global__ void sum_abs_diff(const int *a, const int *b, unsigned *sad, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) sad[i] = __usad(a[i] & 0xff, b[i] & 0xff, 0) + __sad(a[i], b[i], 1);
}

// the SIMD-in-a-word video intrinsics
__global__ void simd_bytes(const unsigned *a, const unsigned *b, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __vabsdiffu4(a[i], b[i]) + __vadd4(a[i], b[i]) + __vmaxu2(a[i], b[i]) + __vcmpgtu4(a[i], b[i]);
}

__global__ void nth_set_bit(const unsigned *masks, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __fns(masks[i], 0, 3) + (unsigned)__mul24(i, 3) + __umul24(i, 5) + (unsigned)__mulhi(i, -7);
}

__global__ void wide_math(const long long *a, const long long *b, long long *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __mul64hi(a[i], b[i]) + __clzll(a[i]) + __popcll(b[i]) + (long long)__brevll(a[i] ^ b[i]) +
                      llabs(a[i] - b[i]) + llmin(a[i], b[i]);
}

__global__ void float_intrinsics(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = __saturatef(v) + __sinf(v) + __cosf(v) + __log2f(fabsf(v) + 1) + __powf(fabsf(v), 0.5f) + erff(v) +
           lgammaf(fabsf(v) + 1) + cbrtf(v) + atan2f(v, 1.0f) + __frcp_rn(v + 2) + __fsqrt_rd(fabsf(v)) +
           copysignf(1.0f, v) + truncf(v) + nearbyintf(v) + fmodf(v, 3.0f) + ldexpf(v, 3) + sinpif(v);
  }
}

__global__ void double_intrinsics(const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double v = x[i];
    int e;
    y[i] = frexp(v, &e) + e + exp2(v) + log1p(fabs(v)) + tanh(v) + hypot(v, 2.0) + __dsqrt_rn(fabs(v)) +
           __drcp_rn(v + 3) + fma(v, v, 1.0) + floor(v) + ceil(v) + remainder(v, 2.5) + rint(v) + asinh(v);
  }
}
