// mma_ldmatrix.cu - tensor-core GEMMs written as CUTLASS-style code writes
// them: inline PTX for ldmatrix and mma.sync, fragments fed from shared
// tiles, with and without an XOR swizzle of the tile's 16-byte chunks.
// Launch lines for the corpus tests (tests/test_corpus_tensor.c).
#include <cuda_fp16.h>
#include <stdint.h>

__device__ __forceinline__ uint32_t smem_addr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.x4.trans.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

__device__ __forceinline__ void stmatrix_x4_trans(uint32_t addr, const uint32_t (&r)[4]) {
  asm volatile("stmatrix.sync.aligned.x4.trans.m8n8.shared.b16 [%0], {%1, %2, %3, %4};\n"
               :
               : "r"(addr), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]));
}

// D = A * B + D, m16n8k16, f16 inputs, f32 accumulators.
__device__ __forceinline__ void mma_16816(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
               "{%8, %9}, {%0, %1, %2, %3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// A tile of ROWS x 64 halves: 8 chunks of 16 bytes per row.  SWIZZLE puts
// chunk c of row r at chunk c ^ (r % 8), so that the 8 rows of an 8x8
// matrix lie in 8 different bank groups; without it every row is 128 bytes
// from the next and all 8 rows of a matrix share one bank group.
template <bool SWIZZLE>
__device__ __forceinline__ int tile_index(int row, int col) {
  int chunk = col / 8;
  if (SWIZZLE) chunk ^= row % 8;
  return row * 64 + chunk * 8 + col % 8;
}

// C[M x N] (f32) = A[M x K] * B[K x N], with A row-major and B given
// column-major (Bt[N x K]), both as float and converted to half while the
// block stages 16 x 64 tiles of each.  One warp per 16 x 16 tile of C: two
// m16n8k16 per 16-wide k step, A and B fragments by ldmatrix.x4.
template <bool SWIZZLE>
__device__ void mma_gemm(const float *A, const float *Bt, float *C, int M, int N, int K) {
  __shared__ __align__(128) half As[16 * 64];
  __shared__ __align__(128) half Bs[16 * 64];
  int lane = threadIdx.x;
  int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  float acc[2][4] = {};
  for (int k0 = 0; k0 < K; k0 += 64) {
    for (int i = lane; i < 16 * 64; i += 32) {
      int r = i / 64, c = i % 64;
      As[tile_index<SWIZZLE>(r, c)] = __float2half_rn(A[(m0 + r) * K + k0 + c]);
      Bs[tile_index<SWIZZLE>(r, c)] = __float2half_rn(Bt[(n0 + r) * K + k0 + c]);
    }
    __syncwarp();
#pragma unroll
    for (int kk = 0; kk < 64; kk += 16) {
      uint32_t a[4], b[4];
      // A: matrices (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15)
      ldmatrix_x4(a, smem_addr(&As[tile_index<SWIZZLE>(lane % 16, kk + lane / 16 * 8)]));
      // B: matrices (n 0-7, k 0-7), (n 0-7, k 8-15), (n 8-15, k 0-7), (n 8-15, k 8-15)
      ldmatrix_x4(b, smem_addr(&Bs[tile_index<SWIZZLE>(lane / 16 * 8 + lane % 8, kk + lane / 8 % 2 * 8)]));
      mma_16816(acc[0], a, b[0], b[1]);
      mma_16816(acc[1], a, b[2], b[3]);
    }
    __syncwarp();
  }
  int g = lane / 4, t = lane % 4;
  for (int j = 0; j < 2; j++)
    for (int i = 0; i < 4; i++)
      C[(m0 + g + i / 2 * 8) * N + n0 + j * 8 + 2 * t + i % 2] = acc[j][i];
}

//! group: mma_ldmatrix
//! title: tensor-core GEMMs with ldmatrix and mma.sync (CUTLASS style)
//! exp: mma_gemm
//! title: f16 m16n8k16 from shared tiles: plain, XOR-swizzled, ldmatrix.trans
//@ mma_gemm_plain grid=2,2 block=32 args=buf:f32:4096:rand,buf:f32:4096:rand,buf:f32:1024:zero,i32:32,i32:32,i32:128
extern "C" __global__ void mma_gemm_plain(const float *A, const float *Bt, float *C, int M, int N, int K) {
  mma_gemm<false>(A, Bt, C, M, N, K);
}

//@ mma_gemm_swizzled grid=2,2 block=32 args=buf:f32:4096:rand,buf:f32:4096:rand,buf:f32:1024:zero,i32:32,i32:32,i32:128
extern "C" __global__ void mma_gemm_swizzled(const float *A, const float *Bt, float *C, int M, int N, int K) {
  mma_gemm<true>(A, Bt, C, M, N, K);
}

// B row-major as it comes (B[K x N]): the k x n tile is staged as is, with
// rows padded from 16 to 24 halves (48 bytes: the 8 rows of a matrix fall
// in bank groups 0, 3, 6, 1, 4, 7, 2, 5), and ldmatrix.trans turns its 8x8
// blocks into the column-major B fragments mma.sync wants.
//@ mma_gemm_trans grid=2,2 block=32 args=buf:f32:2048:rand,buf:f32:2048:rand,buf:f32:1024:zero,i32:32,i32:32,i32:64
extern "C" __global__ void mma_gemm_trans(const float *A, const float *B, float *C, int M, int N, int K) {
  constexpr int LDA = 16 + 8, LDB = 16 + 8;
  __shared__ __align__(128) half As[16 * LDA];
  __shared__ __align__(128) half Bs[16 * LDB];
  int lane = threadIdx.x;
  int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  float acc[2][4] = {};
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int i = lane; i < 256; i += 32) {
      As[i / 16 * LDA + i % 16] = __float2half_rn(A[(m0 + i / 16) * K + k0 + i % 16]);
      Bs[i / 16 * LDB + i % 16] = __float2half_rn(B[(k0 + i / 16) * N + n0 + i % 16]);
    }
    __syncwarp();
    uint32_t a[4], b[4];
    ldmatrix_x4(a, smem_addr(&As[lane % 16 * LDA + lane / 16 * 8]));
    // matrices (k 0-7, n 0-7), (k 8-15, n 0-7), (k 0-7, n 8-15), (k 8-15, n 8-15), transposed
    ldmatrix_x4_trans(b, smem_addr(&Bs[lane % 16 * LDB + lane / 16 * 8]));
    mma_16816(acc[0], a, b[0], b[1]);
    mma_16816(acc[1], a, b[2], b[3]);
    __syncwarp();
  }
  int g = lane / 4, t = lane % 4;
  for (int j = 0; j < 2; j++)
    for (int i = 0; i < 4; i++)
      C[(m0 + g + i / 2 * 8) * N + n0 + j * 8 + 2 * t + i % 2] = acc[j][i];
}

// Transposes 16 x 16 half tiles through registers: ldmatrix.x4 reads a tile,
// stmatrix.x4.trans (sm_90) writes it back transposed; the tile rows are
// padded to 24 halves.  Out[N x M] = In[M x N]^T, halves as u16.
//! exp: stmatrix
//! title: ldmatrix.x4 and stmatrix.x4.trans
//@ tile_transpose grid=2,2 block=32 args=buf:u16:1024:rand,buf:u16:1024:zero,i32:32,i32:32
extern "C" __global__ void tile_transpose(const unsigned short *In, unsigned short *Out, int M, int N) {
  constexpr int LD = 16 + 8;
  __shared__ __align__(128) unsigned short src[16 * LD], dst[16 * LD];
  int lane = threadIdx.x;
  int m0 = blockIdx.y * 16, n0 = blockIdx.x * 16;
  for (int i = lane; i < 256; i += 32) src[i / 16 * LD + i % 16] = In[(m0 + i / 16) * N + n0 + i % 16];
  __syncwarp();
  uint32_t r[4];
  ldmatrix_x4(r, smem_addr(&src[lane % 16 * LD + lane / 16 * 8]));
  // matrix (rows 8-15, cols 0-7) of the source is (rows 0-7, cols 8-15) of
  // the transpose: lanes 8-15 and 16-23 swap their row blocks
  int blk = lane / 8, row = (blk == 1 ? 2 : blk == 2 ? 1 : blk) % 2 * 8 + lane % 8;
  stmatrix_x4_trans(smem_addr(&dst[row * LD + (blk == 1 ? 2 : blk == 2 ? 1 : blk) / 2 * 8]), r);
  __syncwarp();
  for (int i = lane; i < 256; i += 32) Out[(n0 + i / 16) * M + m0 + i % 16] = dst[i / 16 * LD + i % 16];
}

// tf32 m16n8k8 with fragments read straight from global memory by the
// lane formulas of the PTX ISA (the float bits are passed as they are: the
// tensor core ignores the 13 low mantissa bits).  One warp per 16 x 8 tile.
//! exp: mma_tf32_gemm
//! title: tf32 m16n8k8 fragments from global memory
//@ mma_tf32 grid=4,2 block=32 args=buf:f32:1024:rand,buf:f32:1024:rand,buf:f32:1024:zero,i32:32,i32:32,i32:32
extern "C" __global__ void mma_tf32(const float *A, const float *B, float *C, int M, int N, int K) {
  int lane = threadIdx.x, g = lane / 4, t = lane % 4;
  int m0 = blockIdx.y * 16, n0 = blockIdx.x * 8;
  float d[4] = {};
  for (int k = 0; k < K; k += 8) {
    uint32_t a0 = __float_as_uint(A[(m0 + g) * K + k + t]), a1 = __float_as_uint(A[(m0 + g + 8) * K + k + t]);
    uint32_t a2 = __float_as_uint(A[(m0 + g) * K + k + t + 4]), a3 = __float_as_uint(A[(m0 + g + 8) * K + k + t + 4]);
    uint32_t b0 = __float_as_uint(B[(k + t) * N + n0 + g]), b1 = __float_as_uint(B[(k + t + 4) * N + n0 + g]);
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                 "{%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  }
  for (int i = 0; i < 4; i++) C[(m0 + g + i / 2 * 8) * N + n0 + 2 * t + i % 2] = d[i];
}

// int8 m16n8k32 with .satfinite: A row-major, B column-major (Bt[N x K]),
// so that each lane's four consecutive k are one 32-bit word.
//! exp: mma_s8_gemm
//! title: int8 m16n8k32 with .satfinite
//@ mma_s8 grid=4,2 block=32 args=buf:i8:2048:rand,buf:i8:2048:rand,buf:i32:1024:zero,i32:32,i32:32,i32:64
extern "C" __global__ void mma_s8(const int8_t *A, const int8_t *Bt, int *C, int M, int N, int K) {
  int lane = threadIdx.x, g = lane / 4, t = lane % 4;
  int m0 = blockIdx.y * 16, n0 = blockIdx.x * 8;
  int d[4] = {};
  for (int k = 0; k < K; k += 32) {
    const int *a_lo = reinterpret_cast<const int *>(A + (m0 + g) * K + k) + t;
    const int *a_hi = reinterpret_cast<const int *>(A + (m0 + g + 8) * K + k) + t;
    const int *b = reinterpret_cast<const int *>(Bt + (n0 + g) * K + k) + t;
    asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
                 : "r"(a_lo[0]), "r"(a_hi[0]), "r"(a_lo[4]), "r"(a_hi[4]), "r"(b[0]), "r"(b[4]));
  }
  for (int i = 0; i < 4; i++) C[(m0 + g + i / 2 * 8) * N + n0 + 2 * t + i % 2] = d[i];
}

// The smaller forms: a 16 x 8 tile of b16 copied with ldmatrix.x2 and
// stmatrix.x2, and its top 8 x 8 block transposed with ldmatrix.x1.trans
// then written with stmatrix.x1.  Rows are 16 bytes apart (dense 8-wide
// tile).  Out1[16 x 8] = In, Out2[8 x 8] = In[0:8]^T.
//! exp: matrix_moves
//! title: ldmatrix and stmatrix .x1 and .x2
//@ matrix_moves grid=1 block=32 args=buf:u16:128:rand,buf:u16:128:zero,buf:u16:64:zero
extern "C" __global__ void matrix_moves(const unsigned short *In, unsigned short *Out1, unsigned short *Out2) {
  __shared__ __align__(128) unsigned short src[128], copy[128], trans[64];
  int lane = threadIdx.x;
  for (int i = lane; i < 128; i += 32) src[i] = In[i];
  __syncwarp();
  uint32_t r0, r1, t;
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(r0), "=r"(r1) : "r"(smem_addr(&src[lane % 16 * 8])));
  asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};\n"
               :: "r"(smem_addr(&copy[lane % 16 * 8])), "r"(r0), "r"(r1));
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n"
               : "=r"(t) : "r"(smem_addr(&src[lane % 8 * 8])));
  asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};\n" :: "r"(smem_addr(&trans[lane % 8 * 8])), "r"(t));
  __syncwarp();
  for (int i = lane; i < 128; i += 32) Out1[i] = copy[i];
  for (int i = lane; i < 64; i += 32) Out2[i] = trans[i];
}
