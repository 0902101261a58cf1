// polybench_blas3.cu - PolyBench/GPU's symmetric rank updates: syrk
// (C = alpha*A*A^T + beta*C) and syr2k (C = alpha*A*B^T + alpha*B*A^T +
// beta*C), in float and double.
#include "polybench.h"

template <typename T>
__global__ void syrk_kernel(int n, int m, T alpha, T beta, const T *a, T *c) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) {
    c[i * n + j] *= beta;
    for (int k = 0; k < m; k++) c[i * n + j] += alpha * a[i * m + k] * a[j * m + k];
  }
}

template <typename T>
__global__ void syr2k_kernel(int n, int m, T alpha, T beta, const T *a, const T *b, T *c) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) {
    T acc = c[i * n + j] * beta;
    for (int k = 0; k < m; k++) acc += alpha * a[i * m + k] * b[j * m + k] + alpha * b[i * m + k] * a[j * m + k];
    c[i * n + j] = acc;
  }
}

template __global__ void syrk_kernel<float>(int, int, float, float, const float *, float *);
template __global__ void syrk_kernel<double>(int, int, double, double, const double *, double *);
template __global__ void syr2k_kernel<float>(int, int, float, float, const float *, const float *, float *);
template __global__ void syr2k_kernel<double>(int, int, double, double, const double *, const double *, double *);
