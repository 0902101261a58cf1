/* clockAssert - two things the CUDA samples do that must not look like
 * faults, and one fault that must look like CUDA's:
 *  - clock_block waits on clock64() for a number of cycles (the samples'
 *    concurrentKernels, simpleHyperQ): it must end, not be stopped as a
 *    warp spinning on memory nobody changes;
 *  - a kernel whose assert() fails ends with cudaErrorAssert (710), as on a
 *    GPU, and the error is sticky (the samples' simpleAssert checks the
 *    code it gets).
 * Passes natively on a GPU and under warpmem run. */
#include <cassert>

#include "app_util.h"

__global__ void clock_block(long long *out, long long cycles) {
  long long start = clock64(), now = start;
  while (now - start < cycles) now = clock64();
  out[threadIdx.x] = now - start;
}

__global__ void below(const int *v, int limit) { assert(v[threadIdx.x] < limit); }

int main() {
  const long long cycles = 100000000; /* 50 ms at the H200's 1.98 GHz: past the spin watch's budget */
  long long *dt, ht[32];
  CHECK_CUDA(cudaMalloc(&dt, sizeof ht));
  clock_block<<<1, 32>>>(dt, cycles);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaMemcpy(ht, dt, sizeof ht, cudaMemcpyDeviceToHost));
  long wrong = 0;
  for (int i = 0; i < 32; i++) wrong += ht[i] < cycles;
  if (wrong) std::printf("clock_block: %ld threads waited fewer than %lld cycles\n", wrong, cycles);

  int hv[64], *dv;
  for (int i = 0; i < 64; i++) hv[i] = i;
  CHECK_CUDA(cudaMalloc(&dv, sizeof hv));
  CHECK_CUDA(cudaMemcpy(dv, hv, sizeof hv, cudaMemcpyHostToDevice));
  below<<<1, 64>>>(dv, 100); /* every value is below: no assert */
  CHECK_CUDA(cudaDeviceSynchronize());
  below<<<1, 64>>>(dv, 40); /* threads 40..63 fail */
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaErrorAssert) {
    std::printf("a failed assert gave %s (%d), not cudaErrorAssert\n", cudaGetErrorName(e), (int)e);
    wrong++;
  }
  e = cudaMemcpy(hv, dv, sizeof hv, cudaMemcpyDeviceToHost); /* sticky: the context is lost */
  if (e != cudaErrorAssert) {
    std::printf("after the assert a copy gave %s (%d), not cudaErrorAssert\n", cudaGetErrorName(e), (int)e);
    wrong++;
  }
  return app_verdict("clockAssert", wrong, 35);
}
