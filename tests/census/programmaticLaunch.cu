// census-arch: sm_90
// programmaticLaunch.cu - Hopper's programmatic dependent launch: a
// kernel lets the next one start early (cudaTriggerProgrammaticLaunch-
// Completion) and the next waits for its predecessor's memory
// (cudaGridDependencySynchronize); plus elect.sync, which warp-specialized
// kernels use to pick one lane (setmaxnreg needs sm_90a: not here).
// sm_90 only.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "census_common.h"

namespace cg = cooperative_groups;

__global__ void producer_kernel(float *buf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) buf[i] = i * 0.5f;
  cudaTriggerProgrammaticLaunchCompletion();
}

__global__ void consumer_kernel(const float *buf, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float bias = i * 0.25f; // work that does not need the producer
  cudaGridDependencySynchronize();
  if (i < n) out[i] = buf[i] + bias;
}

__global__ void __launch_bounds__(384, 1) warp_specialized(const float *in, float *out, int n) {
  __shared__ float stage[256];
  int warp = threadIdx.x / 32;
  if (warp < 4)
    for (int i = threadIdx.x; i < 256 && i < n; i += 128) stage[i] = in[blockIdx.x * 256 + i];
  __syncthreads();
  if (warp >= 4) {
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    unsigned leader;
    asm volatile("{\n .reg .pred p;\n elect.sync %0|p, 0xffffffff;\n}\n" : "=r"(leader));
    float v = stage[(threadIdx.x - 128) % 256];
    v = cg::reduce(tile, v, cg::plus<float>());
    if (tile.thread_rank() == 0) out[blockIdx.x * 8 + warp - 4] = v + (float)leader * 0.0f;
  }
}
