/* histogram - 256 bins of n bytes: each block counts its share into a
 * private histogram in shared memory (atomicAdd on shared), then adds it
 * to the global one (atomicAdd on global, one per bin per block).  Checked
 * exactly against the host's count. */
#include <vector>

#include "app_util.h"

#define BINS 256

__global__ void histogramShared(const unsigned char *data, int n, unsigned *hist) {
  __shared__ unsigned local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (local[b]) atomicAdd(&hist[b], local[b]);
}

int main() {
  const int n = 1 << 17;
  std::vector<unsigned char> data(n);
  std::vector<unsigned> want(BINS, 0), got(BINS);
  unsigned seed = 2024;
  for (int i = 0; i < n; i++) {
    /* skewed: the low bins collide more, as real data does */
    unsigned r = app_rand(&seed);
    data[i] = (unsigned char)((r & 1) ? (r >> 8) % 16 : (r >> 8) % BINS);
    want[data[i]]++;
  }
  unsigned char *ddata;
  unsigned *dhist;
  CHECK_CUDA(cudaMalloc(&ddata, n));
  CHECK_CUDA(cudaMalloc(&dhist, BINS * sizeof(unsigned)));
  CHECK_CUDA(cudaMemcpy(ddata, data.data(), n, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dhist, 0, BINS * sizeof(unsigned)));
  histogramShared<<<32, 256>>>(ddata, n, dhist);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaMemcpy(got.data(), dhist, BINS * sizeof(unsigned), cudaMemcpyDeviceToHost));
  long wrong = 0, total = 0;
  for (int b = 0; b < BINS; b++) {
    wrong += got[b] != want[b];
    total += got[b];
  }
  std::printf("histogram of %d bytes into %d bins: %ld counted\n", n, BINS, total);
  CHECK_CUDA(cudaFree(ddata));
  CHECK_CUDA(cudaFree(dhist));
  return app_verdict("histogram", wrong, BINS);
}
