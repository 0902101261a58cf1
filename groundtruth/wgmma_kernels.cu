//! nvcc: -arch=sm_90a
// wgmma_kernels.cu - probes of how Nsight Compute counts wgmma.mma_async
// (issue 33), for the H200: each launch is one warpgroup issuing `reps`
// rounds of wgmma on one pair of shared tiles, so that its counters per
// warpgroup instruction separate the candidate rules of src/mem/gmma.c:
//   - smsp__inst_executed_pipe_tensor_op_gmma.sum: 4 a warpgroup
//     instruction (one a warp) or 1?
//   - smsp__sass_data_bytes_mem_shared_op_gmma.sum and
//     l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum: B read once a
//     warpgroup instruction or once a warp (x4)?  128 bytes a wavefront?
//     A from registers (gm_rs_*) reads only B; N = 64, 128, 256 scale B.
//   - l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum: 0 for
//     every canonical layout (each swizzle, K- and MN-major), or do some
//     conflict (a wavefront of another shape than a core matrix)?
//   - sm__ops_path_tensor_*: one op a multiply-add, or two?
// and, compared with `warpmem gpu run --check` (outputs bit for bit),
// what the model assumes of the layouts: gm_base4 puts its 128B-swizzled
// tiles 512 bytes past a 1024-byte boundary with the descriptor's base
// offset 4, gm_unaligned the same tiles with base offset 0 (warpmem: the
// swizzle is of the absolute address, the base offset shifts its rows).
// The elements are bf16 (tf32, e4m3, s8 for the ops counters) from
// in[] - 0.5; D is stored row-major to out[].
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <stdint.h>

__device__ __forceinline__ uint32_t smem_addr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_wait0() { asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory"); }
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
__device__ __forceinline__ void wgmma_ss_n256_bf16(float (&d)[128], uint64_t da, uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %130, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
               "{%0, %1, %2, %3, %4, %5, %6, %7,"
               " %8, %9, %10, %11, %12, %13, %14, %15,"
               " %16, %17, %18, %19, %20, %21, %22, %23,"
               " %24, %25, %26, %27, %28, %29, %30, %31,"
               " %32, %33, %34, %35, %36, %37, %38, %39,"
               " %40, %41, %42, %43, %44, %45, %46, %47,"
               " %48, %49, %50, %51, %52, %53, %54, %55,"
               " %56, %57, %58, %59, %60, %61, %62, %63,"
               " %64, %65, %66, %67, %68, %69, %70, %71,"
               " %72, %73, %74, %75, %76, %77, %78, %79,"
               " %80, %81, %82, %83, %84, %85, %86, %87,"
               " %88, %89, %90, %91, %92, %93, %94, %95,"
               " %96, %97, %98, %99, %100, %101, %102, %103,"
               " %104, %105, %106, %107, %108, %109, %110, %111,"
               " %112, %113, %114, %115, %116, %117, %118, %119,"
               " %120, %121, %122, %123, %124, %125, %126, %127}, "
               "%128, %129, p, %131, %132, %133, %134;\n}\n"
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
                 "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]),
                 "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                 "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),
                 "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
                 "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]),
                 "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
                 "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]),
                 "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]),
                 "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]),
                 "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
                 "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]),
                 "+f"(d[126]), "+f"(d[127])
               : "l"(da), "l"(db), "r"(scale_d), "n"(SA), "n"(SB), "n"(TA), "n"(TB));
}

template <int SA, int SB, int TB>
__device__ __forceinline__ void wgmma_rs_n64_bf16(float (&d)[32], const uint32_t (&a)[4], uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %37, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
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
__device__ __forceinline__ void wgmma_rs_n256_bf16(float (&d)[128], const uint32_t (&a)[4], uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %133, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
               "{%0, %1, %2, %3, %4, %5, %6, %7,"
               " %8, %9, %10, %11, %12, %13, %14, %15,"
               " %16, %17, %18, %19, %20, %21, %22, %23,"
               " %24, %25, %26, %27, %28, %29, %30, %31,"
               " %32, %33, %34, %35, %36, %37, %38, %39,"
               " %40, %41, %42, %43, %44, %45, %46, %47,"
               " %48, %49, %50, %51, %52, %53, %54, %55,"
               " %56, %57, %58, %59, %60, %61, %62, %63,"
               " %64, %65, %66, %67, %68, %69, %70, %71,"
               " %72, %73, %74, %75, %76, %77, %78, %79,"
               " %80, %81, %82, %83, %84, %85, %86, %87,"
               " %88, %89, %90, %91, %92, %93, %94, %95,"
               " %96, %97, %98, %99, %100, %101, %102, %103,"
               " %104, %105, %106, %107, %108, %109, %110, %111,"
               " %112, %113, %114, %115, %116, %117, %118, %119,"
               " %120, %121, %122, %123, %124, %125, %126, %127}, "
               "{%128, %129, %130, %131}, %132, p, %134, %135, %136;\n}\n"
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
                 "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]),
                 "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                 "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),
                 "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
                 "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]),
                 "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
                 "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]),
                 "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]),
                 "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]),
                 "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
                 "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]),
                 "+f"(d[126]), "+f"(d[127])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(scale_d), "n"(SA), "n"(SB), "n"(TB));
}

template <int SA, int SB, int TA, int TB>
__device__ __forceinline__ void wgmma_ss_n256_f16_f16(uint32_t (&d)[64], uint64_t da, uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %66, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n256k16.f16.f16.f16 "
               "{%0, %1, %2, %3, %4, %5, %6, %7,"
               " %8, %9, %10, %11, %12, %13, %14, %15,"
               " %16, %17, %18, %19, %20, %21, %22, %23,"
               " %24, %25, %26, %27, %28, %29, %30, %31,"
               " %32, %33, %34, %35, %36, %37, %38, %39,"
               " %40, %41, %42, %43, %44, %45, %46, %47,"
               " %48, %49, %50, %51, %52, %53, %54, %55,"
               " %56, %57, %58, %59, %60, %61, %62, %63}, "
               "%64, %65, p, %67, %68, %69, %70;\n}\n"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                 "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                 "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                 "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                 "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                 "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]),
                 "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]),
                 "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]),
                 "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]),
                 "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]),
                 "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63])
               : "l"(da), "l"(db), "r"(scale_d), "n"(SA), "n"(SB), "n"(TA), "n"(TB));
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
__device__ __forceinline__ void wgmma_ss_n256_tf32(float (&d)[128], uint64_t da, uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %130, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 "
               "{%0, %1, %2, %3, %4, %5, %6, %7,"
               " %8, %9, %10, %11, %12, %13, %14, %15,"
               " %16, %17, %18, %19, %20, %21, %22, %23,"
               " %24, %25, %26, %27, %28, %29, %30, %31,"
               " %32, %33, %34, %35, %36, %37, %38, %39,"
               " %40, %41, %42, %43, %44, %45, %46, %47,"
               " %48, %49, %50, %51, %52, %53, %54, %55,"
               " %56, %57, %58, %59, %60, %61, %62, %63,"
               " %64, %65, %66, %67, %68, %69, %70, %71,"
               " %72, %73, %74, %75, %76, %77, %78, %79,"
               " %80, %81, %82, %83, %84, %85, %86, %87,"
               " %88, %89, %90, %91, %92, %93, %94, %95,"
               " %96, %97, %98, %99, %100, %101, %102, %103,"
               " %104, %105, %106, %107, %108, %109, %110, %111,"
               " %112, %113, %114, %115, %116, %117, %118, %119,"
               " %120, %121, %122, %123, %124, %125, %126, %127}, "
               "%128, %129, p, %131, %132;\n}\n"
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
                 "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]),
                 "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                 "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),
                 "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
                 "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]),
                 "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
                 "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]),
                 "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]),
                 "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]),
                 "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
                 "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]),
                 "+f"(d[126]), "+f"(d[127])
               : "l"(da), "l"(db), "r"(scale_d), "n"(SA), "n"(SB));
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
__device__ __forceinline__ void wgmma_ss_n256_e4m3(float (&d)[128], uint64_t da, uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %130, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3 "
               "{%0, %1, %2, %3, %4, %5, %6, %7,"
               " %8, %9, %10, %11, %12, %13, %14, %15,"
               " %16, %17, %18, %19, %20, %21, %22, %23,"
               " %24, %25, %26, %27, %28, %29, %30, %31,"
               " %32, %33, %34, %35, %36, %37, %38, %39,"
               " %40, %41, %42, %43, %44, %45, %46, %47,"
               " %48, %49, %50, %51, %52, %53, %54, %55,"
               " %56, %57, %58, %59, %60, %61, %62, %63,"
               " %64, %65, %66, %67, %68, %69, %70, %71,"
               " %72, %73, %74, %75, %76, %77, %78, %79,"
               " %80, %81, %82, %83, %84, %85, %86, %87,"
               " %88, %89, %90, %91, %92, %93, %94, %95,"
               " %96, %97, %98, %99, %100, %101, %102, %103,"
               " %104, %105, %106, %107, %108, %109, %110, %111,"
               " %112, %113, %114, %115, %116, %117, %118, %119,"
               " %120, %121, %122, %123, %124, %125, %126, %127}, "
               "%128, %129, p, %131, %132;\n}\n"
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
                 "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]),
                 "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                 "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),
                 "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
                 "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]),
                 "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
                 "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]),
                 "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]),
                 "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]),
                 "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
                 "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]),
                 "+f"(d[126]), "+f"(d[127])
               : "l"(da), "l"(db), "r"(scale_d), "n"(SA), "n"(SB));
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

__device__ __forceinline__ void wgmma_ss_n256_s8(int32_t (&d)[128], uint64_t da, uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %130, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n256k32.s32.s8.s8 "
               "{%0, %1, %2, %3, %4, %5, %6, %7,"
               " %8, %9, %10, %11, %12, %13, %14, %15,"
               " %16, %17, %18, %19, %20, %21, %22, %23,"
               " %24, %25, %26, %27, %28, %29, %30, %31,"
               " %32, %33, %34, %35, %36, %37, %38, %39,"
               " %40, %41, %42, %43, %44, %45, %46, %47,"
               " %48, %49, %50, %51, %52, %53, %54, %55,"
               " %56, %57, %58, %59, %60, %61, %62, %63,"
               " %64, %65, %66, %67, %68, %69, %70, %71,"
               " %72, %73, %74, %75, %76, %77, %78, %79,"
               " %80, %81, %82, %83, %84, %85, %86, %87,"
               " %88, %89, %90, %91, %92, %93, %94, %95,"
               " %96, %97, %98, %99, %100, %101, %102, %103,"
               " %104, %105, %106, %107, %108, %109, %110, %111,"
               " %112, %113, %114, %115, %116, %117, %118, %119,"
               " %120, %121, %122, %123, %124, %125, %126, %127}, "
               "%128, %129, p;\n}\n"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                 "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                 "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                 "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                 "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                 "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]),
                 "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]),
                 "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]),
                 "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]),
                 "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]),
                 "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63]), "+r"(d[64]), "+r"(d[65]),
                 "+r"(d[66]), "+r"(d[67]), "+r"(d[68]), "+r"(d[69]), "+r"(d[70]), "+r"(d[71]),
                 "+r"(d[72]), "+r"(d[73]), "+r"(d[74]), "+r"(d[75]), "+r"(d[76]), "+r"(d[77]),
                 "+r"(d[78]), "+r"(d[79]), "+r"(d[80]), "+r"(d[81]), "+r"(d[82]), "+r"(d[83]),
                 "+r"(d[84]), "+r"(d[85]), "+r"(d[86]), "+r"(d[87]), "+r"(d[88]), "+r"(d[89]),
                 "+r"(d[90]), "+r"(d[91]), "+r"(d[92]), "+r"(d[93]), "+r"(d[94]), "+r"(d[95]),
                 "+r"(d[96]), "+r"(d[97]), "+r"(d[98]), "+r"(d[99]), "+r"(d[100]), "+r"(d[101]),
                 "+r"(d[102]), "+r"(d[103]), "+r"(d[104]), "+r"(d[105]), "+r"(d[106]), "+r"(d[107]),
                 "+r"(d[108]), "+r"(d[109]), "+r"(d[110]), "+r"(d[111]), "+r"(d[112]), "+r"(d[113]),
                 "+r"(d[114]), "+r"(d[115]), "+r"(d[116]), "+r"(d[117]), "+r"(d[118]), "+r"(d[119]),
                 "+r"(d[120]), "+r"(d[121]), "+r"(d[122]), "+r"(d[123]), "+r"(d[124]), "+r"(d[125]),
                 "+r"(d[126]), "+r"(d[127])
               : "l"(da), "l"(db), "r"(scale_d));
}

__device__ __forceinline__ void wgmma_ss_n256_b1(int32_t (&d)[128], uint64_t da, uint64_t db, int scale_d) {
  asm volatile("{\n.reg .pred p;\n"
               "setp.ne.b32 p, %130, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n256k256.s32.b1.b1.and.popc "
               "{%0, %1, %2, %3, %4, %5, %6, %7,"
               " %8, %9, %10, %11, %12, %13, %14, %15,"
               " %16, %17, %18, %19, %20, %21, %22, %23,"
               " %24, %25, %26, %27, %28, %29, %30, %31,"
               " %32, %33, %34, %35, %36, %37, %38, %39,"
               " %40, %41, %42, %43, %44, %45, %46, %47,"
               " %48, %49, %50, %51, %52, %53, %54, %55,"
               " %56, %57, %58, %59, %60, %61, %62, %63,"
               " %64, %65, %66, %67, %68, %69, %70, %71,"
               " %72, %73, %74, %75, %76, %77, %78, %79,"
               " %80, %81, %82, %83, %84, %85, %86, %87,"
               " %88, %89, %90, %91, %92, %93, %94, %95,"
               " %96, %97, %98, %99, %100, %101, %102, %103,"
               " %104, %105, %106, %107, %108, %109, %110, %111,"
               " %112, %113, %114, %115, %116, %117, %118, %119,"
               " %120, %121, %122, %123, %124, %125, %126, %127}, "
               "%128, %129, p;\n}\n"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]),
                 "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]),
                 "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]),
                 "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                 "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]),
                 "+r"(d[30]), "+r"(d[31]), "+r"(d[32]), "+r"(d[33]), "+r"(d[34]), "+r"(d[35]),
                 "+r"(d[36]), "+r"(d[37]), "+r"(d[38]), "+r"(d[39]), "+r"(d[40]), "+r"(d[41]),
                 "+r"(d[42]), "+r"(d[43]), "+r"(d[44]), "+r"(d[45]), "+r"(d[46]), "+r"(d[47]),
                 "+r"(d[48]), "+r"(d[49]), "+r"(d[50]), "+r"(d[51]), "+r"(d[52]), "+r"(d[53]),
                 "+r"(d[54]), "+r"(d[55]), "+r"(d[56]), "+r"(d[57]), "+r"(d[58]), "+r"(d[59]),
                 "+r"(d[60]), "+r"(d[61]), "+r"(d[62]), "+r"(d[63]), "+r"(d[64]), "+r"(d[65]),
                 "+r"(d[66]), "+r"(d[67]), "+r"(d[68]), "+r"(d[69]), "+r"(d[70]), "+r"(d[71]),
                 "+r"(d[72]), "+r"(d[73]), "+r"(d[74]), "+r"(d[75]), "+r"(d[76]), "+r"(d[77]),
                 "+r"(d[78]), "+r"(d[79]), "+r"(d[80]), "+r"(d[81]), "+r"(d[82]), "+r"(d[83]),
                 "+r"(d[84]), "+r"(d[85]), "+r"(d[86]), "+r"(d[87]), "+r"(d[88]), "+r"(d[89]),
                 "+r"(d[90]), "+r"(d[91]), "+r"(d[92]), "+r"(d[93]), "+r"(d[94]), "+r"(d[95]),
                 "+r"(d[96]), "+r"(d[97]), "+r"(d[98]), "+r"(d[99]), "+r"(d[100]), "+r"(d[101]),
                 "+r"(d[102]), "+r"(d[103]), "+r"(d[104]), "+r"(d[105]), "+r"(d[106]), "+r"(d[107]),
                 "+r"(d[108]), "+r"(d[109]), "+r"(d[110]), "+r"(d[111]), "+r"(d[112]), "+r"(d[113]),
                 "+r"(d[114]), "+r"(d[115]), "+r"(d[116]), "+r"(d[117]), "+r"(d[118]), "+r"(d[119]),
                 "+r"(d[120]), "+r"(d[121]), "+r"(d[122]), "+r"(d[123]), "+r"(d[124]), "+r"(d[125]),
                 "+r"(d[126]), "+r"(d[127])
               : "l"(da), "l"(db), "r"(scale_d));
}


__device__ __forceinline__ uint64_t desc_encode(uint32_t x) { return (uint64_t)((x & 0x3FFFF) >> 4); }
__device__ __forceinline__ uint64_t make_desc(const void *tile, uint32_t off, uint32_t lbo, uint32_t sbo, int sw,
                                              int base = 0) {
  uint64_t mode = sw == 128 ? 1 : sw == 64 ? 2 : sw == 32 ? 3 : 0;
  return desc_encode(smem_addr(tile) + off) | desc_encode(lbo) << 16 | desc_encode(sbo) << 32 |
         (uint64_t)base << 49 | mode << 62;
}
// the canonical layouts (as tests/corpus/wgmma_gemm.cu): K-major rows of
// kb bytes (one swizzle span when swizzled), MN-major atoms of 8 K rows
template <int SW>
__device__ __forceinline__ uint32_t kmajor_off(int r, int kb, int row_bytes) {
  if (SW == 0) return (r / 8) * (row_bytes / 16) * 128 + (kb / 16) * 128 + (r % 8) * 16 + kb % 16;
  uint32_t o = (r / 8) * 8 * SW + (r % 8) * SW + kb;
  return o ^ (((o >> 7) & (SW / 16 - 1)) << 4);
}
template <int SW>
__device__ __forceinline__ uint32_t mnmajor_off(int k, int nb, int kt) {
  if (SW == 0) return (nb / 16) * (kt / 8) * 128 + (k / 8) * 128 + (k % 8) * 16 + nb % 16;
  uint32_t o = (nb / SW) * kt * SW + (k / 8) * 8 * SW + (k % 8) * SW + nb % SW;
  return o ^ (((o >> 7) & (SW / 16 - 1)) << 4);
}
template <int SW>
__device__ __forceinline__ uint64_t kdesc(const void *t, int s, int kb) {
  return SW ? make_desc(t, 32 * s, 16, 8 * SW, SW) : make_desc(t, 256 * s, 128, kb / 16 * 128, 0);
}
template <int SW>
__device__ __forceinline__ uint64_t mndesc(const void *t, int s, int kt) {
  return SW ? make_desc(t, s * 16 * SW, kt * SW, 8 * SW, SW) : make_desc(t, 256 * s, 128, kt / 8 * 128, 0);
}

struct BF16 {
  static constexpr int bytes = 2;
  __device__ static void put(uint8_t *p, float v) { *(__nv_bfloat16 *)p = __float2bfloat16_rn(v - 0.5f); }
};
struct TF32 {
  static constexpr int bytes = 4;
  __device__ static void put(uint8_t *p, float v) { *(float *)p = v - 0.5f; }
};
struct E4M3 {
  static constexpr int bytes = 1;
  __device__ static void put(uint8_t *p, float v) { *(__nv_fp8_e4m3 *)p = __nv_fp8_e4m3(4.0f * v - 2.0f); }
};
struct S8 {
  static constexpr int bytes = 1;
  __device__ static void put(uint8_t *p, float v) { *(int8_t *)p = (int8_t)(int)(255.0f * v - 128.0f); }
};

// rows x kt elements (row stride kt) of in[] into a K-major or MN-major tile
template <class E, int SW, bool MN>
__device__ void stage(uint8_t *tile, const float *in, int rows, int kt) {
  for (int i = threadIdx.x; i < rows * kt; i += blockDim.x) {
    int r = i / kt, k = i % kt;
    E::put(tile + (MN ? mnmajor_off<SW>(k, r * E::bytes, kt) : kmajor_off<SW>(r, k * E::bytes, kt * E::bytes)), in[i]);
  }
}

template <int NR, class T>
__device__ void store_d(float *out, int n, const T (&d)[NR]) {
  int w = threadIdx.x / 32, l = threadIdx.x % 32, g = l / 4, t = l % 4;
  for (int i = 0; i < NR; i++) out[(16 * w + g + 8 * (i / 2 % 2)) * n + 8 * (i / 4) + 2 * t + i % 2] = (float)d[i];
}

// A's register fragment (bf16) for k step s of a 64 x kt A in in[]
__device__ void a_frag(uint32_t (&a)[4], const float *in, int kt, int s) {
  int w = threadIdx.x / 32, l = threadIdx.x % 32, g = l / 4, t = l % 4;
  for (int j = 0; j < 4; j++) {
    int row = 16 * w + g + 8 * (j % 2), k = s * 16 + 2 * t + 8 * (j / 2);
    __nv_bfloat162 p = __floats2bfloat162_rn(in[row * kt + k] - 0.5f, in[row * kt + k + 1] - 0.5f);
    a[j] = *(uint32_t *)&p;
  }
}

// One probe: tiles staged once (K tile KT elements), then `reps` rounds of
// its KT / (32 / E::bytes) k steps, each round fenced, committed, waited.
template <class E, int SW, bool MN, int N, int KT, class Mma>
__device__ void probe(const float *in, float *out, int reps, Mma mma, int shift = 0, int base = -1) {
  __shared__ __align__(1024) uint8_t smem[2 * 1024 + 64 * 128 + 256 * 128];
  uint8_t *sa = smem + shift, *sb = smem + shift + 1024 + 64 * 128;
  constexpr int KB = KT * E::bytes, STEPS = KB / 32;
  stage<E, SW, MN>(sa, in, 64, KT);
  stage<E, SW, MN>(sb, in + 64 * KT, N, KT);
  fence_proxy_async();
  __syncthreads();
  for (int rep = 0; rep < reps; rep++) {
    wgmma_fence();
    for (int s = 0; s < STEPS; s++) {
      uint64_t da = MN ? mndesc<SW>(sa, s, KT) : kdesc<SW>(sa, s, KB), db = MN ? mndesc<SW>(sb, s, KT) : kdesc<SW>(sb, s, KB);
      if (base >= 0) da |= (uint64_t)base << 49, db |= (uint64_t)base << 49;
      mma(da, db, rep > 0 || s > 0, s);
    }
    wgmma_commit();
    wgmma_wait0();
  }
}

#define PROBE(NAME, E, SW, MN, N, KT, ...)                                                               \
  extern "C" __global__ void __launch_bounds__(128) NAME(const float *in, float *out, int reps) {        \
    float d[N / 2];                                                                                      \
    probe<E, SW, MN, N, KT>(in, out, reps, [&](uint64_t da, uint64_t db, int sd, int s) { __VA_ARGS__; }); \
    store_d(out, N, d);                                                                                  \
  }

//! group: wgmma_count
//! title: how Nsight Compute counts wgmma (one warpgroup, 16 rounds of one tile pair)
//! exp: gmma_layouts
//! title: bf16 m64n64k16, both operands K-major or MN-major, each swizzle
//@ gm_k128_n64 grid=1 block=128 args=buf:f32:8192:rand,buf:f32:4096:zero,i32:16
PROBE(gm_k128_n64, BF16, 128, false, 64, 64, wgmma_ss_n64_bf16<1, 1, 0, 0>(d, da, db, sd))
//@ gm_k64_n64 grid=1 block=128 args=buf:f32:8192:rand,buf:f32:4096:zero,i32:16
PROBE(gm_k64_n64, BF16, 64, false, 64, 32, wgmma_ss_n64_bf16<1, 1, 0, 0>(d, da, db, sd))
//@ gm_k32_n64 grid=1 block=128 args=buf:f32:8192:rand,buf:f32:4096:zero,i32:16
PROBE(gm_k32_n64, BF16, 32, false, 64, 16, wgmma_ss_n64_bf16<1, 1, 0, 0>(d, da, db, sd))
//@ gm_k0_n64 grid=1 block=128 args=buf:f32:8192:rand,buf:f32:4096:zero,i32:16
PROBE(gm_k0_n64, BF16, 0, false, 64, 64, wgmma_ss_n64_bf16<1, 1, 0, 0>(d, da, db, sd))
//@ gm_mn128_n64 grid=1 block=128 args=buf:f32:8192:rand,buf:f32:4096:zero,i32:16
PROBE(gm_mn128_n64, BF16, 128, true, 64, 64, wgmma_ss_n64_bf16<1, 1, 1, 1>(d, da, db, sd))
//@ gm_mn64_n64 grid=1 block=128 args=buf:f32:8192:rand,buf:f32:4096:zero,i32:16
PROBE(gm_mn64_n64, BF16, 64, true, 64, 64, wgmma_ss_n64_bf16<1, 1, 1, 1>(d, da, db, sd))
//@ gm_mn32_n64 grid=1 block=128 args=buf:f32:8192:rand,buf:f32:4096:zero,i32:16
PROBE(gm_mn32_n64, BF16, 32, true, 64, 64, wgmma_ss_n64_bf16<1, 1, 1, 1>(d, da, db, sd))
//@ gm_mn0_n64 grid=1 block=128 args=buf:f32:8192:rand,buf:f32:4096:zero,i32:16
PROBE(gm_mn0_n64, BF16, 0, true, 64, 64, wgmma_ss_n64_bf16<1, 1, 1, 1>(d, da, db, sd))

//! exp: gmma_sizes
//! title: N = 64, 128, 256, and A from registers (B alone from shared memory)
//@ gm_k128_n128 grid=1 block=128 args=buf:f32:16384:rand,buf:f32:8192:zero,i32:16
PROBE(gm_k128_n128, BF16, 128, false, 128, 64, wgmma_ss_n128_bf16<1, 1, 0, 0>(d, da, db, sd))
//@ gm_k128_n256 grid=1 block=128 args=buf:f32:24576:rand,buf:f32:16384:zero,i32:16
PROBE(gm_k128_n256, BF16, 128, false, 256, 64, wgmma_ss_n256_bf16<1, 1, 0, 0>(d, da, db, sd))
//@ gm_rs_k128_n64 grid=1 block=128 args=buf:f32:8192:rand,buf:f32:4096:zero,i32:16
PROBE(gm_rs_k128_n64, BF16, 128, false, 64, 64, uint32_t a[4]; a_frag(a, in, 64, s);
      wgmma_rs_n64_bf16<1, 1, 0>(d, a, db, sd))
//@ gm_rs_k128_n256 grid=1 block=128 args=buf:f32:24576:rand,buf:f32:16384:zero,i32:16
PROBE(gm_rs_k128_n256, BF16, 128, false, 256, 64, uint32_t a[4]; a_frag(a, in, 64, s);
      wgmma_rs_n256_bf16<1, 1, 0>(d, a, db, sd))

//! exp: gmma_types
//! title: the ops counters of tf32, e4m3 and s8 (K-major, 128B swizzle)
//@ gm_tf32_n64 grid=1 block=128 args=buf:f32:4096:rand,buf:f32:4096:zero,i32:16
PROBE(gm_tf32_n64, TF32, 128, false, 64, 32, wgmma_ss_n64_tf32<1, 1>(d, da, db, sd))
//@ gm_e4m3_n64 grid=1 block=128 args=buf:f32:16384:rand,buf:f32:4096:zero,i32:16
PROBE(gm_e4m3_n64, E4M3, 128, false, 64, 128, wgmma_ss_n64_e4m3<1, 1>(d, da, db, sd))
//@ gm_s8_n64 grid=1 block=128 args=buf:f32:16384:rand,buf:f32:4096:zero,i32:16
extern "C" __global__ void __launch_bounds__(128) gm_s8_n64(const float *in, float *out, int reps) {
  int32_t d[32];
  probe<S8, 128, false, 64, 128>(in, out, reps, [&](uint64_t da, uint64_t db, int sd, int) { wgmma_ss_n64_s8(d, da, db, sd); });
  store_d(out, 64, d);
}

//! exp: gmma_base_offset
//! title: 128B-swizzled tiles 512 bytes past a 1024-byte boundary, base offset 4 or 0
//@ gm_base4 grid=1 block=128 args=buf:f32:8192:rand,buf:f32:4096:zero,i32:1
extern "C" __global__ void __launch_bounds__(128) gm_base4(const float *in, float *out, int reps) {
  float d[32];
  probe<BF16, 128, false, 64, 64>(in, out, reps, [&](uint64_t da, uint64_t db, int sd, int) {
    wgmma_ss_n64_bf16<1, 1, 0, 0>(d, da, db, sd);
  }, 512, 4);
  store_d(out, 64, d);
}
//@ gm_unaligned grid=1 block=128 args=buf:f32:8192:rand,buf:f32:4096:zero,i32:1
extern "C" __global__ void __launch_bounds__(128) gm_unaligned(const float *in, float *out, int reps) {
  float d[32];
  probe<BF16, 128, false, 64, 64>(in, out, reps, [&](uint64_t da, uint64_t db, int sd, int) {
    wgmma_ss_n64_bf16<1, 1, 0, 0>(d, da, db, sd);
  }, 512, 0);
  store_d(out, 64, d);
}
