// half_precision.cu - half precision as real code writes it: <cuda_fp16.h>
// and <cuda_bf16.h> types and intrinsics, packed __half2/__nv_bfloat162
// arithmetic, warp shuffles of halves, fast exp2 on halves, conversions to
// float and back, and atomics on __half2 and __nv_bfloat16.
// tests/test_corpus_half.c checks every output against a CPU reference.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// z = alpha * x + y on __half2 pairs (cuBLAS-style haxpy), grid-stride.
//! group: half_precision
//! title: half precision: cuda_fp16.h and cuda_bf16.h
//! exp: haxpy
//! title: z = alpha x + y on __half2 pairs
//@ haxpy grid=4 block=128 args=i32:1000,f32:0.75,buf:f16:2000:rand,buf:f16:2000:rand,buf:f16:2000:zero
__global__ void haxpy(int n2, float alpha, const __half2 *__restrict__ x, const __half2 *__restrict__ y,
                      __half2 *__restrict__ z) {
  const __half2 a = __float2half2_rn(alpha);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += gridDim.x * blockDim.x)
    z[i] = __hfma2(a, x[i], y[i]);
}

// Shuffles of halves through their 16-bit patterns, a common idiom (the
// headers' own __half shuffles also read WARP_SZ).
__device__ __forceinline__ __nv_bfloat16 shfl_down(__nv_bfloat16 v, int offset) {
  return __ushort_as_bfloat16(__shfl_down_sync(0xffffffffu, __bfloat16_as_ushort(v), offset));
}
__device__ __forceinline__ __half shfl_xor(__half v, int mask) {
  return __ushort_as_half(__shfl_xor_sync(0xffffffffu, __half_as_ushort(v), mask));
}

template <typename T> __device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v = __hadd(v, shfl_down(v, offset));
  return v;
}

// A bf16 dot product: each thread accumulates products of bf16 pairs with
// __hfma2, folds its pair, then each warp reduces its lanes with shuffles
// in bf16 and writes its partial sum (as bf16 and as float).
//! exp: bf16_dot
//! title: a bf16 dot product with warp shuffles
//@ bf16_dot grid=2 block=64 args=buf:bf16:1024:rand,buf:bf16:1024:rand,buf:bf16:4:zero,buf:f32:4:zero,i32:512
__global__ void bf16_dot(const __nv_bfloat162 *a, const __nv_bfloat162 *b, __nv_bfloat16 *partial,
                         float *partial_f, int n2) {
  __nv_bfloat162 acc = __float2bfloat162_rn(0.0f);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n2; i += gridDim.x * blockDim.x)
    acc = __hfma2(a[i], b[i], acc);
  __nv_bfloat16 s = warp_sum(__hadd(__low2bfloat16(acc), __high2bfloat16(acc)));
  if ((threadIdx.x & 31) == 0) {
    int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    partial[w] = s;
    partial_f[w] = __bfloat162float(s);
  }
}

// Softmax over rows of `cols` halves, one warp per row: the row maximum
// with __hmax and shuffles, exp2((x - max) * log2 e) on pairs with h2exp2,
// the sum in float, and the quotient rounded back to half.  Also writes the
// row maximum and the exponentials, so that each step can be checked.
//! exp: softmax_half
//! title: a softmax over rows of halves
//@ softmax_half grid=8 block=32 args=buf:f16:512:rand,buf:f16:512:zero,buf:f16:512:zero,buf:f16:8:zero,i32:64
__global__ void softmax_half(const __half *x, __half *y, __half *e, __half *row_max, int cols) {
  const int row = blockIdx.x, lane = threadIdx.x;
  const __half2 *x2 = reinterpret_cast<const __half2 *>(x + row * cols);
  __half2 *e2 = reinterpret_cast<__half2 *>(e + row * cols);
  __half m = __float2half(-65504.0f);
  for (int c = lane; c < cols / 2; c += 32) {
    __half2 v = x2[c];
    m = __hmax(m, __hmax(__low2half(v), __high2half(v)));
  }
  for (int offset = 16; offset > 0; offset >>= 1) m = __hmax(m, shfl_xor(m, offset));
  const __half2 m2 = __half2half2(m), log2e = __float2half2_rn(1.4426950408889634f);
  float sum = 0.0f;
  for (int c = lane; c < cols / 2; c += 32) {
    __half2 p = h2exp2(__hmul2(__hsub2(x2[c], m2), log2e));
    e2[c] = p;
    float2 f = __half22float2(p);
    sum += f.x + f.y;
  }
  for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  __syncwarp();
  for (int c = lane; c < cols; c += 32) y[row * cols + c] = __float2half_rn(__half2float(e[row * cols + c]) / sum);
  if (lane == 0) row_max[row] = m;
}

// A histogram of weights: every item adds {1, 0.5} to its bin's __half2 and
// 0.25 to its bin's __nv_bfloat16, with atomicAdd (atom.add.noftz.*).
//! exp: half_atomics
//! title: atomicAdd on __half2 and __nv_bfloat16
//@ half_atomics grid=4 block=256 args=buf:i32:1024:rand,buf:u32:16:zero,buf:bf16:16:zero,i32:1024
__global__ void half_atomics(const int *items, __half2 *bins2, __nv_bfloat16 *binsb, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int bin = items[i] & 15;
  atomicAdd(&bins2[bin], __halves2half2(__float2half(1.0f), __float2half(0.5f)));
  atomicAdd(&binsb[bin], __float2bfloat16(0.25f));
}
