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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* m32n8k16 (A row-major) and m8n32k16 (A column-major: element (m, k) at
 * A[k * M + m], so the A fragment's halves are not adjacent in memory);
 * 32 x 32 x 32, halves from u16 bit patterns.  The requests as the H100
 * counted them (docs/results/h100-2026-11-23-corpus): m8n32k16's warps load,
 * per k step of 2, A's 2 distinct registers as 2 requests (the adjacent
 * halves of the transposed tile, MOVM'd) and B's 8: 4 warps x 2 x 10 = 80;
 * its f32 C is stored a 128-byte row a register: 4 warps x 8 requests of
 * 4 sectors = 128 sectors.  m32n8k16: 80 load requests, 128 store
 * sectors too. */
static void test_wmma_other_shapes(void **state) {
  (void)state;
  static const char *const kernels[2] = {"wmma_m32n8k16", "wmma_m8n32k16_acol"};
  static const char *const grids[2] = {"1,1", "1,4"}, *const blocks[2] = {"128", "32"};
  for (int i = 0; i < 2; i++) {
    SimRun run = {0};
    tu_launch(&run, wmma_module(), kernels[i], grids[i], blocks[i], 0, "buf:u16:1024:rand", "buf:u16:1024:rand",
              "buf:f32:1024:zero", "i32:32", "i32:32", "i32:32", NULL);
    double *a = half_inputs(&run, 0, 1024), *b = half_inputs(&run, 1, 1024);
    expect_gemm(kernels[i], ARG(&run, 2, float, 1024), NULL, 32, 32, 32, a, i ? col_major : row_major, b,
                col_major, U32); /* M = K: col_major's leading dimension K is M */
    assert_int_equal(run.mm.metric[WM_M_GLD_REQ], 80);
    assert_int_equal(run.mm.metric[WM_M_GST_SEC], 128);
    free(a), free(b);
    sim_run_free(&run);
  }
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
  /* as the H100 counted them: 16 warps x (4 k steps x (2 A + 2 B) + C's 8
   * s32 registers in 4 eight-byte requests) = 320 load requests, of 8
   * sectors each (a fragment register's 8 rows of 32 bytes apart) */
  assert_int_equal(run.mm.metric[WM_M_GLD_REQ], 320);
  assert_int_equal(run.mm.metric[WM_M_GLD_SEC], 2560);
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
  /* but its wavefronts and conflicts are in op_ld too, as an H100 counts
   * them (docs/results/h100-2026-11-23-corpus: 2048 and 1792 here) */
  assert_int_equal(run.mm.metric[WM_M_SLD_WF], GEMM_MATRICES * 8);
  assert_int_equal(run.mm.metric[WM_M_SLD_BC], GEMM_MATRICES * 7);
  /* the tensor ops: a 32 x 32 x 128 GEMM is 131072 multiply-adds, all f16
   * with f32 D, whatever the tiles */
  assert_int_equal(run.mm.metric[WM_M_OPS_HMMA_F16_F32], 2 * 32 * 32 * 128); /* 2 ops a multiply-add */
  assert_int_equal(run.mm.metric[WM_M_OPS_HGMMA_F16], 0);
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

static void test_matrix_moves(void **state) {
  (void)state;
  SimRun run = {0};
  tu_launch(&run, mma_module(), "matrix_moves", "1", "32", 0, "buf:u16:128:rand", "buf:u16:128:zero",
            "buf:u16:64:zero", NULL);
  const uint16_t *in = ARG(&run, 0, uint16_t, 128), *copy = ARG(&run, 1, uint16_t, 128);
  const uint16_t *trans = ARG(&run, 2, uint16_t, 64);
  assert_memory_equal(copy, in, 128 * sizeof *in);
  for (int r = 0; r < 8; r++)
    for (int c = 0; c < 8; c++)
      if (trans[c * 8 + r] != in[r * 8 + c])
        fail_msg("x1.trans: Out2[%d][%d] = %u, expected In[%d][%d] = %u", c, r, trans[c * 8 + r], r, c, in[r * 8 + c]);
  /* x2 + x1 = 3 matrices each way; rows 16 bytes apart cover the 8 bank
   * groups once: 3 wavefronts, no conflicts */
  assert_int_equal(run.mm.metric[WM_M_LDSM_INST], 2);
  assert_int_equal(run.mm.metric[WM_M_LDSM_WF], 3);
  assert_int_equal(run.mm.metric[WM_M_STSM_INST], 2);
  assert_int_equal(run.mm.metric[WM_M_STSM_WF], 3);
  assert_int_equal(run.mm.metric[WM_M_LDSM_BC] + run.mm.metric[WM_M_STSM_BC], 0);
  sim_run_free(&run);
}

static void test_mma_tf32(void **state) {
  (void)state;
  SimRun run = {0};
  tu_launch(&run, mma_module(), "mma_tf32", "4,2", "32", 0, "buf:f32:1024:rand", "buf:f32:1024:rand",
            "buf:f32:1024:zero", "i32:32", "i32:32", "i32:32", NULL);
  double *a = inputs(&run, 0, 1024, R_TF32), *b = inputs(&run, 1, 1024, R_TF32);
  expect_gemm("mma tf32", ARG(&run, 2, float, 1024), NULL, 32, 32, 32, a, row_major, b, row_major, U32);
  assert_int_equal(run.mm.metric[WM_M_OPS_HMMA_TF32], 2 * 32 * 32 * 32); /* 2 ops a multiply-add */
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
  assert_int_equal(run.mm.metric[WM_M_OPS_IMMA_INT8], 2 * 32 * 32 * 64); /* 2 ops a multiply-add */
  sim_run_free(&run);
}

/* --- each mma.sync shape against the PTX ISA's fragment figures ---------- */

/* Where element i of lane l's fragment lies, (row, col), transcribed from
 * the PTX ISA's figures for mma.sync (g = groupID = l / 4, t =
 * threadID_in_group = l % 4); element i is the i-th value of the
 * fragment's registers, low half first. */
typedef void (*Pos)(int l, int i, int *r, int *c);
#define G (l / 4)
#define T (l % 4)
/* C and D of the m16n8 shapes: c0, c1 row g; c2, c3 row g + 8; col 2t + (i & 1) */
static void c_16x8(int l, int i, int *r, int *c) { *r = G + 8 * (i >= 2), *c = 2 * T + (i & 1); }
/* m16n8k16 .f16/.bf16 A: a0 a1 a4 a5 row g, a2 a3 a6 a7 row g + 8; col 2t + (i & 1), + 8 for a4..a7 */
static void a_16816(int l, int i, int *r, int *c) { *r = G + 8 * (i / 2 % 2), *c = 2 * T + (i & 1) + 8 * (i >= 4); }
/* m16n8k16 B: b0 b1 rows 2t + (i & 1), b2 b3 those + 8; col g */
static void b_16816(int l, int i, int *r, int *c) { *r = 2 * T + (i & 1) + 8 * (i >= 2), *c = G; }
/* m16n8k8 .f16 A: a0 a1 row g, a2 a3 row g + 8; col 2t + (i & 1); B: row 2t + i, col g */
static void a_1688(int l, int i, int *r, int *c) { c_16x8(l, i, r, c); }
static void b_1688(int l, int i, int *r, int *c) { *r = 2 * T + i, *c = G; }
/* m16n8k4 .tf32 A: a0 row g, a1 row g + 8, col t; B: row t, col g */
static void a_1684(int l, int i, int *r, int *c) { *r = G + 8 * i, *c = T; }
static void b_1684(int l, int i, int *r, int *c) { (void)i, *r = T, *c = G; }
/* m8n8k4 .f64 A: row g, col t; B: row t, col g; C: row g, col 2t + i */
static void a_884(int l, int i, int *r, int *c) { (void)i, *r = G, *c = T; }
static void b_884(int l, int i, int *r, int *c) { (void)i, *r = T, *c = G; }
static void c_884(int l, int i, int *r, int *c) { *r = G, *c = 2 * T + i; }
/* m16n8k16 .f64 (sm_90) A: row g + 8 (i % 2), col t + 4 (i / 2); B: row t + 4 i, col g */
static void a_16816_f64(int l, int i, int *r, int *c) { *r = G + 8 * (i % 2), *c = T + 4 * (i / 2); }
static void b_16816_f64(int l, int i, int *r, int *c) { *r = T + 4 * i, *c = G; }
/* m16n8k16 .u8/.s8 A: a0..a3 row g, a4..a7 row g + 8, col 4t + i % 4; B: row 4t + i, col g */
static void a_16816_i8(int l, int i, int *r, int *c) { *r = G + 8 * (i / 4), *c = 4 * T + i % 4; }
static void b_16816_i8(int l, int i, int *r, int *c) { *r = 4 * T + i, *c = G; }
/* m8n8k16 .s8/.u8 A: row g, col 4t + i; B: row 4t + i, col g; C as m8n8k4's */
static void a_8816(int l, int i, int *r, int *c) { *r = G, *c = 4 * T + i; }
static void b_8816(int l, int i, int *r, int *c) { *r = 4 * T + i, *c = G; }
#undef G
#undef T

/* A fragment given as values [element][lane], placed into rows x cols by
 * pos; every element of the matrix must be placed exactly once. */
static void place(const char *what, const double *e, int n, Pos pos, int rows, int cols, double *mat) {
  int seen[512] = {0};
  for (int i = 0; i < n; i++)
    for (int l = 0; l < 32; l++) {
      int r, c;
      pos(l, i, &r, &c);
      assert_true(r >= 0 && r < rows && c >= 0 && c < cols);
      mat[r * cols + c] = e[i * 32 + l];
      seen[r * cols + c]++;
    }
  for (int i = 0; i < rows * cols; i++)
    if (seen[i] != 1) fail_msg("%s: element (%d, %d) placed %d times", what, i / cols, i % cols, seen[i]);
}

typedef struct MmaCase {
  const char *kernel;
  int m, n, k, na, nb, nc;
  Pos pa, pb, pc;
  Rounding ra, rb, rc; /* how the kernel rounds A, B, C from the float inputs */
  double unit;         /* the accumulation's unit roundoff (0: exact) */
  double dround;       /* D's own rounding, relative (f16 D: 2^-11) */
  int s8[2];           /* A, B: bytes read as s8 (else u8) */
} MmaCase;

/* Runs one 1-warp kernel of mma_shapes.cu and checks D = A B + C. */
static void mma_case(const MmaCase *mc, const char *ta, const char *tb, const char *tc, const char *td) {
  static PtxModule *mod;
  if (!mod) mod = tu_load(tu_corpus("mma_shapes.ptx"));
  char sa[48], sb[48], sc[48], sd[48];
  snprintf(sa, sizeof sa, "buf:%s:%d:rand", ta, mc->na * 32);
  snprintf(sb, sizeof sb, "buf:%s:%d:rand", tb, mc->nb * 32);
  snprintf(sc, sizeof sc, "buf:%s:%d:rand", tc, mc->nc * 32);
  snprintf(sd, sizeof sd, "buf:%s:%d:zero", td, mc->nc * 32);
  SimRun run = {0};
  tu_launch(&run, mod, mc->kernel, "1", "32", 0, sa, sb, sc, sd, NULL);
  double e[4][256], A[512], B[512], C[512], D[512];
  const char *types[4] = {ta, tb, tc, td};
  int counts[4] = {mc->na, mc->nb, mc->nc, mc->nc};
  Rounding rnd[4] = {mc->ra, mc->rb, mc->rc, R_NONE};
  for (int o = 0; o < 4; o++)
    for (int i = 0; i < counts[o] * 32; i++) {
      const void *buf = tu_arg_buf(&run, o, 1, 1);
      if (!strcmp(types[o], "f32")) e[o][i] = rounded(((const float *)buf)[i], rnd[o]);
      else if (!strcmp(types[o], "f64")) e[o][i] = ((const double *)buf)[i];
      else if (!strcmp(types[o], "i32")) e[o][i] = ((const int32_t *)buf)[i];
      else e[o][i] = ((const uint8_t *)buf)[i]; /* u8 */
    }
  for (int o = 0; o < 2; o++) /* s8 operands: the same random bytes, signed */
    if (mc->s8[o])
      for (int i = 0; i < counts[o] * 32; i++) e[o][i] = (int8_t)(uint8_t)e[o][i];
  place(mc->kernel, e[0], mc->na, mc->pa, mc->m, mc->k, A);
  place(mc->kernel, e[1], mc->nb, mc->pb, mc->k, mc->n, B);
  place(mc->kernel, e[2], mc->nc, mc->pc, mc->m, mc->n, C);
  place(mc->kernel, e[3], mc->nc, mc->pc, mc->m, mc->n, D);
  for (int i = 0; i < mc->m; i++)
    for (int j = 0; j < mc->n; j++) {
      double sum = C[i * mc->n + j], mag = fabs(sum);
      for (int k = 0; k < mc->k; k++) {
        double p = A[i * mc->k + k] * B[k * mc->n + j];
        sum += p;
        mag += fabs(p);
      }
      double got = D[i * mc->n + j], bound = (mc->k + 2) * mc->unit * mag + mc->dround * fabs(sum);
      if (!(fabs(got - sum) <= bound))
        fail_msg("%s: D[%d][%d] = %.17g, expected %.17g within %.3g", mc->kernel, i, j, got, sum, bound);
    }
  sim_run_free(&run);
}

static void test_mma_shapes(void **state) {
  (void)state;
  /* f16 D: the f32 sum rounded once to f16, half an f16 ulp: 2^-11 relative */
  MmaCase f16acc = {"mma_f16_acc16", 16, 8, 16, 8, 4, 4, a_16816, b_16816, c_16x8,
                    R_F16, R_F16, R_F16, U32, 1.0 / 2048, {0, 0}};
  mma_case(&f16acc, "f32", "f32", "f32", "f32");
  MmaCase bf16 = {"mma_bf16", 16, 8, 16, 8, 4, 4, a_16816, b_16816, c_16x8, R_BF16, R_BF16, R_NONE, U32, 0, {0, 0}};
  mma_case(&bf16, "f32", "f32", "f32", "f32");
  MmaCase k8 = {"mma_f16_k8", 16, 8, 8, 4, 2, 4, a_1688, b_1688, c_16x8, R_F16, R_F16, R_NONE, U32, 0, {0, 0}};
  mma_case(&k8, "f32", "f32", "f32", "f32");
  MmaCase tf32 = {"mma_tf32_k4", 16, 8, 4, 2, 1, 4, a_1684, b_1684, c_16x8, R_TF32, R_TF32, R_NONE, U32, 0, {0, 0}};
  mma_case(&tf32, "f32", "f32", "f32", "f32");
  MmaCase f64 = {"mma_f64_k4", 8, 8, 4, 1, 1, 2, a_884, b_884, c_884, R_NONE, R_NONE, R_NONE, U64, 0, {0, 0}};
  mma_case(&f64, "f64", "f64", "f64", "f64");
  MmaCase f64k16 = {"mma_f64_k16", 16, 8, 16, 8, 4, 4, a_16816_f64, b_16816_f64, c_16x8,
                    R_NONE, R_NONE, R_NONE, U64, 0, {0, 0}};
  mma_case(&f64k16, "f64", "f64", "f64", "f64");
  MmaCase i8 = {"mma_u8s8", 16, 8, 16, 8, 4, 4, a_16816_i8, b_16816_i8, c_16x8, R_NONE, R_NONE, R_NONE, 0, 0, {0, 1}};
  mma_case(&i8, "u8", "u8", "i32", "i32");
  MmaCase k16 = {"mma_s8_m8n8k16", 8, 8, 16, 4, 4, 2, a_8816, b_8816, c_884, R_NONE, R_NONE, R_NONE, 0, 0, {1, 1}};
  mma_case(&k16, "u8", "u8", "i32", "i32");
}

/* .satfinite: every A and B byte 127, C = INT32_MAX - 10, so D = C + 16 *
 * 127 * 127 overflows: clamped to INT32_MAX with .satfinite, wrapped
 * (two's complement) without. */
static void test_mma_satfinite(void **state) {
  (void)state;
  for (int sat = 0; sat < 2; sat++) {
    char text[1024];
    snprintf(text, sizeof text,
             ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
             ".reg .b32 %%r<9>;\n.reg .b64 %%rd<4>;\n"
             "mov.b32 %%r1, 0x7f7f7f7f;\nmov.b32 %%r2, 2147483637;\n"
             "mma.sync.aligned.m8n8k16.row.col%s.s32.s8.s8.s32 {%%r3, %%r4}, {%%r1}, {%%r1}, {%%r2, %%r2};\n"
             "ld.param.u64 %%rd1, [p];\nmov.u32 %%r5, %%tid.x;\nmul.wide.u32 %%rd2, %%r5, 4;\n"
             "add.u64 %%rd3, %%rd1, %%rd2;\nst.global.u32 [%%rd3], %%r3;\nret;\n}\n",
             sat ? ".satfinite" : "");
    char *path = tu_temp_file(".ptx", text);
    PtxModule *m = tu_load(path);
    SimRun run = {0};
    tu_launch(&run, m, "k", "1", "32", 0, "buf:i32:32:zero", NULL);
    const int32_t *d = ARG(&run, 0, int32_t, 32);
    int32_t want = sat ? INT32_MAX : (int32_t)(uint32_t)(2147483637u + 16u * 127u * 127u);
    for (int l = 0; l < 32; l++)
      if (d[l] != want) fail_msg("satfinite=%d: lane %d got %d, expected %d", sat, l, d[l], want);
    sim_run_free(&run);
    ptx_module_free(m);
    unlink(path);
    free(path);
  }
}

/* movmatrix.trans: lane 4r + c/2 holds element (r, c) of the 8x8 matrix
 * (half c % 2 of its register); afterwards it holds element (c, r). */
static void test_movmatrix(void **state) {
  (void)state;
  PtxModule *mod = tu_load(tu_corpus("mma_shapes.ptx"));
  SimRun run = {0};
  tu_launch(&run, mod, "movmatrix_trans", "1", "32", 0, "buf:u32:32:rand", "buf:u32:32:zero", NULL);
  const uint32_t *in = ARG(&run, 0, uint32_t, 32), *out = ARG(&run, 1, uint32_t, 32);
  for (int r = 0; r < 8; r++)
    for (int c = 0; c < 8; c++) {
      uint32_t want = in[4 * r + c / 2] >> (16 * (c % 2)) & 0xffff;
      uint32_t got = out[4 * c + r / 2] >> (16 * (r % 2)) & 0xffff;
      if (got != want) fail_msg("movmatrix: (%d, %d) = 0x%x, expected 0x%x", c, r, got, want);
    }
  sim_run_free(&run);
  ptx_module_free(mod);
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
  /* a fragment of the wrong size is malformed PTX: its kernel is refused */
  m = parse("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r5,%r6}, "
            "{%f1,%f2,%f3,%f4};", &e);
  assert_non_null(m);
  assert_int_equal(m->kernels[0].refused_code, WM_EPARSE);
  assert_non_null(strstr(m->kernels[0].unsupported, "fragment a of this mma has 4 registers, found 2"));
  ptx_module_free(m);
  /* ldmatrix outside shared memory */
  memset(&e, 0, sizeof e);
  m = parse("ldmatrix.sync.aligned.m8n8.x1.global.b16 {%r1}, [%r2];", &e);
  assert_non_null(m);
  assert_non_null(strstr(m->kernels[0].unsupported, "shared memory"));
  ptx_module_free(m);
}

/* A tensor-core instruction in a divergent branch, and ldmatrix rows
 * outside shared memory: located faults, not crashes. */
static void test_faults(void **state) {
  (void)state;
  static const char *const bodies[2] = {
    "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 16;\nmov.u32 %r2, 0;\n"
    "@%p1 ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r3}, [%r2];",
    "ld.param.u64 %rd1, [p];\nldmatrix.sync.aligned.m8n8.x1.b16 {%r3}, [%rd1];"};
  static const char *const want[2] = {"needs all 32 lanes", "not in shared memory"};
  for (int i = 0; i < 2; i++) {
    char text[1024];
    snprintf(text, sizeof text,
             ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
             ".reg .b32 %%r<9>;\n.reg .b64 %%rd<3>;\n.reg .pred %%p<3>;\n.shared .align 16 .b8 s[256];\n%s\nret;\n}\n",
             bodies[i]);
    char *path = tu_temp_file(".ptx", text);
    PtxModule *m = tu_load(path);
    char out[64];
    snprintf(out, sizeof out, "--kernel k --grid 1 --block 32 --arg buf:u32:64");
    char args[600], *err = NULL;
    snprintf(args, sizeof args, "sim %s %s", path, out);
    int rc = tu_run_cli(args, NULL, &err);
    assert_int_not_equal(rc, 0);
    assert_non_null(err);
    if (!strstr(err, want[i]) || !strstr(err, ".ptx:"))
      fail_msg("case %d: expected a located '%s', got: %s", i, want[i], err);
    free(err);
    ptx_module_free(m);
    unlink(path);
    free(path);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_wmma_global_f16),   cmocka_unit_test(test_wmma_shared_f16),
    cmocka_unit_test(test_wmma_shared_bf16),  cmocka_unit_test(test_wmma_tf32),
    cmocka_unit_test(test_wmma_s8),           cmocka_unit_test(test_wmma_f64),
    cmocka_unit_test(test_wmma_other_shapes),
    cmocka_unit_test(test_mma_ldmatrix_plain), cmocka_unit_test(test_mma_ldmatrix_swizzled),
    cmocka_unit_test(test_mma_ldmatrix_trans), cmocka_unit_test(test_stmatrix_transpose),
    cmocka_unit_test(test_matrix_moves),      cmocka_unit_test(test_mma_tf32),          cmocka_unit_test(test_mma_s8),
    cmocka_unit_test(test_mma_shapes),        cmocka_unit_test(test_movmatrix),
    cmocka_unit_test(test_mma_satfinite),
    cmocka_unit_test(test_matrix_banks),      cmocka_unit_test(test_refusals),
    cmocka_unit_test(test_faults),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  if (wmma_mod) ptx_module_free(wmma_mod);
  if (mma_mod) ptx_module_free(mma_mod);
  return rc;
}
