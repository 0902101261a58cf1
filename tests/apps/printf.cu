/* printf - device printf with the common conversions, from two blocks of
 * four threads.  It checks nothing itself: run_app.sh compares its lines
 * (sorted: the order of threads' lines is the GPU's choice) with
 * printf.expected. */
#include "app_util.h"

__global__ void hello(int base, float scale, const char *word) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  printf("block %d thread %d: id=%d hex=%#x neg=%d ll=%lld f=%.3f e=%.2e c=%c s=%s |%5d|%-4d|\n",
         blockIdx.x, threadIdx.x, t, base + t, -t, (long long)t << 33, scale * t, scale * t * 1000.0f,
         'a' + t, word, t, t);
}

int main() {
  char *word;
  const char text[] = "warp";
  CHECK_CUDA(cudaMalloc(&word, sizeof text));
  CHECK_CUDA(cudaMemcpy(word, text, sizeof text, cudaMemcpyHostToDevice));
  hello<<<2, 4>>>(0x100, 0.25f, word);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaFree(word));
  std::printf("printf: done\n");
  return 0;
}
