/* gpu_cublas.c - cuBLAS SGEMM, loaded at run time, as the reference the
 * lab's matrix multiplies are measured against.
 *
 * Notes:
 * - cuBLAS runs on the CUDA runtime, which uses the device's primary
 *   context: the one gpu_open made current, so cuBLAS sees our buffers and
 *   its work goes on the same (legacy default) stream our events time.
 * - The default math mode is plain FP32 (TF32 tensor cores only when asked
 *   for), which is what the lab's SGEMM kernels compute.
 * - Column-major, no transposes: C = A B with lda = ldb = ldc = n.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu_int.h"

int gpu_cublas_candidates(const char **names, int max, char (*bufs)[512]) {
  static const char *const sonames[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so.11"};
  const char *env = getenv("WARPMEM_LIBCUBLAS");
  int n = 0;
  if (env && *env) {
    if (n < max) names[n++] = env;
    return n;
  }
  const char *cuda_home = getenv("CUDA_HOME");
  for (int s = 0; s < 3; s++) {
    if (n < max) names[n++] = sonames[s];
    const char *dirs[] = {cuda_home && *cuda_home ? cuda_home : NULL, "/usr/local/cuda"};
    for (int d = 0; d < 2; d++) {
      if (!dirs[d] || n >= max) continue;
      snprintf(bufs[n], sizeof bufs[n], "%s/lib64/%s", dirs[d], sonames[s]);
      names[n] = bufs[n];
      n++;
    }
  }
  return n;
}

static int resolve(void *lib, const char *libname, CublasApi *api, WmErr *e) {
#define X(field, sym, alt, params)                                                              \
  {                                                                                             \
    void *p = dlsym(lib, sym);                                                                  \
    if (!p) return wm_err(e, WM_ENOGPU, "no cuBLAS: %s has no %s", libname, sym);               \
    memcpy(&api->field, &p, sizeof p);                                                          \
  }
  CUBLAS_FUNCS(X)
#undef X
  void *p = dlsym(lib, "cublasGetStatusString");
  if (p) memcpy(&api->cublasGetStatusString, &p, sizeof p);
  return 0;
}

int gpu_cublas_open(Gpu *g, WmErr *e) {
  if (g->have_blas) return 0;
  const char *names[16];
  char bufs[16][512];
  int n = gpu_cublas_candidates(names, 16, bufs);
  char tried[1024] = "";
  void *lib = NULL;
  const char *libname = NULL;
  for (int i = 0; i < n && !lib; i++) {
    lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (lib) libname = names[i];
    else {
      size_t len = strlen(tried);
      snprintf(tried + len, sizeof tried - len, "%s%s", len ? ", " : "", names[i]);
    }
  }
  if (!lib)
    return wm_err(e, WM_ENOGPU, "no cuBLAS: none of %s could be loaded (set WARPMEM_LIBCUBLAS to its path)",
                  tried);
  if (resolve(lib, libname, &g->blas, e)) return -1;
  cublasStatus_t st = g->blas.cublasCreate(&g->blas_handle);
  if (st != CUBLAS_STATUS_SUCCESS)
    return wm_err(e, WM_EGPU, "cublasCreate_v2 failed (%s): %s", libname,
                  g->blas.cublasGetStatusString ? g->blas.cublasGetStatusString(st) : "no description");
  g->have_blas = 1;
  return 0;
}

typedef struct Sgemm {
  Gpu *g;
  int n;
  CUdeviceptr a, b, c;
} Sgemm;

static int enqueue_sgemm(void *p, WmErr *e) {
  Sgemm *s = p;
  const float one = 1.0f, zero = 0.0f;
  cublasStatus_t st =
    s->g->blas.cublasSgemm(s->g->blas_handle, CUBLAS_OP_N, CUBLAS_OP_N, s->n, s->n, s->n, &one,
                           (const float *)(uintptr_t)s->a, s->n, (const float *)(uintptr_t)s->b, s->n, &zero,
                           (float *)(uintptr_t)s->c, s->n);
  if (st != CUBLAS_STATUS_SUCCESS)
    return wm_err(e, WM_EGPU, "cublasSgemm_v2 failed for %d x %d x %d: %s (status %d)", s->n, s->n, s->n,
                  s->g->blas.cublasGetStatusString ? s->g->blas.cublasGetStatusString(st) : "no description", st);
  return 0;
}

/* A few elements of C against a double-precision dot product on the host:
 * proof that the call computed C = A B, not just that it took time. */
static int check_result(Sgemm *s, const float *a, const float *b, WmErr *e) {
  int n = s->n;
  int picks[4][2] = {{0, 0}, {n - 1, n - 1}, {n / 3, n / 2}, {n / 2, 1}};
  for (int k = 0; k < 4; k++) {
    int i = picks[k][0], j = picks[k][1];
    double want = 0;
    for (int l = 0; l < n; l++) want += (double)a[i + (size_t)l * n] * b[l + (size_t)j * n];
    float got;
    GPU_TRY(s->g, e, "cuBLAS SGEMM's result", cuMemcpyDtoH,
            (&got, s->c + sizeof(float) * (i + (size_t)j * n), sizeof got));
    /* fp32 sums of n products in [0,1): rounding grows about sqrt(n) eps */
    if (fabs(got - want) > 1e-4 * fabs(want) + 1e-5)
      return wm_err(e, WM_EGPU, "cuBLAS SGEMM %d: C[%d,%d] = %.9g, the host computes %.9g", n, i, j, got,
                    want);
  }
  return 0;
}

static uint64_t next_rand(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

int gpu_cublas_sgemm_time(Gpu *g, int n, const GpuMeasureConfig *c, GpuTiming *t, WmErr *e) {
  memset(t, 0, sizeof *t);
  if (n <= 0 || n > 32768) return wm_err(e, WM_EUSAGE, "SGEMM size %d is not 1..32768", n);
  if (gpu_cublas_open(g, e)) return -1;
  size_t elems = (size_t)n * n, bytes = elems * sizeof(float);
  float *a = wm_xmalloc(bytes), *b = wm_xmalloc(bytes);
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (size_t i = 0; i < elems; i++) a[i] = (float)(next_rand(&x) >> 40) / (float)(1 << 24);
  for (size_t i = 0; i < elems; i++) b[i] = (float)(next_rand(&x) >> 40) / (float)(1 << 24);
  Sgemm s = {g, n, 0, 0, 0};
  int rc = -1;
  CUresult r;
  if ((r = g->cu.cuMemAlloc(&s.a, bytes)) != CUDA_SUCCESS || (r = g->cu.cuMemAlloc(&s.b, bytes)) != CUDA_SUCCESS ||
      (r = g->cu.cuMemAlloc(&s.c, bytes)) != CUDA_SUCCESS) {
    gpu_cu_fail(g, e, r, "cuMemAlloc", "cuBLAS SGEMM's matrices");
    goto out;
  }
  if ((r = g->cu.cuMemcpyHtoD(s.a, a, bytes)) != CUDA_SUCCESS || (r = g->cu.cuMemcpyHtoD(s.b, b, bytes)) != CUDA_SUCCESS) {
    gpu_cu_fail(g, e, r, "cuMemcpyHtoD", "cuBLAS SGEMM's matrices");
    goto out;
  }
  if (enqueue_sgemm(&s, e)) goto out;
  if ((r = g->cu.cuCtxSynchronize()) != CUDA_SUCCESS) {
    gpu_cu_fail(g, e, r, "cuCtxSynchronize", "cuBLAS SGEMM");
    goto out;
  }
  if (check_result(&s, a, b, e)) goto out;
  GpuWork w = {enqueue_sgemm, &s};
  rc = gpu_measure_work(g, &w, c, 3.0 * (double)bytes, 2.0 * n * (double)n * n, t, e);
out:
  if (s.c) g->cu.cuMemFree(s.c);
  if (s.b) g->cu.cuMemFree(s.b);
  if (s.a) g->cu.cuMemFree(s.a);
  free(a);
  free(b);
  return rc;
}
