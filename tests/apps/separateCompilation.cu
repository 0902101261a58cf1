/* separateCompilation - one program in two files, built with -rdc=true
 * (separate compilation, as NVIDIA's simpleSeparateCompilation sample):
 * the kernel here calls device functions defined in
 * separateCompilation_lib.cu, through a call and through a function
 * pointer read from a __device__ variable whose initializer names the
 * other file's function, and counts its threads in a __device__ variable
 * of the other file, which the host reads back with cudaMemcpyFromSymbol
 * and a kernel of the other file reads too. */
#include <cmath>
#include <vector>

#include "app_util.h"

typedef float (*UnaryOp)(float);

extern __device__ float transform(float x);
extern __device__ float negate(float x);
extern __device__ unsigned calls;
__global__ void readCalls(unsigned *out);

__device__ UnaryOp opPtr = negate;

__global__ void apply(float *v, int n, UnaryOp op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  v[i] = op(transform(v[i]));
  atomicAdd(&calls, 1u);
}

int main() {
  const int n = 1000;
  std::vector<float> h(n), out(n);
  unsigned seed = 777;
  for (int i = 0; i < n; i++) h[i] = app_randf(&seed);
  float *dv;
  unsigned *dcalls;
  CHECK_CUDA(cudaMalloc(&dv, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dcalls, sizeof(unsigned)));
  CHECK_CUDA(cudaMemcpy(dv, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  UnaryOp op;
  CHECK_CUDA(cudaMemcpyFromSymbol(&op, opPtr, sizeof op));
  apply<<<(n + 127) / 128, 128>>>(dv, n, op);
  CHECK_LAUNCH();
  readCalls<<<1, 1>>>(dcalls);
  CHECK_LAUNCH();
  unsigned byKernel = 0, bySymbol = 0;
  CHECK_CUDA(cudaMemcpy(out.data(), dv, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&byKernel, dcalls, sizeof byKernel, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpyFromSymbol(&bySymbol, calls, sizeof bySymbol));
  long wrong = (byKernel != (unsigned)n) + (bySymbol != (unsigned)n);
  if (wrong) std::printf("calls: %u by readCalls, %u by cudaMemcpyFromSymbol, expected %d\n", byKernel, bySymbol, n);
  for (int i = 0; i < n; i++)
    if (std::fabs(out[i] + (2.0f * h[i] + 1.0f)) > 1e-5f) wrong++;
  CHECK_CUDA(cudaFree(dv));
  CHECK_CUDA(cudaFree(dcalls));
  return app_verdict("separateCompilation", wrong, n + 2);
}
