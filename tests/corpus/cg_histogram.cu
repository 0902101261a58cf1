// A histogram with labeled partitions: the active threads of a warp that
// hold the same key form a group (cg::labeled_partition, match.any.sync),
// and one atomicAdd per key and warp adds the group's size -- the
// warp-aggregated histogram of NVIDIA's cooperative-groups blog posts.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

//! group: cg_histogram
//! title: histograms with labeled partitions (match.any.sync)
//! exp: histo_labeled
//! title: one atomicAdd per key and warp
//@ histo_labeled grid=8 block=128 args=buf:i32:3000:rand,buf:u32:16:zero,i32:3000,i32:16
extern "C" __global__ void histo_labeled(const int *keys, unsigned *bins, int n, int nbins) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int key = (keys[i] & 0x7fffffff) % nbins;
    cg::coalesced_group active = cg::coalesced_threads();
    cg::coalesced_group same = cg::labeled_partition(active, key);
    if (same.thread_rank() == 0) atomicAdd(&bins[key], same.num_threads());
  }
}

// The same with the tile of the whole warp (keys of lanes past n are -1,
// which no bin takes) and the group's reduction of the values (cg::reduce
// over a coalesced group): bins count keys, sums add the values.
#include <cooperative_groups/reduce.h>
//! exp: histo_sum
//! title: counts and sums with cg::reduce over a coalesced group
//@ histo_sum grid=4 block=96 args=buf:i32:300:rand,buf:u32:8:zero,buf:i32:8:zero,i32:300,i32:8
extern "C" __global__ void histo_sum(const int *keys, unsigned *bins, int *sums, int n, int nbins) {
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int key = i < n ? (keys[i] & 0x7fffffff) % nbins : -1;
  int val = i < n ? keys[i] % 1000 : 0;
  cg::coalesced_group same = cg::labeled_partition(warp, key);
  int total = cg::reduce(same, val, cg::plus<int>());
  if (key >= 0 && same.thread_rank() == 0) {
    atomicAdd(&bins[key], same.num_threads());
    atomicAdd(&sums[key], total);
  }
}
