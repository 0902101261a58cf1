// simpleVoteIntrinsics.cu - warp votes: any, all, ballot with the full and
// partial masks, __activemask, and the population counts that follow them.
#include "census_common.h"

__global__ void VoteAnyKernel1(const unsigned *input, unsigned *result, int size) {
  int tx = threadIdx.x;
  unsigned mask = __ballot_sync(0xffffffff, tx < size);
  result[tx] = __any_sync(mask, input[tx]);
}

__global__ void VoteAllKernel2(const unsigned *input, unsigned *result, int size) {
  int tx = threadIdx.x;
  unsigned mask = __ballot_sync(0xffffffff, tx < size);
  result[tx] = __all_sync(mask, input[tx]);
}

__global__ void VoteAnyKernel3(bool *info, int warp_size) {
  int tx = threadIdx.x;
  unsigned mask = 0xffffffff;
  bool *offs = info + (tx * 3);
  *offs = __any_sync(mask, tx >= warp_size * 3 / 2);
  *(offs + 1) = tx >= warp_size * 3 / 2 ? true : false;
  if (__all_sync(mask, tx >= warp_size * 3 / 2)) *(offs + 2) = true;
}

// count the lanes that pass a test, per warp, without shared memory
__global__ void count_passing(const float *x, float threshold, int *per_warp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned active = __activemask();
  unsigned votes = __ballot_sync(active, i < n && x[i] > threshold);
  int lane = threadIdx.x & 31;
  if (lane == __ffs(active) - 1) per_warp[i / 32] = __popc(votes);
  unsigned below = votes & ((1u << lane) - 1);
  if (i < n && x[i] > threshold) per_warp[n / 32 + 1 + i] = __popc(below);
}

__global__ void uniform_vote(const int *flags, int *out) {
  int v = flags[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned eq = __match_any_sync(0xffffffff, v);
  int pred;
  unsigned all = __match_all_sync(0xffffffff, v, &pred);
  out[blockIdx.x * blockDim.x + threadIdx.x] = __popc(eq) + (pred ? (int)all : 0);
}
