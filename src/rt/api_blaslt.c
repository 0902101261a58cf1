/* api_blaslt.c - warpmem's stand-in for cuBLASLt (build/rt/libcublasLt.so.13),
 * what llm.c's matmul_cublaslt and common ML code use: the handle; matmul
 * descriptors, matrix layouts and preferences with their attributes (kept
 * as set and read back; checked when cublasLtMatmul runs); one algorithm
 * from cublasLtMatmulAlgoGetHeuristic; and cublasLtMatmul as one launch of
 * warpmem_cublasLtMatmul_<A>_<D> (src/rt/kernels/blaslt_kernels.cu) with
 * the epilogues DEFAULT, RELU, BIAS, RELU_BIAS, GELU, GELU_BIAS, GELU_AUX,
 * GELU_AUX_BIAS, DGELU and BGRADB (its bias gradient a second launch).
 * Column-major layouts only; strided batches.  What it does not do (row
 * order, FP8 scales, bitmask epilogues, ...) is CUBLAS_STATUS_NOT_SUPPORTED
 * with a line naming the attribute. */
#include <cublasLt.h>
#include <stdlib.h>
#include <string.h>

#include "rt/api_lib.h"

extern const char wm_blaslt_ptx[]; /* src/rt/kernels/ptx/blaslt_kernels.ptx, embedded by CMake */
static LibKernels kernels = LIB_KERNELS(wm_blaslt_ptx, "warpmem's cuBLASLt kernels");

#define NATTR 64 /* above every attribute number of cublasLt.h 13 */
/* Attributes as set: up to 8 bytes each (every scalar and pointer one). */
typedef struct Attrs {
  uint64_t v[NATTR];
  unsigned char set[NATTR];
} Attrs;

#define LT_MAGIC 0x6c74u
struct cublasLtContext { unsigned magic; };
typedef struct { unsigned magic; Attrs a; } Desc; /* descriptors, layouts and preferences alike */

static cublasStatus_t invalid(const char *call, const char *why) {
  lib_say(call, "%s: CUBLAS_STATUS_INVALID_VALUE", why);
  return CUBLAS_STATUS_INVALID_VALUE;
}
static cublasStatus_t unsupported(const char *call, const char *what) {
  lib_say(call, "%s is not supported by warpmem's stand-in: CUBLAS_STATUS_NOT_SUPPORTED", what);
  return CUBLAS_STATUS_NOT_SUPPORTED;
}

const char *cublasLtGetStatusName(cublasStatus_t s) {
  switch (s) {
  case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
  case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
  case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
  case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
  case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
  case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
  case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
  default: return "CUBLAS_STATUS_UNKNOWN";
  }
}
const char *cublasLtGetStatusString(cublasStatus_t s) { return cublasLtGetStatusName(s); }
size_t cublasLtGetVersion(void) { return CUBLAS_VERSION; }
size_t cublasLtGetCudartVersion(void) { return CUDART_VERSION; }
cublasStatus_t cublasLtGetProperty(libraryPropertyType type, int *value) {
  if (!value) return invalid("cublasLtGetProperty", "value is NULL");
  if (type == MAJOR_VERSION) *value = CUBLAS_VER_MAJOR;
  else if (type == MINOR_VERSION) *value = CUBLAS_VER_MINOR;
  else if (type == PATCH_LEVEL) *value = CUBLAS_VER_PATCH;
  else return invalid("cublasLtGetProperty", "not a libraryPropertyType");
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtCreate(cublasLtHandle_t *h) {
  if (!h) return invalid("cublasLtCreate", "lightHandle is NULL");
  if (rt_init()) return CUBLAS_STATUS_NOT_INITIALIZED;
  struct cublasLtContext *c = calloc(1, sizeof *c);
  if (!c) return CUBLAS_STATUS_ALLOC_FAILED;
  c->magic = LT_MAGIC;
  *h = c;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtDestroy(cublasLtHandle_t h) {
  if (!h || h->magic != LT_MAGIC) return lib_say("cublasLtDestroy", "not a handle"), CUBLAS_STATUS_NOT_INITIALIZED;
  h->magic = 0;
  free(h);
  return CUBLAS_STATUS_SUCCESS;
}

/* ---- descriptors: attributes kept as set ---- */

static Desc *desc_new(unsigned magic) {
  Desc *d = calloc(1, sizeof *d);
  if (d) d->magic = magic;
  return d;
}
static Desc *desc_of(const void *p, unsigned magic) {
  Desc *d = (Desc *)p;
  return d && d->magic == magic ? d : NULL;
}
static void put(Desc *d, int attr, uint64_t v) { d->a.v[attr] = v, d->a.set[attr] = 1; }
static cublasStatus_t set_attr(const char *call, Desc *d, int attr, const void *buf, size_t n) {
  if (!d) return invalid(call, "not a descriptor of this kind (or NULL)");
  if (attr < 0 || attr >= NATTR || !buf || n == 0 || n > 8) return invalid(call, "an attribute number or size");
  uint64_t v = 0;
  memcpy(&v, buf, n);
  put(d, attr, v);
  return CUBLAS_STATUS_SUCCESS;
}
static cublasStatus_t get_attr(const char *call, const Desc *d, int attr, void *buf, size_t n, size_t *written) {
  if (!d) return invalid(call, "not a descriptor of this kind (or NULL)");
  if (attr < 0 || attr >= NATTR) return invalid(call, "an attribute number");
  size_t need = n >= 8 ? 8 : n; /* the caller's size says the attribute's */
  if (written) *written = need;
  if (!n) return written ? CUBLAS_STATUS_SUCCESS : invalid(call, "sizeInBytes 0 and no sizeWritten");
  if (!buf) return invalid(call, "buf is NULL");
  memcpy(buf, &d->a.v[attr], need);
  return CUBLAS_STATUS_SUCCESS;
}

#define MAGIC_DESC 0x4d44u
#define MAGIC_LAYOUT 0x4c41u
#define MAGIC_PREF 0x5052u

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *out, cublasComputeType_t compute, cudaDataType_t scale) {
  if (!out) return invalid("cublasLtMatmulDescCreate", "matmulDesc is NULL");
  Desc *d = desc_new(MAGIC_DESC);
  if (!d) return CUBLAS_STATUS_ALLOC_FAILED;
  put(d, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, (uint64_t)compute);
  put(d, CUBLASLT_MATMUL_DESC_SCALE_TYPE, (uint64_t)scale);
  put(d, CUBLASLT_MATMUL_DESC_EPILOGUE, CUBLASLT_EPILOGUE_DEFAULT);
  *out = (cublasLtMatmulDesc_t)d;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t d) {
  Desc *x = desc_of(d, MAGIC_DESC);
  if (!x) return invalid("cublasLtMatmulDescDestroy", "not a matmul descriptor");
  x->magic = 0, free(x);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t d, cublasLtMatmulDescAttributes_t attr,
                                              const void *buf, size_t n) {
  return set_attr("cublasLtMatmulDescSetAttribute", desc_of(d, MAGIC_DESC), (int)attr, buf, n);
}
cublasStatus_t cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t d, cublasLtMatmulDescAttributes_t attr, void *buf,
                                              size_t n, size_t *written) {
  return get_attr("cublasLtMatmulDescGetAttribute", desc_of(d, MAGIC_DESC), (int)attr, buf, n, written);
}

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *out, cudaDataType type, uint64_t rows,
                                          uint64_t cols, int64_t ld) {
  if (!out) return invalid("cublasLtMatrixLayoutCreate", "matLayout is NULL");
  if (ld < (int64_t)(rows > 1 ? rows : 1) || rows > 0x7fffffff || cols > 0x7fffffff)
    return invalid("cublasLtMatrixLayoutCreate", "ld is less than rows (column-major), or a size past 2^31");
  Desc *d = desc_new(MAGIC_LAYOUT);
  if (!d) return CUBLAS_STATUS_ALLOC_FAILED;
  put(d, CUBLASLT_MATRIX_LAYOUT_TYPE, (uint64_t)type);
  put(d, CUBLASLT_MATRIX_LAYOUT_ROWS, rows);
  put(d, CUBLASLT_MATRIX_LAYOUT_COLS, cols);
  put(d, CUBLASLT_MATRIX_LAYOUT_LD, (uint64_t)ld);
  put(d, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, 1);
  *out = (cublasLtMatrixLayout_t)d;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t d) {
  Desc *x = desc_of(d, MAGIC_LAYOUT);
  if (!x) return invalid("cublasLtMatrixLayoutDestroy", "not a matrix layout");
  x->magic = 0, free(x);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t d, cublasLtMatrixLayoutAttribute_t attr,
                                                const void *buf, size_t n) {
  return set_attr("cublasLtMatrixLayoutSetAttribute", desc_of(d, MAGIC_LAYOUT), (int)attr, buf, n);
}
cublasStatus_t cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t d, cublasLtMatrixLayoutAttribute_t attr,
                                                void *buf, size_t n, size_t *written) {
  return get_attr("cublasLtMatrixLayoutGetAttribute", desc_of(d, MAGIC_LAYOUT), (int)attr, buf, n, written);
}

cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *out) {
  if (!out) return invalid("cublasLtMatmulPreferenceCreate", "pref is NULL");
  Desc *d = desc_new(MAGIC_PREF);
  if (!d) return CUBLAS_STATUS_ALLOC_FAILED;
  *out = (cublasLtMatmulPreference_t)d;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t d) {
  Desc *x = desc_of(d, MAGIC_PREF);
  if (!x) return invalid("cublasLtMatmulPreferenceDestroy", "not a preference");
  x->magic = 0, free(x);
  return CUBLAS_STATUS_SUCCESS;
}
/* Preferences steer cuBLASLt's search; warpmem has one kernel: kept, unused. */
cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t d,
                                                    cublasLtMatmulPreferenceAttributes_t attr, const void *buf,
                                                    size_t n) {
  return set_attr("cublasLtMatmulPreferenceSetAttribute", desc_of(d, MAGIC_PREF), (int)attr, buf, n);
}
cublasStatus_t cublasLtMatmulPreferenceGetAttribute(cublasLtMatmulPreference_t d,
                                                    cublasLtMatmulPreferenceAttributes_t attr, void *buf, size_t n,
                                                    size_t *written) {
  return get_attr("cublasLtMatmulPreferenceGetAttribute", desc_of(d, MAGIC_PREF), (int)attr, buf, n, written);
}

/* ---- the matmul ---- */

static int32_t i32(const Desc *d, int attr) { return (int32_t)(uint32_t)d->a.v[attr]; }
static int64_t i64(const Desc *d, int attr) { return (int64_t)d->a.v[attr]; }
static void *ptr(const Desc *d, int attr) { return (void *)(uintptr_t)d->a.v[attr]; }

typedef enum { T_F32, T_F64, T_F16, T_BF16, T_BAD } Ty;
static const char *ty_name[] = {"f32", "f64", "f16", "bf16", "?"};
static Ty ty_of(int32_t t) {
  return t == CUDA_R_32F ? T_F32 : t == CUDA_R_64F ? T_F64 : t == CUDA_R_16F ? T_F16 : t == CUDA_R_16BF ? T_BF16 : T_BAD;
}

/* What a matmul is to do, from its descriptor and layouts: checked once,
 * for cublasLtMatmulAlgoGetHeuristic and cublasLtMatmul alike. */
typedef struct Plan {
  LibGemm g;
  Ty a, d;
  char kernel[64];
  int bgradb;   /* BGRADB: the bias gradient into the bias pointer, a second launch */
  int64_t k;
} Plan;

enum { EPI_NONE = 0, EPI_RELU = 1, EPI_GELU = 2, EPI_DGELU = 3 }; /* gemm.cuh's */

/* The epilogue into p (kernel EPI_*, bias, aux); NOT_SUPPORTED for the rest. */
static cublasStatus_t plan_epilogue(const char *call, const Desc *op, Plan *p) {
  uint32_t e = (uint32_t)op->a.v[CUBLASLT_MATMUL_DESC_EPILOGUE];
  int bias = 0, aux = 0;
  switch (e) {
  case CUBLASLT_EPILOGUE_DEFAULT: break;
  case CUBLASLT_EPILOGUE_RELU: p->g.epi = EPI_RELU; break;
  case CUBLASLT_EPILOGUE_BIAS: bias = 1; break;
  case CUBLASLT_EPILOGUE_RELU_BIAS: p->g.epi = EPI_RELU, bias = 1; break;
  case CUBLASLT_EPILOGUE_GELU: p->g.epi = EPI_GELU; break;
  case CUBLASLT_EPILOGUE_GELU_BIAS: p->g.epi = EPI_GELU, bias = 1; break;
  case CUBLASLT_EPILOGUE_GELU_AUX: p->g.epi = EPI_GELU, aux = 1; break;
  case CUBLASLT_EPILOGUE_GELU_AUX_BIAS: p->g.epi = EPI_GELU, aux = 1, bias = 1; break;
  case CUBLASLT_EPILOGUE_DGELU: p->g.epi = EPI_DGELU, aux = 1; break;
  case CUBLASLT_EPILOGUE_BGRADB: p->bgradb = 1; break;
  default: {
    char what[96];
    snprintf(what, sizeof what, "epilogue %u (RELU_AUX's bitmask, DRELU, DGELU_BGRAD, BGRADA)", e);
    return unsupported(call, what);
  }
  }
  if (bias || p->bgradb) {
    int32_t bt = op->a.set[CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE] ? i32(op, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE) : -1;
    Ty b = bt == -1 ? p->d : ty_of(bt);
    if (b != p->d && b != T_F32) return unsupported(call, "a bias type other than D's or f32");
    if (p->bgradb && b != p->d) return unsupported(call, "BGRADB's gradient in a type other than D's");
    p->g.bias_f32 = b == T_F32 && p->d != T_F32;
    p->g.bias = ptr(op, CUBLASLT_MATMUL_DESC_BIAS_POINTER);
    if (!p->g.bias) return invalid(call, "a bias epilogue without CUBLASLT_MATMUL_DESC_BIAS_POINTER");
    if (i64(op, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE)) return unsupported(call, "a bias batch stride");
    if (p->bgradb) p->g.bias = NULL; /* not added: written */
  }
  if (aux) {
    p->g.aux = ptr(op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER);
    p->g.ldaux = i64(op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD);
    p->g.sAux = i64(op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE);
    if (!p->g.aux || p->g.ldaux < p->g.m) return invalid(call, "an aux epilogue without AUX_POINTER, or AUX_LD < rows");
    if (op->a.set[CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE] &&
        ty_of(i32(op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE)) != p->d)
      return unsupported(call, "an aux type other than D's");
  }
  return CUBLAS_STATUS_SUCCESS;
}

/* A layout's matrix: type, rows, cols, ld, batch, stride. */
static cublasStatus_t layout(const char *call, const Desc *l, const char *name, Ty *t, int64_t *rows, int64_t *cols,
                             int64_t *ld, int *batch, int64_t *stride) {
  if (!l) return invalid(call, name);
  if (i32(l, CUBLASLT_MATRIX_LAYOUT_ORDER) != CUBLASLT_ORDER_COL) return unsupported(call, "a layout order other than column-major");
  *t = ty_of(i32(l, CUBLASLT_MATRIX_LAYOUT_TYPE));
  *rows = i64(l, CUBLASLT_MATRIX_LAYOUT_ROWS), *cols = i64(l, CUBLASLT_MATRIX_LAYOUT_COLS);
  *ld = i64(l, CUBLASLT_MATRIX_LAYOUT_LD), *batch = i32(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT);
  *stride = i64(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET);
  if (*t == T_BAD) return unsupported(call, "a matrix type other than f32, f64, f16, bf16");
  if (*batch < 1) return invalid(call, "a batch count below 1");
  return CUBLAS_STATUS_SUCCESS;
}

/* The FP8 and emulation attributes warpmem's kernels do not apply: set to
 * anything but 0, they are refused rather than ignored. */
static const int scaled_attrs[] = {CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER,
                                   CUBLASLT_MATMUL_DESC_C_SCALE_POINTER, CUBLASLT_MATMUL_DESC_D_SCALE_POINTER,
                                   CUBLASLT_MATMUL_DESC_AMAX_D_POINTER, CUBLASLT_MATMUL_DESC_TRANSC,
                                   CUBLASLT_MATMUL_DESC_EMULATION_DESCRIPTOR};

static cublasStatus_t plan(const char *call, cublasLtMatmulDesc_t opd, cublasLtMatrixLayout_t la,
                           cublasLtMatrixLayout_t lb, cublasLtMatrixLayout_t lc, cublasLtMatrixLayout_t ld, Plan *p) {
  const Desc *op = desc_of(opd, MAGIC_DESC);
  if (!op) return invalid(call, "computeDesc is not a matmul descriptor");
  memset(p, 0, sizeof *p);
  for (size_t i = 0; i < sizeof scaled_attrs / sizeof *scaled_attrs; i++)
    if (op->a.v[scaled_attrs[i]]) {
      char what[64];
      snprintf(what, sizeof what, "matmul descriptor attribute %d (scales, TRANSC, emulation)", scaled_attrs[i]);
      return unsupported(call, what);
    }
  Ty ta, tb, tc, td;
  int64_t ar, ac, br, bc, cr, cc, dr, dc, lda, ldb, ldc, ldd, sa, sb, sc, sd;
  int na, nb, nc, nd;
  cublasStatus_t st;
  if ((st = layout(call, desc_of(la, MAGIC_LAYOUT), "Adesc is not a layout", &ta, &ar, &ac, &lda, &na, &sa)) ||
      (st = layout(call, desc_of(lb, MAGIC_LAYOUT), "Bdesc is not a layout", &tb, &br, &bc, &ldb, &nb, &sb)) ||
      (st = layout(call, desc_of(lc, MAGIC_LAYOUT), "Cdesc is not a layout", &tc, &cr, &cc, &ldc, &nc, &sc)) ||
      (st = layout(call, desc_of(ld, MAGIC_LAYOUT), "Ddesc is not a layout", &td, &dr, &dc, &ldd, &nd, &sd)))
    return st;
  int tA = i32(op, CUBLASLT_MATMUL_DESC_TRANSA) != CUBLAS_OP_N, tB = i32(op, CUBLASLT_MATMUL_DESC_TRANSB) != CUBLAS_OP_N;
  int64_t m = tA ? ac : ar, k = tA ? ar : ac, kb = tB ? bc : br, n = tB ? br : bc;
  if (k != kb || cr != dr || cc != dc || dr != m || dc != n)
    return invalid(call, "the layouts' sizes do not make op(A) (m x k) times op(B) (k x n) into C and D (m x n)");
  if (ta != tb || tc != td) return unsupported(call, "A and B (or C and D) of different types");
  if (!(ta == td || (td == T_F32 && (ta == T_F16 || ta == T_BF16))))
    return unsupported(call, "this pair of A and D types (warpmem: A = D, or f16/bf16 A with f32 D)");
  if (na != nd || nb != nd || nc != nd) return invalid(call, "the layouts' batch counts differ");
  int32_t cp = i32(op, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE), sty = i32(op, CUBLASLT_MATMUL_DESC_SCALE_TYPE);
  int c64 = cp == CUBLAS_COMPUTE_64F || cp == CUBLAS_COMPUTE_64F_PEDANTIC;
  int c32 = cp == CUBLAS_COMPUTE_32F || cp == CUBLAS_COMPUTE_32F_PEDANTIC || cp == CUBLAS_COMPUTE_32F_FAST_16F ||
            cp == CUBLAS_COMPUTE_32F_FAST_16BF || cp == CUBLAS_COMPUTE_32F_FAST_TF32;
  if ((ta == T_F64) != c64 || (!c32 && !c64) || ty_of(sty) != (c64 ? T_F64 : T_F32))
    return unsupported(call, "this compute or scale type (warpmem: 32F* with f32 scale for f32/f16/bf16, 64F for f64)");
  if (cp != CUBLAS_COMPUTE_32F && c32 && cp != CUBLAS_COMPUTE_32F_PEDANTIC)
    lib_say_once(call, "compute type %d (a fast 32F mode) is computed in full f32 by warpmem's kernel", (int)cp);
  p->a = ta, p->d = td, p->k = k;
  p->g = (LibGemm){.ta = tA, .tb = tB, .m = (int)m, .n = (int)n, .k = (int)k, .lda = (int)lda, .ldb = (int)ldb,
                   .ldc = (int)ldc, .ldd = (int)ldd, .sA = sa, .sB = sb, .sC = sc, .sD = sd, .batch = nd,
                   .acc_double = c64};
  snprintf(p->kernel, sizeof p->kernel, "warpmem_cublasLtMatmul_%s_%s", ty_name[ta], ty_name[td]);
  return plan_epilogue(call, op, p);
}

cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t h, cublasLtMatmulDesc_t op, cublasLtMatrixLayout_t a,
                                              cublasLtMatrixLayout_t b, cublasLtMatrixLayout_t c,
                                              cublasLtMatrixLayout_t d, cublasLtMatmulPreference_t pref, int want,
                                              cublasLtMatmulHeuristicResult_t results[], int *count) {
  const char *call = "cublasLtMatmulAlgoGetHeuristic";
  if (!h || h->magic != LT_MAGIC) return lib_say(call, "not a handle"), CUBLAS_STATUS_NOT_INITIALIZED;
  if (!desc_of(pref, MAGIC_PREF) || want <= 0 || !results || !count) return invalid(call, "preference, count or results");
  *count = 0;
  Plan p;
  cublasStatus_t st = plan(call, op, a, b, c, d, &p);
  if (st) return st;
  memset(&results[0], 0, sizeof results[0]);
  results[0].algo.data[0] = 0x77617270ull; /* "warp": warpmem's one algorithm */
  results[0].workspaceSize = 0;
  results[0].state = CUBLAS_STATUS_SUCCESS;
  results[0].wavesCount = 1.0f;
  *count = 1;
  return CUBLAS_STATUS_SUCCESS;
}

static int scalar(const void *p, int f64, double *out) {
  if (!p) return -1;
  if (f64) return memcpy(out, p, 8), 0;
  float f;
  memcpy(&f, p, 4);
  *out = f;
  return 0;
}

cublasStatus_t cublasLtMatmul(cublasLtHandle_t h, cublasLtMatmulDesc_t op, const void *alpha, const void *A,
                              cublasLtMatrixLayout_t la, const void *B, cublasLtMatrixLayout_t lb, const void *beta,
                              const void *C, cublasLtMatrixLayout_t lc, void *D, cublasLtMatrixLayout_t ld,
                              const cublasLtMatmulAlgo_t *algo, void *workspace, size_t workspace_size,
                              cudaStream_t stream) {
  const char *call = "cublasLtMatmul";
  (void)algo, (void)workspace, (void)workspace_size; /* one kernel, no workspace */
  if (!h || h->magic != LT_MAGIC) return lib_say(call, "not a handle"), CUBLAS_STATUS_NOT_INITIALIZED;
  if (rt_stream_check((RtStream *)stream)) return invalid(call, "not a stream");
  Plan p;
  cublasStatus_t st = plan(call, op, la, lb, lc, ld, &p);
  if (st) return st;
  /* CUBLASLT_POINTER_MODE_HOST or _DEVICE: both readable here */
  if (scalar(alpha, p.g.acc_double, &p.g.alpha) || scalar(beta, p.g.acc_double, &p.g.beta))
    return invalid(call, "alpha or beta is NULL");
  if (!p.g.m || !p.g.n) return CUBLAS_STATUS_SUCCESS;
  if ((p.g.k && (!A || !B)) || !D || (p.g.beta != 0 && !C)) return invalid(call, "a matrix pointer is NULL");
  p.g.A = A, p.g.B = B, p.g.C = C ? C : D, p.g.D = D;
  RtError r = lib_gemm(&kernels, call, p.kernel, &p.g, (RtStream *)stream);
  if (!r && p.bgradb) {
    const Desc *o = desc_of(op, MAGIC_DESC);
    void *dbias = ptr(o, CUBLASLT_MATMUL_DESC_BIAS_POINTER);
    const char *sfx = p.d == T_F32 ? "f32" : p.d == T_F16 ? "f16" : "bf16";
    char kernel[64];
    snprintf(kernel, sizeof kernel, "warpmem_cublasLtMatmul_bgradb_%s", sfx);
    if (p.d == T_F64 || p.a != p.d) return unsupported(call, "BGRADB for these types");
    int tb = p.g.tb, k = p.g.k, n = p.g.n, ldb = p.g.ldb;
    void *args[] = {&tb, &k, &n, &p.g.B, &ldb, &dbias};
    uint32_t grid[3] = {(uint32_t)(n + 127) / 128, 1, 1};
    r = lib_launch(&kernels, call, kernel, grid, 128, 1, (RtStream *)stream, args);
  }
  if (r == RT_ERR_NOT_SUPPORTED) return CUBLAS_STATUS_NOT_SUPPORTED;
  return r ? CUBLAS_STATUS_EXECUTION_FAILED : CUBLAS_STATUS_SUCCESS;
}
