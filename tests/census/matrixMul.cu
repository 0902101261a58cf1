// matrixMul.cu - C = A * B with square shared-memory tiles, the tile edge
// a template parameter, and a variant that computes a 2x2 micro-tile per
// thread with float2 loads.
#include "census_common.h"

template <int BLOCK_SIZE>
__global__ void MatrixMulCUDA(float *C, const float *A, const float *B, int wA, int wB) {
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int aBegin = wA * BLOCK_SIZE * by, aEnd = aBegin + wA - 1, aStep = BLOCK_SIZE;
  int bBegin = BLOCK_SIZE * bx, bStep = BLOCK_SIZE * wB;
  float acc = 0.0f;
  for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BLOCK_SIZE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
  C[c + wB * ty + tx] = acc;
}

// 2x2 results per thread; TILE x TILE output tile from (TILE/2)^2 threads
template <int TILE>
__global__ void __launch_bounds__((TILE / 2) * (TILE / 2))
matmul_2x2(float *__restrict__ C, const float *__restrict__ A, const float *__restrict__ B, int n) {
  __shared__ float As[TILE][TILE + 1];
  __shared__ __align__(16) float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + 2 * ty, col = blockIdx.x * TILE + 2 * tx;
  float c00 = 0, c01 = 0, c10 = 0, c11 = 0;
  for (int t = 0; t < n; t += TILE) {
    for (int r = 0; r < 2; r++) {
      float2 a = *reinterpret_cast<const float2 *>(&A[(row + r) * n + t + 2 * tx]);
      As[2 * ty + r][2 * tx] = a.x;
      As[2 * ty + r][2 * tx + 1] = a.y;
      *reinterpret_cast<float2 *>(&Bs[2 * ty + r][2 * tx]) =
          __ldg(reinterpret_cast<const float2 *>(&B[(t + 2 * ty + r) * n + col]));
    }
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < TILE; k++) {
      float2 b = *reinterpret_cast<const float2 *>(&Bs[k][2 * tx]);
      float a0 = As[2 * ty][k], a1 = As[2 * ty + 1][k];
      c00 = fmaf(a0, b.x, c00);
      c01 = fmaf(a0, b.y, c01);
      c10 = fmaf(a1, b.x, c10);
      c11 = fmaf(a1, b.y, c11);
    }
    __syncthreads();
  }
  *reinterpret_cast<float2 *>(&C[row * n + col]) = make_float2(c00, c01);
  *reinterpret_cast<float2 *>(&C[(row + 1) * n + col]) = make_float2(c10, c11);
}

void launch_matrix_mul(float *C, const float *A, const float *B, int n) {
  dim3 threads16(16, 16), threads32(32, 32), grid16(n / 16, n / 16), grid32(n / 32, n / 32);
  MatrixMulCUDA<16><<<grid16, threads16>>>(C, A, B, n, n);
  MatrixMulCUDA<32><<<grid32, threads32>>>(C, A, B, n, n);
  matmul_2x2<32><<<grid32, threads16>>>(C, A, B, n);
  matmul_2x2<64><<<dim3(n / 64, n / 64), threads32>>>(C, A, B, n);
}
