// simpleAssert.cu - device-side assert() for bounds and invariants, and
// the __trap() / __brkpt() that stop a kernel outright.
#include <cassert>
#include "census_common.h"

__global__ void testKernel(int N) {
  int gtid = blockIdx.x * blockDim.x + threadIdx.x;
  assert(gtid < N);
}

template <typename T>
__global__ void checked_scale(T *x, int n, T factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  assert(factor != T(0) && "scaling by zero loses the data");
  T v = x[i] * factor;
  assert(v == v); // no NaN
  x[i] = v;
}

__global__ void must_be_sorted(const int *keys, int n, int *bad) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n && keys[i] > keys[i + 1]) {
    atomicAdd(bad, 1);
    __trap();
  }
}

template __global__ void checked_scale<float>(float *, int, float);
template __global__ void checked_scale<double>(double *, int, double);
