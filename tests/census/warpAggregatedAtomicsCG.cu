// warpAggregatedAtomicsCG.cu - stream compaction with warp-aggregated
// atomics: the active threads form a coalesced group, its leader adds the
// group's size once, and every member takes its slot from the result.
#include <cooperative_groups.h>
#include "census_common.h"

namespace cg = cooperative_groups;

__device__ int atomicAggInc(int *counter) {
  cg::coalesced_group active = cg::coalesced_threads();
  int prev;
  if (active.thread_rank() == 0) prev = atomicAdd(counter, (int)active.size());
  prev = active.thread_rank() + active.shfl(prev, 0);
  return prev;
}

__global__ void filter_arr(int *dst, int *nres, const int *src, int n) {
  int id = threadIdx.x + blockIdx.x * blockDim.x;
  for (int i = id; i < n; i += gridDim.x * blockDim.x)
    if (src[i] > 0) dst[atomicAggInc(nres)] = src[i];
}

// Grouping by key: threads with the same bucket share one atomic.
__device__ int atomicAggIncMulti(const int bucket, int *counter) {
  cg::coalesced_group active = cg::coalesced_threads();
  auto same = cg::labeled_partition(active, bucket);
  int res;
  if (same.thread_rank() == 0) res = atomicAdd(&counter[bucket], (int)same.size());
  res = same.shfl(res, 0);
  return res + same.thread_rank();
}

__global__ void mapToBuckets(const int *src, int *bucket_counters, int *slots, int n, int buckets) {
  int id = threadIdx.x + blockIdx.x * blockDim.x;
  if (id < n) {
    int b = src[id] % buckets;
    slots[id] = atomicAggIncMulti(b, bucket_counters);
  }
}

// The same by hand, without cooperative groups.
__global__ void filter_manual(int *dst, int *nres, const int *src, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  bool keep = src[i] > 0;
  unsigned mask = __ballot_sync(__activemask(), keep);
  if (!keep) return;
  int lane = threadIdx.x & 31, leader = __ffs(mask) - 1, base = 0;
  if (lane == leader) base = atomicAdd(nres, __popc(mask));
  base = __shfl_sync(mask, base, leader);
  dst[base + __popc(mask & ((1u << lane) - 1))] = src[i];
}
