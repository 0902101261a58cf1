// Warp-aggregated atomics with coalesced groups, as in NVIDIA's "CUDA Pro
// Tip: Optimized Filtering with Warp-Aggregated Atomics": the threads that
// pass the filter form a coalesced group (activemask), its leader does one
// atomicAdd for the group, and each thread takes its slot from the leader's
// result by shfl plus its rank in the group.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__device__ int atomic_agg_inc(int *counter) {
  cg::coalesced_group active = cg::coalesced_threads();
  int base;
  if (active.thread_rank() == 0) base = atomicAdd(counter, active.num_threads());
  return active.shfl(base, 0) + active.thread_rank();
}

// dst[] gets every src[i] > threshold (in an order the atomics decide).
//! group: cg_compact
//! title: warp-aggregated atomics with coalesced groups
//! exp: filter
//! title: stream compaction: one atomicAdd per coalesced group
//@ filter_k grid=16 block=128 args=buf:i32:2000,buf:i32:1:zero,buf:i32:2000:rand,i32:2000,i32:0
extern "C" __global__ void filter_k(int *dst, int *nres, const int *src, int n, int threshold) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    if (src[i] > threshold) dst[atomic_agg_inc(nres)] = src[i];
}

// binary_partition splits a warp by a predicate; each part counts itself
// (num_threads) and its leader adds the count to odd_even[part]; the
// threads of each part also write their rank in it.
//! exp: partition
//! title: binary_partition counts and ranks
//@ parity_count grid=4 block=64 args=buf:i32:256:rand,buf:i32:2:zero,buf:i32:256:zero
extern "C" __global__ void parity_count(const int *in, int *odd_even, int *rank) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool odd = in[i] & 1;
  cg::coalesced_group part = cg::binary_partition(warp, odd);
  if (part.thread_rank() == 0) atomicAdd(&odd_even[odd], part.num_threads());
  rank[i] = part.thread_rank();
}
