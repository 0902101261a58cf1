/* managedMemory - unified memory: cudaMallocManaged data the host writes,
 * a kernel squares in place and adds to a __managed__ counter, and the host
 * reads back directly after cudaDeviceSynchronize (no cudaMemcpy). */
#include "app_util.h"

__managed__ int squared = 0;

__global__ void squareInPlace(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    v[i] = v[i] * v[i];
    atomicAdd(&squared, 1);
  }
}

int main() {
  const int n = 3000; /* not a multiple of the block: the guard matters */
  int *v;
  CHECK_CUDA(cudaMallocManaged(&v, n * sizeof(int)));
  for (int i = 0; i < n; i++) v[i] = i - n / 2;
  squared = 0;
  squareInPlace<<<(n + 255) / 256, 256>>>(v, n);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaDeviceSynchronize());
  long wrong = 0;
  for (int i = 0; i < n; i++) {
    long long x = i - n / 2;
    wrong += v[i] != x * x;
  }
  wrong += squared != n;
  std::printf("managedMemory: %d values squared on the device, v[0] = %d\n", squared, v[0]);
  CHECK_CUDA(cudaFree(v));
  return app_verdict("managedMemory", wrong, n + 1);
}
