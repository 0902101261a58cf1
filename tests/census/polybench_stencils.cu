// polybench_stencils.cu - PolyBench/GPU's stencils: fdtd-2d (three field
// updates per time step), jacobi-2d, and the 2D and 3D convolutions.
#include "polybench.h"

__global__ void fdtd_step1_kernel(int nx, int ny, const DATA_TYPE *_fict_, DATA_TYPE *ex, DATA_TYPE *ey,
                                  const DATA_TYPE *hz, int t) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny) {
    if (i == 0) ey[i * ny + j] = _fict_[t];
    else ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
  }
}

__global__ void fdtd_step2_kernel(int nx, int ny, DATA_TYPE *ex, const DATA_TYPE *ey, const DATA_TYPE *hz) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny && j > 0) ex[i * (ny + 1) + j] -= 0.5f * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
}

__global__ void fdtd_step3_kernel(int nx, int ny, const DATA_TYPE *ex, const DATA_TYPE *ey, DATA_TYPE *hz) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny)
    hz[i * ny + j] -= 0.7f * (ex[i * (ny + 1) + (j + 1)] - ex[i * (ny + 1) + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
}

__global__ void jacobi2d_kernel1(int n, const DATA_TYPE *A, DATA_TYPE *B) {
  int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
    B[i * n + j] = 0.2f * (A[i * n + j] + A[i * n + (j - 1)] + A[i * n + (1 + j)] + A[(1 + i) * n + j] + A[(i - 1) * n + j]);
}

__global__ void jacobi2d_kernel2(int n, DATA_TYPE *A, const DATA_TYPE *B) {
  int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1) A[i * n + j] = B[i * n + j];
}

__global__ void convolution2D_kernel(int ni, int nj, const DATA_TYPE *A, DATA_TYPE *B) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  const DATA_TYPE c11 = +0.2f, c21 = +0.5f, c31 = -0.8f, c12 = -0.3f, c22 = +0.6f, c32 = -0.9f, c13 = +0.4f,
                  c23 = +0.7f, c33 = +0.10f;
  if (i < ni - 1 && j < nj - 1 && i > 0 && j > 0)
    B[i * nj + j] = c11 * A[(i - 1) * nj + (j - 1)] + c21 * A[(i - 1) * nj + j] + c31 * A[(i - 1) * nj + (j + 1)] +
                    c12 * A[i * nj + (j - 1)] + c22 * A[i * nj + j] + c32 * A[i * nj + (j + 1)] +
                    c13 * A[(i + 1) * nj + (j - 1)] + c23 * A[(i + 1) * nj + j] + c33 * A[(i + 1) * nj + (j + 1)];
}

__global__ void convolution3D_kernel(int ni, int nj, int nk, const DATA_TYPE *A, DATA_TYPE *B, int i) {
  int k = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  const DATA_TYPE c11 = +2, c21 = +5, c31 = -8, c12 = -3, c22 = +6, c32 = -9, c13 = +4, c23 = +7, c33 = +10;
#define A3(x, y, z) A[(x) * (nk * nj) + (y) * nk + (z)]
  if (i < ni - 1 && j < nj - 1 && k < nk - 1 && i > 0 && j > 0 && k > 0)
    B[i * (nk * nj) + j * nk + k] = c11 * A3(i - 1, j - 1, k - 1) + c13 * A3(i + 1, j - 1, k - 1) +
                                    c21 * A3(i - 1, j - 1, k - 1) + c23 * A3(i + 1, j - 1, k - 1) +
                                    c31 * A3(i - 1, j - 1, k - 1) + c33 * A3(i + 1, j - 1, k - 1) +
                                    c12 * A3(i, j - 1, k) + c22 * A3(i, j, k) + c32 * A3(i, j + 1, k) +
                                    c11 * A3(i - 1, j - 1, k + 1) + c13 * A3(i + 1, j - 1, k + 1) +
                                    c21 * A3(i - 1, j, k + 1) + c23 * A3(i + 1, j, k + 1) +
                                    c31 * A3(i - 1, j + 1, k + 1) + c33 * A3(i + 1, j + 1, k + 1);
#undef A3
}
