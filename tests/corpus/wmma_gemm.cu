// wmma_gemm.cu - tensor-core GEMMs through <mma.h> (nvcuda::wmma), as the
// CUDA samples and tutorials write them: one warp per output tile, fragments
// loaded from global memory, or from a shared-memory tile the block staged.
//
// C[M x N] = A[M x K] * B[K x N], A row-major, B column-major (the samples'
// simpleTensorCoreGEMM layout), C row-major.  Launch lines for the corpus
// tests (tests/test_corpus_tensor.c): 64 x 64 x 64.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
#include <type_traits>

using namespace nvcuda;

// One warp per 16x16 tile of C; the warps of a block cover a row of tiles.
// A and B are half in global memory, C accumulates in float.
//! group: wmma_gemm
//! title: tensor-core GEMMs through nvcuda::wmma
//! exp: wmma_global
//! title: fragments from global memory, f16
//@ wmma_gemm_global grid=1,4 block=128 args=buf:u16:4096:rand,buf:u16:4096:rand,buf:f32:4096:zero,i32:64,i32:64,i32:64
extern "C" __global__ void wmma_gemm_global(const half *A, const half *B, float *C, int M, int N, int K) {
  int warp_n = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int warp_m = blockIdx.y;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + warp_m * 16 * K + k, K);
    wmma::load_matrix_sync(b, B + warp_n * 16 * K + k, K);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(C + warp_m * 16 * N + warp_n * 16, acc, N, wmma::mem_row_major);
}

// float -> the element type, rounding to nearest even: __float2half_rn for
// half; for bf16 the bit-level rounding that code predating cuda_bf16.h's
// intrinsics uses (finite inputs).
template <typename T> __device__ __forceinline__ T to_elem(float f);
template <> __device__ __forceinline__ half to_elem<half>(float f) { return __float2half_rn(f); }
template <> __device__ __forceinline__ __nv_bfloat16 to_elem<__nv_bfloat16>(float f) {
  unsigned u = __float_as_uint(f);
  u += 0x7fffu + ((u >> 16) & 1u);
  return __ushort_as_bfloat16((unsigned short)(u >> 16));
}

// The block stages 16 x 16 tiles of A and B in shared memory, converted from
// float to TIn (half or bf16) on the way, then the warps load their
// fragments from there.  Tiles are padded by 8 elements per row so that
// the fragment loads do not conflict.
template <typename TIn, int WARPS>
__device__ void wmma_gemm_shared(const float *A, const float *B, float *C, int M, int N, int K) {
  constexpr int LD = 16 + 8;
  __shared__ __align__(32) TIn As[16 * LD];
  __shared__ __align__(32) TIn Bs[WARPS][16 * LD];
  int warp = threadIdx.x / 32;
  int tile_m = blockIdx.y, tile_n = blockIdx.x * WARPS + warp;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, TIn, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, TIn, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
      As[(i / 16) * LD + i % 16] = to_elem<TIn>(A[(tile_m * 16 + i / 16) * K + k + i % 16]);
    for (int i = threadIdx.x % 32; i < 256; i += 32) // B column n is row n of Bs (col-major B)
      Bs[warp][(i / 16) * LD + i % 16] = to_elem<TIn>(B[(tile_n * 16 + i / 16) * K + k + i % 16]);
    __syncthreads();
    wmma::load_matrix_sync(a, As, LD);
    wmma::load_matrix_sync(b, Bs[warp], LD);
    wmma::mma_sync(acc, a, b, acc);
    __syncthreads();
  }
  wmma::store_matrix_sync(C + tile_m * 16 * N + tile_n * 16, acc, N, wmma::mem_row_major);
}

//! exp: wmma_shared
//! title: fragments from padded shared tiles, f16 and bf16
//@ wmma_gemm_shared_f16 grid=2,4 block=64 args=buf:f32:4096:rand,buf:f32:4096:rand,buf:f32:4096:zero,i32:64,i32:64,i32:64
extern "C" __global__ void wmma_gemm_shared_f16(const float *A, const float *B, float *C, int M, int N, int K) {
  wmma_gemm_shared<half, 2>(A, B, C, M, N, K);
}

//@ wmma_gemm_shared_bf16 grid=2,4 block=64 args=buf:f32:4096:rand,buf:f32:4096:rand,buf:f32:4096:zero,i32:64,i32:64,i32:64
extern "C" __global__ void wmma_gemm_shared_bf16(const float *A, const float *B, float *C, int M, int N, int K) {
  wmma_gemm_shared<__nv_bfloat16, 2>(A, B, C, M, N, K);
}

// tf32: the fragments load float and keep its tf32 part; m16n16k8.
//! exp: wmma_tf32
//! title: tf32 m16n16k8
//@ wmma_gemm_tf32 grid=1,4 block=128 args=buf:f32:4096:rand,buf:f32:4096:rand,buf:f32:4096:zero,i32:64,i32:64,i32:64
extern "C" __global__ void wmma_gemm_tf32(const float *A, const float *B, float *C, int M, int N, int K) {
  int warp_n = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int warp_m = blockIdx.y;
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 8) {
    wmma::load_matrix_sync(a, A + warp_m * 16 * K + k, K);
    wmma::load_matrix_sync(b, B + warp_n * 16 * K + k, K);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(C + warp_m * 16 * N + warp_n * 16, acc, N, wmma::mem_row_major);
}

// int8: s8 inputs, s32 accumulators, m16n16k16; C loaded first (C += A*B).
//! exp: wmma_s8
//! title: s8 with s32 accumulators, C loaded first
//@ wmma_gemm_s8 grid=1,4 block=128 args=buf:i8:4096:rand,buf:i8:4096:rand,buf:i32:4096:rand,i32:64,i32:64,i32:64
extern "C" __global__ void wmma_gemm_s8(const signed char *A, const signed char *B, int *C, int M, int N, int K) {
  int warp_n = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int warp_m = blockIdx.y;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
  int *c = C + warp_m * 16 * N + warp_n * 16;
  wmma::load_matrix_sync(acc, c, N, wmma::mem_row_major);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(a, A + warp_m * 16 * K + k, K);
    wmma::load_matrix_sync(b, B + warp_n * 16 * K + k, K);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(c, acc, N, wmma::mem_row_major);
}

// f64: m8n8k4, one warp per 8x8 tile of C.
//! exp: wmma_f64
//! title: f64 m8n8k4
//@ wmma_gemm_f64 grid=1,4 block=128 args=buf:f64:1024:rand,buf:f64:1024:rand,buf:f64:1024:zero,i32:32,i32:32,i32:32
extern "C" __global__ void wmma_gemm_f64(const double *A, const double *B, double *C, int M, int N, int K) {
  int warp_n = threadIdx.x / 32;
  int warp_m = blockIdx.y;
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc;
  wmma::fill_fragment(acc, 0.0);
  for (int k = 0; k < K; k += 4) {
    wmma::load_matrix_sync(a, A + warp_m * 8 * K + k, K);
    wmma::load_matrix_sync(b, B + warp_n * 8 * K + k, K);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(C + warp_m * 8 * N + warp_n * 8, acc, N, wmma::mem_row_major);
}

// The other two half shapes, one warp per WM x WN tile of C, B column-major;
// A row-major, or column-major (A[k * M + m]) to exercise .col fragments.
template <int WM, int WN, typename LayoutA>
__device__ void wmma_gemm_tile(const half *A, const half *B, float *C, int M, int N, int K) {
  int tile_n = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, tile_m = blockIdx.y;
  wmma::fragment<wmma::matrix_a, WM, WN, 16, half, LayoutA> a;
  wmma::fragment<wmma::matrix_b, WM, WN, 16, half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, WM, WN, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  constexpr bool a_col = std::is_same<LayoutA, wmma::col_major>::value;
  for (int k = 0; k < K; k += 16) {
    if (a_col) wmma::load_matrix_sync(a, A + k * M + tile_m * WM, M);
    else wmma::load_matrix_sync(a, A + tile_m * WM * K + k, K);
    wmma::load_matrix_sync(b, B + tile_n * WN * K + k, K);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(C + tile_m * WM * N + tile_n * WN, acc, N, wmma::mem_row_major);
}

//! exp: wmma_shapes
//! title: m32n8k16 and m8n32k16 with column-major A
//@ wmma_m32n8k16 grid=1,1 block=128 args=buf:u16:1024:rand,buf:u16:1024:rand,buf:f32:1024:zero,i32:32,i32:32,i32:32
extern "C" __global__ void wmma_m32n8k16(const half *A, const half *B, float *C, int M, int N, int K) {
  wmma_gemm_tile<32, 8, wmma::row_major>(A, B, C, M, N, K);
}

//@ wmma_m8n32k16_acol grid=1,4 block=32 args=buf:u16:1024:rand,buf:u16:1024:rand,buf:f32:1024:zero,i32:32,i32:32,i32:32
extern "C" __global__ void wmma_m8n32k16_acol(const half *A, const half *B, float *C, int M, int N, int K) {
  wmma_gemm_tile<8, 32, wmma::col_major>(A, B, C, M, N, K);
}
