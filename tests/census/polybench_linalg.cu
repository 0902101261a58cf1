// polybench_linalg.cu - PolyBench/GPU's linear-algebra kernels: 2mm, 3mm,
// atax, bicg, gemm, gesummv and mvt, one thread per output element.
#include "polybench.h"

// 2mm: tmp = alpha*A*B; D = tmp*C + beta*D
__global__ void mm2_kernel1(int ni, int nj, int nk, DATA_TYPE alpha, const DATA_TYPE *A, const DATA_TYPE *B, DATA_TYPE *tmp) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nj) {
    DATA_TYPE s = 0;
    for (int k = 0; k < nk; k++) s += alpha * A[i * nk + k] * B[k * nj + j];
    tmp[i * nj + j] = s;
  }
}

__global__ void mm2_kernel2(int ni, int nj, int nl, DATA_TYPE beta, const DATA_TYPE *tmp, const DATA_TYPE *C, DATA_TYPE *D) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nl) {
    D[i * nl + j] *= beta;
    for (int k = 0; k < nj; k++) D[i * nl + j] += tmp[i * nj + k] * C[k * nl + j];
  }
}

// 3mm: E = A*B; F = C*D; G = E*F (one kernel, three launches)
__global__ void mm3_kernel(int ni, int nj, int nk, const DATA_TYPE *__restrict__ A, const DATA_TYPE *__restrict__ B,
                           DATA_TYPE *__restrict__ E) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nj) {
    DATA_TYPE s = 0;
    for (int k = 0; k < nk; ++k) s += A[i * nk + k] * B[k * nj + j];
    E[i * nj + j] = s;
  }
}

// atax: y = A^T (A x)
__global__ void atax_kernel1(const DATA_TYPE *A, const DATA_TYPE *x, DATA_TYPE *tmp, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    DATA_TYPE s = 0;
    for (int j = 0; j < ny; j++) s += A[i * ny + j] * x[j];
    tmp[i] = s;
  }
}

__global__ void atax_kernel2(const DATA_TYPE *A, DATA_TYPE *y, const DATA_TYPE *tmp, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    DATA_TYPE s = 0;
    for (int i = 0; i < nx; i++) s += A[i * ny + j] * tmp[i];
    y[j] = s;
  }
}

// bicg: s = r^T A, q = A p
__global__ void bicg_kernel1(const DATA_TYPE *A, const DATA_TYPE *r, DATA_TYPE *s, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    s[j] = 0;
    for (int i = 0; i < nx; i++) s[j] += r[i] * A[i * ny + j];
  }
}

__global__ void bicg_kernel2(const DATA_TYPE *A, const DATA_TYPE *p, DATA_TYPE *q, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    q[i] = 0;
    for (int j = 0; j < ny; j++) q[i] += A[i * ny + j] * p[j];
  }
}

// gemm: C = alpha*A*B + beta*C
__global__ void gemm_kernel(int ni, int nj, int nk, DATA_TYPE alpha, DATA_TYPE beta, const DATA_TYPE *a,
                            const DATA_TYPE *b, DATA_TYPE *c) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nj) {
    c[i * nj + j] *= beta;
    for (int k = 0; k < nk; k++) c[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
  }
}

// gesummv: y = alpha*A*x + beta*B*x
__global__ void gesummv_kernel(int n, DATA_TYPE alpha, DATA_TYPE beta, const DATA_TYPE *a, const DATA_TYPE *b,
                               const DATA_TYPE *x, DATA_TYPE *y, DATA_TYPE *tmp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    DATA_TYPE t = 0, s = 0;
    for (int j = 0; j < n; j++) {
      t += a[i * n + j] * x[j];
      s += b[i * n + j] * x[j];
    }
    tmp[i] = t;
    y[i] = alpha * t + beta * s;
  }
}

// mvt: x1 += A y1, x2 += A^T y2
__global__ void mvt_kernel1(int n, const DATA_TYPE *a, DATA_TYPE *x1, const DATA_TYPE *y_1) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 0; j < n; j++) x1[i] += a[i * n + j] * y_1[j];
}

__global__ void mvt_kernel2(int n, const DATA_TYPE *a, DATA_TYPE *x2, const DATA_TYPE *y_2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 0; j < n; j++) x2[i] += a[j * n + i] * y_2[j];
}
