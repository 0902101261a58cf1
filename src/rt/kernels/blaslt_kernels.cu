// blaslt_kernels.cu - the kernels of warpmem's stand-in for cuBLASLt
// (src/rt/api_blaslt.c): cublasLtMatmul as warpmem_cublasLtMatmul_<A>_<D>,
// its epilogues included (gemm.cuh), and the BGRADB epilogue's bias
// gradient as a second launch.  Compiled to PTX by tools/build_ptx.py.
#include "gemm.cuh"

GEMM_FAMILY(cublasLtMatmul)

extern "C" __global__ void warpmem_cublasLtMatmul_bgradb_f32(int tb, int k, int n, const float *b, int ldb, float *o) {
  colsum_body<float>(tb, k, n, b, ldb, o);
}
extern "C" __global__ void warpmem_cublasLtMatmul_bgradb_f16(int tb, int k, int n, const __half *b, int ldb,
                                                             __half *o) {
  colsum_body<__half>(tb, k, n, b, ldb, o);
}
extern "C" __global__ void warpmem_cublasLtMatmul_bgradb_bf16(int tb, int k, int n, const __nv_bfloat16 *b, int ldb,
                                                              __nv_bfloat16 *o) {
  colsum_body<__nv_bfloat16>(tb, k, n, b, ldb, o);
}

