/* api_blas.c - warpmem's stand-in for cuBLAS (build/rt/libcublas.so.13):
 * the handle and its settings, GEMM in every type the common code uses
 * (Sgemm, Dgemm, Hgemm, GemmEx, their strided and pointer-array batches),
 * GEMV and the level-1 calls, each a launch of one of warpmem's kernels
 * (src/rt/kernels/blas_kernels.cu) named after the call, profiled and
 * reported as any kernel.  Arguments are checked as cuBLAS documents (a bad
 * one: CUBLAS_STATUS_INVALID_VALUE and a line naming the call and the
 * argument); a type combination warpmem has no kernel for is
 * CUBLAS_STATUS_NOT_SUPPORTED with a line saying so.  alpha and beta are
 * read at the call from host or device memory (device memory is unified:
 * nothing runs in the background, so the values are those of the call).
 * Results equal cuBLAS's within rounding (docs/run.md: the tolerance). */
#include <cublas_v2.h>
#include <stdlib.h>
#include <string.h>

#include "rt/api_blas.h"

/* cublasStatus_t's names and texts, one row each. */
#define BLAS_STATUSES(X)                                                                \
  X(CUBLAS_STATUS_SUCCESS, "success")                                                   \
  X(CUBLAS_STATUS_NOT_INITIALIZED, "the library was not initialized")                   \
  X(CUBLAS_STATUS_ALLOC_FAILED, "the resource allocation failed")                       \
  X(CUBLAS_STATUS_INVALID_VALUE, "an invalid numeric value was used as an argument")    \
  X(CUBLAS_STATUS_ARCH_MISMATCH, "an absent device architectural feature is required")  \
  X(CUBLAS_STATUS_MAPPING_ERROR, "an access to GPU memory space failed")                \
  X(CUBLAS_STATUS_EXECUTION_FAILED, "the GPU program failed to execute")                \
  X(CUBLAS_STATUS_INTERNAL_ERROR, "an internal operation failed")                       \
  X(CUBLAS_STATUS_NOT_SUPPORTED, "the functionality requested is not supported")        \
  X(CUBLAS_STATUS_LICENSE_ERROR, "there is an error with the license")

const char *cublasGetStatusName(cublasStatus_t s) {
#define NAME(v, text) if (s == v) return #v;
  BLAS_STATUSES(NAME)
#undef NAME
  return "CUBLAS_STATUS_UNKNOWN";
}
const char *cublasGetStatusString(cublasStatus_t s) {
#define TEXT(v, text) if (s == v) return text;
  BLAS_STATUSES(TEXT)
#undef TEXT
  return "unknown error";
}

/* ---- the handle ---- */

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle) {
  if (!handle) return invalid("cublasCreate", "handle is NULL");
  if (rt_init()) return CUBLAS_STATUS_NOT_INITIALIZED;
  struct cublasContext *h = calloc(1, sizeof *h);
  if (!h || rt_malloc(16, RT_MEM_DEVICE, &h->scratch)) return free(h), CUBLAS_STATUS_ALLOC_FAILED;
  h->magic = HANDLE_MAGIC;
  *handle = h;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t h) {
  CHECK_HANDLE("cublasDestroy", h);
  rt_free(h->scratch, RT_MEM_DEVICE);
  h->magic = 0;
  free(h);
  return CUBLAS_STATUS_SUCCESS;
}

/* The cuBLAS these headers declare (13.1: 130100), as the real one answers. */
#define WM_CUBLAS_VERSION (CUBLAS_VER_MAJOR * 10000 + CUBLAS_VER_MINOR * 100 + CUBLAS_VER_PATCH)
cublasStatus_t cublasGetVersion_v2(cublasHandle_t h, int *version) {
  (void)h; /* cuBLAS answers without a handle too */
  if (!version) return invalid("cublasGetVersion", "version is NULL");
  *version = WM_CUBLAS_VERSION;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetProperty(libraryPropertyType type, int *value) {
  if (!value) return invalid("cublasGetProperty", "value is NULL");
  switch (type) {
  case MAJOR_VERSION: *value = CUBLAS_VER_MAJOR; return CUBLAS_STATUS_SUCCESS;
  case MINOR_VERSION: *value = CUBLAS_VER_MINOR; return CUBLAS_STATUS_SUCCESS;
  case PATCH_LEVEL: *value = CUBLAS_VER_PATCH; return CUBLAS_STATUS_SUCCESS;
  default: return invalid("cublasGetProperty", "not a libraryPropertyType");
  }
}
size_t cublasGetCudartVersion(void) { return CUDART_VERSION; }

cublasStatus_t cublasSetStream_v2(cublasHandle_t h, cudaStream_t s) {
  CHECK_HANDLE("cublasSetStream", h);
  if (rt_stream_check((RtStream *)s)) return invalid("cublasSetStream", "not a stream");
  h->stream = (RtStream *)s;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetStream_v2(cublasHandle_t h, cudaStream_t *s) {
  CHECK_HANDLE("cublasGetStream", h);
  if (!s) return invalid("cublasGetStream", "streamId is NULL");
  *s = (cudaStream_t)h->stream;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t h, cublasPointerMode_t mode) {
  CHECK_HANDLE("cublasSetPointerMode", h);
  if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE)
    return invalid("cublasSetPointerMode", "not a cublasPointerMode_t");
  h->pointer_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t h, cublasPointerMode_t *mode) {
  CHECK_HANDLE("cublasGetPointerMode", h);
  if (!mode) return invalid("cublasGetPointerMode", "mode is NULL");
  *mode = h->pointer_mode;
  return CUBLAS_STATUS_SUCCESS;
}
/* Kept and read back; every mode computes as CUBLAS_DEFAULT_MATH does in
 * warpmem (f32 accumulation: TF32 is not used, said once at the GEMM). */
cublasStatus_t cublasSetMathMode(cublasHandle_t h, cublasMath_t mode) {
  CHECK_HANDLE("cublasSetMathMode", h);
  h->math_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetMathMode(cublasHandle_t h, cublasMath_t *mode) {
  CHECK_HANDLE("cublasGetMathMode", h);
  if (!mode) return invalid("cublasGetMathMode", "mode is NULL");
  *mode = h->math_mode;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetAtomicsMode(cublasHandle_t h, cublasAtomicsMode_t mode) {
  CHECK_HANDLE("cublasSetAtomicsMode", h);
  h->atomics = mode;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetAtomicsMode(cublasHandle_t h, cublasAtomicsMode_t *mode) {
  CHECK_HANDLE("cublasGetAtomicsMode", h);
  if (!mode) return invalid("cublasGetAtomicsMode", "mode is NULL");
  *mode = h->atomics;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetSmCountTarget(cublasHandle_t h, int target) {
  CHECK_HANDLE("cublasSetSmCountTarget", h);
  if (target < 0) return invalid("cublasSetSmCountTarget", "a negative SM count");
  h->sm_target = target;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetSmCountTarget(cublasHandle_t h, int *target) {
  CHECK_HANDLE("cublasGetSmCountTarget", h);
  if (!target) return invalid("cublasGetSmCountTarget", "smCountTarget is NULL");
  *target = h->sm_target;
  return CUBLAS_STATUS_SUCCESS;
}
/* warpmem's kernels need no workspace: kept, unused. */
cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t h, void *workspace, size_t size) {
  CHECK_HANDLE("cublasSetWorkspace", h);
  if (size && !workspace) return invalid("cublasSetWorkspace", "a size with a NULL workspace");
  h->workspace = workspace, h->workspace_size = size;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLoggerConfigure(int on, int to_stdout, int to_stderr, const char *file) {
  (void)on, (void)to_stdout, (void)to_stderr, (void)file; /* warpmem logs nothing */
  return CUBLAS_STATUS_SUCCESS;
}

/* ---- moving matrices and vectors (cuBLAS's own copies) ---- */

static cublasStatus_t copy_strided(const char *call, int n, int size, const void *x, int incx, void *y, int incy) {
  if (n < 0 || size <= 0 || incx <= 0 || incy <= 0 || !x || !y) return invalid(call, "n, elemSize, incx, incy or a pointer");
  if (incx == 1 && incy == 1) return rt_memcpy(y, x, (size_t)n * size) ? CUBLAS_STATUS_MAPPING_ERROR : CUBLAS_STATUS_SUCCESS;
  return rt_memcpy_2d(y, (size_t)incy * size, x, (size_t)incx * size, (size_t)size, (size_t)n)
             ? CUBLAS_STATUS_MAPPING_ERROR : CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetVector(int n, int size, const void *x, int incx, void *y, int incy) {
  return copy_strided("cublasSetVector", n, size, x, incx, y, incy);
}
cublasStatus_t cublasGetVector(int n, int size, const void *x, int incx, void *y, int incy) {
  return copy_strided("cublasGetVector", n, size, x, incx, y, incy);
}
cublasStatus_t cublasSetVectorAsync(int n, int size, const void *x, int incx, void *y, int incy, cudaStream_t s) {
  (void)s;
  return copy_strided("cublasSetVectorAsync", n, size, x, incx, y, incy);
}
cublasStatus_t cublasGetVectorAsync(int n, int size, const void *x, int incx, void *y, int incy, cudaStream_t s) {
  (void)s;
  return copy_strided("cublasGetVectorAsync", n, size, x, incx, y, incy);
}
static cublasStatus_t copy_matrix(const char *call, int rows, int cols, int size, const void *a, int lda, void *b,
                                  int ldb) {
  if (rows < 0 || cols < 0 || size <= 0 || lda < rows || ldb < rows || lda <= 0 || ldb <= 0 || !a || !b)
    return invalid(call, "rows, cols, elemSize, lda, ldb or a pointer");
  if (!rows || !cols) return CUBLAS_STATUS_SUCCESS;
  return rt_memcpy_2d(b, (size_t)ldb * size, a, (size_t)lda * size, (size_t)rows * size, (size_t)cols)
             ? CUBLAS_STATUS_MAPPING_ERROR : CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetMatrix(int rows, int cols, int size, const void *a, int lda, void *b, int ldb) {
  return copy_matrix("cublasSetMatrix", rows, cols, size, a, lda, b, ldb);
}
cublasStatus_t cublasGetMatrix(int rows, int cols, int size, const void *a, int lda, void *b, int ldb) {
  return copy_matrix("cublasGetMatrix", rows, cols, size, a, lda, b, ldb);
}
cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int size, const void *a, int lda, void *b, int ldb,
                                    cudaStream_t s) {
  (void)s;
  return copy_matrix("cublasSetMatrixAsync", rows, cols, size, a, lda, b, ldb);
}
cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int size, const void *a, int lda, void *b, int ldb,
                                    cudaStream_t s) {
  (void)s;
  return copy_matrix("cublasGetMatrixAsync", rows, cols, size, a, lda, b, ldb);
}
