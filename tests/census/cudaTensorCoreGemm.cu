// cudaTensorCoreGemm.cu - D = alpha * A * B + beta * C with the WMMA API
// on 16x16x16 half-precision tiles, accumulating in float: a simple kernel
// with one warp per output tile, and a shared-memory staged version where
// each block computes a 64x64 tile.
#include <mma.h>
#include <cuda_fp16.h>
#include "census_common.h"

using namespace nvcuda;

#define WMMA_M 16
#define WMMA_N 16
#define WMMA_K 16

__global__ void simple_wmma_gemm(const half *a, const half *b, const float *c, float *d, int m_ld, int n_ld, int k_ld,
                                 float alpha, float beta) {
  int lda = k_ld, ldb = k_ld, ldc = n_ld;
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int warpN = blockIdx.y * blockDim.y + threadIdx.y;
  wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> acc_frag;
  wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> c_frag;
  wmma::fill_fragment(acc_frag, 0.0f);
  for (int i = 0; i < k_ld; i += WMMA_K) {
    int aCol = i, aRow = warpM * WMMA_M, bCol = warpN * WMMA_N, bRow = i;
    if (aRow < m_ld && aCol < k_ld && bRow < k_ld && bCol < n_ld) {
      wmma::load_matrix_sync(a_frag, a + aCol + aRow * lda, lda);
      wmma::load_matrix_sync(b_frag, b + bRow + bCol * ldb, ldb);
      wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
    }
  }
  int cCol = warpN * WMMA_N, cRow = warpM * WMMA_M;
  if (cRow < m_ld && cCol < n_ld) {
    wmma::load_matrix_sync(c_frag, c + cCol + cRow * ldc, ldc, wmma::mem_row_major);
    for (int i = 0; i < c_frag.num_elements; i++) c_frag.x[i] = alpha * acc_frag.x[i] + beta * c_frag.x[i];
    wmma::store_matrix_sync(d + cCol + cRow * ldc, c_frag, ldc, wmma::mem_row_major);
  }
}

// 64x64 block tile, 4 warps each owning a 32x32 quarter (2x2 fragments),
// K slices of 32 staged through padded shared memory.
#define BT 64
#define KT 32
#define SKEW 8

__global__ void __launch_bounds__(128) staged_wmma_gemm(const half *__restrict__ A, const half *__restrict__ B,
                                                        half *__restrict__ D, int M, int N, int K) {
  __shared__ __align__(32) half sa[BT][KT + SKEW];
  __shared__ __align__(32) half sb[KT][BT + SKEW];
  __shared__ __align__(32) float sc[4][32 * 32];
  int warp = threadIdx.x / 32, wr = warp / 2, wc = warp % 2;
  int row0 = blockIdx.y * BT, col0 = blockIdx.x * BT;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
#pragma unroll
  for (int i = 0; i < 2; i++)
#pragma unroll
    for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.0f);
  for (int k0 = 0; k0 < K; k0 += KT) {
    for (int e = threadIdx.x; e < BT * KT / 8; e += blockDim.x) {
      int r = e / (KT / 8), c = (e % (KT / 8)) * 8;
      *reinterpret_cast<int4 *>(&sa[r][c]) = *reinterpret_cast<const int4 *>(&A[(size_t)(row0 + r) * K + k0 + c]);
    }
    for (int e = threadIdx.x; e < KT * BT / 8; e += blockDim.x) {
      int r = e / (BT / 8), c = (e % (BT / 8)) * 8;
      *reinterpret_cast<int4 *>(&sb[r][c]) = *reinterpret_cast<const int4 *>(&B[(size_t)(k0 + r) * N + col0 + c]);
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < KT; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb[2];
#pragma unroll
      for (int i = 0; i < 2; i++) wmma::load_matrix_sync(fa[i], &sa[wr * 32 + i * 16][kk], KT + SKEW);
#pragma unroll
      for (int j = 0; j < 2; j++) wmma::load_matrix_sync(fb[j], &sb[kk][wc * 32 + j * 16], BT + SKEW);
#pragma unroll
      for (int i = 0; i < 2; i++)
#pragma unroll
        for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) wmma::store_matrix_sync(&sc[warp][i * 16 * 32 + j * 16], acc[i][j], 32, wmma::mem_row_major);
  __syncwarp();
  for (int e = threadIdx.x % 32; e < 32 * 32; e += 32) {
    int r = e / 32, c = e % 32;
    D[(size_t)(row0 + wr * 32 + r) * N + col0 + wc * 32 + c] = __float2half(sc[warp][e]);
  }
}

// f16 accumulators too
__global__ void wmma_half_acc(const half *a, const half *b, half *c, int ld) {
  wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 32, 8, 16, half> fc;
  wmma::fill_fragment(fc, __float2half(0.f));
  for (int k = 0; k < ld; k += 16) {
    wmma::load_matrix_sync(fa, a + blockIdx.x * 32 * ld + k, ld);
    wmma::load_matrix_sync(fb, b + blockIdx.y * 8 * ld + k, ld);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(c + blockIdx.x * 32 * ld + blockIdx.y * 8, fc, ld, wmma::mem_row_major);
}
