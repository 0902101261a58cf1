/* api_blas_gemm.c - the cuBLAS calls that compute (warpmem's stand-in,
 * api_blas.h): GEMM in its typed, Ex, strided-batched and batched forms,
 * GEMV, and the level-1 calls, each checked as cuBLAS documents and run as
 * one launch of src/rt/kernels/blas_kernels.cu's kernel of that call. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rt/api_blas.h"

extern const char wm_blas_ptx[]; /* src/rt/kernels/ptx/blas_kernels.ptx, embedded by CMake */
LibKernels wm_blas_kernels = LIB_KERNELS(wm_blas_ptx, "warpmem's cuBLAS kernels");

/* cuBLAS's __half functions are declared for C++ only: in C, a half is
 * its 16 bits (the same argument passing: a pointer). */
typedef uint16_t wm_half;

/* The types warpmem has GEMM kernels for: (A and B, C) pairs. */
typedef enum { T_F32, T_F64, T_F16, T_BF16 } Ty;
static const char *ty_name[] = {"f32", "f64", "f16", "bf16"};

/* A scalar (alpha, beta) of type t at p, host or device as the handle says
 * (both readable here: unified memory), as a double. */
static int scalar(const void *p, Ty t, double *out) {
  if (!p) return -1;
  uint16_t h;
  switch (t) {
  case T_F32: { float f; memcpy(&f, p, 4); *out = f; return 0; }
  case T_F64: memcpy(out, p, 8); return 0;
  case T_F16: memcpy(&h, p, 2); *out = lib_half_to_float(h); return 0;
  case T_BF16: memcpy(&h, p, 2); *out = lib_bf16_to_float(h); return 0;
  }
  return -1;
}

/* The arguments every GEMM checks, as cuBLAS does (its order: the first
 * bad one is named). */
static cublasStatus_t check_gemm(const char *call, cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                 int m, int n, int k, int lda, int ldb, int ldc, int batch) {
  CHECK_HANDLE(call, h);
  if (ta != CUBLAS_OP_N && ta != CUBLAS_OP_T && ta != CUBLAS_OP_C) return invalid(call, "transa is not an operation");
  if (tb != CUBLAS_OP_N && tb != CUBLAS_OP_T && tb != CUBLAS_OP_C) return invalid(call, "transb is not an operation");
  if (m < 0 || n < 0 || k < 0) return invalid(call, "m, n or k is negative");
  int ar = ta == CUBLAS_OP_N ? m : k, br = tb == CUBLAS_OP_N ? k : n;
  if (lda < (ar > 1 ? ar : 1)) return invalid(call, "lda is less than the rows of A");
  if (ldb < (br > 1 ? br : 1)) return invalid(call, "ldb is less than the rows of B");
  if (ldc < (m > 1 ? m : 1)) return invalid(call, "ldc is less than m");
  if (batch < 0) return invalid(call, "batchCount is negative");
  return CUBLAS_STATUS_SUCCESS;
}

/* One GEMM: checked, alpha and beta read, launched as `kernel`. */
static cublasStatus_t gemm(const char *call, const char *kernel, cublasHandle_t h, cublasOperation_t ta,
                           cublasOperation_t tb, int m, int n, int k, Ty scalar_ty, const void *alpha,
                           const void *A, int lda, long long sA, const void *B, int ldb, long long sB,
                           const void *beta, void *C, int ldc, long long sC, int batch, int arrays, int f64) {
  cublasStatus_t st = check_gemm(call, h, ta, tb, m, n, k, lda, ldb, ldc, batch);
  if (st) return st;
  LibGemm g = {.ta = ta != CUBLAS_OP_N, .tb = tb != CUBLAS_OP_N, .m = m, .n = n, .k = k, .A = A, .B = B, .C = C,
               .D = C, .lda = lda, .ldb = ldb, .ldc = ldc, .ldd = ldc, .sA = sA, .sB = sB, .sC = sC, .sD = sC,
               .batch = batch, .arrays = arrays, .acc_double = f64};
  if (scalar(alpha, scalar_ty, &g.alpha) || scalar(beta, scalar_ty, &g.beta))
    return invalid(call, "alpha or beta is NULL");
  if (!m || !n || !batch) return CUBLAS_STATUS_SUCCESS; /* nothing to compute */
  if ((k && g.alpha != 0 && (!A || !B)) || !C) return invalid(call, "a matrix pointer is NULL");
  return launched(lib_gemm(&wm_blas_kernels, call, kernel, &g, h->stream));
}

#define GEMM_TYPED(fn, call, T, sty, f64)                                                                       \
  cublasStatus_t fn(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,          \
                    const T *alpha, const T *A, int lda, const T *B, int ldb, const T *beta, T *C, int ldc) {   \
    return gemm(call, "warpmem_" call, h, ta, tb, m, n, k, sty, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1, \
                0, f64);                                                                                          \
  }
GEMM_TYPED(cublasSgemm_v2, "cublasSgemm", float, T_F32, 0)
GEMM_TYPED(cublasDgemm_v2, "cublasDgemm", double, T_F64, 1)
GEMM_TYPED(cublasHgemm, "cublasHgemm", wm_half, T_F16, 0)

#define GEMM_STRIDED(fn, call, T, sty, f64)                                                                     \
  cublasStatus_t fn(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,          \
                    const T *alpha, const T *A, int lda, long long sA, const T *B, int ldb, long long sB,       \
                    const T *beta, T *C, int ldc, long long sC, int batch) {                                    \
    return gemm(call, "warpmem_" call, h, ta, tb, m, n, k, sty, alpha, A, lda, sA, B, ldb, sB, beta, C, ldc, sC,  \
                batch, 0, f64);                                                                                   \
  }
GEMM_STRIDED(cublasSgemmStridedBatched, "cublasSgemmStridedBatched", float, T_F32, 0)
GEMM_STRIDED(cublasDgemmStridedBatched, "cublasDgemmStridedBatched", double, T_F64, 1)
GEMM_STRIDED(cublasHgemmStridedBatched, "cublasHgemmStridedBatched", wm_half, T_F16, 0)

#define GEMM_ARRAYS(fn, call, T, sty, f64)                                                                      \
  cublasStatus_t fn(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,          \
                    const T *alpha, const T *const A[], int lda, const T *const B[], int ldb, const T *beta,    \
                    T *const C[], int ldc, int batch) {                                                         \
    return gemm(call, "warpmem_" call, h, ta, tb, m, n, k, sty, alpha, A, lda, 0, B, ldb, 0, beta, (void *)C, ldc, \
                0, batch, 1, f64);                                                                                \
  }
GEMM_ARRAYS(cublasSgemmBatched, "cublasSgemmBatched", float, T_F32, 0)
GEMM_ARRAYS(cublasDgemmBatched, "cublasDgemmBatched", double, T_F64, 1)
GEMM_ARRAYS(cublasHgemmBatched, "cublasHgemmBatched", wm_half, T_F16, 0)

static int data_type(cudaDataType t, Ty *out) {
  switch (t) {
  case CUDA_R_32F: *out = T_F32; return 0;
  case CUDA_R_64F: *out = T_F64; return 0;
  case CUDA_R_16F: *out = T_F16; return 0;
  case CUDA_R_16BF: *out = T_BF16; return 0;
  default: return -1;
  }
}

/* The kernel of an Ex call (API_<A>_<C>) for these types and compute
 * type, and its scalars' type; CUBLAS_STATUS_NOT_SUPPORTED (said) for a
 * combination warpmem has no kernel for. */
static cublasStatus_t ex_kernel(const char *call, cudaDataType at, cudaDataType bt, cudaDataType ct,
                                cublasComputeType_t cp, char *kernel, size_t n, Ty *sty, int *f64) {
  Ty a, c;
  if (data_type(at, &a) || data_type(ct, &c) || at != bt) {
    lib_say(call, "types A %d, B %d, C %d: warpmem's stand-in has kernels for A = B of f32, f16, bf16 (with C of "
                  "their type or f32) and f64: CUBLAS_STATUS_NOT_SUPPORTED", (int)at, (int)bt, (int)ct);
    return CUBLAS_STATUS_NOT_SUPPORTED;
  }
  int ok = (a == c) || (c == T_F32 && (a == T_F16 || a == T_BF16));
  int c64 = cp == CUBLAS_COMPUTE_64F || cp == CUBLAS_COMPUTE_64F_PEDANTIC;
  int c16 = cp == CUBLAS_COMPUTE_16F || cp == CUBLAS_COMPUTE_16F_PEDANTIC;
  int c32 = cp == CUBLAS_COMPUTE_32F || cp == CUBLAS_COMPUTE_32F_PEDANTIC || cp == CUBLAS_COMPUTE_32F_FAST_16F ||
            cp == CUBLAS_COMPUTE_32F_FAST_16BF || cp == CUBLAS_COMPUTE_32F_FAST_TF32;
  if (!ok || (a == T_F64) != c64 || (c16 && !(a == T_F16 && c == T_F16)) || (!c16 && !c32 && !c64)) {
    lib_say(call, "A %s, C %s with compute type %d: no kernel in warpmem's stand-in (it has CUBLAS_COMPUTE_32F* for "
                  "f32/f16/bf16, 16F for f16, 64F for f64): CUBLAS_STATUS_NOT_SUPPORTED", ty_name[a], ty_name[c], (int)cp);
    return CUBLAS_STATUS_NOT_SUPPORTED;
  }
  if (cp == CUBLAS_COMPUTE_32F_FAST_16F || cp == CUBLAS_COMPUTE_32F_FAST_16BF || cp == CUBLAS_COMPUTE_32F_FAST_TF32)
    lib_say_once(call, "compute type %d (a fast 32F mode) is computed in full f32 by warpmem's kernel: results are "
                       "as accurate as CUBLAS_COMPUTE_32F's or more", (int)cp);
  if (c16) lib_say_once(call, "CUBLAS_COMPUTE_16F is accumulated in f32 by warpmem's kernel (cuBLAS: in f16)");
  *sty = c64 ? T_F64 : c16 ? T_F16 : T_F32;
  *f64 = c64;
  snprintf(kernel, n, "warpmem_%s_%s_%s", call, ty_name[a], ty_name[c]);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGemmEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                            const void *alpha, const void *A, cudaDataType at, int lda, const void *B,
                            cudaDataType bt, int ldb, const void *beta, void *C, cudaDataType ct, int ldc,
                            cublasComputeType_t cp, cublasGemmAlgo_t algo) {
  (void)algo; /* one kernel for every algorithm */
  char kernel[96];
  Ty sty;
  int f64;
  cublasStatus_t st = ex_kernel("cublasGemmEx", at, bt, ct, cp, kernel, sizeof kernel, &sty, &f64);
  if (st) return st;
  return gemm("cublasGemmEx", kernel, h, ta, tb, m, n, k, sty, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1, 0,
              f64);
}

cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                          int k, const void *alpha, const void *A, cudaDataType at, int lda,
                                          long long sA, const void *B, cudaDataType bt, int ldb, long long sB,
                                          const void *beta, void *C, cudaDataType ct, int ldc, long long sC,
                                          int batch, cublasComputeType_t cp, cublasGemmAlgo_t algo) {
  (void)algo;
  char kernel[96];
  Ty sty;
  int f64;
  cublasStatus_t st = ex_kernel("cublasGemmStridedBatchedEx", at, bt, ct, cp, kernel, sizeof kernel, &sty, &f64);
  if (st) return st;
  return gemm("cublasGemmStridedBatchedEx", kernel, h, ta, tb, m, n, k, sty, alpha, A, lda, sA, B, ldb, sB, beta,
              C, ldc, sC, batch, 0, f64);
}

cublasStatus_t cublasGemmBatchedEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                   const void *alpha, const void *const A[], cudaDataType at, int lda,
                                   const void *const B[], cudaDataType bt, int ldb, const void *beta, void *const C[],
                                   cudaDataType ct, int ldc, int batch, cublasComputeType_t cp,
                                   cublasGemmAlgo_t algo) {
  (void)algo;
  char kernel[96];
  Ty sty;
  int f64;
  cublasStatus_t st = ex_kernel("cublasGemmBatchedEx", at, bt, ct, cp, kernel, sizeof kernel, &sty, &f64);
  if (st) return st;
  return gemm("cublasGemmBatchedEx", kernel, h, ta, tb, m, n, k, sty, alpha, A, lda, 0, B, ldb, 0, beta,
              (void *)C, ldc, 0, batch, 1, f64);
}

/* ---- GEMV ---- */

/* BLAS's negative increments walk a vector from its end: the base a kernel
 * steps from with inc. */
static const char *vec_base(const void *x, int n, int inc, size_t size) {
  return (const char *)x + (inc < 0 ? (long long)(1 - n) * inc * (long long)size : 0);
}

static cublasStatus_t gemv(const char *call, const char *kernel, cublasHandle_t h, cublasOperation_t trans, int m,
                           int n, Ty t, const void *alpha, const void *A, int lda, const void *x, int incx,
                           const void *beta, void *y, int incy) {
  CHECK_HANDLE(call, h);
  if (trans != CUBLAS_OP_N && trans != CUBLAS_OP_T && trans != CUBLAS_OP_C) return invalid(call, "trans is not an operation");
  if (m < 0 || n < 0) return invalid(call, "m or n is negative");
  if (lda < (m > 1 ? m : 1)) return invalid(call, "lda is less than m");
  if (!incx || !incy) return invalid(call, "incx or incy is 0");
  double a, b;
  if (scalar(alpha, t, &a) || scalar(beta, t, &b)) return invalid(call, "alpha or beta is NULL");
  if (!m || !n) return CUBLAS_STATUS_SUCCESS;
  if (!A || !x || !y) return invalid(call, "a pointer is NULL");
  int tr = trans != CUBLAS_OP_N, ny = tr ? n : m;
  /* the kernel walks negative increments itself (gemv_body) */
  float af = (float)a, bf = (float)b;
  void *pa = t == T_F64 ? (void *)&a : (void *)&af, *pb = t == T_F64 ? (void *)&b : (void *)&bf;
  void *args[] = {&tr, &m, &n, pa, &A, &lda, &x, &incx, pb, &y, &incy};
  uint32_t grid[3] = {(uint32_t)(ny + 127) / 128, 1, 1};
  return launched(lib_launch(&wm_blas_kernels, call, kernel, grid, 128, 1, h->stream, args));
}
cublasStatus_t cublasSgemv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n, const float *alpha,
                              const float *A, int lda, const float *x, int incx, const float *beta, float *y,
                              int incy) {
  return gemv("cublasSgemv", "warpmem_cublasSgemv", h, trans, m, n, T_F32, alpha, A, lda, x, incx, beta, y, incy);
}
cublasStatus_t cublasDgemv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n, const double *alpha,
                              const double *A, int lda, const double *x, int incx, const double *beta, double *y,
                              int incy) {
  return gemv("cublasDgemv", "warpmem_cublasDgemv", h, trans, m, n, T_F64, alpha, A, lda, x, incx, beta, y, incy);
}

/* ---- level 1 (single precision) ---- */

static cublasStatus_t elementwise(const char *call, cublasHandle_t h, void **args, int n) {
  uint32_t grid[3] = {(uint32_t)(n + 255) / 256, 1, 1};
  char kernel[64];
  snprintf(kernel, sizeof kernel, "warpmem_%s", call);
  return launched(lib_launch(&wm_blas_kernels, call, kernel, grid, 256, 1, h->stream, args));
}

cublasStatus_t cublasSaxpy_v2(cublasHandle_t h, int n, const float *alpha, const float *x, int incx, float *y,
                              int incy) {
  CHECK_HANDLE("cublasSaxpy", h);
  double a;
  if (scalar(alpha, T_F32, &a)) return invalid("cublasSaxpy", "alpha is NULL");
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  if (!x || !y) return invalid("cublasSaxpy", "x or y is NULL");
  float af = (float)a;
  const void *bx = vec_base(x, n, incx, 4), *by = vec_base(y, n, incy, 4);
  void *args[] = {&n, &af, &bx, &incx, &by, &incy};
  return elementwise("cublasSaxpy", h, args, n);
}
cublasStatus_t cublasSscal_v2(cublasHandle_t h, int n, const float *alpha, float *x, int incx) {
  CHECK_HANDLE("cublasSscal", h);
  double a;
  if (scalar(alpha, T_F32, &a)) return invalid("cublasSscal", "alpha is NULL");
  if (n <= 0 || incx <= 0) return CUBLAS_STATUS_SUCCESS; /* BLAS: nothing to do */
  if (!x) return invalid("cublasSscal", "x is NULL");
  float af = (float)a;
  void *args[] = {&n, &af, &x, &incx};
  return elementwise("cublasSscal", h, args, n);
}
cublasStatus_t cublasScopy_v2(cublasHandle_t h, int n, const float *x, int incx, float *y, int incy) {
  CHECK_HANDLE("cublasScopy", h);
  if (n <= 0) return CUBLAS_STATUS_SUCCESS;
  if (!x || !y) return invalid("cublasScopy", "x or y is NULL");
  const void *bx = vec_base(x, n, incx, 4), *by = vec_base(y, n, incy, 4);
  void *args[] = {&n, &bx, &incx, &by, &incy};
  return elementwise("cublasScopy", h, args, n);
}

/* The result of a reduction: from the handle's scratch to *result, in host
 * or device memory as the pointer mode says (both writable here). */
static cublasStatus_t reduce(const char *call, const char *kernel, cublasHandle_t h, void **args, void *result,
                             size_t size) {
  uint32_t grid[3] = {1, 1, 1};
  cublasStatus_t st = launched(lib_launch(&wm_blas_kernels, call, kernel, grid, 256, 1, h->stream, args));
  if (!st) memcpy(result, h->scratch, size);
  return st;
}
enum { RED_DOT = 0, RED_NRM2 = 1, RED_ASUM = 2 }; /* blas_kernels.cu's */
static cublasStatus_t sreduce(const char *call, cublasHandle_t h, int op, int n, const float *x, int incx,
                              const float *y, int incy, float *result) {
  CHECK_HANDLE(call, h);
  if (!result) return invalid(call, "result is NULL");
  if (n <= 0 || (op != RED_DOT && incx <= 0)) return *result = 0, CUBLAS_STATUS_SUCCESS;
  if (!x || (op == RED_DOT && !y)) return invalid(call, "x or y is NULL");
  const void *bx = vec_base(x, n, incx, 4), *by = op == RED_DOT ? vec_base(y, n, incy, 4) : bx;
  if (op != RED_DOT) incy = incx;
  void *out = h->scratch;
  void *args[] = {&op, &n, &bx, &incx, &by, &incy, &out};
  return reduce(call, "warpmem_cublasSreduce", h, args, result, sizeof(float));
}
cublasStatus_t cublasSdot_v2(cublasHandle_t h, int n, const float *x, int incx, const float *y, int incy,
                             float *result) {
  return sreduce("cublasSdot", h, RED_DOT, n, x, incx, y, incy, result);
}
cublasStatus_t cublasSnrm2_v2(cublasHandle_t h, int n, const float *x, int incx, float *result) {
  return sreduce("cublasSnrm2", h, RED_NRM2, n, x, incx, NULL, 0, result);
}
cublasStatus_t cublasSasum_v2(cublasHandle_t h, int n, const float *x, int incx, float *result) {
  return sreduce("cublasSasum", h, RED_ASUM, n, x, incx, NULL, 0, result);
}
cublasStatus_t cublasIsamax_v2(cublasHandle_t h, int n, const float *x, int incx, int *result) {
  CHECK_HANDLE("cublasIsamax", h);
  if (!result) return invalid("cublasIsamax", "result is NULL");
  if (n <= 0 || incx <= 0) return *result = 0, CUBLAS_STATUS_SUCCESS;
  if (!x) return invalid("cublasIsamax", "x is NULL");
  void *out = h->scratch;
  void *args[] = {&n, &x, &incx, &out};
  return reduce("cublasIsamax", "warpmem_cublasIsamax", h, args, result, sizeof(int));
}
