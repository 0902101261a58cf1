/* api_lib.h - what warpmem's stand-ins for NVIDIA's libraries share
 * (cuBLAS api_blas.c, cuBLASLt api_blaslt.c, cuRAND api_rand.c; each built
 * into its own libcublas.so.13, libcublasLt.so.13, libcurand.so.10): their
 * kernels' PTX (src/rt/kernels/, embedded at build time) loaded once into
 * the one context of rt.h, a kernel by name, and a launch through
 * rt_launch, so that every library call is a launch warpmem profiles and
 * reports as any other.  Messages go to stderr as "==WARPMEM== CALL: ...". */
#ifndef WM_API_LIB_H
#define WM_API_LIB_H

#include <pthread.h>

#include "rt/rt.h"

/* One library's kernels: its PTX text and the module's name in messages.
 * Define as `static LibKernels k = LIB_KERNELS(text, "name");`. */
typedef struct LibKernels {
  const char *ptx, *name;
  pthread_once_t once;
  RtModule *mod;
  RtError err;
} LibKernels;
#define LIB_KERNELS(text, nm) {.ptx = (text), .name = (nm), .once = PTHREAD_ONCE_INIT}

/* Launches kernel `kernel` of k's module (loaded on first use) over grid
 * (gx,gy,gz) of blocks (bx,by,1) on stream s with args (rt_launch's: a
 * pointer to each parameter).  A module or kernel that cannot be had is
 * said on stderr, naming `call`, and is RT_ERR_INVALID_KERNEL_IMAGE. */
RtError lib_launch(LibKernels *k, const char *call, const char *kernel, const uint32_t grid[3], uint32_t bx,
                   uint32_t by, RtStream *s, void **args);

/* One GEMM as the kernels of src/rt/kernels/gemm.cuh take it (cuBLAS's
 * and cuBLASLt's): D = epi(alpha op(A) op(B) + beta C [+ bias]), per batch
 * at the strides (elements) or, with `arrays`, through device arrays of
 * pointers in A, B, C, D. */
typedef struct LibGemm {
  int ta, tb, m, n, k;
  double alpha, beta;
  const void *A, *B, *C;
  void *D;
  int lda, ldb, ldc, ldd;
  long long sA, sB, sC, sD;
  int batch, arrays;
  int acc_double; /* the kernel's alpha and beta are doubles (f64 types) */
  int epi;        /* the kernels' EPI_* */
  const void *bias;
  int bias_f32;   /* bias is float (else of D's type) */
  void *aux;      /* the epilogue's aux matrix (of D's type) */
  long long ldaux, sAux;
} LibGemm;
/* Launches g as kernel `kernel` of k, a 16x16 block per 16x16 tile of D,
 * the batch in gridDim.z (at most 65535: more is refused, said). */
RtError lib_gemm(LibKernels *k, const char *call, const char *kernel, const LibGemm *g, RtStream *s);

/* "==WARPMEM== CALL: MESSAGE" on stderr. */
void lib_say(const char *call, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same once per distinct (call, message) text of the process. */
void lib_say_once(const char *call, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A value at p that is either host or device memory (unified: both are
 * readable from the host) copied to out (n bytes); 0, or -1 for a NULL p. */
int lib_read_scalar(const void *p, void *out, size_t n);

/* IEEE half and bfloat16 (bits) to and from float, round to nearest even. */
float lib_half_to_float(uint16_t h);
float lib_bf16_to_float(uint16_t h);

#endif
