// gemm.cuh - the GEMM that warpmem's cuBLAS and cuBLASLt kernels share
// (blas_kernels.cu, blaslt_kernels.cu): one body, instantiated under each
// call's own name.
//
// GEMM: D = epilogue(alpha * op(A) op(B) + beta * C [+ bias]), column-major
// as cuBLAS is, op = N or T (C, for real types, is T), per batch (blockIdx.z)
// at strides sA, sB, sC, sD elements or through arrays of pointers.  A
// 16x16 block computes a 16x16 tile of D through two 16x16 tiles in shared
// memory, accumulating in Acc (float, or double for Dgemm) in k order, one
// fma per product: not cuBLAS's summation order, so results differ from
// its in the last bits (docs/run.md: the tolerance).  beta == 0 never reads
// C (NaN in C does not propagate), as cuBLAS documents.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define TILE 16

template <typename T> struct Ty;
template <> struct Ty<float> {
  static __device__ float in(float v) { return v; }
  static __device__ float out(float v) { return v; }
};
template <> struct Ty<double> {
  static __device__ double in(double v) { return v; }
  static __device__ double out(double v) { return v; }
};
template <> struct Ty<__half> {
  static __device__ float in(__half v) { return __half2float(v); }
  static __device__ __half out(float v) { return __float2half_rn(v); }
};
template <> struct Ty<__nv_bfloat16> {
  static __device__ float in(__nv_bfloat16 v) { return __bfloat162float(v); }
  static __device__ __nv_bfloat16 out(float v) { return __float2bfloat16_rn(v); }
};

// Epilogues (cublasLtEpilogue_t's meaning; lib_blaslt.c maps them).
enum { EPI_NONE = 0, EPI_RELU = 1, EPI_GELU = 2, EPI_DGELU = 3 };

// GELU as cuBLASLt documents it: the tanh approximation.
__device__ static float gelu_tanh(float x) {
  const float c = 0.7978845608028654f; // sqrt(2/pi)
  float u = c * (x + 0.044715f * x * x * x);
  return 0.5f * x * (1.0f + tanhf(u));
}
__device__ static float gelu_tanh_grad(float x) {
  const float c = 0.7978845608028654f;
  float x3 = x * x * x;
  float t = tanhf(c * (x + 0.044715f * x3));
  float sech2 = 1.0f - t * t;
  return 0.5f * (1.0f + t) + 0.5f * x * sech2 * c * (1.0f + 3.0f * 0.044715f * x * x);
}

// Element (row r, column c) of op(X), X column-major with leading dimension ld.
template <typename T>
__device__ static inline T at(const T *x, int trans, int r, int c, long long ld) {
  return trans ? x[c + (long long)r * ld] : x[r + (long long)c * ld];
}

template <typename TA, typename TC, typename Acc>
__device__ static void gemm_body(int ta, int tb, int m, int n, int k, Acc alpha, const void *A, int lda,
                                 long long sA, const void *B, int ldb, long long sB, Acc beta, const void *C,
                                 int ldc, long long sC, void *D, int ldd, long long sD, int arrays, int epi,
                                 const void *bias, int bias_f32, void *aux, long long ldaux, long long sAux) {
  __shared__ Acc as[TILE][TILE + 1], bs[TILE][TILE + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.x * TILE + tx, col = blockIdx.y * TILE + ty;
  const int z = blockIdx.z;
  const TA *a, *b;
  const TC *c;
  TC *d;
  if (arrays) {
    a = ((const TA *const *)A)[z];
    b = ((const TA *const *)B)[z];
    c = ((const TC *const *)C)[z];
    d = ((TC *const *)D)[z];
  } else {
    a = (const TA *)A + z * sA;
    b = (const TA *)B + z * sB;
    c = (const TC *)C + z * sC;
    d = (TC *)D + z * sD;
  }
  Acc sum = 0;
  for (int k0 = 0; k0 < k; k0 += TILE) {
    // as[tx][ty] = op(A)(row, k0+ty); bs[tx][ty] = op(B)(k0+tx, col)
    int ka = k0 + ty, kb = k0 + tx;
    as[tx][ty] = row < m && ka < k ? Ty<TA>::in(at(a, ta, row, ka, lda)) : (Acc)0;
    bs[tx][ty] = col < n && kb < k ? Ty<TA>::in(at(b, tb, kb, col, ldb)) : (Acc)0;
    __syncthreads();
    int kn = k - k0 < TILE ? k - k0 : TILE;
    for (int i = 0; i < kn; i++) sum = fma(as[tx][i], bs[i][ty], sum);
    __syncthreads();
  }
  if (row >= m || col >= n) return;
  Acc v = alpha * sum;
  if (beta != (Acc)0) v = fma(beta, Ty<TC>::in(c[row + (long long)col * ldc]), v);
  if (bias) v += bias_f32 ? (Acc)((const float *)bias)[row] : (Acc)Ty<TC>::in(((const TC *)bias)[row]);
  if (epi != EPI_NONE) {
    float f = (float)v;
    if (epi == EPI_DGELU) {
      f *= gelu_tanh_grad(Ty<TC>::in(((const TC *)aux + z * sAux)[row + col * ldaux]));
    } else {
      if (aux) ((TC *)aux + z * sAux)[row + col * ldaux] = Ty<TC>::out(f); // the input of the activation
      f = epi == EPI_RELU ? fmaxf(f, 0.0f) : gelu_tanh(f);
    }
    v = (Acc)f;
  }
  d[row + (long long)col * ldd] = Ty<TC>::out(v);
}

#define GEMM_PARAMS(Acc)                                                                                     \
  int ta, int tb, int m, int n, int k, Acc alpha, const void *A, int lda, long long sA, const void *B, int ldb, \
      long long sB, Acc beta, const void *C, int ldc, long long sC, void *D, int ldd, long long sD, int arrays, \
      int epi, const void *bias, int bias_f32, void *aux, long long ldaux, long long sAux
#define GEMM_ARGS                                                                                            \
  ta, tb, m, n, k, alpha, A, lda, sA, B, ldb, sB, beta, C, ldc, sC, D, ldd, sD, arrays, epi, bias, bias_f32, aux, \
      ldaux, sAux
#define GEMM_KERNEL(name, TA, TC, Acc)                                                                       \
  extern "C" __global__ void __launch_bounds__(256) warpmem_##name(GEMM_PARAMS(Acc)) {                      \
    gemm_body<TA, TC, Acc>(GEMM_ARGS);                                                                       \
  }
// Each call's own names, so that the report names the call.
#define GEMM_FAMILY(api)                                    \
  GEMM_KERNEL(api##_f32_f32, float, float, float)           \
  GEMM_KERNEL(api##_f16_f16, __half, __half, float)         \
  GEMM_KERNEL(api##_f16_f32, __half, float, float)          \
  GEMM_KERNEL(api##_bf16_bf16, __nv_bfloat16, __nv_bfloat16, float) \
  GEMM_KERNEL(api##_bf16_f32, __nv_bfloat16, float, float)  \
  GEMM_KERNEL(api##_f64_f64, double, double, double)
// cuBLASLt's BGRADB epilogue: dbias[j] = sum over k of op(B)(k, j), per
// column of D (one thread a column), in k order.
template <typename T>
__device__ static void colsum_body(int tb, int k, int n, const T *b, int ldb, T *out) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  float s = 0.0f;
  for (int i = 0; i < k; i++) s += Ty<T>::in(at(b, tb, i, j, ldb));
  out[j] = Ty<T>::out(s);
}
