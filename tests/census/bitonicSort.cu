// bitonicSort.cu - key/value bitonic sorting network: a whole array sorted
// in one block's shared memory, and the global merge steps that extend it
// to arrays larger than a block.
#include "census_common.h"

#define SHARED_SIZE_LIMIT 1024U

__device__ inline void Comparator(unsigned &keyA, unsigned &valA, unsigned &keyB, unsigned &valB, unsigned dir) {
  if ((keyA > keyB) == dir) {
    unsigned t = keyA;
    keyA = keyB;
    keyB = t;
    t = valA;
    valA = valB;
    valB = t;
  }
}

__global__ void bitonicSortShared(unsigned *d_DstKey, unsigned *d_DstVal, const unsigned *d_SrcKey,
                                  const unsigned *d_SrcVal, unsigned arrayLength, unsigned dir) {
  __shared__ unsigned s_key[SHARED_SIZE_LIMIT];
  __shared__ unsigned s_val[SHARED_SIZE_LIMIT];
  unsigned base = blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
  s_key[threadIdx.x] = d_SrcKey[base];
  s_val[threadIdx.x] = d_SrcVal[base];
  s_key[threadIdx.x + SHARED_SIZE_LIMIT / 2] = d_SrcKey[base + SHARED_SIZE_LIMIT / 2];
  s_val[threadIdx.x + SHARED_SIZE_LIMIT / 2] = d_SrcVal[base + SHARED_SIZE_LIMIT / 2];
  for (unsigned size = 2; size < arrayLength; size <<= 1) {
    unsigned ddd = dir ^ ((threadIdx.x & (size / 2)) != 0);
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      Comparator(s_key[pos], s_val[pos], s_key[pos + stride], s_val[pos + stride], ddd);
    }
  }
  for (unsigned stride = arrayLength / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
    Comparator(s_key[pos], s_val[pos], s_key[pos + stride], s_val[pos + stride], dir);
  }
  __syncthreads();
  d_DstKey[base] = s_key[threadIdx.x];
  d_DstVal[base] = s_val[threadIdx.x];
  d_DstKey[base + SHARED_SIZE_LIMIT / 2] = s_key[threadIdx.x + SHARED_SIZE_LIMIT / 2];
  d_DstVal[base + SHARED_SIZE_LIMIT / 2] = s_val[threadIdx.x + SHARED_SIZE_LIMIT / 2];
}

__global__ void bitonicMergeGlobal(unsigned *d_DstKey, unsigned *d_DstVal, const unsigned *d_SrcKey,
                                   const unsigned *d_SrcVal, unsigned arrayLength, unsigned size, unsigned stride,
                                   unsigned dir) {
  unsigned gi = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned comparatorI = gi & (arrayLength / 2 - 1);
  unsigned ddd = dir ^ ((comparatorI & (size / 2)) != 0);
  unsigned pos = 2 * gi - (gi & (stride - 1));
  unsigned keyA = d_SrcKey[pos], valA = d_SrcVal[pos];
  unsigned keyB = d_SrcKey[pos + stride], valB = d_SrcVal[pos + stride];
  Comparator(keyA, valA, keyB, valB, ddd);
  d_DstKey[pos] = keyA;
  d_DstVal[pos] = valA;
  d_DstKey[pos + stride] = keyB;
  d_DstVal[pos + stride] = valB;
}

// A float key-only network with a template direction.
template <bool ASCENDING>
__global__ void bitonic_keys(float *keys) {
  extern __shared__ float sk[];
  unsigned t = threadIdx.x, n = 2 * blockDim.x;
  float *block = keys + blockIdx.x * n;
  sk[t] = block[t];
  sk[t + blockDim.x] = block[t + blockDim.x];
  for (unsigned k = 2; k <= n; k <<= 1)
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      __syncthreads();
      unsigned i = 2 * t - (t & (j - 1));
      bool up = ((i & k) == 0) == ASCENDING;
      float a = sk[i], b = sk[i + j];
      if ((a > b) == up) {
        sk[i] = b;
        sk[i + j] = a;
      }
    }
  __syncthreads();
  block[t] = sk[t];
  block[t + blockDim.x] = sk[t + blockDim.x];
}

template __global__ void bitonic_keys<true>(float *);
template __global__ void bitonic_keys<false>(float *);
