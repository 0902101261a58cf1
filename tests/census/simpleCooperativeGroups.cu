// simpleCooperativeGroups.cu - thread groups as values: the block, tiles
// made at run time and at compile time, their ranks, shuffles, votes and
// syncs, and a group passed to a device function.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "census_common.h"

namespace cg = cooperative_groups;

// sum of `val` over the group, in shared scratch `x` of group.size() ints
__device__ int sumReduction(cg::thread_group g, int *x, int val) {
  int lane = g.thread_rank();
  for (int i = g.size() / 2; i > 0; i /= 2) {
    x[lane] = val;
    g.sync();
    if (lane < i) val += x[lane + i];
    g.sync();
  }
  return g.thread_rank() == 0 ? val : -1;
}

__global__ void cgkernel(int *out) {
  extern __shared__ int workspace[];
  cg::thread_block threadBlockGroup = cg::this_thread_block();
  int input = threadBlockGroup.thread_rank();
  int blockSum = sumReduction(threadBlockGroup, workspace, input);
  if (threadBlockGroup.thread_rank() == 0) out[blockIdx.x * 5] = blockSum;
  threadBlockGroup.sync();
  cg::thread_group tiledPartition16 = cg::tiled_partition(threadBlockGroup, 16);
  int offset = threadBlockGroup.thread_rank() - tiledPartition16.thread_rank();
  int tileSum = sumReduction(tiledPartition16, workspace + offset, input);
  if (tiledPartition16.thread_rank() == 0) out[blockIdx.x * 5 + 1 + offset / 16 % 4] = tileSum;
}

template <unsigned TILE>
__global__ void static_tiles(const float *in, float *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<TILE> tile = cg::tiled_partition<TILE>(block);
  float v = in[block.group_index().x * block.size() + block.thread_rank()];
  float mx = cg::reduce(tile, v, cg::greater<float>());
  float nb = tile.shfl_xor(v, 1) + tile.shfl_up(v, 1) + tile.shfl_down(v, 1) + tile.shfl(v, 0);
  bool all_pos = tile.all(v > 0), any_big = tile.any(v > 100.f);
  unsigned ballot = tile.ballot(v > mx / 2);
  if (tile.thread_rank() == 0)
    out[block.group_index().x * (block.size() / TILE) + tile.meta_group_rank()] =
        mx + nb + all_pos + any_big + __popc(ballot);
  block.sync();
}

// a group made of the threads that took a branch
__global__ void coalesced_branch(int *counts, const int *keys) {
  int k = keys[blockIdx.x * blockDim.x + threadIdx.x];
  if (k & 1) {
    cg::coalesced_group odd = cg::coalesced_threads();
    int total = cg::reduce(odd, k, cg::plus<int>());
    if (odd.thread_rank() == 0) atomicAdd(&counts[0], total);
    odd.sync();
  } else {
    cg::coalesced_group even = cg::coalesced_threads();
    auto pairs = cg::tiled_partition(even, 2);
    int mate = pairs.shfl(k, pairs.size() - 1 - pairs.thread_rank());
    atomicAdd(&counts[1], mate);
  }
}

template __global__ void static_tiles<4>(const float *, float *);
template __global__ void static_tiles<8>(const float *, float *);
template __global__ void static_tiles<16>(const float *, float *);
template __global__ void static_tiles<32>(const float *, float *);
