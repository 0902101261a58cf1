/* test_corpus_tensor.c - the tensor-core corpus (tests/corpus/wmma_gemm.cu,
 * tests/corpus/mma_ldmatrix.cu): each GEMM's output against a CPU GEMM of
 * the same inputs, and the ldmatrix/stmatrix wavefronts and bank conflicts
 * against first principles.
 *
 * Precision.  The inputs are rounded to the kernel's element type as the
 * kernel does (f16 and bf16: nearest even; tf32: the hardware ignores the
 * 13 low mantissa bits), so every product is exact in f32 (at most 22
 * significant bits) and in the double reference.  A sum of K terms in f32,
 * in any order, is then within K * 2^-24 * sum |a b| of the exact sum (the
 * classic bound gamma_K = K u / (1 - K u), with K u < 2^-16 here, rounded
 * up by one more u); f64 sums likewise with 2^-53.  Integer GEMMs are
 * exact, and so are the transposes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "testutil.h"
#include "util/half.h"

static PtxModule *wmma_mod, *mma_mod;

static const PtxModule *wmma_module(void) {
  if (!wmma_mod) wmma_mod = tu_load(tu_corpus("wmma_gemm.ptx"));
  return wmma_mod;
}
static const PtxModule *mma_module(void) {
  if (!mma_mod) mma_mod = tu_load(tu_corpus("mma_ldmatrix.ptx"));
  return mma_mod;
}

#define ARG(run, argno, T, count) ((T *)tu_arg_buf(run, argno, sizeof(T), count))

/* How the kernel rounds its inputs. */
typedef enum { R_NONE, R_F16, R_BF16, R_TF32 } Rounding;

static double rounded(float v, Rounding r) {
  uint32_t u;
  switch (r) {
  case R_F16: return wm_f16_value(wm_f16_from(v, WM_RND_NEAREST));
  case R_BF16: return wm_bf16_value(wm_bf16_from(v, WM_RND_NEAREST));
  case R_TF32:
    memcpy(&u, &v, 4);
    u &= 0xffffe000u;
    memcpy(&v, &u, 4);
    return v;
  default: return v;
  }
}

/* got[M x N] against sum_k a(m, k) * b(k, n), within the f32 (or f64) bound
 * of the header; a and b are callbacks over the kernels' layouts. */
typedef double (*Elem)(const void *m, int row, int col, int ld);
static double row_major(const void *m, int r, int c, int ld) { return ((const double *)m)[r * ld + c]; }
static double col_major(const void *m, int r, int c, int ld) { return ((const double *)m)[c * ld + r]; }

static void expect_gemm(const char *what, const float *got32, const double *got64, int M, int N, int K,
                        const double *a, Elem ea, const double *b, Elem eb, double unit) {
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++) {
      double sum = 0, mag = 0;
      for (int k = 0; k < K; k++) {
        double p = ea(a, m, k, K) * eb(b, k, n, eb == col_major ? K : N);
        sum += p;
        mag += fabs(p);
      }
      double g = got32 ? got32[m * N + n] : got64[m * N + n];
      double bound = (K + 1) * unit * mag + 1e-300;
      if (!(fabs(g - sum) <= bound))
        fail_msg("%s: C[%d][%d] = %.9g, expected %.9g within %.3g", what, m, n, g, sum, bound);
    }
}

/* The float buffer `argno` (count values) rounded as the kernel rounds it. */
static double *inputs(SimRun *run, int argno, size_t count, Rounding r) {
  const float *f = ARG(run, argno, float, count);
  double *d = malloc(count * sizeof *d);
  for (size_t i = 0; i < count; i++) d[i] = rounded(f[i], r);
  return d;
}

static double *half_inputs(SimRun *run, int argno, size_t count) {
  const uint16_t *h = ARG(run, argno, uint16_t, count);
  double *d = malloc(count * sizeof *d);
  for (size_t i = 0; i < count; i++) d[i] = wm_f16_value(h[i]);
  return d;
}

#define U32 (1.0 / 16777216.0)           /* 2^-24 */
#define U64 (1.0 / 9007199254740992.0)   /* 2^-53 */

/* --- wmma ----------------------------------------------------------------- */

static void test_wmma_global_f16(void **state) {
  (void)state;
  SimRun run = {0};
  tu_launch(&run, wmma_module(), "wmma_gemm_global", "1,4", "128", 0, "buf:u16:4096:rand", "buf:u16:4096:rand",
            "buf:f32:4096:zero", "i32:64", "i32:64", "i32:64", NULL);
  double *a = half_inputs(&run, 0, 4096), *b = half_inputs(&run, 1, 4096);
  expect_gemm("wmma f16 (global)", ARG(&run, 2, float, 4096), NULL, 64, 64, 64, a, row_major, b, col_major, U32);
  /* each warp loads 4 distinct A and 4 distinct B registers (the other 4 of
   * each f16 fragment repeat them) per k step, one 4-byte request each:
   * 16 warps x 4 k steps x 8 = 512 global load requests */
  assert_int_equal(run.mm.metric[WM_M_GLD_REQ], 512);
  free(a), free(b);
  sim_run_free(&run);
}

static void wmma_shared(const char *kernel, Rounding r) {
  SimRun run = {0};
  tu_launch(&run, wmma_module(), kernel, "2,4", "64", 0, "buf:f32:4096:rand", "buf:f32:4096:rand",
            "buf:f32:4096:zero", "i32:64", "i32:64", "i32:64", NULL);
  double *a = inputs(&run, 0, 4096, r), *b = inputs(&run, 1, 4096, r);
  expect_gemm(kernel, ARG(&run, 2, float, 4096), NULL, 64, 64, 64, a, row_major, b, col_major, U32);
  /* rows of 24 elements (48 bytes): the 8 rows g = 0..7 a fragment register
   * reads start at banks 12 g mod 32, 4 words apart: no conflicts */
  assert_int_equal(run.mm.metric[WM_M_SLD_BC], 0);
  free(a), free(b);
  sim_run_free(&run);
}

static void test_wmma_shared_f16(void **state) {
  (void)state;
  wmma_shared("wmma_gemm_shared_f16", R_F16);
}

static void test_wmma_shared_bf16(void **state) {
  (void)state;
  wmma_shared("wmma_gemm_shared_bf16", R_BF16);
}

static void test_wmma_tf32(void **state) {
  (void)state;
  SimRun run = {0};
  tu_launch(&run, wmma_module(), "wmma_gemm_tf32", "1,4", "128", 0, "buf:f32:4096:rand", "buf:f32:4096:rand",
            "buf:f32:4096:zero", "i32:64", "i32:64", "i32:64", NULL);
  double *a = inputs(&run, 0, 4096, R_TF32), *b = inputs(&run, 1, 4096, R_TF32);
  expect_gemm("wmma tf32", ARG(&run, 2, float, 4096), NULL, 64, 64, 64, a, row_major, b, col_major, U32);
  free(a), free(b);
  sim_run_free(&run);
}

static void test_wmma_s8(void **state) {
  (void)state;
  SimRun run = {0};
  /* C comes in random and is accumulated into: read it before the launch
   * from a second run of the same seed (the inputs are reproducible) */
  SimRun pre = {0};
  tu_launch(&pre, wmma_module(), "wmma_gemm_s8", "1,1", "32", 0, "buf:i8:4096:rand", "buf:i8:4096:rand",
            "buf:i32:4096:rand", "i32:64", "i32:64", "i32:0", NULL);
  /* K = 0: C unchanged except the tile of warp (0, 0), which is C + 0 */
  int32_t *c0 = malloc(4096 * sizeof *c0);
  memcpy(c0, ARG(&pre, 2, int32_t, 4096), 4096 * sizeof *c0);
  sim_run_free(&pre);
  tu_launch(&run, wmma_module(), "wmma_gemm_s8", "1,4", "128", 0, "buf:i8:4096:rand", "buf:i8:4096:rand",
            "buf:i32:4096:rand", "i32:64", "i32:64", "i32:64", NULL);
  const int8_t *a = ARG(&run, 0, int8_t, 4096), *b = ARG(&run, 1, int8_t, 4096);
  const int32_t *c = ARG(&run, 2, int32_t, 4096);
  for (int m = 0; m < 64; m++)
    for (int n = 0; n < 64; n++) {
      int32_t want = c0[m * 64 + n];
      for (int k = 0; k < 64; k++) want += a[m * 64 + k] * b[n * 64 + k];
      if (c[m * 64 + n] != want) fail_msg("wmma s8: C[%d][%d] = %d, expected %d", m, n, c[m * 64 + n], want);
    }
  free(c0);
  sim_run_free(&run);
}

static void test_wmma_f64(void **state) {
  (void)state;
  SimRun run = {0};
  tu_launch(&run, wmma_module(), "wmma_gemm_f64", "1,4", "128", 0, "buf:f64:1024:rand", "buf:f64:1024:rand",
            "buf:f64:1024:zero", "i32:32", "i32:32", "i32:32", NULL);
  expect_gemm("wmma f64", NULL, ARG(&run, 2, double, 1024), 32, 32, 32, ARG(&run, 0, double, 1024), row_major,
              ARG(&run, 1, double, 1024), col_major, U64);
  sim_run_free(&run);
}

/* --- mma.sync fed by ldmatrix ----------------------------------------------- */

/* C[32 x 32] = A[32 x 128] Bt[32 x 128]^T in f16 with f32 accumulators. */
static void mma_gemm(const char *kernel, SimRun *run) {
  tu_launch(run, mma_module(), kernel, "2,2", "32", 0, "buf:f32:4096:rand", "buf:f32:4096:rand",
            "buf:f32:1024:zero", "i32:32", "i32:32", "i32:128", NULL);
  double *a = inputs(run, 0, 4096, R_F16), *b = inputs(run, 1, 4096, R_F16);
  expect_gemm(kernel, ARG(run, 2, float, 1024), NULL, 32, 32, 128, a, row_major, b, col_major, U32);
  free(a), free(b);
}

/* ldmatrix counts per launch of mma_gemm_*: 4 warps (one per block) x 2
 * chunks of 64 k x 4 k steps x 2 ldmatrix.x4 (A and B) = 64 instructions of
 * 4 matrices each. */
enum { GEMM_LDSM = 4 * 2 * 4 * 2, GEMM_MATRICES = GEMM_LDSM * 4 };

static void test_mma_ldmatrix_plain(void **state) {
  (void)state;
  SimRun run = {0};
  mma_gemm("mma_gemm_plain", &run);
  /* Row-major tile of 64 halves: rows are 128 bytes apart, so the 8 rows of
   * every 8x8 matrix start in the same 16-byte bank group ((addr / 16) % 8)
   * and each matrix takes 8 wavefronts instead of 1: 7 conflicts. */
  assert_int_equal(run.mm.metric[WM_M_LDSM_INST], GEMM_LDSM);
  assert_int_equal(run.mm.metric[WM_M_LDSM_WF], GEMM_MATRICES * 8);
  assert_int_equal(run.mm.metric[WM_M_LDSM_BC], GEMM_MATRICES * 7);
  assert_int_equal(run.mm.metric[WM_M_SLD_INST], 0); /* LDSM is not LDS */
  sim_run_free(&run);
}

static void test_mma_ldmatrix_swizzled(void **state) {
  (void)state;
  SimRun run = {0}, plain = {0};
  mma_gemm("mma_gemm_swizzled", &run);
  /* chunk c of row r at c ^ (r % 8): the 8 rows of a matrix (same logical
   * chunk, rows r0..r0+7) land in the 8 different bank groups: one
   * wavefront per matrix, no conflicts */
  assert_int_equal(run.mm.metric[WM_M_LDSM_INST], GEMM_LDSM);
  assert_int_equal(run.mm.metric[WM_M_LDSM_WF], GEMM_MATRICES);
  assert_int_equal(run.mm.metric[WM_M_LDSM_BC], 0);
  /* the swizzle moves data, not results: the same sums in the same order */
  tu_launch(&plain, mma_module(), "mma_gemm_plain", "2,2", "32", 0, "buf:f32:4096:rand", "buf:f32:4096:rand",
            "buf:f32:1024:zero", "i32:32", "i32:32", "i32:128", NULL);
  assert_memory_equal(ARG(&run, 2, float, 1024), ARG(&plain, 2, float, 1024), 1024 * sizeof(float));
  sim_run_free(&plain);
  sim_run_free(&run);
}

static void test_mma_ldmatrix_trans(void **state) {
  (void)state;
  SimRun run = {0};
  tu_launch(&run, mma_module(), "mma_gemm_trans", "2,2", "32", 0, "buf:f32:2048:rand", "buf:f32:2048:rand",
            "buf:f32:1024:zero", "i32:32", "i32:32", "i32:64", NULL);
  double *a = inputs(&run, 0, 2048, R_F16), *b = inputs(&run, 1, 2048, R_F16);
  expect_gemm("mma_gemm_trans", ARG(&run, 2, float, 1024), NULL, 32, 32, 64, a, row_major, b, row_major, U32);
  /* 4 warps x 4 k steps x 2 ldmatrix.x4; rows padded to 48 bytes start in
   * bank groups 3 r mod 8 = 0, 3, 6, 1, 4, 7, 2, 5: conflict-free */
  assert_int_equal(run.mm.metric[WM_M_LDSM_INST], 32);
  assert_int_equal(run.mm.metric[WM_M_LDSM_WF], 32 * 4);
  assert_int_equal(run.mm.metric[WM_M_LDSM_BC], 0);
  free(a), free(b);
  sim_run_free(&run);
}

static void test_stmatrix_transpose(void **state) {
  (void)state;
  SimRun run = {0};
  tu_launch(&run, mma_module(), "tile_transpose", "2,2", "32", 0, "buf:u16:1024:rand", "buf:u16:1024:zero",
            "i32:32", "i32:32", NULL);
  const uint16_t *in = ARG(&run, 0, uint16_t, 1024), *out = ARG(&run, 1, uint16_t, 1024);
  for (int m = 0; m < 32; m++)
    for (int n = 0; n < 32; n++)
      if (out[n * 32 + m] != in[m * 32 + n])
        fail_msg("transpose: Out[%d][%d] = %u, expected In[%d][%d] = %u", n, m, out[n * 32 + m], m, n,
                 in[m * 32 + n]);
  /* one ldmatrix.x4 and one stmatrix.x4 per block, rows padded to 48
   * bytes: 4 wavefronts each, no conflicts */
  assert_int_equal(run.mm.metric[WM_M_LDSM_INST], 4);
  assert_int_equal(run.mm.metric[WM_M_LDSM_WF], 16);
  assert_int_equal(run.mm.metric[WM_M_STSM_INST], 4);
  assert_int_equal(run.mm.metric[WM_M_STSM_WF], 16);
  assert_int_equal(run.mm.metric[WM_M_STSM_BC], 0);
  sim_run_free(&run);
}

static void test_mma_tf32(void **state) {
  (void)state;
  SimRun run = {0};
  tu_launch(&run, mma_module(), "mma_tf32", "4,2", "32", 0, "buf:f32:1024:rand", "buf:f32:1024:rand",
            "buf:f32:1024:zero", "i32:32", "i32:32", "i32:32", NULL);
  double *a = inputs(&run, 0, 1024, R_TF32), *b = inputs(&run, 1, 1024, R_TF32);
  expect_gemm("mma tf32", ARG(&run, 2, float, 1024), NULL, 32, 32, 32, a, row_major, b, row_major, U32);
  free(a), free(b);
  sim_run_free(&run);
}

static void test_mma_s8(void **state) {
  (void)state;
  SimRun run = {0};
  tu_launch(&run, mma_module(), "mma_s8", "4,2", "32", 0, "buf:i8:2048:rand", "buf:i8:2048:rand",
            "buf:i32:1024:zero", "i32:32", "i32:32", "i32:64", NULL);
  const int8_t *a = ARG(&run, 0, int8_t, 2048), *b = ARG(&run, 1, int8_t, 2048);
  const int32_t *c = ARG(&run, 2, int32_t, 1024);
  for (int m = 0; m < 32; m++)
    for (int n = 0; n < 32; n++) {
      int32_t want = 0;
      for (int k = 0; k < 64; k++) want += a[m * 64 + k] * b[n * 64 + k];
      if (c[m * 32 + n] != want) fail_msg("mma s8: C[%d][%d] = %d, expected %d", m, n, c[m * 32 + n], want);
    }
  sim_run_free(&run);
}

/* --- the bank rule itself (mem_smem_matrix_cost) ------------------------- */

static void test_matrix_banks(void **state) {
  (void)state;
  uint64_t addr[32];
  unsigned ideal;
  /* x1, rows 16 bytes apart: the 8 bank groups once each */
  for (int l = 0; l < 32; l++) addr[l] = 16u * (unsigned)l;
  assert_int_equal(mem_smem_matrix_cost(addr, 0xffu, &ideal), 1);
  assert_int_equal(ideal, 1);
  /* x4, rows 32 bytes apart: groups 0, 2, 4, 6 twice each: 2-way */
  for (int l = 0; l < 32; l++) addr[l] = 32u * (unsigned)l;
  assert_int_equal(mem_smem_matrix_cost(addr, 0xffffffffu, &ideal), 8);
  assert_int_equal(ideal, 4);
  /* x2, rows 256 bytes apart: one group, 8-way per matrix */
  for (int l = 0; l < 32; l++) addr[l] = 256u * (unsigned)l;
  assert_int_equal(mem_smem_matrix_cost(addr, 0xffffu, &ideal), 16);
  assert_int_equal(ideal, 2);
  /* every row the same address: read once per matrix */
  for (int l = 0; l < 32; l++) addr[l] = 4096;
  assert_int_equal(mem_smem_matrix_cost(addr, 0xffffffffu, &ideal), 4);
}

/* --- located errors for forms warpmem does not run ------------------------ */

static PtxModule *parse(const char *body, WmErr *e) {
  char text[2048];
  snprintf(text, sizeof text,
           ".version 8.0\n.target sm_90\n.address_size 64\n"
           ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %%r<20>;\n.reg .f32 %%f<20>;\n%s\nret;\n}\n",
           body);
  return ptx_parse("t.ptx", strdup(text), e);
}

static void test_refusals(void **state) {
  (void)state;
  WmErr e = {0};
  /* a form the PTX ISA has but warpmem does not run: the kernel is refused
   * with its line and a caret, the module still loads */
  PtxModule *m = parse("mma.sync.aligned.m16n8k16.row.row.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, "
                       "{%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f1,%f2,%f3,%f4};", &e);
  assert_non_null(m);
  assert_non_null(m->kernels[0].unsupported);
  assert_non_null(strstr(m->kernels[0].unsupported, "t.ptx:8:1"));
  assert_non_null(strstr(m->kernels[0].unsupported, ".row.col"));
  assert_non_null(strstr(m->kernels[0].unsupported, "^"));
  ptx_module_free(m);
  /* a fragment of the wrong size is malformed PTX */
  m = parse("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r5,%r6}, "
            "{%f1,%f2,%f3,%f4};", &e);
  assert_null(m);
  assert_non_null(strstr(e.msg, "fragment a of this mma has 4 registers, found 2"));
  /* ldmatrix outside shared memory */
  memset(&e, 0, sizeof e);
  m = parse("ldmatrix.sync.aligned.m8n8.x1.global.b16 {%r1}, [%r2];", &e);
  assert_non_null(m);
  assert_non_null(strstr(m->kernels[0].unsupported, "shared memory"));
  ptx_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_wmma_global_f16),   cmocka_unit_test(test_wmma_shared_f16),
    cmocka_unit_test(test_wmma_shared_bf16),  cmocka_unit_test(test_wmma_tf32),
    cmocka_unit_test(test_wmma_s8),           cmocka_unit_test(test_wmma_f64),
    cmocka_unit_test(test_mma_ldmatrix_plain), cmocka_unit_test(test_mma_ldmatrix_swizzled),
    cmocka_unit_test(test_mma_ldmatrix_trans), cmocka_unit_test(test_stmatrix_transpose),
    cmocka_unit_test(test_mma_tf32),          cmocka_unit_test(test_mma_s8),
    cmocka_unit_test(test_matrix_banks),      cmocka_unit_test(test_refusals),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  if (wmma_mod) ptx_module_free(wmma_mod);
  if (mma_mod) ptx_module_free(mma_mod);
  return rc;
}
