// asyncBarrier.cu - split arrive/wait barriers: cuda::barrier in shared
// memory (mbarrier) ordering asynchronous copies, and producer/consumer
// warps handing tiles over through two barriers per buffer.  sm_80+,
// the expect_tx byte counting sm_90.
#include <cuda/barrier>
#include <cooperative_groups.h>
#include "census_common.h"

namespace cg = cooperative_groups;

// cuda::barrier has a constructor; in shared memory it is set up by init()
#pragma nv_diag_suppress static_var_with_dynamic_init
using barrier_t = cuda::barrier<cuda::thread_scope_block>;

__global__ void barrier_copy_sum(const float *in, float *out, int n) {
  __shared__ alignas(16) float tile[1024];
  __shared__ barrier_t bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  int base = blockIdx.x * 1024;
  int count = min(1024, n - base);
  cuda::memcpy_async(block, tile, in + base, sizeof(float) * count, bar);
  bar.arrive_and_wait();
  float s = 0;
  for (int i = block.thread_rank(); i < count; i += block.size()) s += tile[i];
  atomicAdd(out, s);
}

// warp 0 produces, the others consume; full/empty barrier per buffer
__global__ void producer_consumer(const float *in, float *out, int tiles) {
  constexpr int TILE = 256;
  __shared__ float buf[2][TILE];
  __shared__ barrier_t full[2], empty[2];
  int consumers = blockDim.x - 32;
  if (threadIdx.x == 0)
    for (int b = 0; b < 2; b++) init(&full[b], blockDim.x), init(&empty[b], blockDim.x);
  __syncthreads();
  bool producer = threadIdx.x < 32;
  float acc = 0;
  for (int t = 0; t < tiles; t++) {
    int b = t & 1;
    if (producer) {
      if (t >= 2) empty[b].arrive_and_wait();
      for (int i = threadIdx.x; i < TILE; i += 32) buf[b][i] = in[(size_t)t * TILE + i];
      (void)full[b].arrive();
    } else {
      full[b].arrive_and_wait();
      for (int i = threadIdx.x - 32; i < TILE; i += consumers) acc += buf[b][i];
      if (t + 2 < tiles) (void)empty[b].arrive();
    }
  }
  if (!producer) atomicAdd(out, acc);
}

// The raw mbarrier primitives of sm_90: expect a byte count, then test.
__global__ void mbarrier_tx(const int4 *in, int4 *out) {
  __shared__ alignas(16) int4 tile[128];
  __shared__ barrier_t bar;
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
#if __CUDA_ARCH__ >= 900
    cuda::device::experimental::fence_proxy_async_shared_cta();
#endif
  }
  __syncthreads();
  barrier_t::arrival_token token;
  if (threadIdx.x == 0) {
    cuda::memcpy_async(tile, in + blockIdx.x * 128, cuda::aligned_size_t<16>(sizeof(tile)), bar);
    token = bar.arrive();
  } else {
    token = bar.arrive();
  }
  bar.wait(cuda::std::move(token));
  out[blockIdx.x * 128 + threadIdx.x] = tile[threadIdx.x];
}
