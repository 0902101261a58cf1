// mmaInlineAsm.cu - tensor cores the way hand-tuned GEMMs reach them:
// ldmatrix fragment loads from a swizzled shared tile and mma.sync
// m16n8k16 in inline PTX (as CUTLASS-style kernels wrap them), plus
// stmatrix on sm_90.  sm_80 and later.
#include <cuda_fp16.h>
#include "census_common.h"

__device__ __forceinline__ unsigned smem_addr(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], const void *p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_addr(p)));
}

__device__ __forceinline__ void ldmatrix_x2_trans(unsigned (&r)[2], const void *p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];\n"
               : "=r"(r[0]), "=r"(r[1])
               : "r"(smem_addr(p)));
}

__device__ __forceinline__ void mma_16816(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
               "{%0,%1,%2,%3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// XOR swizzle of 16-byte chunks within a 64-byte row segment
__device__ __forceinline__ int swz(int row, int chunk) { return chunk ^ ((row >> 1) & 3); }

// One warp: C(16x8) = A(16x16) * B(16x8), A and B staged in shared memory.
template <bool SWIZZLE>
__global__ void warp_mma(const half *A, const half *B, float *C, int k_total) {
  __shared__ __align__(128) half sa[16 * 16];
  __shared__ __align__(128) half sb[16 * 8];
  float acc[4] = {0, 0, 0, 0};
  int lane = threadIdx.x;
  for (int k0 = 0; k0 < k_total; k0 += 16) {
    for (int e = lane; e < 16 * 2; e += 32) {
      int row = e / 2, chunk = e % 2, at = SWIZZLE ? swz(row, chunk) : chunk;
      *reinterpret_cast<int4 *>(&sa[row * 16 + at * 8]) =
          *reinterpret_cast<const int4 *>(&A[row * k_total + k0 + chunk * 8]);
    }
    if (lane < 16) *reinterpret_cast<int4 *>(&sb[lane * 8]) = *reinterpret_cast<const int4 *>(&B[(k0 + lane) * 8]);
    __syncwarp();
    unsigned a[4], b[2];
    int row = lane % 16, chunk = lane / 16;
    ldmatrix_x4(a, &sa[row * 16 + (SWIZZLE ? swz(row, chunk) : chunk) * 8]);
    ldmatrix_x2_trans(b, &sb[(lane % 16) * 8]);
    mma_16816(acc, a, b);
    __syncwarp();
  }
  int g = lane / 4, t = lane % 4;
  C[g * 8 + 2 * t] = acc[0];
  C[g * 8 + 2 * t + 1] = acc[1];
  C[(g + 8) * 8 + 2 * t] = acc[2];
  C[(g + 8) * 8 + 2 * t + 1] = acc[3];
}

// integer and tf32 shapes
__global__ void mma_s8(const int *a, const int *b, int *c) {
  int lane = threadIdx.x, d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
               "{%0,%1,%2,%3};\n"
               : "+r"(d0), "+r"(d1), "+r"(d2), "+r"(d3)
               : "r"(a[lane * 4]), "r"(a[lane * 4 + 1]), "r"(a[lane * 4 + 2]), "r"(a[lane * 4 + 3]), "r"(b[lane * 2]),
                 "r"(b[lane * 2 + 1]));
  c[lane * 4] = d0, c[lane * 4 + 1] = d1, c[lane * 4 + 2] = d2, c[lane * 4 + 3] = d3;
}

__global__ void mma_tf32(const float *a, const float *b, float *c) {
  int lane = threadIdx.x;
  float d[4] = {0, 0, 0, 0};
  unsigned ra[4], rb[2];
  for (int i = 0; i < 4; i++) asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(ra[i]) : "f"(a[lane * 4 + i]));
  for (int i = 0; i < 2; i++) asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(rb[i]) : "f"(b[lane * 2 + i]));
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
               "{%0,%1,%2,%3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
  for (int i = 0; i < 4; i++) c[lane * 4 + i] = d[i];
}

#if __CUDA_ARCH__ >= 900 || !defined(__CUDA_ARCH__)
// stmatrix: fragments back to a shared tile (sm_90)
__global__ void stmatrix_roundtrip(const unsigned *frag, half *out) {
  __shared__ __align__(128) half tile[16 * 16];
  unsigned r[4];
  for (int i = 0; i < 4; i++) r[i] = frag[threadIdx.x * 4 + i];
#if __CUDA_ARCH__ >= 900
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};\n" ::"r"(
                   smem_addr(&tile[(threadIdx.x % 16) * 16 + (threadIdx.x / 16) * 8])),
               "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]));
#endif
  __syncwarp();
  for (int e = threadIdx.x; e < 256; e += 32) out[e] = tile[e];
}
#endif

template __global__ void warp_mma<false>(const half *, const half *, float *, int);
template __global__ void warp_mma<true>(const half *, const half *, float *, int);
