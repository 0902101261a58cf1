// checkMem.cu - an application with the device-memory bugs `warpmem run
// --check` finds (tests/check/run_check.sh): an input cudaMalloc'd but never
// copied to (initcheck), a double cudaFree and an allocation never freed
// (memcheck).  `checkMem fixed` is its corrected twin.
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

__global__ void scale(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}

int main(int argc, char **argv) {
  int fixed = argc > 1 && !strcmp(argv[1], "fixed");
  const int n = 256;
  float *in, *out, *extra, h[n];
  for (int i = 0; i < n; i++) h[i] = (float)i;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMalloc(&extra, 1024);
  if (fixed) cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  scale<<<1, n>>>(out, in, n);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(in);
  cudaFree(out);
  if (!fixed) cudaFree(in);
  if (fixed) cudaFree(extra);
  printf("checkMem: done\n");
  return 0;
}
