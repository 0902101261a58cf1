// histogram.cu - 64-bin and 256-bin byte histograms: per-warp or per-block
// sub-histograms in shared memory updated with shared atomics, merged into
// the global result with global atomics.
#include "census_common.h"

#define BIN64 64
#define BIN256 256
#define WARPS_PER_BLOCK 6
#define H256_THREADS (WARPS_PER_BLOCK * 32)

// 64 bins, one packed 8-bit counter per thread per bin ("thread-private" layout)
__global__ void histogram64(unsigned *partial, const unsigned *data, unsigned words) {
  __shared__ unsigned char counts[BIN64 * 64];
  unsigned char *mine = counts + threadIdx.x;
#pragma unroll
  for (int b = 0; b < BIN64; b++) mine[b * 64] = 0;
  __syncthreads();
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < words; i += blockDim.x * gridDim.x) {
    unsigned w = data[i];
    mine[((w >> 2) & 0x3f) * 64]++;
    mine[((w >> 10) & 0x3f) * 64]++;
    mine[((w >> 18) & 0x3f) * 64]++;
    mine[((w >> 26) & 0x3f) * 64]++;
  }
  __syncthreads();
  if (threadIdx.x < BIN64) {
    unsigned sum = 0;
    for (int t = 0; t < 64; t++) sum += counts[threadIdx.x * 64 + ((t + threadIdx.x) & 63)];
    partial[blockIdx.x * BIN64 + threadIdx.x] = sum;
  }
}

// 256 bins, one sub-histogram per warp, shared atomics
__global__ void histogram256(unsigned *partial, const unsigned *__restrict__ data, unsigned words) {
  __shared__ unsigned hist[WARPS_PER_BLOCK * BIN256];
  for (int b = threadIdx.x; b < WARPS_PER_BLOCK * BIN256; b += blockDim.x) hist[b] = 0;
  __syncthreads();
  unsigned *warp_hist = hist + (threadIdx.x >> 5) * BIN256;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < words; i += blockDim.x * gridDim.x) {
    unsigned w = __ldg(&data[i]);
    atomicAdd(&warp_hist[w & 0xffu], 1u);
    atomicAdd(&warp_hist[(w >> 8) & 0xffu], 1u);
    atomicAdd(&warp_hist[(w >> 16) & 0xffu], 1u);
    atomicAdd(&warp_hist[w >> 24], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < BIN256; b += blockDim.x) {
    unsigned sum = 0;
    for (int wp = 0; wp < WARPS_PER_BLOCK; wp++) sum += hist[wp * BIN256 + b];
    partial[blockIdx.x * BIN256 + b] = sum;
  }
}

__global__ void merge_histogram256(unsigned *hist, const unsigned *partial, int partials) {
  __shared__ unsigned sums[256];
  unsigned s = 0;
  for (int i = threadIdx.x; i < partials; i += blockDim.x) s += partial[blockIdx.x + i * BIN256];
  sums[threadIdx.x] = s;
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    if (threadIdx.x < stride) sums[threadIdx.x] += sums[threadIdx.x + stride];
  }
  if (threadIdx.x == 0) hist[blockIdx.x] = sums[0];
}

// global atomics straight away, for comparison
__global__ void histogram_global(unsigned *hist, const unsigned char *data, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x)
    atomicAdd(&hist[data[i]], 1u);
}
