// globalToShmemAsyncCopy.cu - a tiled matrix product whose tiles move from
// global to shared memory with asynchronous copies: cuda::memcpy_async
// through a cuda::pipeline (multi-stage), the __pipeline_memcpy_async
// primitives, and cooperative_groups::memcpy_async.  sm_80 and later.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include "census_common.h"

namespace cg = cooperative_groups;

template <int BLOCK_SIZE>
__global__ void MatrixMulAsyncCopyMultiStage(float *__restrict__ C, const float *__restrict__ A,
                                             const float *__restrict__ B, int wA, int wB) {
  constexpr int STAGES = 4;
  __shared__ alignas(16) float As[STAGES][BLOCK_SIZE][BLOCK_SIZE];
  __shared__ alignas(16) float Bs[STAGES][BLOCK_SIZE][BLOCK_SIZE];
  auto pipe = cuda::make_pipeline();
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int aBegin = wA * BLOCK_SIZE * by, aEnd = aBegin + wA - 1, aStep = BLOCK_SIZE;
  int bBegin = BLOCK_SIZE * bx, bStep = BLOCK_SIZE * wB;
  float Csub = 0.0f;
  for (int a = aBegin, b = bBegin, i = 0, aStage = aBegin, bStage = bBegin, iStage = 0; a <= aEnd;
       a += aStep, b += bStep, ++i) {
    for (; aStage <= a + aStep * (STAGES - 1) && aStage <= aEnd; aStage += aStep, bStage += bStep, ++iStage) {
      pipe.producer_acquire();
      if (tx < BLOCK_SIZE / 4) {
        int j = iStage % STAGES;
        cuda::memcpy_async(&As[j][ty][tx * 4], &A[aStage + wA * ty + tx * 4], cuda::aligned_size_t<16>(16), pipe);
        cuda::memcpy_async(&Bs[j][ty][tx * 4], &B[bStage + wB * ty + tx * 4], cuda::aligned_size_t<16>(16), pipe);
      }
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    __syncthreads();
    int j = i % STAGES;
#pragma unroll
    for (int k = 0; k < BLOCK_SIZE; ++k) Csub += As[j][ty][k] * Bs[j][k][tx];
    pipe.consumer_release();
    __syncthreads();
  }
  int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
  C[c + wB * ty + tx] = Csub;
}

// Double buffering with the __pipeline primitives of <cuda_pipeline.h>.
template <int BLOCK_SIZE>
__global__ void MatrixMulAsyncCopyPrimitives(float *C, const float *A, const float *B, int wA, int wB) {
  __shared__ alignas(16) float As[2][BLOCK_SIZE][BLOCK_SIZE];
  __shared__ alignas(16) float Bs[2][BLOCK_SIZE][BLOCK_SIZE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int aBegin = wA * BLOCK_SIZE * blockIdx.y, steps = wA / BLOCK_SIZE;
  int bBegin = BLOCK_SIZE * blockIdx.x;
  float acc = 0;
  __pipeline_memcpy_async(&As[0][ty][tx], &A[aBegin + wA * ty + tx], sizeof(float));
  __pipeline_memcpy_async(&Bs[0][ty][tx], &B[bBegin + wB * ty + tx], sizeof(float));
  __pipeline_commit();
  for (int s = 0; s < steps; s++) {
    int cur = s & 1;
    if (s + 1 < steps) {
      int a = aBegin + (s + 1) * BLOCK_SIZE, b = bBegin + (s + 1) * BLOCK_SIZE * wB;
      __pipeline_memcpy_async(&As[cur ^ 1][ty][tx], &A[a + wA * ty + tx], sizeof(float));
      __pipeline_memcpy_async(&Bs[cur ^ 1][ty][tx], &B[b + wB * ty + tx], sizeof(float));
    }
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BLOCK_SIZE; k++) acc += As[cur][ty][k] * Bs[cur][k][tx];
    __syncthreads();
  }
  C[wB * BLOCK_SIZE * blockIdx.y + BLOCK_SIZE * blockIdx.x + wB * ty + tx] = acc;
}

// Whole-tile copies by the block with cooperative groups, 16-byte chunks
// with zero fill past the end.
__global__ void cg_async_sum(const float4 *in, float *out, int n4) {
  extern __shared__ float4 stage[];
  cg::thread_block block = cg::this_thread_block();
  int base = blockIdx.x * blockDim.x;
  int count = min((int)blockDim.x, n4 - base);
  cg::memcpy_async(block, stage, in + base, sizeof(float4) * count);
  cg::wait(block);
  float4 v = threadIdx.x < count ? stage[threadIdx.x] : make_float4(0, 0, 0, 0);
  atomicAdd(out, v.x + v.y + v.z + v.w);
}

__global__ void zero_fill_copy(const int4 *in, int4 *out, int n) {
  __shared__ alignas(16) int4 buf[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __pipeline_memcpy_async(&buf[threadIdx.x], &in[i < n ? i : 0], sizeof(int4), i < n ? 0 : sizeof(int4));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[i] = buf[threadIdx.x];
}

void launch_async(float *C, const float *A, const float *B, int n) {
  MatrixMulAsyncCopyMultiStage<16><<<dim3(n / 16, n / 16), dim3(16, 16)>>>(C, A, B, n, n);
  MatrixMulAsyncCopyMultiStage<32><<<dim3(n / 32, n / 32), dim3(32, 32)>>>(C, A, B, n, n);
  MatrixMulAsyncCopyPrimitives<16><<<dim3(n / 16, n / 16), dim3(16, 16)>>>(C, A, B, n, n);
}
