// legacyWarp.cu - idioms of older and hand-written code: warp-synchronous
// reductions through volatile shared memory, __syncthreads_count/and/or,
// lane id and lane masks read with inline PTX, bit-field extract and
// insert, and the three memory fences.
#include "census_common.h"

template <unsigned BLOCK>
__device__ void warp_reduce_volatile(volatile float *s, unsigned tid) {
  if (BLOCK >= 64) s[tid] += s[tid + 32];
  if (BLOCK >= 32) s[tid] += s[tid + 16];
  if (BLOCK >= 16) s[tid] += s[tid + 8];
  if (BLOCK >= 8) s[tid] += s[tid + 4];
  if (BLOCK >= 4) s[tid] += s[tid + 2];
  if (BLOCK >= 2) s[tid] += s[tid + 1];
}

template <unsigned BLOCK>
__global__ void reduce_volatile(const float *in, float *out, unsigned n) {
  __shared__ float s[BLOCK];
  unsigned tid = threadIdx.x, i = blockIdx.x * BLOCK * 2 + tid;
  s[tid] = (i < n ? in[i] : 0.f) + (i + BLOCK < n ? in[i + BLOCK] : 0.f);
  __syncthreads();
  for (unsigned h = BLOCK / 2; h > 32; h >>= 1) {
    if (tid < h) s[tid] += s[tid + h];
    __syncthreads();
  }
  if (tid < 32) warp_reduce_volatile<BLOCK>(s, tid);
  if (tid == 0) out[blockIdx.x] = s[0];
}

__global__ void block_votes(const int *x, int *counts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int p = i < n && x[i] > 0;
  int c = __syncthreads_count(p), all = __syncthreads_and(p), any = __syncthreads_or(p);
  if (threadIdx.x == 0) counts[blockIdx.x] = c + (all << 16) + (any << 17);
}

__device__ __forceinline__ unsigned lane_id() {
  unsigned r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}

__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned r;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r));
  return r;
}

__device__ __forceinline__ unsigned warp_id() {
  unsigned r;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(r));
  return r;
}

__global__ void ranks_in_warp(const int *flags, int *rank, unsigned *who) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned b = __ballot_sync(0xffffffffu, flags[i]);
  rank[i] = __popc(b & lanemask_lt());
  who[i] = lane_id() | (warp_id() << 8);
}

__device__ __forceinline__ unsigned bfe(unsigned x, unsigned pos, unsigned len) {
  unsigned r;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
  return r;
}

__device__ __forceinline__ unsigned bfi(unsigned x, unsigned y, unsigned pos, unsigned len) {
  unsigned r;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(x), "r"(y), "r"(pos), "r"(len));
  return r;
}

__global__ void repack(const unsigned *in, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = bfi(bfe(in[i], 4, 8), in[i], 24, 8);
}

__global__ void fences(int *a, volatile int *flag) {
  a[threadIdx.x] = 1;
  __threadfence_block();
  a[threadIdx.x + blockDim.x] = 2;
  __threadfence();
  a[threadIdx.x + 2 * blockDim.x] = 3;
  __threadfence_system();
  if (threadIdx.x == 0) *flag = 1;
}

template __global__ void reduce_volatile<128>(const float *, float *, unsigned);
template __global__ void reduce_volatile<256>(const float *, float *, unsigned);
