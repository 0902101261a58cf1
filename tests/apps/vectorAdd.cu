/* vectorAdd - C = A + B over n floats (argv[1], default 16384), one thread
 * per element, 256 threads per block.  The report's golden numbers
 * (run_app.sh --check-json): n/32 warps each load A and B once and store C
 * once, every warp's 32 floats in one 128-byte line: n*4/32 sectors per
 * array when n is a multiple of 32 (cudaMalloc aligns to 256 bytes). */
#include <cmath>
#include <vector>

#include "app_util.h"

__global__ void vectorAdd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 16384;
  if (n <= 0) {
    std::fprintf(stderr, "usage: vectorAdd [N > 0]\n");
    return 2;
  }
  size_t bytes = (size_t)n * sizeof(float);
  std::vector<float> a(n), b(n), c(n);
  unsigned seed = 12345;
  for (int i = 0; i < n; i++) {
    a[i] = app_randf(&seed);
    b[i] = app_randf(&seed);
  }
  float *da, *db, *dc;
  CHECK_CUDA(cudaMalloc(&da, bytes));
  CHECK_CUDA(cudaMalloc(&db, bytes));
  CHECK_CUDA(cudaMalloc(&dc, bytes));
  CHECK_CUDA(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice));
  int block = 256, grid = (n + block - 1) / block;
  std::printf("vectorAdd of %d elements: %d blocks of %d threads\n", n, grid, block);
  vectorAdd<<<grid, block>>>(da, db, dc, n);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost));
  long wrong = 0;
  for (int i = 0; i < n; i++)
    if (std::fabs(c[i] - (a[i] + b[i])) > 1e-6f) wrong++;
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(db));
  CHECK_CUDA(cudaFree(dc));
  return app_verdict("vectorAdd", wrong, n);
}
