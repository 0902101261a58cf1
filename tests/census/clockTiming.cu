// clockTiming.cu - timing inside kernels: clock() and clock64() around a
// reduction (the "clock" sample), %globaltimer, the SM and warp ids, and
// nanosleep back-off.
#include "census_common.h"

__global__ void timedReduction(const float *input, float *output, clock_t *timer) {
  extern __shared__ float shared[];
  const int tid = threadIdx.x, bid = blockIdx.x;
  if (tid == 0) timer[bid] = clock();
  shared[tid] = input[tid];
  shared[tid + blockDim.x] = input[tid + blockDim.x];
  for (int d = blockDim.x; d > 0; d /= 2) {
    __syncthreads();
    if (tid < d) {
      float f0 = shared[tid], f1 = shared[tid + d];
      if (f1 < f0) shared[tid] = f1;
    }
  }
  if (tid == 0) output[bid] = shared[0];
  __syncthreads();
  if (tid == 0) timer[bid + gridDim.x] = clock();
}

__device__ __forceinline__ unsigned smid() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}

__device__ __forceinline__ unsigned long long globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void where_and_when(unsigned long long *t, unsigned *sm, long long *cycles) {
  long long c0 = clock64();
  unsigned long long g0 = globaltimer();
  __nanosleep(100);
  if (threadIdx.x == 0) {
    sm[blockIdx.x] = smid();
    t[blockIdx.x] = globaltimer() - g0;
    cycles[blockIdx.x] = clock64() - c0;
  }
}

__global__ void backoff_lock(int *lock, int *counter) {
  unsigned ns = 8;
  while (atomicCAS(lock, 0, 1) != 0) {
    __nanosleep(ns);
    if (ns < 256) ns *= 2;
  }
  (*counter)++;
  __threadfence();
  atomicExch(lock, 0);
}
