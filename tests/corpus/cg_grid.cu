// Grid-wide cooperative groups: kernels launched with
// cudaLaunchCooperativeKernel so that all blocks are resident and
// cg::this_grid().sync() can wait for every block of the grid.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

// A global sum in two phases: each block reduces its part of a grid-stride
// loop over grid.size() into partial[block]; after grid.sync() block 0 adds
// the partials; after a second grid.sync() every thread scales its
// elements by the total (out[i] = in[i] / total).
//! group: cg_grid
//! title: grid-wide cooperative groups: cooperative launches and grid.sync()
//! exp: grid_normalize
//! title: a two-phase global sum with grid.sync()
//@ grid_normalize cooperative grid=16 block=128 args=buf:f32:5000:rand,buf:f32:16:zero,buf:f32:1:zero,buf:f32:5000:zero,i32:5000
extern "C" __global__ void grid_normalize(const float *in, float *partial, float *total, float *out, int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ float warp_sum[32];
  float s = 0.0f;
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size()) s += in[i];
  s = cg::reduce(warp, s, cg::plus<float>());
  if (warp.thread_rank() == 0) warp_sum[warp.meta_group_rank()] = s;
  block.sync();
  if (block.thread_rank() == 0) {
    float t = 0.0f;
    for (int w = 0; w < warp.meta_group_size(); w++) t += warp_sum[w];
    partial[grid.block_rank()] = t;
  }
  grid.sync();
  if (grid.thread_rank() == 0) {
    float t = 0.0f;
    for (int b = 0; b < grid.num_blocks(); b++) t += partial[b];
    *total = t;
  }
  grid.sync();
  float scale = 1.0f / *total;
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size()) out[i] = in[i] * scale;
}

// An inclusive prefix sum over the whole grid: each block scans its
// elements (cg::inclusive_scan on warp tiles, then the warps' totals) and
// publishes its total; after grid.sync() each block adds the totals of the
// blocks before it.
//! exp: grid_scan
//! title: a grid-wide inclusive prefix sum
//@ grid_scan cooperative grid=12 block=256 args=buf:i32:3072:rand,buf:i32:12:zero,buf:i32:3072:zero
extern "C" __global__ void grid_scan(const int *in, int *block_total, int *out) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ int warp_total[32];
  int i = grid.thread_rank();
  int v = in[i] & 0xffff;
  int x = cg::inclusive_scan(warp, v);
  if (warp.thread_rank() == 31) warp_total[warp.meta_group_rank()] = x;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    int t = warp.thread_rank() < warp.meta_group_size() ? warp_total[warp.thread_rank()] : 0;
    int before = cg::exclusive_scan(warp, t);
    warp_total[warp.thread_rank()] = before;
    if (warp.thread_rank() == warp.meta_group_size() - 1) block_total[blockIdx.x] = before + t;
  }
  block.sync();
  x += warp_total[warp.meta_group_rank()];
  grid.sync();
  int before = 0;
  for (int b = 0; b < blockIdx.x; b++) before += block_total[b];
  out[i] = x + before;
}

// A hand-off along the blocks in reverse order: block b waits for the flag
// of block b+1 (spinning on a volatile load), then adds its value to the
// running sum and raises its own flag.  Only co-resident blocks can do this.
//! exp: flag_chains
//! title: hand-offs between blocks by spinning on flags
//@ flag_chain cooperative grid=8 block=64 args=buf:i32:9:zero,buf:i32:2:zero
extern "C" __global__ void flag_chain(volatile int *flags, int *sum) {
  int b = blockIdx.x;
  if (threadIdx.x == 0) {
    if (b + 1 < gridDim.x)
      while (flags[b + 1] == 0) {
      }
    sum[0] = sum[0] * 3 + b;
    __threadfence();
    flags[b] = 1;
  }
}

// The same hand-off in launch order, as a decoupled look-back scan waits
// for the blocks before it: block b waits for the flag of block b-1.  A
// plain launch: blocks start in order on the GPU, so the one waited for
// has always started.
//@ lookback_chain grid=8 block=64 args=buf:i32:9:zero,buf:i32:2:zero
extern "C" __global__ void lookback_chain(volatile int *flags, int *sum) {
  int b = blockIdx.x;
  if (threadIdx.x == 0) {
    if (b > 0)
      while (flags[b - 1] == 0) {
      }
    sum[0] = sum[0] * 3 + b;
    __threadfence();
    flags[b] = 1;
  }
}

// A spin on a flag that nobody sets: it can never finish (no //@ line, so
// that the file's launches all run; test_corpus_coop launches it for the
// no-progress error).
extern "C" __global__ void spin_forever(volatile int *flag) {
  if (threadIdx.x == 0)
    while (*flag == 0) {
    }
}
