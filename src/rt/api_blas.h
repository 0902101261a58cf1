/* api_blas.h - what the files of warpmem's cuBLAS stand-in share
 * (api_blas.c: the handle and its settings; api_blas_gemm.c: the calls
 * that compute): the handle, and the messages of a refused argument. */
#ifndef WM_API_BLAS_H
#define WM_API_BLAS_H

#include <cublas_v2.h>

#include "rt/api_lib.h"

/* The kernels of src/rt/kernels/blas_kernels.cu (api_blas_gemm.c). */
extern LibKernels wm_blas_kernels;

#define HANDLE_MAGIC 0x626c6173u /* "blas" */
struct cublasContext {
  unsigned magic;
  RtStream *stream;
  cublasPointerMode_t pointer_mode;
  cublasMath_t math_mode;
  cublasAtomicsMode_t atomics;
  int sm_target;
  void *workspace;
  size_t workspace_size;
  void *scratch; /* 16 bytes of device memory: reductions' results */
};

static inline cublasStatus_t invalid(const char *call, const char *why) {
  lib_say(call, "%s: CUBLAS_STATUS_INVALID_VALUE", why);
  return CUBLAS_STATUS_INVALID_VALUE;
}

/* A kernel's launch error as cuBLAS reports it. */
static inline cublasStatus_t launched(RtError r) {
  if (r == RT_SUCCESS) return CUBLAS_STATUS_SUCCESS;
  return r == RT_ERR_INVALID_KERNEL_IMAGE ? CUBLAS_STATUS_INTERNAL_ERROR : CUBLAS_STATUS_EXECUTION_FAILED;
}

static inline int bad_handle(cublasHandle_t h) { return !h || h->magic != HANDLE_MAGIC; }
#define CHECK_HANDLE(call, h) \
  if (bad_handle(h)) return lib_say(call, "not a handle from cublasCreate: CUBLAS_STATUS_NOT_INITIALIZED"), \
                            CUBLAS_STATUS_NOT_INITIALIZED

#endif
