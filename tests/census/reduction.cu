// reduction.cu - the classic sequence of sum reductions, from interleaved
// addressing with a divergent branch to a templated, unrolled kernel that
// adds several elements per thread, plus cooperative-groups and shuffle
// versions.  Launch with blockDim.x == BLOCK and BLOCK * sizeof(T) bytes of
// dynamic shared memory.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "census_common.h"

namespace cg = cooperative_groups;

// 1: interleaved addressing, modulo test (divergent warps)
template <class T>
__global__ void reduce0(const T *g_in, T *g_out, unsigned n) {
  T *s = SharedMemory<T>();
  unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  s[tid] = i < n ? g_in[i] : T(0);
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) g_out[blockIdx.x] = s[0];
}

// 2: interleaved addressing with a strided index (bank conflicts)
template <class T>
__global__ void reduce1(const T *g_in, T *g_out, unsigned n) {
  T *s = SharedMemory<T>();
  unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  s[tid] = i < n ? g_in[i] : T(0);
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    unsigned at = 2 * stride * tid;
    if (at < blockDim.x) s[at] += s[at + stride];
    __syncthreads();
  }
  if (tid == 0) g_out[blockIdx.x] = s[0];
}

// 3: sequential addressing
template <class T>
__global__ void reduce2(const T *g_in, T *g_out, unsigned n) {
  T *s = SharedMemory<T>();
  unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  s[tid] = i < n ? g_in[i] : T(0);
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
    if (tid < half) s[tid] += s[tid + half];
    __syncthreads();
  }
  if (tid == 0) g_out[blockIdx.x] = s[0];
}

// 4: first add during the global load (half the blocks)
template <class T>
__global__ void reduce3(const T *g_in, T *g_out, unsigned n) {
  T *s = SharedMemory<T>();
  unsigned tid = threadIdx.x, i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  T sum = i < n ? g_in[i] : T(0);
  if (i + blockDim.x < n) sum += g_in[i + blockDim.x];
  s[tid] = sum;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
    if (tid < half) s[tid] = sum = sum + s[tid + half];
    __syncthreads();
  }
  if (tid == 0) g_out[blockIdx.x] = sum;
}

// 5: the last warp reduced with shuffles, no barrier
template <class T, unsigned BLOCK>
__global__ void reduce4(const T *g_in, T *g_out, unsigned n) {
  T *s = SharedMemory<T>();
  cg::thread_block cta = cg::this_thread_block();
  unsigned tid = threadIdx.x, i = blockIdx.x * (BLOCK * 2) + threadIdx.x;
  T sum = i < n ? g_in[i] : T(0);
  if (i + BLOCK < n) sum += g_in[i + BLOCK];
  s[tid] = sum;
  cg::sync(cta);
  for (unsigned half = blockDim.x / 2; half > 32; half >>= 1) {
    if (tid < half) s[tid] = sum = sum + s[tid + half];
    cg::sync(cta);
  }
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cta);
  if (cta.thread_rank() < 32) {
    if (BLOCK >= 64) sum += s[tid + 32];
    for (int off = warp.size() / 2; off > 0; off /= 2) sum += warp.shfl_down(sum, off);
  }
  if (cta.thread_rank() == 0) g_out[blockIdx.x] = sum;
}

// 6: completely unrolled with the block size a template parameter
template <class T, unsigned BLOCK>
__global__ void reduce5(const T *__restrict__ g_in, T *__restrict__ g_out, unsigned n) {
  T *s = SharedMemory<T>();
  cg::thread_block cta = cg::this_thread_block();
  unsigned tid = threadIdx.x, i = blockIdx.x * (BLOCK * 2) + threadIdx.x;
  T sum = i < n ? g_in[i] : T(0);
  if (i + BLOCK < n) sum += g_in[i + BLOCK];
  s[tid] = sum;
  cg::sync(cta);
  if (BLOCK >= 512 && tid < 256) s[tid] = sum = sum + s[tid + 256];
  cg::sync(cta);
  if (BLOCK >= 256 && tid < 128) s[tid] = sum = sum + s[tid + 128];
  cg::sync(cta);
  if (BLOCK >= 128 && tid < 64) s[tid] = sum = sum + s[tid + 64];
  cg::sync(cta);
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cta);
  if (cta.thread_rank() < 32) {
    if (BLOCK >= 64) sum += s[tid + 32];
#pragma unroll
    for (int off = 16; off > 0; off /= 2) sum += warp.shfl_down(sum, off);
  }
  if (cta.thread_rank() == 0) g_out[blockIdx.x] = sum;
}

// 7: many elements per thread (grid-stride), then as reduce5
template <class T, unsigned BLOCK, bool POW2>
__global__ void reduce6(const T *__restrict__ g_in, T *__restrict__ g_out, unsigned n) {
  T *s = SharedMemory<T>();
  cg::thread_block cta = cg::this_thread_block();
  unsigned tid = threadIdx.x, grid = BLOCK * 2 * gridDim.x;
  T sum = 0;
  for (unsigned i = blockIdx.x * BLOCK * 2 + threadIdx.x; i < n; i += grid) {
    sum += __ldg(&g_in[i]);
    if (POW2 || i + BLOCK < n) sum += __ldg(&g_in[i + BLOCK]);
  }
  s[tid] = sum;
  cg::sync(cta);
#pragma unroll
  for (unsigned half = BLOCK / 2; half > 32; half >>= 1) {
    if (tid < half) s[tid] = sum = sum + s[tid + half];
    cg::sync(cta);
  }
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cta);
  if (cta.thread_rank() < 32) {
    if (BLOCK >= 64) sum += s[tid + 32];
    sum = cg::reduce(warp, sum, cg::plus<T>());
  }
  if (cta.thread_rank() == 0) g_out[blockIdx.x] = sum;
}

// Warp shuffles without cooperative groups: one partial per warp in shared.
template <class T>
__device__ __forceinline__ T warp_sum(T v) {
  for (int off = warpSize / 2; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

template <class T>
__global__ void reduce_shfl(const T *g_in, T *g_out, unsigned n) {
  __shared__ T partial[32];
  T v = 0;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += g_in[i];
  v = warp_sum(v);
  unsigned lane = threadIdx.x % warpSize, wid = threadIdx.x / warpSize;
  if (lane == 0) partial[wid] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / warpSize ? partial[lane] : T(0);
  if (wid == 0) v = warp_sum(v);
  if (threadIdx.x == 0) atomicAdd(g_out, v);
}

// Instantiated by the host launcher, as a sample's driver would.
template <class T>
void run_reductions(const T *in, T *out, unsigned n) {
  const unsigned B = 256;
  unsigned blocks = DIV_UP(n, B), smem = B * sizeof(T);
  reduce0<T><<<blocks, B, smem>>>(in, out, n);
  reduce1<T><<<blocks, B, smem>>>(in, out, n);
  reduce2<T><<<blocks, B, smem>>>(in, out, n);
  reduce3<T><<<blocks / 2, B, smem>>>(in, out, n);
  reduce4<T, B><<<blocks / 2, B, smem>>>(in, out, n);
  reduce5<T, B><<<blocks / 2, B, smem>>>(in, out, n);
  reduce6<T, B, true><<<64, B, smem>>>(in, out, n);
  reduce6<T, B, false><<<64, B, smem>>>(in, out, n);
  reduce_shfl<T><<<64, B>>>(in, out, n);
}

template void run_reductions<float>(const float *, float *, unsigned);
template void run_reductions<int>(const int *, int *, unsigned);
template void run_reductions<double>(const double *, double *, unsigned);
