// simpleAtomicIntrinsics.cu - every atomic function on global and shared
// memory: the arithmetic, bitwise and exchange operations on 32- and
// 64-bit integers, float and double adds, the _block and _system scopes.
#include "census_common.h"

__global__ void testKernel(int *g_odata) {
  const unsigned tid = blockDim.x * blockIdx.x + threadIdx.x;
  atomicAdd(&g_odata[0], 10);
  atomicExch(&g_odata[1], tid);
  atomicMax(&g_odata[2], tid);
  atomicMin(&g_odata[3], tid);
  atomicInc((unsigned *)&g_odata[4], 17);
  atomicDec((unsigned *)&g_odata[5], 137);
  atomicCAS(&g_odata[6], tid - 1, tid);
  atomicAnd(&g_odata[7], 2 * tid + 7);
  atomicOr(&g_odata[8], 1 << tid);
  atomicXor(&g_odata[9], tid);
  atomicSub(&g_odata[10], 10);
}

__global__ void testKernel64(unsigned long long *u, long long *s) {
  const unsigned long long tid = blockDim.x * blockIdx.x + threadIdx.x;
  atomicAdd(&u[0], 10ull);
  atomicExch(&u[1], tid);
  atomicMax(&u[2], tid);
  atomicMin(&u[3], tid);
  atomicCAS(&u[4], tid - 1, tid);
  atomicAnd(&u[5], 2 * tid + 7);
  atomicOr(&u[6], 1ull << (tid & 63));
  atomicXor(&u[7], tid);
  atomicMax(&s[0], (long long)tid - 100);
  atomicMin(&s[1], -(long long)tid);
}

__global__ void testFloat(float *f, double *d) {
  float v = threadIdx.x * 0.5f;
  atomicAdd(&f[0], v);
  atomicExch(&f[1], v);
  atomicAdd(&d[0], (double)v);
}

// the same operations on shared memory, then published
__global__ void testShared(int *out, float *fout) {
  __shared__ int s[8];
  __shared__ float sf;
  __shared__ unsigned long long s64;
  if (threadIdx.x < 8) s[threadIdx.x] = 0;
  if (threadIdx.x == 0) sf = 0, s64 = 0;
  __syncthreads();
  atomicAdd(&s[0], 1);
  atomicMax(&s[1], (int)threadIdx.x);
  atomicMin(&s[2], -(int)threadIdx.x);
  atomicOr(&s[3], 1 << (threadIdx.x & 31));
  atomicInc((unsigned *)&s[4], 7);
  atomicCAS(&s[5], 0, (int)threadIdx.x);
  atomicExch(&s[6], (int)threadIdx.x);
  atomicAdd(&sf, 1.0f);
  atomicAdd(&s64, 3ull);
  __syncthreads();
  if (threadIdx.x < 8) out[blockIdx.x * 8 + threadIdx.x] = s[threadIdx.x] + (int)s64;
  if (threadIdx.x == 0) fout[blockIdx.x] = sf;
}

// scoped atomics (sm_60+)
__global__ void testScopes(int *g, unsigned long long *g64) {
  atomicAdd_block(&g[0], 1);
  atomicAdd_system(&g[1], 1);
  atomicMax_block(&g[2], (int)threadIdx.x);
  atomicExch_system(&g[3], (int)threadIdx.x);
  atomicCAS_block(&g[4], 0, 1);
  atomicAdd_system(g64, 1ull);
}
