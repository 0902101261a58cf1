/* matrixMul - C = A * B with square tiles in shared memory: each block
 * computes a TILE x TILE tile of C, stepping along the shared dimension one
 * tile of A and one of B at a time (staged in shared memory, two
 * __syncthreads per step).  Sizes are multiples of TILE; checked against
 * the host's product with a relative tolerance. */
#include <cmath>
#include <vector>

#include "app_util.h"

#define TILE 16

__global__ void matrixMulTiled(const float *A, const float *B, float *C, int m, int k, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < k; t += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * k + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
    __syncthreads();
#pragma unroll
    for (int j = 0; j < TILE; j++) sum += As[threadIdx.y][j] * Bs[j][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = sum;
}

int main() {
  const int m = 128, k = 96, n = 64; /* C is m x n */
  std::vector<float> A(m * k), B(k * n), C(m * n), ref(m * n, 0.0f);
  unsigned seed = 7;
  for (float &x : A) x = app_randf(&seed) - 0.5f;
  for (float &x : B) x = app_randf(&seed) - 0.5f;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < k; j++)
      for (int l = 0; l < n; l++) ref[i * n + l] += A[i * k + j] * B[j * n + l];
  float *dA, *dB, *dC;
  CHECK_CUDA(cudaMalloc(&dA, A.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dB, B.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dC, C.size() * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(TILE, TILE), grid(n / TILE, m / TILE);
  std::printf("matrixMul: C(%dx%d) = A(%dx%d) * B(%dx%d), %dx%d tiles\n", m, n, m, k, k, n, TILE, TILE);
  matrixMulTiled<<<grid, block>>>(dA, dB, dC, m, k, n);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaMemcpy(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost));
  long wrong = 0;
  for (int i = 0; i < m * n; i++)
    if (std::fabs(C[i] - ref[i]) > 1e-4f * (1.0f + std::fabs(ref[i]))) wrong++;
  CHECK_CUDA(cudaFree(dA));
  CHECK_CUDA(cudaFree(dB));
  CHECK_CUDA(cudaFree(dC));
  return app_verdict("matrixMul", wrong, m * n);
}
