// polybench_datamining.cu - PolyBench/GPU's correlation and covariance:
// column means, standard deviations, centring, and the symmetric matrix
// of products.
#include "polybench.h"

__global__ void mean_kernel(int m, int n, DATA_TYPE *mean, const DATA_TYPE *data) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < m) {
    mean[j] = 0.0;
    for (int i = 0; i < n; i++) mean[j] += data[i * m + j];
    mean[j] /= (DATA_TYPE)FLOAT_N;
  }
}

__global__ void std_kernel(int m, int n, const DATA_TYPE *mean, DATA_TYPE *std, const DATA_TYPE *data) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < m) {
    std[j] = 0.0;
    for (int i = 0; i < n; i++) std[j] += (data[i * m + j] - mean[j]) * (data[i * m + j] - mean[j]);
    std[j] /= FLOAT_N;
    std[j] = SQRT_FLT(std[j]);
    if (std[j] <= EPS) std[j] = 1.0;
  }
}

__global__ void reduce_kernel(int m, int n, const DATA_TYPE *mean, const DATA_TYPE *std, DATA_TYPE *data) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < m) {
    data[i * m + j] -= mean[j];
    data[i * m + j] /= SQRT_FLT(FLOAT_N) * std[j];
  }
}

__global__ void corr_kernel(int m, int n, DATA_TYPE *symmat, const DATA_TYPE *data) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < m - 1) {
    symmat[j1 * m + j1] = 1.0;
    for (int j2 = j1 + 1; j2 < m; j2++) {
      symmat[j1 * m + j2] = 0.0;
      for (int i = 0; i < n; i++) symmat[j1 * m + j2] += data[i * m + j1] * data[i * m + j2];
      symmat[j2 * m + j1] = symmat[j1 * m + j2];
    }
  }
}

__global__ void covar_reduce_kernel(int m, int n, const DATA_TYPE *mean, DATA_TYPE *data) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < m) data[i * m + j] -= mean[j];
}

__global__ void covar_kernel(int m, int n, DATA_TYPE *symmat, const DATA_TYPE *data) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < m) {
    for (int j2 = j1; j2 < m; j2++) {
      DATA_TYPE s = 0;
      for (int i = 0; i < n; i++) s += data[i * m + j1] * data[i * m + j2];
      symmat[j2 * m + j1] = symmat[j1 * m + j2] = s;
    }
  }
}
