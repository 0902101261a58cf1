// simplePrintf.cu - printf from device code: integers, floats, strings,
// pointers and widths, from selected threads and from a helper function.
#include "census_common.h"

__global__ void testKernel(int val) {
  printf("[%d, %d]:\t\tValue is:%d\n", blockIdx.y * gridDim.x + blockIdx.x,
         threadIdx.z * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x, val);
}

__device__ void report(const char *what, float x, double y) {
  printf("%-10s %8.3f %e %g %5.2f%%\n", what, x, y, y * 2, x * 100.0f);
}

__global__ void formats(const float *data, const char *label, void *ptr, long long big) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) {
    printf("label=%s ptr=%p big=%lld hex=%#x char=%c\n", label, ptr, big, 0xbeef, 'w');
    report("first", data[0], (double)data[1]);
  }
  if (threadIdx.x % 32 == 0) printf("warp %u of block %u: %08x\n", threadIdx.x / 32, blockIdx.x, __float_as_uint(data[i]));
}

template <typename T>
__global__ void dump(const T *x, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) printf("x[%d] = %d\n", i, (int)x[i]);
}

template __global__ void dump<int>(const int *, int);
template __global__ void dump<unsigned char>(const unsigned char *, int);
