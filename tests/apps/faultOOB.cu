/* faultOOB - an application whose kernel writes out of bounds, far enough
 * (1 GiB past its buffer) that a GPU faults too.  CUDA reports it
 * asynchronously: cudaDeviceSynchronize returns cudaErrorIllegalAddress,
 * and the error is sticky (the next calls return it as well).  The app
 * checks exactly that and exits 0, so its own error handling is what is
 * tested. */
#include "app_util.h"

__global__ void writeOutOfBounds(float *buf, int n, long long offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) buf[i] = 1.0f;
  if (i == n - 1) buf[i + offset] = 2.0f; /* the fault */
}

int main() {
  const int n = 1024;
  float *buf;
  CHECK_CUDA(cudaMalloc(&buf, n * sizeof(float)));
  writeOutOfBounds<<<n / 256, 256>>>(buf, n, 1LL << 28);
  cudaError_t launch = cudaPeekAtLastError(); /* success, or already the fault */
  cudaError_t sync = cudaDeviceSynchronize();
  std::printf("cudaDeviceSynchronize: %s (%s)\n", cudaGetErrorName(sync), cudaGetErrorString(sync));
  cudaError_t after = cudaMemset(buf, 0, n * sizeof(float));
  std::printf("cudaMemset after the fault: %s\n", cudaGetErrorName(after));
  int ok = (launch == cudaSuccess || launch == cudaErrorIllegalAddress) && sync == cudaErrorIllegalAddress &&
           after == cudaErrorIllegalAddress;
  std::printf("faultOOB: %s\n", ok ? "PASSED" : "FAILED (expected cudaErrorIllegalAddress, sticky)");
  return ok ? 0 : 1;
}
