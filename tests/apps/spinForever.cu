/* spinForever - an application whose second kernel never ends: it polls a
 * flag nothing sets, counting (its registers change, so only the watchdog
 * can end it).  Run under `warpmem run --max-instructions 1M`, the launch
 * is stopped and cudaDeviceSynchronize returns cudaErrorLaunchTimeout,
 * sticky as a GPU's watchdog makes it; the first kernel's report must
 * survive (run_app.sh --json spinForever). */
#include "app_util.h"

__global__ void scaleFirst(float *x, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] *= a;
}

__global__ void pollForever(volatile unsigned *flag, unsigned *polls) {
  unsigned n = 0;
  while (*flag != 12345u) n++;
  polls[threadIdx.x] = n;
}

int main() {
  const int n = 1024;
  float *x;
  unsigned *flag;
  CHECK_CUDA(cudaMalloc(&x, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&flag, 64 * sizeof(unsigned)));
  CHECK_CUDA(cudaMemset(x, 0, n * sizeof(float)));
  CHECK_CUDA(cudaMemset(flag, 0, 64 * sizeof(unsigned)));
  scaleFirst<<<n / 256, 256>>>(x, 2.0f);
  CHECK_CUDA(cudaDeviceSynchronize());
  pollForever<<<1, 32>>>(flag, flag + 32);
  cudaError_t sync = cudaDeviceSynchronize();
  std::printf("cudaDeviceSynchronize: %s (%s)\n", cudaGetErrorName(sync), cudaGetErrorString(sync));
  cudaError_t after = cudaMemset(x, 0, n * sizeof(float));
  std::printf("cudaMemset after the timeout: %s\n", cudaGetErrorName(after));
  int ok = sync == cudaErrorLaunchTimeout && after == cudaErrorLaunchTimeout;
  std::printf("spinForever: %s\n", ok ? "PASSED" : "FAILED (expected cudaErrorLaunchTimeout, sticky)");
  return ok ? 0 : 1;
}
