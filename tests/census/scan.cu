// scan.cu - prefix sums: an inclusive warp scan with shuffles (the
// "shfl_scan" pattern), a block scan built from it, and the work-efficient
// up-sweep/down-sweep scan in shared memory, with the uniform add that
// finishes a multi-block scan.
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
#include "census_common.h"

namespace cg = cooperative_groups;

#define SCAN_BLOCK 256
#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define PAD(n) ((n) >> LOG_NUM_BANKS)

__device__ __forceinline__ int warp_inclusive(int v, unsigned lane) {
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    int up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += up;
  }
  return v;
}

// inclusive scan of each block; the block's total into sums[blockIdx.x]
__global__ void shfl_scan(int *data, int n, int *sums) {
  __shared__ int warp_totals[SCAN_BLOCK / 32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  int v = i < n ? data[i] : 0;
  v = warp_inclusive(v, lane);
  if (lane == 31) warp_totals[wid] = v;
  __syncthreads();
  if (wid == 0) {
    int t = lane < blockDim.x / 32 ? warp_totals[lane] : 0;
    t = warp_inclusive(t, lane);
    if (lane < SCAN_BLOCK / 32) warp_totals[lane] = t;
  }
  __syncthreads();
  if (wid > 0) v += warp_totals[wid - 1];
  if (i < n) data[i] = v;
  if (sums && threadIdx.x == blockDim.x - 1) sums[blockIdx.x] = v;
}

__global__ void uniform_add(int *data, int n, const int *__restrict__ sums) {
  __shared__ int add;
  if (threadIdx.x == 0) add = blockIdx.x > 0 ? sums[blockIdx.x - 1] : 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += add;
}

// Blelloch's exclusive scan of 2*blockDim.x elements, padded against bank
// conflicts.
template <typename T>
__global__ void prescan(T *out, const T *in, int n) {
  extern __shared__ char raw[];
  T *temp = reinterpret_cast<T *>(raw);
  int tid = threadIdx.x, offset = 1;
  int ai = tid, bi = tid + n / 2;
  temp[ai + PAD(ai)] = in[blockIdx.x * n + ai];
  temp[bi + PAD(bi)] = in[blockIdx.x * n + bi];
  for (int d = n >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      int a = offset * (2 * tid + 1) - 1, b = offset * (2 * tid + 2) - 1;
      temp[b + PAD(b)] += temp[a + PAD(a)];
    }
    offset *= 2;
  }
  if (tid == 0) temp[n - 1 + PAD(n - 1)] = 0;
  for (int d = 1; d < n; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      int a = offset * (2 * tid + 1) - 1, b = offset * (2 * tid + 2) - 1;
      T t = temp[a + PAD(a)];
      temp[a + PAD(a)] = temp[b + PAD(b)];
      temp[b + PAD(b)] += t;
    }
  }
  __syncthreads();
  out[blockIdx.x * n + ai] = temp[ai + PAD(ai)];
  out[blockIdx.x * n + bi] = temp[bi + PAD(bi)];
}

// The same with cooperative groups' own scan on tiles.
__global__ void cg_tile_scan(const unsigned *in, unsigned *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int i = block.group_index().x * block.size() + block.thread_rank();
  unsigned v = i < n ? in[i] : 0u;
  unsigned incl = cg::inclusive_scan(tile, v);
  unsigned excl = cg::exclusive_scan(tile, v, cg::plus<unsigned>());
  if (i < n) out[i] = incl + excl;
}

template __global__ void prescan<int>(int *, const int *, int);
template __global__ void prescan<float>(float *, const float *, int);
