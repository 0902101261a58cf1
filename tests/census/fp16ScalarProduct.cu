// fp16ScalarProduct.cu - dot products of half-precision vectors: packed
// __half2 multiply-adds with the native intrinsics, the same through the
// operator overloads, and the float-accumulating reduction at the end.
#include <cuda_fp16.h>
#include "census_common.h"

#define NUM_OF_BLOCKS 128
#define NUM_OF_THREADS 128

__forceinline__ __device__ void reduceInShared_intrinsics(half2 *const v) {
  if (threadIdx.x < 64) v[threadIdx.x] = __hadd2(v[threadIdx.x], v[threadIdx.x + 64]);
  __syncthreads();
  for (int s = 32; s > 0; s >>= 1) {
    if (threadIdx.x < s) v[threadIdx.x] = __hadd2(v[threadIdx.x], v[threadIdx.x + s]);
    __syncthreads();
  }
}

__forceinline__ __device__ void reduceInShared_native(half2 *const v) {
  if (threadIdx.x < 64) v[threadIdx.x] = v[threadIdx.x] + v[threadIdx.x + 64];
  __syncthreads();
  for (int s = 32; s > 0; s >>= 1) {
    if (threadIdx.x < s) v[threadIdx.x] = v[threadIdx.x] + v[threadIdx.x + s];
    __syncthreads();
  }
}

__global__ void scalarProductKernel_intrinsics(const half2 *a, const half2 *b, float *results, size_t size) {
  const int stride = gridDim.x * blockDim.x;
  __shared__ half2 shArray[NUM_OF_THREADS];
  shArray[threadIdx.x] = __float2half2_rn(0.f);
  half2 value = __float2half2_rn(0.f);
  for (int i = threadIdx.x + blockDim.x + blockIdx.x; i < size; i += stride) value = __hfma2(a[i], b[i], value);
  shArray[threadIdx.x] = value;
  __syncthreads();
  reduceInShared_intrinsics(shArray);
  if (threadIdx.x == 0) {
    half2 result = shArray[0];
    results[blockIdx.x] = __low2float(result) + __high2float(result);
  }
}

__global__ void scalarProductKernel_native(const half2 *a, const half2 *b, float *results, size_t size) {
  const int stride = gridDim.x * blockDim.x;
  __shared__ half2 shArray[NUM_OF_THREADS];
  half2 value(0.f, 0.f);
  shArray[threadIdx.x] = value;
  for (int i = threadIdx.x + blockDim.x + blockIdx.x; i < size; i += stride) value = a[i] * b[i] + value;
  shArray[threadIdx.x] = value;
  __syncthreads();
  reduceInShared_native(shArray);
  if (threadIdx.x == 0) results[blockIdx.x] = __low2float(shArray[0]) + __high2float(shArray[0]);
}

// scalar half arithmetic, comparisons and conversions
__global__ void half_scalar_ops(const __half *x, const __half *y, __half *out, int *flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half a = x[i], b = y[i];
  __half m = __hmax(a, b), s = __hsub(a, b), p = __hmul(a, b), q = __hdiv(a, b);
  __half r = hsqrt(__habs(a)) + hexp(__hneg(b)) + __hfma(a, b, m);
  out[i] = __hadd(r, __hadd(s, __hadd(p, q)));
  flags[i] = __hlt(a, b) + 2 * __heq(a, b) + 4 * __hisnan(q) + 8 * (__half2int_rz(a) > 3);
}

// conversions around a float kernel, as mixed-precision code does
__global__ void half_to_float_saxpy(const __half *x, const float *y, __half *out, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __float2half_rn(a * __half2float(x[i]) + y[i]);
}

__global__ void half_atomics(__half2 *acc2, __half *acc, const __half2 *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(acc2, v[i]);
    atomicAdd(acc, __low2half(v[i]));
  }
}
