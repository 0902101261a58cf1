// polybench_solvers.cu - PolyBench/GPU's LU decomposition and Gram-Schmidt
// QR: a pivot-row kernel and a trailing-update kernel per step, column
// norms, normalisation and projections.
#include "polybench.h"

__global__ void lu_kernel1(int n, DATA_TYPE *A, int k) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j > k && j < n) A[k * n + j] = A[k * n + j] / A[k * n + k];
}

__global__ void lu_kernel2(int n, DATA_TYPE *A, int k) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i > k && j > k && i < n && j < n) A[i * n + j] = A[i * n + j] - A[i * n + k] * A[k * n + j];
}

__global__ void gramschmidt_kernel1(int ni, int nj, const DATA_TYPE *a, DATA_TYPE *r, int k) {
  if (blockIdx.x * blockDim.x + threadIdx.x == 0) {
    DATA_TYPE nrm = 0.0;
    for (int i = 0; i < ni; i++) nrm += a[i * nj + k] * a[i * nj + k];
    r[k * nj + k] = SQRT_FLT(nrm);
  }
}

__global__ void gramschmidt_kernel2(int ni, int nj, const DATA_TYPE *a, const DATA_TYPE *r, DATA_TYPE *q, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < ni) q[i * nj + k] = a[i * nj + k] / r[k * nj + k];
}

__global__ void gramschmidt_kernel3(int ni, int nj, DATA_TYPE *a, DATA_TYPE *r, const DATA_TYPE *q, int k) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j > k && j < nj) {
    r[k * nj + j] = 0.0;
    for (int i = 0; i < ni; i++) r[k * nj + j] += q[i * nj + k] * a[i * nj + j];
    for (int i = 0; i < ni; i++) a[i * nj + j] -= q[i * nj + k] * r[k * nj + j];
  }
}

// A shared-memory reduction variant of the norm (one block per column)
template <int BLOCK>
__global__ void column_norm(int ni, int nj, const double *a, double *norms) {
  __shared__ double part[BLOCK];
  int col = blockIdx.x;
  double s = 0;
  for (int i = threadIdx.x; i < ni; i += BLOCK) s += a[i * nj + col] * a[i * nj + col];
  part[threadIdx.x] = s;
#pragma unroll
  for (int w = BLOCK / 2; w > 0; w >>= 1) {
    __syncthreads();
    if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
  }
  if (threadIdx.x == 0) norms[col] = sqrt(part[0]);
}

template __global__ void column_norm<128>(int, int, const double *, double *);
