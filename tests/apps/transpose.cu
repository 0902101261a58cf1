/* transpose - out = in^T for a W x H matrix of floats, twice: naively (the
 * reads coalesce, the writes stride by H) and through a 32 x 33 tile of
 * shared memory (both coalesce; the extra column keeps the tile's column
 * reads off one bank).  Each kernel is timed with cudaEvents; both results
 * are checked exactly (a transpose moves bits). */
#include <vector>

#include "app_util.h"

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transposeNaive(float *out, const float *in, int w, int h) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < w && y + j < h) out[x * h + y + j] = in[(y + j) * w + x];
}

__global__ void transposeTiled(float *out, const float *in, int w, int h) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x; /* the tile's place in out */
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

typedef void (*Kernel)(float *, const float *, int, int);

/* Runs k once, timed with events; returns how many elements are wrong. */
static long run_one(const char *name, Kernel k, float *dout, const float *din, const std::vector<float> &in,
                    int w, int h) {
  dim3 grid((w + TILE_DIM - 1) / TILE_DIM, (h + TILE_DIM - 1) / TILE_DIM), block(TILE_DIM, BLOCK_ROWS);
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  CHECK_CUDA(cudaMemset(dout, 0, in.size() * sizeof(float)));
  CHECK_CUDA(cudaEventRecord(start));
  k<<<grid, block>>>(dout, din, w, h);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaEventRecord(stop));
  CHECK_CUDA(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
  std::vector<float> out(in.size());
  CHECK_CUDA(cudaMemcpy(out.data(), dout, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  long wrong = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      if (out[x * h + y] != in[y * w + x]) wrong++;
  double gbs = ms > 0 ? 2.0 * in.size() * sizeof(float) / (ms * 1e6) : 0.0;
  std::printf("%-15s %8.4f ms  %7.1f GB/s  %s\n", name, ms, gbs, wrong ? "wrong" : "ok");
  if (ms <= 0.0f) {
    std::printf("%s: the events measured no time\n", name);
    wrong++;
  }
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
  return wrong;
}

int main() {
  const int w = 256, h = 192;
  std::vector<float> in(w * h);
  for (int i = 0; i < w * h; i++) in[i] = (float)i;
  float *din, *dout;
  CHECK_CUDA(cudaMalloc(&din, in.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dout, in.size() * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(din, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
  std::printf("transpose of a %d x %d matrix\n", w, h);
  long wrong = run_one("naive", transposeNaive, dout, din, in, w, h);
  wrong += run_one("shared tiles", transposeTiled, dout, din, in, w, h);
  CHECK_CUDA(cudaFree(din));
  CHECK_CUDA(cudaFree(dout));
  return app_verdict("transpose", wrong, 2L * w * h);
}
