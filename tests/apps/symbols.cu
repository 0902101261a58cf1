/* symbols - a polynomial with coefficients in __constant__ memory set by
 * cudaMemcpyToSymbol (and at an offset), a __device__ counter the kernel
 * adds to, read back with cudaMemcpyFromSymbol, and a __device__ array
 * written through the address cudaGetSymbolAddress gives. */
#include <cmath>
#include <vector>

#include "app_util.h"

#define DEGREE 4

__constant__ float coeffs[DEGREE + 1];
__device__ unsigned evaluated;
__device__ float results[512];

__global__ void evalPoly(const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float y = 0.0f;
  for (int d = DEGREE; d >= 0; d--) y = y * x[i] + coeffs[d];
  results[i] = y;
  atomicAdd(&evaluated, 1u);
}

int main() {
  const int n = 512;
  float c[DEGREE + 1] = {1.0f, -2.0f, 0.5f, 0.25f, 0.0f};
  const float last = -0.125f;
  CHECK_CUDA(cudaMemcpyToSymbol(coeffs, c, DEGREE * sizeof(float)));
  CHECK_CUDA(cudaMemcpyToSymbol(coeffs, &last, sizeof last, DEGREE * sizeof(float))); /* at an offset */
  c[DEGREE] = last;
  unsigned zero = 0;
  CHECK_CUDA(cudaMemcpyToSymbol(evaluated, &zero, sizeof zero));
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; i++) x[i] = (i - n / 2) / 128.0f;
  float *dx;
  CHECK_CUDA(cudaMalloc(&dx, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  evalPoly<<<n / 128, 128>>>(dx, n);
  CHECK_LAUNCH();
  unsigned count = 0;
  CHECK_CUDA(cudaMemcpyFromSymbol(&count, evaluated, sizeof count));
  float *dresults;
  CHECK_CUDA(cudaGetSymbolAddress((void **)&dresults, results));
  CHECK_CUDA(cudaMemcpy(y.data(), dresults, n * sizeof(float), cudaMemcpyDeviceToHost));
  long wrong = count != (unsigned)n;
  for (int i = 0; i < n; i++) {
    float want = 0.0f;
    for (int d = DEGREE; d >= 0; d--) want = want * x[i] + c[d];
    if (std::fabs(y[i] - want) > 1e-4f * (1.0f + std::fabs(want))) wrong++;
  }
  std::printf("symbols: %u evaluations counted on the device\n", count);
  CHECK_CUDA(cudaFree(dx));
  return app_verdict("symbols", wrong, n + 1);
}
