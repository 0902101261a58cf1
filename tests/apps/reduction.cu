/* reduction - the sum of n integers with cooperative groups, two ways:
 *   reduceTiles: each warp (a thread_block_tile<32>) sums its values with
 *     shfl_down, warp sums meet in shared memory, and one partial per block
 *     goes back; the host adds the partials;
 *   reduceGrid: the same per block, then grid.sync() and block 0 adds the
 *     partials: launched with cudaLaunchCooperativeKernel, with no more
 *     blocks than the occupancy API says fit at once.
 * Integers, so both sums are exact. */
#include <vector>

#include <cooperative_groups.h>

#include "app_util.h"

namespace cg = cooperative_groups;

#define THREADS 256

/* The sum of v over the block's threads, in thread 0 (shared: one slot
 * per warp). */
__device__ long long blockSum(long long v, long long *shared) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  for (int off = warp.size() / 2; off > 0; off /= 2) v += warp.shfl_down(v, off);
  if (warp.thread_rank() == 0) shared[warp.meta_group_rank()] = v;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    v = warp.thread_rank() < warp.meta_group_size() ? shared[warp.thread_rank()] : 0;
    for (int off = warp.size() / 2; off > 0; off /= 2) v += warp.shfl_down(v, off);
  }
  return v;
}

/* Grid-stride: each thread first adds its share of the n values. */
__device__ long long threadShare(const int *in, int n) {
  long long v = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += in[i];
  return v;
}

__global__ void reduceTiles(const int *in, long long *partial, int n) {
  __shared__ long long warpSums[THREADS / 32];
  long long v = blockSum(threadShare(in, n), warpSums);
  if (threadIdx.x == 0) partial[blockIdx.x] = v;
}

__global__ void reduceGrid(const int *in, long long *partial, long long *total, int n) {
  __shared__ long long warpSums[THREADS / 32];
  cg::grid_group grid = cg::this_grid();
  long long v = blockSum(threadShare(in, n), warpSums);
  if (threadIdx.x == 0) partial[blockIdx.x] = v;
  grid.sync();
  if (blockIdx.x == 0) {
    long long s = 0;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) s += partial[b];
    __syncthreads(); /* warpSums is reused */
    s = blockSum(s, warpSums);
    if (threadIdx.x == 0) *total = s;
  }
}

int main() {
  const int n = 1 << 16;
  std::vector<int> in(n);
  unsigned seed = 99;
  long long want = 0;
  for (int &x : in) {
    x = (int)(app_rand(&seed) % 2001) - 1000;
    want += x;
  }
  int dev = 0, coop = 0, sms = 0, perSm = 0;
  CHECK_CUDA(cudaGetDevice(&dev));
  CHECK_CUDA(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, reduceGrid, THREADS, 0));
  int *din;
  long long *dpartial, *dtotal;
  const int blocks = 64;
  CHECK_CUDA(cudaMalloc(&din, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dpartial, blocks * sizeof(long long)));
  CHECK_CUDA(cudaMalloc(&dtotal, sizeof(long long)));
  CHECK_CUDA(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  reduceTiles<<<blocks, THREADS>>>(din, dpartial, n);
  CHECK_LAUNCH();
  std::vector<long long> partial(blocks);
  CHECK_CUDA(cudaMemcpy(partial.data(), dpartial, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
  long long tiles = 0;
  for (long long p : partial) tiles += p;
  std::printf("reduceTiles: %lld (want %lld)\n", tiles, want);

  long long grid = want + 1;
  if (!coop) {
    std::printf("reduceGrid: the device cannot launch cooperative kernels\n");
  } else {
    int gridBlocks = blocks < perSm * sms ? blocks : perSm * sms;
    int nn = n;
    void *args[] = {&din, &dpartial, &dtotal, &nn};
    CHECK_CUDA(cudaLaunchCooperativeKernel((void *)reduceGrid, gridBlocks, THREADS, args, 0, 0));
    CHECK_CUDA(cudaMemcpy(&grid, dtotal, sizeof grid, cudaMemcpyDeviceToHost));
    std::printf("reduceGrid:  %lld (want %lld), %d blocks (%d per SM fit)\n", grid, want, gridBlocks, perSm);
  }
  CHECK_CUDA(cudaFree(din));
  CHECK_CUDA(cudaFree(dpartial));
  CHECK_CUDA(cudaFree(dtotal));
  return app_verdict("reduction", (tiles != want) + (grid != want), 2);
}
