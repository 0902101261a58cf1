// wmmaVariants.cu - the other WMMA element types of Ampere and later:
// bf16 and tf32 inputs with float accumulators, int8 with int32, and
// double-precision 8x8x4 tiles.  One warp per 16x16 (8x8 for double)
// output tile.  sm_80 and later.
#include <mma.h>
#include <cuda_bf16.h>
#include "census_common.h"

using namespace nvcuda;

template <typename In, typename Acc, int M, int N, int K, typename FragIn = In>
__device__ void warp_tile_gemm(const In *a, const In *b, Acc *c, int lda, int ldb, int ldc, int kdim) {
  wmma::fragment<wmma::matrix_a, M, N, K, FragIn, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, FragIn, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, M, N, K, Acc> fc;
  wmma::fill_fragment(fc, Acc(0));
  for (int k = 0; k < kdim; k += K) {
    wmma::load_matrix_sync(fa, a + k, lda);
    wmma::load_matrix_sync(fb, b + k, ldb);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(c, fc, ldc, wmma::mem_row_major);
}

__global__ void gemm_bf16(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c, int n) {
  int tm = blockIdx.y * 16, tn = (blockIdx.x * blockDim.x + threadIdx.x) / 32 * 16;
  warp_tile_gemm<__nv_bfloat16, float, 16, 16, 16>(a + tm * n, b + tn * n, c + tm * n + tn, n, n, n, n);
}

__global__ void gemm_tf32(const float *a, const float *b, float *c, int n) {
  int tm = blockIdx.y * 16, tn = (blockIdx.x * blockDim.x + threadIdx.x) / 32 * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  for (int k = 0; k < n; k += 8) {
    wmma::load_matrix_sync(fa, a + tm * n + k, n);
    wmma::load_matrix_sync(fb, b + tn * n + k, n);
#pragma unroll
    for (int t = 0; t < fa.num_elements; t++) fa.x[t] = wmma::__float_to_tf32(fa.x[t]);
#pragma unroll
    for (int t = 0; t < fb.num_elements; t++) fb.x[t] = wmma::__float_to_tf32(fb.x[t]);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(c + tm * n + tn, fc, n, wmma::mem_row_major);
}

__global__ void gemm_s8(const signed char *a, const signed char *b, int *c, int n) {
  int tm = blockIdx.y * 16, tn = (blockIdx.x * blockDim.x + threadIdx.x) / 32 * 16;
  warp_tile_gemm<signed char, int, 16, 16, 16>(a + tm * n, b + tn * n, c + tm * n + tn, n, n, n, n);
}

__global__ void gemm_u8(const unsigned char *a, const unsigned char *b, int *c, int n) {
  int tm = blockIdx.y * 16, tn = (blockIdx.x * blockDim.x + threadIdx.x) / 32 * 16;
  warp_tile_gemm<unsigned char, int, 16, 16, 16>(a + tm * n, b + tn * n, c + tm * n + tn, n, n, n, n);
}

__global__ void gemm_f64(const double *a, const double *b, double *c, int n) {
  int tm = blockIdx.y * 8, tn = (blockIdx.x * blockDim.x + threadIdx.x) / 32 * 8;
  warp_tile_gemm<double, double, 8, 8, 4>(a + tm * n, b + tn * n, c + tm * n + tn, n, n, n, n);
}
