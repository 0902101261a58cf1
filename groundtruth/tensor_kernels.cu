//! nvcc: -arch=sm_90a
// tensor_kernels.cu - the tensor cores' throughput on the H200, for the
// time model's tensor bound (issue 33; src/arch/arch.c's tensor_fma, now
// the datasheet's): one block an SM (grid = 132), each warpgroup issuing
// `iters` groups of 4 dependent-free-of-registers wgmma on shared tiles
// staged once, a group in flight (wait_group 1, as CUTLASS's mainloop),
// for each input type at N = 256; and mma.sync with 8 independent
// accumulators a warp, 8 warps a block.  Time each launch
// (`warpmem gpu run groundtruth/ptx/tensor_kernels.ptx`); the rate is
// multiply-adds / (seconds x 132 SMs x the SM clock): each launch's
// multiply-adds are in its name's comment and in warpmem's
// sm__ops_path_tensor_* counters (`warpmem sim`), which Nsight Compute's
// should equal (`tools/gpu/hierarchy_ncu.sh tensor`).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <stdint.h>

__device__ __forceinline__ uint32_t smem_addr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }

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
// k step s of a 128B-swizzled K-major tile (rows of 128 bytes)
__device__ __forceinline__ uint64_t sw128_desc(const void *tile, int s) {
  return desc_encode(smem_addr(tile) + 32 * s) | desc_encode(16) << 16 | desc_encode(1024) << 32 | 1ull << 62;
}

// rows x 128 bytes into a 128B-swizzled tile: in[] (rand: 10 random bits
// a word) mixed with a hash of the index, masked so that float fields stay
// finite (the tensor cores' power, and so their clock, depends on the
// data: random bits in every field, not zeros)
__device__ void stage(uint8_t *tile, const uint32_t *in, int rows, uint32_t mask) {
  for (int i = threadIdx.x; i < rows * 32; i += blockDim.x) {
    int r = i / 32, w = i % 32;
    uint32_t o = r * 128 + w * 4;
    *(uint32_t *)(tile + (o ^ (((o >> 7) & 7) << 4))) = (in[i] ^ ((uint32_t)i * 2654435761u)) & mask;
  }
}

// Each warpgroup of the block: iters groups of 4 wgmma (one 128-byte K
// row each of A's 64 and B's 256 rows), a group in flight.
template <class T, int NR, class Mma>
__device__ void tc_loop(const uint32_t *in, float *out, int iters, uint32_t mask, Mma mma) {
  __shared__ __align__(1024) uint8_t sa[64 * 128], sb[256 * 128];
  stage(sa, in, 64, mask);
  stage(sb, in + 64 * 32, 256, mask);
  fence_proxy_async();
  __syncthreads();
  T d[NR] = {};
  for (int it = 0; it < iters; it++) {
    wgmma_fence();
    for (int s = 0; s < 4; s++) mma(d, sw128_desc(sa, s), sw128_desc(sb, s), 1, s);
    wgmma_commit();
    wgmma_wait<1>();
  }
  wgmma_wait<0>();
  float sum = 0;
  for (int i = 0; i < NR; i++) sum += (float)d[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// 0x3f3f3f3f: bf16, f16 and fp8 fields below 2 (no infinities or NaN);
// tf32 likewise; integers and bits as they come.
#define FINITE 0x3f3f3f3fu

//! group: tensor_throughput
//! title: the tensor cores' dense rate, each type, one block of 2 warpgroups an SM
//! exp: wgmma_rate
//! title: wgmma m64n256, 4 k steps a group, 256 groups a warpgroup
// multiply-adds: 132 x 2 x 256 x 4 x 64 x 256 x 16 = 2.27e11
//@ tc_bf16 grid=132 block=256 args=buf:u32:10240:rand,buf:f32:33792:zero,i32:256
extern "C" __global__ void __launch_bounds__(256) tc_bf16(const uint32_t *in, float *out, int iters) {
  tc_loop<float, 128>(in, out, iters, FINITE, [](float(&d)[128], uint64_t da, uint64_t db, int sd, int) {
    wgmma_ss_n256_bf16<1, 1, 0, 0>(d, da, db, sd);
  });
}
// one warpgroup an SM: what a lone warpgroup gets (half the SM's issue)
//@ tc_bf16_1wg grid=132 block=128 args=buf:u32:10240:rand,buf:f32:16896:zero,i32:256
extern "C" __global__ void __launch_bounds__(128) tc_bf16_1wg(const uint32_t *in, float *out, int iters) {
  tc_loop<float, 128>(in, out, iters, FINITE, [](float(&d)[128], uint64_t da, uint64_t db, int sd, int) {
    wgmma_ss_n256_bf16<1, 1, 0, 0>(d, da, db, sd);
  });
}
// A from registers (each thread's fragment of the first k step, reused)
//@ tc_bf16_rs grid=132 block=256 args=buf:u32:10240:rand,buf:f32:33792:zero,i32:256
extern "C" __global__ void __launch_bounds__(256) tc_bf16_rs(const uint32_t *in, float *out, int iters) {
  uint32_t a[4];
  for (int j = 0; j < 4; j++) a[j] = (in[threadIdx.x % 128 * 4 + j] ^ ((uint32_t)j * 2654435761u)) & FINITE;
  tc_loop<float, 128>(in, out, iters, FINITE, [&](float(&d)[128], uint64_t, uint64_t db, int sd, int) {
    wgmma_rs_n256_bf16<1, 1, 0>(d, a, db, sd);
  });
}
// f16 with f16 accumulators (64 registers)
//@ tc_f16_f16 grid=132 block=256 args=buf:u32:10240:rand,buf:f32:33792:zero,i32:256
extern "C" __global__ void __launch_bounds__(256) tc_f16_f16(const uint32_t *in, float *out, int iters) {
  tc_loop<uint32_t, 64>(in, out, iters, 0x33333333u, [](uint32_t(&d)[64], uint64_t da, uint64_t db, int sd, int) {
    wgmma_ss_n256_f16_f16<1, 1, 0, 0>(d, da, db, sd);
  });
}
// tf32 m64n256k8: multiply-adds 132 x 2 x 256 x 4 x 64 x 256 x 8 = 1.13e11
//@ tc_tf32 grid=132 block=256 args=buf:u32:10240:rand,buf:f32:33792:zero,i32:256
extern "C" __global__ void __launch_bounds__(256) tc_tf32(const uint32_t *in, float *out, int iters) {
  tc_loop<float, 128>(in, out, iters, 0x3fffffffu, [](float(&d)[128], uint64_t da, uint64_t db, int sd, int) {
    wgmma_ss_n256_tf32<1, 1>(d, da, db, sd);
  });
}
// e4m3 m64n256k32: 4.54e11 multiply-adds
//@ tc_e4m3 grid=132 block=256 args=buf:u32:10240:rand,buf:f32:33792:zero,i32:256
extern "C" __global__ void __launch_bounds__(256) tc_e4m3(const uint32_t *in, float *out, int iters) {
  tc_loop<float, 128>(in, out, iters, 0xb7b7b7b7u, [](float(&d)[128], uint64_t da, uint64_t db, int sd, int) {
    wgmma_ss_n256_e4m3<1, 1>(d, da, db, sd);
  });
}
// s8 m64n256k32: 4.54e11
//@ tc_s8 grid=132 block=256 args=buf:u32:10240:rand,buf:f32:33792:zero,i32:256
extern "C" __global__ void __launch_bounds__(256) tc_s8(const uint32_t *in, float *out, int iters) {
  tc_loop<int32_t, 128>(in, out, iters, 0xffffffffu, [](int32_t(&d)[128], uint64_t da, uint64_t db, int sd, int) {
    wgmma_ss_n256_s8(d, da, db, sd);
  });
}
// b1 m64n256k256: 3.63e12 bit multiply-adds
//@ tc_b1 grid=132 block=256 args=buf:u32:10240:rand,buf:f32:33792:zero,i32:256
extern "C" __global__ void __launch_bounds__(256) tc_b1(const uint32_t *in, float *out, int iters) {
  tc_loop<int32_t, 128>(in, out, iters, 0xffffffffu, [](int32_t(&d)[128], uint64_t da, uint64_t db, int sd, int) {
    wgmma_ss_n256_b1(d, da, db, sd);
  });
}

// ---- mma.sync: 8 independent accumulators a warp ----

__device__ __forceinline__ void mma_f16(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
__device__ __forceinline__ void mma_tf32(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
__device__ __forceinline__ void mma_s8(int (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};\n"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
__device__ __forceinline__ void mma_f64(double (&d)[4], const double (&a)[4], const double (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%0, %1, %2, %3};\n"
               : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
               : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
}

template <class T, class F, class Mma>
__device__ void mma_loop(const uint32_t *in, float *out, int iters, uint32_t mask, Mma mma) {
  F a[4], b[2];
  uint32_t v[6];
  for (int j = 0; j < 6; j++) v[j] = (in[threadIdx.x * 6 + j] ^ ((uint32_t)(threadIdx.x * 6 + j) * 2654435761u)) & mask;
  for (int j = 0; j < 4; j++) a[j] = (F)v[j];
  for (int j = 0; j < 2; j++) b[j] = (F)v[4 + j];
  T d[8][4] = {};
  for (int it = 0; it < iters; it++)
    for (int c = 0; c < 8; c++) mma(d[c], a, b);
  float sum = 0;
  for (int c = 0; c < 8; c++)
    for (int i = 0; i < 4; i++) sum += (float)d[c][i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

//! exp: mma_rate
//! title: mma.sync, 8 independent accumulators a warp, 8 warps a block, 1024 rounds
// multiply-adds: 132 x 8 x 1024 x 8 x 16 x 8 x 16 = 1.77e10
//@ tc_mma_f16 grid=132 block=256 args=buf:u32:1536:rand,buf:f32:33792:zero,i32:1024
extern "C" __global__ void __launch_bounds__(256) tc_mma_f16(const uint32_t *in, float *out, int iters) {
  mma_loop<float, uint32_t>(in, out, iters, 0x33333333u,
                            [](float(&d)[4], const uint32_t(&a)[4], const uint32_t(&b)[2]) { mma_f16(d, a, b); });
}
// tf32 m16n8k8: 8.86e9
//@ tc_mma_tf32 grid=132 block=256 args=buf:u32:1536:rand,buf:f32:33792:zero,i32:1024
extern "C" __global__ void __launch_bounds__(256) tc_mma_tf32(const uint32_t *in, float *out, int iters) {
  mma_loop<float, uint32_t>(in, out, iters, 0x3fffffffu,
                            [](float(&d)[4], const uint32_t(&a)[4], const uint32_t(&b)[2]) { mma_tf32(d, a, b); });
}
// s8 m16n8k32: 3.54e10
//@ tc_mma_s8 grid=132 block=256 args=buf:u32:1536:rand,buf:f32:33792:zero,i32:1024
extern "C" __global__ void __launch_bounds__(256) tc_mma_s8(const uint32_t *in, float *out, int iters) {
  mma_loop<int, uint32_t>(in, out, iters, 0xffffffffu,
                          [](int(&d)[4], const uint32_t(&a)[4], const uint32_t(&b)[2]) { mma_s8(d, a, b); });
}
// f64 m16n8k8 (DMMA): 8.86e9
//@ tc_mma_f64 grid=132 block=256 args=buf:u32:1536:rand,buf:f32:33792:zero,i32:1024
extern "C" __global__ void __launch_bounds__(256) tc_mma_f64(const uint32_t *in, float *out, int iters) {
  mma_loop<double, double>(in, out, iters, 0x3ffu,
                           [](double(&d)[4], const double(&a)[4], const double(&b)[2]) { mma_f64(d, a, b); });
}
