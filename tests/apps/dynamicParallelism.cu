/* dynamicParallelism - a kernel that launches a kernel (<<<>>> on the
 * device, -rdc=true), which warpmem run refuses, naming dynamic
 * parallelism; the child kernel launched from the host still runs.  On a
 * GPU both run. */
#include "app_util.h"

__global__ void fill(int *p, int v) { p[threadIdx.x] = v + (int)threadIdx.x; }

__global__ void parent(int *p) {
  if (threadIdx.x == 0) fill<<<1, 32>>>(p, 100);
}

int main() {
  int *dp, h[32];
  CHECK_CUDA(cudaMalloc(&dp, sizeof h));
  parent<<<1, 32>>>(dp);
  cudaError_t e = cudaDeviceSynchronize(); /* refused under warpmem: not checked */
  std::printf("parent: %s\n", cudaGetErrorString(e));
  cudaGetLastError();
  fill<<<1, 32>>>(dp, 7);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaMemcpy(h, dp, sizeof h, cudaMemcpyDeviceToHost));
  long wrong = 0;
  for (int i = 0; i < 32; i++) wrong += h[i] != 7 + i;
  CHECK_CUDA(cudaFree(dp));
  return app_verdict("dynamicParallelism", wrong, 32);
}
