//! nvcc: -arch=sm_90a
// wgmma_gemm.cu - Hopper warpgroup MMA (wgmma.mma_async, sm_90a) GEMMs as
// CUTLASS and fast.cu-style code writes them: inline PTX for wgmma with
// the matrix descriptors built in the kernel, the tiles staged in shared
// memory by plain loads in wgmma's canonical layouts (K-major or MN-major;
// the 32/64/128-byte swizzles and the unswizzled core-matrix interleave),
// wgmma.fence / commit_group / wait_group around each k tile, one
// warpgroup (128 threads) per 64 rows.  Every input type: f16, bf16, tf32,
// e4m3, e5m2, s8/u8, b1; A from shared memory or from registers; scale-d
// as a predicate (CUTLASS) or an immediate (fast.cu), negation.
// C[M x N] = A[M x K] * B[K x N]; A is given row-major (At, K x M, for an
// M-major A), B as Bt[N x K] for a K-major B and B[K x N] for an N-major
// one; C row-major.  Outputs: tests/test_corpus_wgmma.c.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <stdint.h>

__device__ __forceinline__ uint32_t smem_addr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// ---- the wgmma instructions (one asm statement per shape, as CUTLASS's
// mma_sm90_gmma.hpp writes them; scale-d a predicate made from a register,
// or an immediate in the fast.cu style helper) ----

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
// shared-memory writes of the generic proxy become visible to wgmma's reads
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }

template <int SA, int SB, int TA, int TB>
__device__ __forceinline__ void wgmma_ss_n64_bf16(float (&d)[32], uint64_t da, uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %34, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
               "{%0, %1, %2, %3, %4, %5, %6, %7,"
               " %8, %9, %10, %11, %12, %13, %14, %15,"
               " %16, %17, %18, %19, %20, %21, %22, %23,"
               " %24, %25, %26, %27, %28, %29, %30, %31}, "
               "%32, %33, p, %35, %36, %37, %38;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                 "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                 "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                 "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                 "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                 "+f"(d[30]), "+f"(d[31])
               : "l"(da), "l"(db), "r"(scale_d), "n"(SA), "n"(SB), "n"(TA), "n"(TB));
}

template <int SD, int SA, int SB, int TA, int TB>
__device__ __forceinline__ void wgmma_ss_n64_bf16_fast(float (&d)[32], uint64_t da, uint64_t db) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
               "{%0, %1, %2, %3, %4, %5, %6, %7,"
               " %8, %9, %10, %11, %12, %13, %14, %15,"
               " %16, %17, %18, %19, %20, %21, %22, %23,"
               " %24, %25, %26, %27, %28, %29, %30, %31}, "
               "%32, %33, %34, %35, %36, %37, %38;\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                 "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                 "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                 "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                 "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                 "+f"(d[30]), "+f"(d[31])
               : "l"(da), "l"(db), "n"(SD), "n"(SA), "n"(SB), "n"(TA), "n"(TB));
}

template <int SA, int SB, int TA, int TB>
__device__ __forceinline__ void wgmma_ss_n128_bf16(float (&d)[64], uint64_t da, uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %66, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
               "{%0, %1, %2, %3, %4, %5, %6, %7,"
               " %8, %9, %10, %11, %12, %13, %14, %15,"
               " %16, %17, %18, %19, %20, %21, %22, %23,"
               " %24, %25, %26, %27, %28, %29, %30, %31,"
               " %32, %33, %34, %35, %36, %37, %38, %39,"
               " %40, %41, %42, %43, %44, %45, %46, %47,"
               " %48, %49, %50, %51, %52, %53, %54, %55,"
               " %56, %57, %58, %59, %60, %61, %62, %63}, "
               "%64, %65, p, %67, %68, %69, %70;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                 "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                 "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                 "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                 "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                 "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                 "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
                 "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                 "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]),
                 "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
                 "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
               : "l"(da), "l"(db), "r"(scale_d), "n"(SA), "n"(SB), "n"(TA), "n"(TB));
}

template <int SA, int SB, int TA, int TB>
__device__ __forceinline__ void wgmma_ss_n64_f16(float (&d)[32], uint64_t da, uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %34, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
               "{%0, %1, %2, %3, %4, %5, %6, %7,"
               " %8, %9, %10, %11, %12, %13, %14, %15,"
               " %16, %17, %18, %19, %20, %21, %22, %23,"
               " %24, %25, %26, %27, %28, %29, %30, %31}, "
               "%32, %33, p, %35, %36, %37, %38;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                 "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                 "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                 "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                 "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                 "+f"(d[30]), "+f"(d[31])
               : "l"(da), "l"(db), "r"(scale_d), "n"(SA), "n"(SB), "n"(TA), "n"(TB));
}

template <int SA, int SB, int TB>
__device__ __forceinline__ void wgmma_rs_n64_f16(float (&d)[32], const uint32_t (&a)[4], uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %37, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
               "{%0, %1, %2, %3, %4, %5, %6, %7,"
               " %8, %9, %10, %11, %12, %13, %14, %15,"
               " %16, %17, %18, %19, %20, %21, %22, %23,"
               " %24, %25, %26, %27, %28, %29, %30, %31}, "
               "{%32, %33, %34, %35}, %36, p, %38, %39, %40;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                 "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                 "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                 "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                 "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                 "+f"(d[30]), "+f"(d[31])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(scale_d), "n"(SA), "n"(SB), "n"(TB));
}

template <int SA, int SB, int TB>
__device__ __forceinline__ void wgmma_rs_n64_f16_f16(uint32_t (&d)[16], const uint32_t (&a)[4], uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %21, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k16.f16.f16.f16 "
               "{%0, %1, %2, %3, %4, %5, %6, %7,"
               " %8, %9, %10, %11, %12, %13, %14, %15}, "
               "{%16, %17, %18, %19}, %20, p, %22, %23, %24;\n}\n"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                 "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                 "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(scale_d), "n"(SA), "n"(SB), "n"(TB));
}

template <int SA, int SB>
__device__ __forceinline__ void wgmma_ss_n64_tf32(float (&d)[32], uint64_t da, uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %34, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 "
               "{%0, %1, %2, %3, %4, %5, %6, %7,"
               " %8, %9, %10, %11, %12, %13, %14, %15,"
               " %16, %17, %18, %19, %20, %21, %22, %23,"
               " %24, %25, %26, %27, %28, %29, %30, %31}, "
               "%32, %33, p, %35, %36;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                 "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                 "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                 "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                 "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                 "+f"(d[30]), "+f"(d[31])
               : "l"(da), "l"(db), "r"(scale_d), "n"(SA), "n"(SB));
}

template <int SA, int SB>
__device__ __forceinline__ void wgmma_rs_n64_tf32(float (&d)[32], const uint32_t (&a)[4], uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %37, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 "
               "{%0, %1, %2, %3, %4, %5, %6, %7,"
               " %8, %9, %10, %11, %12, %13, %14, %15,"
               " %16, %17, %18, %19, %20, %21, %22, %23,"
               " %24, %25, %26, %27, %28, %29, %30, %31}, "
               "{%32, %33, %34, %35}, %36, p, %38, %39;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                 "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                 "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                 "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                 "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                 "+f"(d[30]), "+f"(d[31])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(scale_d), "n"(SA), "n"(SB));
}

template <int SA, int SB>
__device__ __forceinline__ void wgmma_ss_n64_e4m3(float (&d)[32], uint64_t da, uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %34, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 "
               "{%0, %1, %2, %3, %4, %5, %6, %7,"
               " %8, %9, %10, %11, %12, %13, %14, %15,"
               " %16, %17, %18, %19, %20, %21, %22, %23,"
               " %24, %25, %26, %27, %28, %29, %30, %31}, "
               "%32, %33, p, %35, %36;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                 "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                 "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                 "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                 "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                 "+f"(d[30]), "+f"(d[31])
               : "l"(da), "l"(db), "r"(scale_d), "n"(SA), "n"(SB));
}

template <int SA, int SB>
__device__ __forceinline__ void wgmma_ss_n64_e4m3_e5m2(float (&d)[32], uint64_t da, uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %34, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e5m2 "
               "{%0, %1, %2, %3, %4, %5, %6, %7,"
               " %8, %9, %10, %11, %12, %13, %14, %15,"
               " %16, %17, %18, %19, %20, %21, %22, %23,"
               " %24, %25, %26, %27, %28, %29, %30, %31}, "
               "%32, %33, p, %35, %36;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                 "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                 "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
                 "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                 "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                 "+f"(d[30]), "+f"(d[31])
               : "l"(da), "l"(db), "r"(scale_d), "n"(SA), "n"(SB));
}

template <int SA, int SB>
__device__ __forceinline__ void wgmma_rs_n64_e5m2_f16(uint32_t (&d)[16], const uint32_t (&a)[4], uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %21, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k32.f16.e5m2.e5m2 "
               "{%0, %1, %2, %3, %4, %5, %6, %7,"
               " %8, %9, %10, %11, %12, %13, %14, %15}, "
               "{%16, %17, %18, %19}, %20, p, %22, %23;\n}\n"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                 "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                 "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(scale_d), "n"(SA), "n"(SB));
}

__device__ __forceinline__ void wgmma_ss_n64_s8(int32_t (&d)[32], uint64_t da, uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %34, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 "
               "{%0, %1, %2, %3, %4, %5, %6, %7,"
               " %8, %9, %10, %11, %12, %13, %14, %15,"
               " %16, %17, %18, %19, %20, %21, %22, %23,"
               " %24, %25, %26, %27, %28, %29, %30, %31}, "
               "%32, %33, p;\n}\n"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                 "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                 "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                 "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                 "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                 "+r"(d[30]), "+r"(d[31])
               : "l"(da), "l"(db), "r"(scale_d));
}

__device__ __forceinline__ void wgmma_rs_n64_u8s8_sat(int32_t (&d)[32], const uint32_t (&a)[4], uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %37, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k32.s32.u8.s8.satfinite "
               "{%0, %1, %2, %3, %4, %5, %6, %7,"
               " %8, %9, %10, %11, %12, %13, %14, %15,"
               " %16, %17, %18, %19, %20, %21, %22, %23,"
               " %24, %25, %26, %27, %28, %29, %30, %31}, "
               "{%32, %33, %34, %35}, %36, p;\n}\n"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                 "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                 "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                 "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                 "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                 "+r"(d[30]), "+r"(d[31])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(scale_d));
}

__device__ __forceinline__ void wgmma_ss_n64_b1(int32_t (&d)[32], uint64_t da, uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %34, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k256.s32.b1.b1.and.popc "
               "{%0, %1, %2, %3, %4, %5, %6, %7,"
               " %8, %9, %10, %11, %12, %13, %14, %15,"
               " %16, %17, %18, %19, %20, %21, %22, %23,"
               " %24, %25, %26, %27, %28, %29, %30, %31}, "
               "%32, %33, p;\n}\n"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                 "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                 "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                 "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                 "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                 "+r"(d[30]), "+r"(d[31])
               : "l"(da), "l"(db), "r"(scale_d));
}


// ---- matrix descriptors (PTX ISA "Matrix Descriptor Format") ----

__device__ __forceinline__ uint64_t desc_encode(uint32_t x) { return (uint64_t)((x & 0x3FFFF) >> 4); }

__device__ __forceinline__ uint64_t make_desc(const void *tile, uint32_t offset, uint32_t lbo, uint32_t sbo, int sw) {
  uint64_t mode = sw == 128 ? 1 : sw == 64 ? 2 : sw == 32 ? 3 : 0;
  return desc_encode(smem_addr(tile) + offset) | desc_encode(lbo) << 16 | desc_encode(sbo) << 32 | mode << 62;
}

// k step s (256 bits of K) of a K-major tile whose rows hold kb bytes:
// swizzled, a row is one swizzle span (kb == SW) and the step moves 32
// bytes along it; unswizzled, core matrices of 8 rows x 16 bytes, LBO 128
// (along K), SBO (kb / 16) x 128 (the next 8 rows).
template <int SW>
__device__ __forceinline__ uint64_t kdesc(const void *tile, int s, int kb) {
  return SW ? make_desc(tile, 32 * s, 16, 8 * SW, SW) : make_desc(tile, 256 * s, 128, kb / 16 * 128, 0);
}

// k step s (16 K rows) of an MN-major tile of kt K rows: swizzled, atoms of
// SW bytes along M/N by 8 K rows, SBO 8 x SW (the next 8 K rows), LBO
// kt x SW (the next atom along M/N); unswizzled, core matrices of 8 K rows
// x 16 bytes, LBO 128 (the next 8 K rows), SBO (kt / 8) x 128 (along M/N).
template <int SW>
__device__ __forceinline__ uint64_t mndesc(const void *tile, int s, int kt) {
  return SW ? make_desc(tile, s * 16 * SW, kt * SW, 8 * SW, SW) : make_desc(tile, 256 * s, 128, kt / 8 * 128, 0);
}

// The byte of element (r, kbyte) in a K-major tile (the tile is aligned to
// 1024 bytes, so the swizzle of its offsets is that of their addresses).
template <int SW>
__device__ __forceinline__ uint32_t kmajor_off(int r, int kb, int row_bytes) {
  if (SW == 0) return (r / 8) * (row_bytes / 16) * 128 + (kb / 16) * 128 + (r % 8) * 16 + kb % 16;
  uint32_t o = (r / 8) * 8 * SW + (r % 8) * SW + kb;
  return o ^ (((o >> 7) & (SW / 16 - 1)) << 4);
}

// The byte of element (k, mn byte) in an MN-major tile of kt K rows.
template <int SW>
__device__ __forceinline__ uint32_t mnmajor_off(int k, int nb, int kt) {
  if (SW == 0) return (nb / 16) * (kt / 8) * 128 + (k / 8) * 128 + (k % 8) * 16 + nb % 16;
  uint32_t o = (nb / SW) * kt * SW + (k / 8) * 8 * SW + (k % 8) * SW + nb % SW;
  return o ^ (((o >> 7) & (SW / 16 - 1)) << 4);
}

// ---- element types: how a kernel stores an input in shared memory ----

struct BF16 {
  static constexpr int bytes = 2;
  __device__ static void put(uint8_t *p, float v) { *(__nv_bfloat16 *)p = __float2bfloat16_rn(v - 0.5f); }
};
struct F16 {
  static constexpr int bytes = 2;
  __device__ static void put(uint8_t *p, float v) { *(__half *)p = __float2half_rn(v - 0.5f); }
};
struct TF32 { // the tensor cores ignore the 13 low mantissa bits
  static constexpr int bytes = 4;
  __device__ static void put(uint8_t *p, float v) { *(float *)p = v - 0.5f; }
};
struct E4M3 {
  static constexpr int bytes = 1;
  __device__ static void put(uint8_t *p, float v) { *(__nv_fp8_e4m3 *)p = __nv_fp8_e4m3(4.0f * v - 2.0f); }
};
struct E5M2 {
  static constexpr int bytes = 1;
  __device__ static void put(uint8_t *p, float v) { *(__nv_fp8_e5m2 *)p = __nv_fp8_e5m2(4.0f * v - 2.0f); }
};
struct I8 { // s8, u8 and b1: the input's bytes as they are
  static constexpr int bytes = 1;
  __device__ static void put(uint8_t *p, uint8_t v) { *p = v; }
};

// rows x kt elements of src (row stride ld) into a K-major tile
template <class E, int SW, class S>
__device__ void stage_k(uint8_t *tile, const S *src, int ld, int rows, int kt) {
  for (int i = threadIdx.x; i < rows * kt; i += blockDim.x) {
    int r = i / kt, k = i % kt;
    E::put(tile + kmajor_off<SW>(r, k * E::bytes, kt * E::bytes), src[r * ld + k]);
  }
}

// kt x cols elements of src (row stride ld: K rows of M or N) into an MN-major tile
template <class E, int SW, class S>
__device__ void stage_mn(uint8_t *tile, const S *src, int ld, int kt, int cols) {
  for (int i = threadIdx.x; i < kt * cols; i += blockDim.x) {
    int k = i / cols, c = i % cols;
    E::put(tile + mnmajor_off<SW>(k, c * E::bytes, kt), src[k * ld + c]);
  }
}

// A's register fragment for k step `kk` (element index) of rows m0..m0+63:
// register j of lane (g, t) holds bytes 4t + 16 (j / 2) of row g + 8 (j % 2)
// of the warp's 16 (the PTX ISA's wgmma register fragments)
template <class E, class S>
__device__ void load_a_frag(uint32_t (&a)[4], const S *A, int lda, int m0, int kk) {
  int w = threadIdx.x / 32 % 4, l = threadIdx.x % 32, g = l / 4, t = l % 4;
  for (int j = 0; j < 4; j++) {
    uint8_t b[4];
    int row = m0 + 16 * w + g + 8 * (j % 2), byte = 4 * t + 16 * (j / 2);
    for (int e = 0; e < 4 / E::bytes; e++) E::put(b + e * E::bytes, A[row * lda + kk + byte / E::bytes + e]);
    a[j] = b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
  }
}

// element e of a lane's D: row 16 w + g + 8 ((e / 2) % 2), column 8 (e / 4) + 2 t + e % 2
template <int NR, class T, class O>
__device__ void store_d(O *C, int ldc, const T (&d)[NR], int per_reg) {
  int w = threadIdx.x / 32 % 4, l = threadIdx.x % 32, g = l / 4, t = l % 4;
  for (int i = 0; i < NR * per_reg; i++) {
    int row = 16 * w + g + 8 * (i / 2 % 2), col = 8 * (i / 4) + 2 * t + i % 2;
    if (per_reg == 2) C[row * ldc + col] = ((const O *)&d[i / 2])[i % 2];
    else C[row * ldc + col] = (O)d[i];
  }
}

// The k loop of a 64 x 64 (or 64 x BN) block tile: both operands staged
// (A_MN: A M-major from At; B_MN: B N-major from B), KT elements a tile,
// mma(desc_a, desc_b, scale_d) for each k step, scale-d 0 on the first.
template <class E, int SWA, int SWB, bool A_MN, bool B_MN, int KT, int BN, class S, class Mma>
__device__ void gemm_ss(const S *A, const S *B, int M, int N, int K, Mma mma) {
  constexpr int KB = KT * E::bytes, STEPS = KB / 32;
  __shared__ __align__(1024) uint8_t sa[64 * KB];
  __shared__ __align__(1024) uint8_t sb[BN * KB];
  int m0 = blockIdx.y * 64, n0 = blockIdx.x * BN;
  for (int k0 = 0; k0 < K; k0 += KT) {
    if (A_MN) stage_mn<E, SWA>(sa, A + k0 * M + m0, M, KT, 64);
    else stage_k<E, SWA>(sa, A + m0 * K + k0, K, 64, KT);
    if (B_MN) stage_mn<E, SWB>(sb, B + k0 * N + n0, N, KT, BN);
    else stage_k<E, SWB>(sb, B + n0 * K + k0, K, BN, KT);
    fence_proxy_async();
    __syncthreads();
    wgmma_fence();
    for (int s = 0; s < STEPS; s++)
      mma(A_MN ? mndesc<SWA>(sa, s, KT) : kdesc<SWA>(sa, s, KB), B_MN ? mndesc<SWB>(sb, s, KT) : kdesc<SWB>(sb, s, KB),
          k0 > 0 || s > 0);
    wgmma_commit();
    wgmma_wait<0>();
    __syncthreads();
  }
}

// The same with A from registers: only B is staged.
template <class E, int SWB, bool B_MN, int KT, class S, class Mma>
__device__ void gemm_rs(const S *A, const S *B, int M, int N, int K, Mma mma, int scale_first = 0) {
  constexpr int KB = KT * E::bytes, STEPS = KB / 32, KI = 32 / E::bytes;
  __shared__ __align__(1024) uint8_t sb[64 * KB];
  int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
  for (int k0 = 0; k0 < K; k0 += KT) {
    if (B_MN) stage_mn<E, SWB>(sb, B + k0 * N + n0, N, KT, 64);
    else stage_k<E, SWB>(sb, B + n0 * K + k0, K, 64, KT);
    fence_proxy_async();
    __syncthreads();
    wgmma_fence();
    for (int s = 0; s < STEPS; s++) {
      uint32_t a[4];
      load_a_frag<E>(a, A, K, m0, k0 + s * KI);
      mma(a, B_MN ? mndesc<SWB>(sb, s, KT) : kdesc<SWB>(sb, s, KB), scale_first || k0 > 0 || s > 0);
    }
    wgmma_commit();
    wgmma_wait<0>();
    __syncthreads();
  }
}

#define NAN32 __int_as_float(0x7fc00000)
#define OUT (C + blockIdx.y * 64 * N + blockIdx.x * 64)

//! group: wgmma_gemm
//! title: Hopper warpgroup MMA (wgmma.mma_async) GEMMs, every input type and layout
//! exp: wgmma_16bit
//! title: bf16 and f16 from shared memory: each swizzle, K- and MN-major, negation
// fast.cu's kernel: bf16, 128B swizzle, both K-major, D zeroed and
// scale-d the immediate 1.
//@ wg_bf16_sw128 grid=2,2 block=128 args=buf:f32:16384:rand,buf:f32:16384:rand,buf:f32:16384:zero,i32:128,i32:128,i32:128
extern "C" __global__ void __launch_bounds__(128) wg_bf16_sw128(const float *A, const float *Bt, float *C, int M, int N, int K) {
  float d[32] = {};
  gemm_ss<BF16, 128, 128, false, false, 64, 64>(A, Bt, M, N, K, [&](uint64_t da, uint64_t db, int) {
    wgmma_ss_n64_bf16_fast<1, 1, 1, 0, 0>(d, da, db);
  });
  store_d(OUT, N, d, 1);
}

// bf16, B N-major (B[K x N] as it comes) in 64-byte swizzle atoms: two
// atoms across the 64 columns (LBO), D starting as NaN (scale-d 0 first).
//@ wg_bf16_sw64_nmajor grid=2,1 block=128 args=buf:f32:8192:rand,buf:f32:16384:rand,buf:f32:8192:zero,i32:64,i32:128,i32:128
extern "C" __global__ void __launch_bounds__(128) wg_bf16_sw64_nmajor(const float *A, const float *B, float *C, int M, int N, int K) {
  float d[32];
  for (int i = 0; i < 32; i++) d[i] = NAN32;
  gemm_ss<BF16, 64, 64, false, true, 32, 64>(A, B, M, N, K, [&](uint64_t da, uint64_t db, int sd) {
    wgmma_ss_n64_bf16<1, 1, 0, 1>(d, da, db, sd);
  });
  store_d(OUT, N, d, 1);
}

// bf16 m64n128k16: 64 accumulators a thread, B tiles of 128 rows.
//@ wg_bf16_n128 grid=2,1 block=128 args=buf:f32:8192:rand,buf:f32:32768:rand,buf:f32:16384:zero,i32:64,i32:256,i32:128
extern "C" __global__ void __launch_bounds__(128) wg_bf16_n128(const float *A, const float *Bt, float *C, int M, int N, int K) {
  float d[64];
  gemm_ss<BF16, 128, 128, false, false, 64, 128>(A, Bt, M, N, K, [&](uint64_t da, uint64_t db, int sd) {
    wgmma_ss_n128_bf16<1, 1, 0, 0>(d, da, db, sd);
  });
  store_d(C + blockIdx.x * 128, N, d, 1);
}

// f16, 32-byte swizzle: one k16 step a tile.
//@ wg_f16_sw32 grid=1,1 block=128 args=buf:f32:4096:rand,buf:f32:4096:rand,buf:f32:4096:zero,i32:64,i32:64,i32:64
extern "C" __global__ void __launch_bounds__(128) wg_f16_sw32(const float *A, const float *Bt, float *C, int M, int N, int K) {
  float d[32];
  gemm_ss<F16, 32, 32, false, false, 16, 64>(A, Bt, M, N, K, [&](uint64_t da, uint64_t db, int sd) {
    wgmma_ss_n64_f16<1, 1, 0, 0>(d, da, db, sd);
  });
  store_d(OUT, N, d, 1);
}

// f16 without swizzle: the core-matrix interleave, rows of 64 bytes.
//@ wg_f16_interleave grid=1,1 block=128 args=buf:f32:8192:rand,buf:f32:8192:rand,buf:f32:4096:zero,i32:64,i32:64,i32:128
extern "C" __global__ void __launch_bounds__(128) wg_f16_interleave(const float *A, const float *Bt, float *C, int M, int N, int K) {
  float d[32];
  gemm_ss<F16, 0, 0, false, false, 32, 64>(A, Bt, M, N, K, [&](uint64_t da, uint64_t db, int sd) {
    wgmma_ss_n64_f16<1, 1, 0, 0>(d, da, db, sd);
  });
  store_d(OUT, N, d, 1);
}

// f16 with both operands MN-major (imm-trans-a and imm-trans-b), 128-byte swizzle.
//@ wg_f16_mn grid=1,1 block=128 args=buf:f32:8192:rand,buf:f32:8192:rand,buf:f32:4096:zero,i32:64,i32:64,i32:128
extern "C" __global__ void __launch_bounds__(128) wg_f16_mn(const float *At, const float *B, float *C, int M, int N, int K) {
  float d[32];
  gemm_ss<F16, 128, 128, true, true, 64, 64>(At, B, M, N, K, [&](uint64_t da, uint64_t db, int sd) {
    wgmma_ss_n64_f16<1, 1, 1, 1>(d, da, db, sd);
  });
  store_d(OUT, N, d, 1);
}

// f16, A negated (imm-scale-a = -1), B N-major without swizzle.
//@ wg_f16_neg grid=1,1 block=128 args=buf:f32:4096:rand,buf:f32:4096:rand,buf:f32:4096:zero,i32:64,i32:64,i32:64
extern "C" __global__ void __launch_bounds__(128) wg_f16_neg(const float *A, const float *B, float *C, int M, int N, int K) {
  float d[32];
  gemm_ss<F16, 64, 0, false, true, 32, 64>(A, B, M, N, K, [&](uint64_t da, uint64_t db, int sd) {
    wgmma_ss_n64_f16<-1, 1, 0, 1>(d, da, db, sd);
  });
  store_d(OUT, N, d, 1);
}

//! exp: wgmma_regs
//! title: A from registers: f16 with f16 and f32 D, tf32, e5m2, u8 x s8 .satfinite
// f16 A from registers (FlashAttention-3's P), D f16, B K-major 128B.
//@ wg_f16_rs_f16 grid=1,1 block=128 args=buf:f32:4096:rand,buf:f32:4096:rand,buf:u16:4096:zero,i32:64,i32:64,i32:64
extern "C" __global__ void __launch_bounds__(128) wg_f16_rs_f16(const float *A, const float *Bt, __half *C, int M, int N, int K) {
  uint32_t d[16];
  gemm_rs<F16, 128, false, 64>(A, Bt, M, N, K, [&](const uint32_t(&a)[4], uint64_t db, int sd) {
    wgmma_rs_n64_f16_f16<1, 1, 0>(d, a, db, sd);
  });
  store_d(OUT, N, d, 2);
}

// f16 A from registers, f32 D, B N-major in 32-byte swizzle atoms.
//@ wg_f16_rs grid=1,1 block=128 args=buf:f32:4096:rand,buf:f32:4096:rand,buf:f32:4096:zero,i32:64,i32:64,i32:64
extern "C" __global__ void __launch_bounds__(128) wg_f16_rs(const float *A, const float *B, float *C, int M, int N, int K) {
  float d[32];
  gemm_rs<F16, 32, true, 16>(A, B, M, N, K, [&](const uint32_t(&a)[4], uint64_t db, int sd) {
    wgmma_rs_n64_f16<1, 1, 1>(d, a, db, sd);
  });
  store_d(OUT, N, d, 1);
}

//! exp: wgmma_tf32
//! title: tf32 m64n64k8 from shared memory and from registers
//@ wg_tf32_sw128 grid=1,1 block=128 args=buf:f32:4096:rand,buf:f32:4096:rand,buf:f32:4096:zero,i32:64,i32:64,i32:64
extern "C" __global__ void __launch_bounds__(128) wg_tf32_sw128(const float *A, const float *Bt, float *C, int M, int N, int K) {
  float d[32];
  gemm_ss<TF32, 128, 128, false, false, 32, 64>(A, Bt, M, N, K, [&](uint64_t da, uint64_t db, int sd) {
    wgmma_ss_n64_tf32<1, 1>(d, da, db, sd);
  });
  store_d(OUT, N, d, 1);
}

//@ wg_tf32_rs grid=1,1 block=128 args=buf:f32:4096:rand,buf:f32:4096:rand,buf:f32:4096:zero,i32:64,i32:64,i32:64
extern "C" __global__ void __launch_bounds__(128) wg_tf32_rs(const float *A, const float *Bt, float *C, int M, int N, int K) {
  float d[32];
  gemm_rs<TF32, 32, false, 8>(A, Bt, M, N, K, [&](const uint32_t(&a)[4], uint64_t db, int sd) {
    wgmma_rs_n64_tf32<1, 1>(d, a, db, sd);
  });
  store_d(OUT, N, d, 1);
}

//! exp: wgmma_fp8
//! title: e4m3, e4m3 x e5m2 and e5m2 (f16 D) m64n64k32
//@ wg_e4m3 grid=1,1 block=128 args=buf:f32:16384:rand,buf:f32:16384:rand,buf:f32:4096:zero,i32:64,i32:64,i32:256
extern "C" __global__ void __launch_bounds__(128) wg_e4m3(const float *A, const float *Bt, float *C, int M, int N, int K) {
  float d[32];
  gemm_ss<E4M3, 128, 128, false, false, 128, 64>(A, Bt, M, N, K, [&](uint64_t da, uint64_t db, int sd) {
    wgmma_ss_n64_e4m3<1, 1>(d, da, db, sd);
  });
  store_d(OUT, N, d, 1);
}

// A e4m3, B e5m2 (one wgmma, two formats), 64-byte swizzle.
template <int SWB>
__device__ void stage_e5m2_b(uint8_t *sb, const float *Bt, int K, int k0) {
  stage_k<E5M2, SWB>(sb, Bt + blockIdx.x * 64 * K + k0, K, 64, 64);
}
//@ wg_e4m3_e5m2 grid=1,1 block=128 args=buf:f32:8192:rand,buf:f32:8192:rand,buf:f32:4096:zero,i32:64,i32:64,i32:128
extern "C" __global__ void __launch_bounds__(128) wg_e4m3_e5m2(const float *A, const float *Bt, float *C, int M, int N, int K) {
  __shared__ __align__(1024) uint8_t sa[64 * 64], sb[64 * 64];
  float d[32];
  for (int k0 = 0; k0 < K; k0 += 64) {
    stage_k<E4M3, 64>(sa, A + k0, K, 64, 64);
    stage_e5m2_b<64>(sb, Bt, K, k0);
    fence_proxy_async();
    __syncthreads();
    wgmma_fence();
    for (int s = 0; s < 2; s++) wgmma_ss_n64_e4m3_e5m2<1, 1>(d, kdesc<64>(sa, s, 64), kdesc<64>(sb, s, 64), k0 > 0 || s > 0);
    wgmma_commit();
    wgmma_wait<0>();
    __syncthreads();
  }
  store_d(C, N, d, 1);
}

// e5m2 A from registers, f16 D, B unswizzled.
//@ wg_e5m2_rs_f16 grid=1,1 block=128 args=buf:f32:8192:rand,buf:f32:8192:rand,buf:u16:4096:zero,i32:64,i32:64,i32:128
extern "C" __global__ void __launch_bounds__(128) wg_e5m2_rs_f16(const float *A, const float *Bt, __half *C, int M, int N, int K) {
  uint32_t d[16];
  gemm_rs<E5M2, 0, false, 64>(A, Bt, M, N, K, [&](const uint32_t(&a)[4], uint64_t db, int sd) {
    wgmma_rs_n64_e5m2_f16<1, 1>(d, a, db, sd);
  });
  store_d(OUT, N, d, 2);
}

//! exp: wgmma_int
//! title: s8, u8 x s8 .satfinite from registers, b1 .and.popc
// s8 x s8 (the input's bytes, read as signed), 128-byte swizzle.
//@ wg_s8 grid=1,1 block=128 args=buf:u8:16384:rand,buf:u8:16384:rand,buf:i32:4096:zero,i32:64,i32:64,i32:256
extern "C" __global__ void __launch_bounds__(128) wg_s8(const uint8_t *A, const uint8_t *Bt, int *C, int M, int N, int K) {
  int32_t d[32];
  gemm_ss<I8, 128, 128, false, false, 128, 64>(A, Bt, M, N, K, [&](uint64_t da, uint64_t db, int sd) {
    wgmma_ss_n64_s8(d, da, db, sd);
  });
  store_d(OUT, N, d, 1);
}

// u8 A from registers x s8 B, .satfinite, accumulating onto C0 (values
// near INT32_MAX, so that some sums clamp), B in 32-byte swizzle.
//@ wg_u8s8_sat grid=1,1 block=128 args=buf:u8:4096:rand,buf:u8:4096:rand,buf:i32:4096:zero,i32:64,i32:64,i32:64,buf:i32:4096:2147400000
extern "C" __global__ void __launch_bounds__(128) wg_u8s8_sat(const uint8_t *A, const uint8_t *Bt, int *C, int M, int N, int K,
                                                              const int *C0) {
  int32_t d[32];
  int w = threadIdx.x / 32, l = threadIdx.x % 32, g = l / 4, t = l % 4;
  for (int i = 0; i < 32; i++) d[i] = C0[(16 * w + g + 8 * (i / 2 % 2)) * N + 8 * (i / 4) + 2 * t + i % 2];
  gemm_rs<I8, 32, false, 32>(A, Bt, M, N, K, [&](const uint32_t(&a)[4], uint64_t db, int sd) {
    wgmma_rs_n64_u8s8_sat(d, a, db, sd);
  }, 1);
  store_d(OUT, N, d, 1);
}

// b1: C += popc(A row AND B column) over K bits (K / 8 bytes a row).
//@ wg_b1 grid=1,1 block=128 args=buf:u8:8192:rand,buf:u8:8192:rand,buf:i32:4096:zero,i32:64,i32:64,i32:128
extern "C" __global__ void __launch_bounds__(128) wg_b1(const uint8_t *A, const uint8_t *Bt, int *C, int M, int N, int Kbytes) {
  int32_t d[32];
  gemm_ss<I8, 0, 0, false, false, 64, 64>(A, Bt, M, N, Kbytes, [&](uint64_t da, uint64_t db, int sd) {
    wgmma_ss_n64_b1(d, da, db, sd);
  });
  store_d(OUT, N, d, 1);
}

//! exp: wgmma_fragments
//! title: the accumulator fragment as the threads hold it
// One m64n64k16 (bf16, 128B swizzle): each thread's 32 accumulators as
// they are, Out[i * 128 + thread], for the test to place by the PTX ISA's
// figure of the wgmma D fragment.
//@ wg_frag grid=1,1 block=128 args=buf:f32:1024:rand,buf:f32:1024:rand,buf:f32:4096:zero
extern "C" __global__ void __launch_bounds__(128) wg_frag(const float *A, const float *Bt, float *Out) {
  __shared__ __align__(1024) uint8_t sa[64 * 128], sb[64 * 128];
  float d[32];
  stage_k<BF16, 128>(sa, A, 16, 64, 16);
  stage_k<BF16, 128>(sb, Bt, 16, 64, 16);
  fence_proxy_async();
  __syncthreads();
  wgmma_fence();
  wgmma_ss_n64_bf16<1, 1, 0, 0>(d, kdesc<128>(sa, 0, 128), kdesc<128>(sb, 0, 128), 0);
  wgmma_commit();
  wgmma_wait<0>();
  for (int i = 0; i < 32; i++) Out[i * 128 + threadIdx.x] = d[i];
}

//! exp: wgmma_errors
//! title: located faults: a descriptor past shared memory, descriptors that differ, a warp that exits
// mode 0: a correct f16 GEMM; 1: B's descriptor starts `shift` bytes
// further (past the tile: a fault); 2: thread 5's B descriptor differs;
// 3: warp 3 leaves before the wgmma.
//@ wg_bad grid=1,1 block=128 args=buf:f32:4096:rand,buf:f32:4096:rand,buf:f32:4096:zero,i32:0,i32:0
extern "C" __global__ void __launch_bounds__(128) wg_bad(const float *A, const float *Bt, float *C, int mode, int shift) {
  __shared__ __align__(1024) uint8_t sa[64 * 32], sb[64 * 32];
  float d[32] = {};
  stage_k<F16, 32>(sa, A, 64, 64, 16);
  stage_k<F16, 32>(sb, Bt, 64, 64, 16);
  fence_proxy_async();
  __syncthreads();
  if (mode == 3 && threadIdx.x >= 96) return;
  uint64_t db = kdesc<32>(sb, 0, 32);
  if (mode == 1) db += (uint64_t)(shift >> 4);
  if (mode == 2 && threadIdx.x == 5) db += 2;
  wgmma_fence();
  wgmma_ss_n64_f16<1, 1, 0, 0>(d, kdesc<32>(sa, 0, 32), db, 0);
  wgmma_commit();
  wgmma_wait<0>();
  store_d(C, 64, d, 1);
}

// `warpmem check`'s racecheck: the accumulators read after the commit but
// before the wait (mode 0), or the wait for all but the newest group
// (wait_group 1) taken for the whole (mode 1); mode 2 waits correctly.
//@ wg_early grid=1,1 block=128 args=buf:f32:4096:rand,buf:f32:4096:rand,buf:f32:4096:zero,i32:2
extern "C" __global__ void __launch_bounds__(128) wg_early(const float *A, const float *Bt, float *C, int mode) {
  __shared__ __align__(1024) uint8_t sa[64 * 32], sb[64 * 32];
  float d[32] = {};
  stage_k<F16, 32>(sa, A, 64, 64, 16);
  stage_k<F16, 32>(sb, Bt, 64, 64, 16);
  fence_proxy_async();
  __syncthreads();
  wgmma_fence();
  wgmma_ss_n64_f16<1, 1, 0, 0>(d, kdesc<32>(sa, 0, 32), kdesc<32>(sb, 0, 32), 0);
  wgmma_commit();
  if (mode == 0) C[threadIdx.x] = d[0];
  if (mode == 1) wgmma_wait<1>();
  else wgmma_wait<0>();
  store_d(C, 64, d, 1);
}
