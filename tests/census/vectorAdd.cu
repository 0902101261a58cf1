// vectorAdd.cu - the first kernel everyone writes, and the variants that
// follow it: grid-stride loops, float4 vectors, a templated SAXPY.
#include "census_common.h"

__global__ void vectorAdd(const float *A, const float *B, float *C, int numElements) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < numElements) C[i] = A[i] + B[i];
}

__global__ void vectorAddGridStride(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c,
                                    size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    c[i] = __ldg(a + i) + __ldg(b + i);
}

__global__ void vectorAdd4(const float4 *a, const float4 *b, float4 *c, int n4) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n4) return;
  float4 x = a[i], y = b[i];
  c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
}

template <typename T>
__global__ void axpy(T alpha, const T *x, T *y, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i] + y[i];
}

template __global__ void axpy<float>(float, const float *, float *, long);
template __global__ void axpy<double>(double, const double *, double *, long);
template __global__ void axpy<int>(int, const int *, int *, long);
