// shuffleTypes.cu - warp shuffles of every type real code moves between
// lanes: double and 64-bit integers (two 32-bit shuffles), half, half2 and
// bfloat16 (packed into one), and a struct shuffled field by field.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include "census_common.h"

template <typename T>
__global__ void butterfly_sum(const T *in, T *out) {
  T v = in[blockIdx.x * blockDim.x + threadIdx.x];
#pragma unroll
  for (int m = 16; m > 0; m >>= 1) v = v + __shfl_xor_sync(0xffffffffu, v, m);
  if ((threadIdx.x & 31) == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = v;
}

__global__ void rotate_halves(const __half *a, const __half2 *b, const __nv_bfloat16 *c, __half *oa, __half2 *ob,
                              __nv_bfloat16 *oc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, src = (threadIdx.x + 1) & 31;
  oa[i] = __shfl_sync(0xffffffffu, a[i], src);
  ob[i] = __shfl_down_sync(0xffffffffu, b[i], 1);
  oc[i] = __shfl_up_sync(0xffffffffu, c[i], 2);
}

struct Pair {
  float key;
  int index;
};

__device__ __forceinline__ Pair shfl_pair(Pair p, int src) {
  p.key = __shfl_sync(0xffffffffu, p.key, src);
  p.index = __shfl_sync(0xffffffffu, p.index, src);
  return p;
}

// arg-max across the warp
__global__ void warp_argmax(const float *x, int *best) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Pair p = {x[i], i};
  for (int m = 16; m > 0; m >>= 1) {
    Pair o = shfl_pair(p, (threadIdx.x & 31) ^ m);
    if (o.key > p.key || (o.key == p.key && o.index < p.index)) p = o;
  }
  if ((threadIdx.x & 31) == 0) best[i / 32] = p.index;
}

template __global__ void butterfly_sum<double>(const double *, double *);
template __global__ void butterfly_sum<long long>(const long long *, long long *);
template __global__ void butterfly_sum<unsigned long long>(const unsigned long long *, unsigned long long *);
template __global__ void butterfly_sum<float>(const float *, float *);
