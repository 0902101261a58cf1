// mma_shapes.cu - one mma.sync of each shape and type family, as inline PTX
// the way hand-tuned kernels issue them.  Each lane's fragment elements come
// in and go out as plain arrays indexed [element][lane] (element i of a
// fragment is the i-th value of its registers, low half first), so the
// test (tests/test_corpus_tensor.c) places them in the matrices by the PTX
// ISA's fragment figures, independently of warpmem.
#include <cuda_fp16.h>
#include <stdint.h>

__device__ __forceinline__ uint32_t pack_f16(float lo, float hi) {
  return (uint32_t)__half_as_ushort(__float2half_rn(lo)) | (uint32_t)__half_as_ushort(__float2half_rn(hi)) << 16;
}

// bf16 by round-to-nearest-even on the bits (finite inputs)
__device__ __forceinline__ uint32_t bf16_bits(float f) {
  uint32_t u = __float_as_uint(f);
  return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
}
__device__ __forceinline__ uint32_t pack_bf16(float lo, float hi) { return bf16_bits(lo) | bf16_bits(hi) << 16; }

__device__ __forceinline__ uint32_t pack_8(const uint8_t *e, int l, int first) {
  return (uint32_t)e[first * 32 + l] | (uint32_t)e[(first + 1) * 32 + l] << 8 |
         (uint32_t)e[(first + 2) * 32 + l] << 16 | (uint32_t)e[(first + 3) * 32 + l] << 24;
}

#define E(p, i) p[(i) * 32 + l]

// m16n8k16, f16 inputs and f16 accumulators.
//! group: mma_shapes
//! title: one mma.sync of each shape and type
//! exp: mma_f16
//! title: m16n8k16 and m16n8k8 with f16 inputs; bf16
//@ mma_f16_acc16 grid=1 block=32 args=buf:f32:256:rand,buf:f32:128:rand,buf:f32:128:rand,buf:f32:128:zero
extern "C" __global__ void mma_f16_acc16(const float *a, const float *b, const float *c, float *d) {
  int l = threadIdx.x;
  uint32_t d0, d1;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};\n"
               : "=r"(d0), "=r"(d1)
               : "r"(pack_f16(E(a, 0), E(a, 1))), "r"(pack_f16(E(a, 2), E(a, 3))), "r"(pack_f16(E(a, 4), E(a, 5))),
                 "r"(pack_f16(E(a, 6), E(a, 7))), "r"(pack_f16(E(b, 0), E(b, 1))), "r"(pack_f16(E(b, 2), E(b, 3))),
                 "r"(pack_f16(E(c, 0), E(c, 1))), "r"(pack_f16(E(c, 2), E(c, 3))));
  E(d, 0) = __half2float(__ushort_as_half((unsigned short)d0));
  E(d, 1) = __half2float(__ushort_as_half((unsigned short)(d0 >> 16)));
  E(d, 2) = __half2float(__ushort_as_half((unsigned short)d1));
  E(d, 3) = __half2float(__ushort_as_half((unsigned short)(d1 >> 16)));
}

// m16n8k16, bf16 inputs, f32 accumulators.
//@ mma_bf16 grid=1 block=32 args=buf:f32:256:rand,buf:f32:128:rand,buf:f32:128:rand,buf:f32:128:zero
extern "C" __global__ void mma_bf16(const float *a, const float *b, const float *c, float *d) {
  int l = threadIdx.x;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%10, %11, %12, %13};\n"
               : "=f"(E(d, 0)), "=f"(E(d, 1)), "=f"(E(d, 2)), "=f"(E(d, 3))
               : "r"(pack_bf16(E(a, 0), E(a, 1))), "r"(pack_bf16(E(a, 2), E(a, 3))),
                 "r"(pack_bf16(E(a, 4), E(a, 5))), "r"(pack_bf16(E(a, 6), E(a, 7))),
                 "r"(pack_bf16(E(b, 0), E(b, 1))), "r"(pack_bf16(E(b, 2), E(b, 3))), "f"(E(c, 0)), "f"(E(c, 1)),
                 "f"(E(c, 2)), "f"(E(c, 3)));
}

// m16n8k8, f16 inputs, f32 accumulators.
//@ mma_f16_k8 grid=1 block=32 args=buf:f32:128:rand,buf:f32:64:rand,buf:f32:128:rand,buf:f32:128:zero
extern "C" __global__ void mma_f16_k8(const float *a, const float *b, const float *c, float *d) {
  int l = threadIdx.x;
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
               "{%7, %8, %9, %10};\n"
               : "=f"(E(d, 0)), "=f"(E(d, 1)), "=f"(E(d, 2)), "=f"(E(d, 3))
               : "r"(pack_f16(E(a, 0), E(a, 1))), "r"(pack_f16(E(a, 2), E(a, 3))), "r"(pack_f16(E(b, 0), E(b, 1))),
                 "f"(E(c, 0)), "f"(E(c, 1)), "f"(E(c, 2)), "f"(E(c, 3)));
}

// m16n8k4, tf32 (float bits as they are), f32 accumulators.
//! exp: mma_tf32_k4
//! title: m16n8k4 tf32
//@ mma_tf32_k4 grid=1 block=32 args=buf:f32:64:rand,buf:f32:32:rand,buf:f32:128:rand,buf:f32:128:zero
extern "C" __global__ void mma_tf32_k4(const float *a, const float *b, const float *c, float *d) {
  int l = threadIdx.x;
  asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
               "{%7, %8, %9, %10};\n"
               : "=f"(E(d, 0)), "=f"(E(d, 1)), "=f"(E(d, 2)), "=f"(E(d, 3))
               : "r"(__float_as_uint(E(a, 0))), "r"(__float_as_uint(E(a, 1))), "r"(__float_as_uint(E(b, 0))),
                 "f"(E(c, 0)), "f"(E(c, 1)), "f"(E(c, 2)), "f"(E(c, 3)));
}

// m8n8k4, f64.
//! exp: mma_f64
//! title: m8n8k4 and m16n8k16 f64
//@ mma_f64_k4 grid=1 block=32 args=buf:f64:32:rand,buf:f64:32:rand,buf:f64:64:rand,buf:f64:64:zero
extern "C" __global__ void mma_f64_k4(const double *a, const double *b, const double *c, double *d) {
  int l = threadIdx.x;
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};\n"
               : "=d"(E(d, 0)), "=d"(E(d, 1))
               : "d"(E(a, 0)), "d"(E(b, 0)), "d"(E(c, 0)), "d"(E(c, 1)));
}

// m16n8k16, f64 (sm_90): eight A registers in one operand.
//@ mma_f64_k16 grid=1 block=32 args=buf:f64:256:rand,buf:f64:128:rand,buf:f64:128:rand,buf:f64:128:zero
extern "C" __global__ void mma_f64_k16(const double *a, const double *b, const double *c, double *d) {
  int l = threadIdx.x;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, "
               "{%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%16, %17, %18, %19};\n"
               : "=d"(E(d, 0)), "=d"(E(d, 1)), "=d"(E(d, 2)), "=d"(E(d, 3))
               : "d"(E(a, 0)), "d"(E(a, 1)), "d"(E(a, 2)), "d"(E(a, 3)), "d"(E(a, 4)), "d"(E(a, 5)), "d"(E(a, 6)),
                 "d"(E(a, 7)), "d"(E(b, 0)), "d"(E(b, 1)), "d"(E(b, 2)), "d"(E(b, 3)), "d"(E(c, 0)), "d"(E(c, 1)),
                 "d"(E(c, 2)), "d"(E(c, 3)));
}

// m16n8k16, u8 A times s8 B, s32 accumulators.
//! exp: mma_int
//! title: u8 x s8 m16n8k16
//@ mma_u8s8 grid=1 block=32 args=buf:u8:256:rand,buf:u8:128:rand,buf:i32:128:rand,buf:i32:128:zero
extern "C" __global__ void mma_u8s8(const uint8_t *a, const uint8_t *b, const int *c, int *d) {
  int l = threadIdx.x;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.u8.s8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
               "{%7, %8, %9, %10};\n"
               : "=r"(E(d, 0)), "=r"(E(d, 1)), "=r"(E(d, 2)), "=r"(E(d, 3))
               : "r"(pack_8(a, l, 0)), "r"(pack_8(a, l, 4)), "r"(pack_8(b, l, 0)), "r"(E(c, 0)), "r"(E(c, 1)),
                 "r"(E(c, 2)), "r"(E(c, 3)));
}

// movmatrix: the warp's 8x8 matrix of b16, transposed in registers.
//! exp: movmatrix
//! title: movmatrix: an 8x8 b16 transpose in registers
//@ movmatrix_trans grid=1 block=32 args=buf:u32:32:rand,buf:u32:32:zero
extern "C" __global__ void movmatrix_trans(const uint32_t *in, uint32_t *out) {
  int l = threadIdx.x;
  uint32_t r;
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;\n" : "=r"(r) : "r"(in[l]));
  out[l] = r;
}

// m8n8k16, s8 (sm_75's integer shape), .satfinite.
//! exp: mma_s8_m8n8k16
//! title: m8n8k16 s8 with .satfinite
//@ mma_s8_m8n8k16 grid=1 block=32 args=buf:u8:128:rand,buf:u8:128:rand,buf:i32:64:rand,buf:i32:64:zero
extern "C" __global__ void mma_s8_m8n8k16(const uint8_t *a, const uint8_t *b, const int *c, int *d) {
  int l = threadIdx.x;
  asm volatile("mma.sync.aligned.m8n8k16.row.col.satfinite.s32.s8.s8.s32 {%0, %1}, {%2}, {%3}, {%4, %5};\n"
               : "=r"(E(d, 0)), "=r"(E(d, 1))
               : "r"(pack_8(a, l, 0)), "r"(pack_8(b, l, 0)), "r"(E(c, 0)), "r"(E(c, 1)));
}
