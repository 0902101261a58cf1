// async_copy.cu - asynchronous copies as real code writes them: the sm_80
// double-buffered tile loop with cp.async (cuda_pipeline.h primitives), a
// zero-filled tile load at a ragged edge, cuda::memcpy_async with a
// cuda::barrier (the bulk copy on sm_90), a block-scoped cuda::pipeline of
// producers and consumers, cooperative_groups::memcpy_async, and two wrong
// kernels: one reads its tile before waiting, one waits on a barrier that
// can never complete; and Hopper's bulk copy from shared to global memory.  Outputs: tests/test_corpus_async.c.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>

namespace cg = cooperative_groups;

//! group: async_copy
//! title: asynchronous copies: cp.async, cuda::memcpy_async, cuda::pipeline, bulk copies
//! exp: gemm_async
//! title: double-buffered cp.async tiles of a 64x64 GEMM
//@ gemm_async grid=2,2 block=8,32 args=buf:f32:4096,buf:f32:4096,buf:f32:4096:zero,i32:64
//! exp: pad_transpose
//! title: zero-filled cp.async at a ragged edge, transposed
//@ pad_transpose grid=4,3 block=8,32 args=buf:f32:7280,buf:f32:12288:zero,i32:70,i32:99,i32:104
//! exp: barrier_sum
//! title: cuda::memcpy_async with a block-wide cuda::barrier
//@ barrier_sum grid=4 block=256 args=buf:f32:8192,buf:f32:1024:zero,i32:8
//! exp: pipeline_sum
//! title: a two-stage block-scoped cuda::pipeline
//@ pipeline_sum grid=2 block=128 args=buf:f32:4096,buf:f32:256:zero,i32:16
//! exp: cg_reverse
//! title: cooperative_groups::memcpy_async and cg::wait
//@ cg_reverse grid=3 block=128 args=buf:f32:768,buf:f32:768:zero
//! exp: bulk_store
//! title: Hopper's bulk copy from shared to global memory
//@ bulk_store grid=2 block=256 args=buf:f32:512,buf:f32:512:zero
// early_read and barrier_deadlock fail by design (a located error each), so
// they have no //@ line: tests/test_corpus_async.c launches them.

// C = A * B for n x n row-major matrices, n a multiple of TILE.  Each thread
// copies 16 bytes (4 floats) of an A tile and of a B tile per step and
// computes 4 outputs; the next step's tiles are in flight while this one's
// are used (two stages, wait_prior(1), __syncthreads).
template <int TILE>
__global__ void gemm_async(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                           int n) {
  __shared__ alignas(16) float As[2][TILE][TILE];
  __shared__ alignas(16) float Bs[2][TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y; // tx in [0, TILE/4)
  const int row = blockIdx.y * TILE + ty, col0 = blockIdx.x * TILE + tx * 4;
  const int steps = n / TILE;
  auto load = [&](int stage, int k) {
    __pipeline_memcpy_async(&As[stage][ty][tx * 4], &A[row * n + k * TILE + tx * 4], 16);
    __pipeline_memcpy_async(&Bs[stage][ty][tx * 4], &B[(k * TILE + ty) * n + col0], 16);
    __pipeline_commit();
  };
  float acc[4] = {0, 0, 0, 0};
  load(0, 0);
  for (int k = 0; k < steps; k++) {
    if (k + 1 < steps) load((k + 1) & 1, k + 1);
    else __pipeline_commit(); // an empty group keeps wait_prior(1) uniform
    __pipeline_wait_prior(1);
    __syncthreads();
    const int s = k & 1;
#pragma unroll
    for (int i = 0; i < TILE; i++) {
      float a = As[s][ty][i];
#pragma unroll
      for (int j = 0; j < 4; j++) acc[j] += a * Bs[s][i][tx * 4 + j];
    }
    __syncthreads(); // the stage is refilled next step
  }
#pragma unroll
  for (int j = 0; j < 4; j++) C[row * n + col0 + j] = acc[j];
}
template __global__ void gemm_async<32>(const float *, const float *, float *, int);

// out = the transpose of the rows x cols matrix `in` (leading dimension ld,
// a multiple of 4) padded with zeros to whole 32 x 32 tiles: the tile load
// copies 16 bytes per thread, and at the ragged edge only the bytes inside
// the matrix (src-size < 16, 0 past the last row): the zfill form.
__global__ void pad_transpose(const float *__restrict__ in, float *__restrict__ out, int rows, int cols, int ld) {
  __shared__ alignas(16) float tile[32][33 + 3]; // rows of 36 floats: 16-byte aligned, fewer conflicts
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int r = blockIdx.y * 32 + ty, c = blockIdx.x * 32 + tx * 4;
  int valid = r < rows ? cols - c : 0;
  valid = valid < 0 ? 0 : valid > 4 ? 4 : valid;
  const float *src = valid ? &in[r * ld + c] : in;
  __pipeline_memcpy_async(&tile[ty][tx * 4], src, 16, 16 - 4 * valid);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  const int prow = gridDim.y * 32; // padded rows: out is (gridDim.x*32) x prow
#pragma unroll
  for (int j = 0; j < 4; j++) {
    int oc = tx * 4 + j; // column of the tile = row of out
    out[(blockIdx.x * 32 + oc) * prow + blockIdx.y * 32 + ty] = tile[ty][oc];
  }
}

// out[block][t] = sum over `chunks` chunks of 256 floats of chunk[(t * 7) % 256]:
// each chunk is copied by cuda::memcpy_async into shared memory and waited
// for with a block-wide cuda::barrier, whose phases repeat.
__global__ void barrier_sum(const float *__restrict__ in, float *__restrict__ out, int chunks) {
  __shared__ alignas(16) float buf[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  const float *base = in + (size_t)blockIdx.x * chunks * 256;
  float acc = 0;
  for (int k = 0; k < chunks; k++) {
    cuda::memcpy_async(block, buf, base + k * 256, cuda::aligned_size_t<16>(sizeof(float) * 256), bar);
    bar.arrive_and_wait();
    acc += buf[(threadIdx.x * 7) % 256];
    bar.arrive_and_wait(); // buf is refilled next
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;
}

// out[block][t] = sum over `chunks` chunks of 128 floats of chunk[127 - t]:
// a two-stage block-scoped cuda::pipeline, every thread both producer
// (acquire, memcpy_async, commit) and consumer (wait, release).
__global__ void pipeline_sum(const float *__restrict__ in, float *__restrict__ out, int chunks) {
  constexpr int stages = 2;
  __shared__ alignas(16) float buf[stages][128];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, stages> state;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  const float *base = in + (size_t)blockIdx.x * chunks * 128;
  float acc = 0;
  for (int fetch = 0, k = 0; k < chunks; k++) {
    for (; fetch < chunks && fetch < k + stages; fetch++) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, buf[fetch % stages], base + fetch * 128, sizeof(float) * 128, pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    acc += buf[k % stages][127 - threadIdx.x];
    pipe.consumer_release();
  }
  out[blockIdx.x * 128 + threadIdx.x] = acc;
}

// out = in reversed within each block of 128, through shared memory loaded
// with cooperative_groups::memcpy_async and cg::wait.
__global__ void cg_reverse(const float *__restrict__ in, float *__restrict__ out) {
  __shared__ float buf[128];
  auto block = cg::this_thread_block();
  cg::memcpy_async(block, buf, in + blockIdx.x * 128, sizeof(float) * 128);
  cg::wait(block);
  out[blockIdx.x * 128 + threadIdx.x] = buf[127 - threadIdx.x];
}

// WRONG: reads a neighbour's element before waiting for the copy (the
// barrier alone does not complete a cp.async).
__global__ void early_read(const float *__restrict__ in, float *__restrict__ out) {
  __shared__ float buf[64];
  __pipeline_memcpy_async(&buf[threadIdx.x], &in[threadIdx.x], sizeof(float));
  __pipeline_commit();
  __syncthreads();
  out[threadIdx.x] = buf[63 - threadIdx.x];
  __pipeline_wait_prior(0);
}

// WRONG: the barrier expects one arrival more than the block has threads.
__global__ void barrier_deadlock(const float *__restrict__ in, float *__restrict__ out) {
  __shared__ alignas(16) float buf[64];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size() + 1);
  block.sync();
  cuda::memcpy_async(block, buf, in, cuda::aligned_size_t<16>(sizeof(float) * 64), bar);
  bar.arrive_and_wait();
  out[threadIdx.x] = buf[63 - threadIdx.x];
}

// out = 2 * in, staged in shared memory and written back by one thread with
// Hopper's bulk copy (shared to global, a bulk async-group).
__global__ void bulk_store(const float *__restrict__ in, float *__restrict__ out) {
  namespace cde = cuda::device::experimental;
  __shared__ alignas(128) float buf[256];
  buf[threadIdx.x] = 2.0f * in[blockIdx.x * 256 + threadIdx.x];
  cde::fence_proxy_async_shared_cta(); // the writes above, visible to the async proxy
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_shared_to_global(out + blockIdx.x * 256, buf, sizeof(buf));
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
  }
}
