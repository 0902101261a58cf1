// tmaTranspose.cu - a matrix transpose through the Tensor Memory
// Accelerator, as Hopper applications set one up: the input's tensor map
// encoded with cuTensorMapEncodeTiled found through
// cudaGetDriverEntryPoint (CUTLASS's and libcu++'s way), the output's with
// the driver API called directly (-lcuda: the fast.cu series' way), both
// passed as const __grid_constant__ CUtensorMap; the kernel loads a
// 128B-swizzled 32x32 tile with one elected thread, reads its columns back
// through the swizzle, and stores the transposed tile with a TMA store.
// The driver's validation is checked too: a misaligned base, a box wider
// than 256 and a rank of 6 are refused with CUDA_ERROR_INVALID_VALUE.
#include <cuda.h>
#include <cuda/ptx>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "app_util.h"

namespace ptx = cuda::ptx;

constexpr int ROWS = 200, COLS = 168, T = 32; // not multiples of T: edges

__global__ void transposeTma(const __grid_constant__ CUtensorMap in, const __grid_constant__ CUtensorMap out) {
  __shared__ alignas(1024) float tile[T * T];
  __shared__ alignas(128) float tr[T * T];
  __shared__ uint64_t full;
  const int x = blockIdx.x * T, y = blockIdx.y * T, lane = threadIdx.x;
  if (lane == 0) {
    ptx::mbarrier_init(&full, 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  __syncthreads();
  if (lane == 0) {
    int c[2] = {x, y};
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full, sizeof tile);
    ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile, &in, c, &full);
  }
  while (!ptx::mbarrier_try_wait_parity(&full, 0)) {
  }
  for (int c = 0; c < T; c++) { // row `lane`, column c: the 16-byte chunk c/4 ^ lane%8
    unsigned o = (lane * T + c) * 4;
    tr[c * T + lane] = tile[(o ^ (((o >> 7) & 7) << 4)) / 4];
  }
  ptx::fence_proxy_async(ptx::space_shared);
  __syncwarp();
  if (lane == 0) {
    int c[2] = {y, x};
    ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &out, c, tr);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
  }
}

typedef CUresult (*EncodeTiled)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                                CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

// A rows x cols float matrix's map, T x T boxes.
static CUresult encode(EncodeTiled fn, CUtensorMap *m, float *base, int rows, int cols, CUtensorMapSwizzle sw) {
  cuuint64_t dim[2] = {(cuuint64_t)cols, (cuuint64_t)rows}, stride[1] = {(cuuint64_t)cols * sizeof(float)};
  cuuint32_t box[2] = {T, T}, es[2] = {1, 1};
  return fn(m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base, dim, stride, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
            CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

int main() {
  std::vector<float> h(ROWS * COLS), back(ROWS * COLS, -1.0f);
  unsigned seed = 7;
  for (auto &v : h) v = (float)(app_rand(&seed) % 1000);
  float *din, *dout;
  CHECK_CUDA(cudaMalloc(&din, h.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dout, h.size() * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(din, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(dout, 0, h.size() * sizeof(float)));

  void *entry = nullptr;
  cudaDriverEntryPointQueryResult found;
  CHECK_CUDA(cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &entry, cudaEnableDefault, &found));
  if (found != cudaDriverEntryPointSuccess || !entry) {
    std::fprintf(stderr, "cudaGetDriverEntryPoint found no cuTensorMapEncodeTiled\n");
    return 1;
  }
  EncodeTiled viaEntry = (EncodeTiled)entry;
  alignas(64) CUtensorMap mapIn, mapOut;
  long wrong = 0;
  if (encode(viaEntry, &mapIn, din, ROWS, COLS, CU_TENSOR_MAP_SWIZZLE_128B) != CUDA_SUCCESS) wrong++;
  if (encode(cuTensorMapEncodeTiled, &mapOut, dout, COLS, ROWS, CU_TENSOR_MAP_SWIZZLE_NONE) != CUDA_SUCCESS) wrong++;
  // the driver's validation: CUDA_ERROR_INVALID_VALUE for each
  alignas(64) CUtensorMap bad;
  if (encode(cuTensorMapEncodeTiled, &bad, (float *)((char *)din + 4), ROWS, COLS, CU_TENSOR_MAP_SWIZZLE_NONE) !=
      CUDA_ERROR_INVALID_VALUE)
    wrong++;
  cuuint64_t dim[6] = {8, 8, 8, 8, 8, 8}, stride[5] = {32, 256, 2048, 16384, 131072};
  cuuint32_t wide[2] = {512, 8}, box6[6] = {8, 1, 1, 1, 1, 1}, es[6] = {1, 1, 1, 1, 1, 1};
  if (cuTensorMapEncodeTiled(&bad, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, din, dim, stride, wide, es,
                             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_ERROR_INVALID_VALUE)
    wrong++;
  if (viaEntry(&bad, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 6, din, dim, stride, box6, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
               CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_ERROR_INVALID_VALUE)
    wrong++;

  dim3 grid((COLS + T - 1) / T, (ROWS + T - 1) / T);
  transposeTma<<<grid, 32>>>(mapIn, mapOut);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaMemcpy(back.data(), dout, back.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int r = 0; r < ROWS; r++)
    for (int c = 0; c < COLS; c++) wrong += back[c * ROWS + r] != h[r * COLS + c];
  CHECK_CUDA(cudaFree(din));
  CHECK_CUDA(cudaFree(dout));
  return app_verdict("tmaTranspose", wrong, (long)ROWS * COLS + 5);
}
