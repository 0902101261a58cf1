// bf16.cu - bfloat16 in the style of mixed-precision training code: packed
// __nv_bfloat162 arithmetic, conversions to and from float, a layer norm
// that accumulates in float, and bf16 atomics.  sm_80 and later.
#include <cuda_bf16.h>
#include "census_common.h"

__global__ void bf16_axpy(const __nv_bfloat162 *x, __nv_bfloat162 *y, __nv_bfloat16 alpha, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) y[i] = __hfma2(__bfloat162bfloat162(alpha), x[i], y[i]);
}

__global__ void bf16_gelu(const __nv_bfloat16 *in, __nv_bfloat16 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = __bfloat162float(in[i]);
    float g = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
    out[i] = __float2bfloat16(g);
  }
}

template <int BLOCK>
__global__ void bf16_layernorm(const __nv_bfloat16 *__restrict__ x, __nv_bfloat16 *__restrict__ y,
                               const __nv_bfloat16 *gamma, const __nv_bfloat16 *beta, int cols, float eps) {
  __shared__ float s_sum[BLOCK], s_sq[BLOCK];
  const __nv_bfloat16 *row = x + (size_t)blockIdx.x * cols;
  float sum = 0, sq = 0;
  for (int c = threadIdx.x; c < cols; c += BLOCK) {
    float v = __bfloat162float(row[c]);
    sum += v;
    sq += v * v;
  }
  s_sum[threadIdx.x] = sum;
  s_sq[threadIdx.x] = sq;
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    __syncthreads();
    if (threadIdx.x < s) s_sum[threadIdx.x] += s_sum[threadIdx.x + s], s_sq[threadIdx.x] += s_sq[threadIdx.x + s];
  }
  __syncthreads();
  float mean = s_sum[0] / cols, inv = rsqrtf(s_sq[0] / cols - mean * mean + eps);
  for (int c = threadIdx.x; c < cols; c += BLOCK) {
    float v = (__bfloat162float(row[c]) - mean) * inv;
    y[(size_t)blockIdx.x * cols + c] = __float2bfloat16(v * __bfloat162float(gamma[c]) + __bfloat162float(beta[c]));
  }
}

__global__ void bf16_packed_ops(const __nv_bfloat162 *a, const __nv_bfloat162 *b, __nv_bfloat162 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_bfloat162 m = __hmax2(a[i], b[i]), d = __hsub2(a[i], b[i]), p = __hmul2(a[i], b[i]);
  out[i] = __hadd2(__hadd2(m, d), p);
}

__global__ void bf16_atomics(__nv_bfloat162 *acc2, __nv_bfloat16 *acc, const __nv_bfloat16 *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(acc, v[i]);
    atomicAdd(acc2, __halves2bfloat162(v[i], v[i]));
  }
}

template __global__ void bf16_layernorm<256>(const __nv_bfloat16 *, __nv_bfloat16 *, const __nv_bfloat16 *,
                                             const __nv_bfloat16 *, int, float);
