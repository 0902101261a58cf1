/* benchLoop - a benchmark loop as the CUDA samples and llm.c write them:
 * a warm-up launch, then 20 timed launches of scale (cudaEvent timing),
 * then 3 of offset, the result checked once at the end.  Under
 * `warpmem run --profile-once` the first launch of each kernel is modelled
 * and the other 22 run functionally (check_report.py benchLoop-once).
 * Passes natively on a GPU and under warpmem run. */
#include <cmath>
#include <vector>

#include "app_util.h"

__global__ void scale(float *x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

__global__ void offset(float *x, float d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += d;
}

int main() {
  const int n = 16384, block = 256, grid = n / block, iters = 20;
  std::vector<float> h(n);
  for (int i = 0; i < n; i++) h[i] = (float)(i % 100);
  float *d;
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  scale<<<grid, block>>>(d, 1.0f, n); /* warm-up */
  CHECK_CUDA(cudaEventRecord(start));
  for (int it = 0; it < iters; it++) scale<<<grid, block>>>(d, it % 2 ? 0.5f : 2.0f, n);
  CHECK_CUDA(cudaEventRecord(stop));
  CHECK_CUDA(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
  std::printf("benchLoop: %d launches of scale, %.3f ms each\n", iters, ms / iters);
  for (int it = 0; it < 3; it++) offset<<<grid, block>>>(d, 1.0f, n);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  long wrong = 0; /* x2 then x0.5, ten times: back to x; then +3 */
  for (int i = 0; i < n; i++) wrong += h[i] != (float)(i % 100) + 3.0f;
  return app_verdict("benchLoop", wrong, n);
}
