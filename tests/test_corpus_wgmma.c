/* test_corpus_wgmma.c - tests/corpus/wgmma_gemm.cu: Hopper's warpgroup MMA
 * (wgmma.mma_async, sm_90a).  Each GEMM's output against a CPU reference
 * of the same inputs, rounded as the kernel rounds them; the GMMA counters
 * against first principles; the accumulator fragment against the PTX
 * ISA's figure; the located errors (a partial warpgroup, a descriptor past
 * shared memory, descriptors that differ, a warp that leaves, malformed
 * operand lists).
 *
 * Precision.  Two checks per float GEMM:
 *  - bit for bit against warpmem's chosen model, written here from its
 *    description (docs/tensor-cores.md, "wgmma"): f16, bf16 and tf32 add
 *    their exact products to D in k order, each sum rounded to nearest
 *    f32, an f16 D rounded to nearest after each instruction; fp8 sums each
 *    instruction's 32 products with D after aligning them to the largest
 *    exponent and truncating each to 14 bits below it;
 *  - against the exact (double) GEMM within the bound that model allows,
 *    so the model itself is a GEMM: K * 2^-24 * sum |a b| for f32 adds
 *    (the classic gamma_K bound, as test_corpus_tensor.c), plus 2^-11 of
 *    the partial sums' magnitude per instruction for an f16 D, plus
 *    33 * 2^-13 * sum |a b| per instruction for the truncating fp8 adder
 *    (each of its 33 addends loses less than 2^-13 of the largest).
 * Integers are exact.
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

static PtxModule *mod;

static const PtxModule *corpus(void) {
  if (!mod) mod = tu_load(tu_corpus("wgmma_gemm.ptx"));
  return mod;
}

#define ARG(run, argno, T, count) ((T *)tu_arg_buf(run, argno, sizeof(T), count))
#define M(run, id) ((run)->mm.metric[WM_M_##id])
#define U32 (1.0 / 16777216.0) /* 2^-24 */

/* How a kernel turns its float input v into an element (wgmma_gemm.cu's
 * element types): v - 0.5 rounded to nearest (tf32: truncated by the
 * tensor core), fp8 4v - 2 rounded to nearest. */
typedef enum { E_BF16, E_F16, E_TF32, E_E4M3, E_E5M2 } Elem;

static double element(float v, Elem e) {
  float x = v - 0.5f;
  uint32_t u;
  switch (e) {
  case E_BF16: return wm_bf16_value(wm_bf16_from(x, WM_RND_NEAREST));
  case E_F16: return wm_f16_value(wm_f16_from(x, WM_RND_NEAREST));
  case E_TF32:
    memcpy(&u, &x, 4);
    u &= 0xffffe000u;
    memcpy(&x, &u, 4);
    return x;
  case E_E4M3: return wm_from_narrow(wm_fmt_e4m3, wm_to_narrow(wm_fmt_e4m3, 4.0f * v - 2.0f, WM_RND_NEAREST));
  default: return wm_from_narrow(wm_fmt_e5m2, wm_to_narrow(wm_fmt_e5m2, 4.0f * v - 2.0f, WM_RND_NEAREST));
  }
}

/* A GEMM's operands, as doubles: a[m][k] and b[k][n]. */
typedef struct Gemm {
  int M, N, K;
  double *a, *b;
} Gemm;

/* In the kernels' layouts: A row-major (or At, K x M, when a_mn), B as
 * Bt[N x K] (or B[K x N] when b_mn). */
static void gemm_inputs(Gemm *g, const float *A, const float *B, int M, int N, int K, Elem ea, Elem eb, int a_mn,
                        int b_mn) {
  g->M = M, g->N = N, g->K = K;
  g->a = malloc(sizeof(double) * (size_t)M * K);
  g->b = malloc(sizeof(double) * (size_t)K * N);
  for (int m = 0; m < M; m++)
    for (int k = 0; k < K; k++) g->a[m * K + k] = element(a_mn ? A[k * M + m] : A[m * K + k], ea);
  for (int k = 0; k < K; k++)
    for (int n = 0; n < N; n++) g->b[k * N + n] = element(b_mn ? B[k * N + n] : B[n * K + k], eb);
}

static void gemm_free(Gemm *g) {
  free(g->a);
  free(g->b);
}

/* The fp8 adder of the model: acc and the products p[0..n) aligned to the
 * largest exponent among them, each truncated toward zero to `bits` bits
 * below its leading bit, summed, rounded to f32. */
static float truncating_sum(float acc, const double *p, int n, int bits) {
  int emax = INT32_MIN;
  if (acc != 0) emax = ilogb(acc);
  for (int i = 0; i < n; i++)
    if (p[i] != 0 && ilogb(p[i]) > emax) emax = ilogb(p[i]);
  if (emax == INT32_MIN) return acc;
  double q = ldexp(1.0, emax + 1 - bits), s = trunc(acc / q) * q;
  for (int i = 0; i < n; i++) s += trunc(p[i] / q) * q;
  return (float)s;
}

/* The model's D[m][n]: `step` k elements an instruction, f16 D rounded
 * after each when f16d, the truncating adder (bits) when fp8. */
static float model_dot(const Gemm *g, int m, int n, int step, int f16d, int bits) {
  float acc = 0;
  for (int k0 = 0; k0 < g->K; k0 += step) {
    if (bits) {
      double p[32];
      for (int i = 0; i < step; i++) p[i] = g->a[m * g->K + k0 + i] * g->b[(k0 + i) * g->N + n];
      acc = truncating_sum(acc, p, step, bits);
    } else {
      for (int i = 0; i < step; i++) acc += (float)(g->a[m * g->K + k0 + i] * g->b[(k0 + i) * g->N + n]);
    }
    if (f16d) acc = wm_f16_value(wm_f16_from(acc, WM_RND_NEAREST));
  }
  return acc;
}

/* got[M x N] (f32, or f16 bits when got16) against the model bit for bit
 * and against the exact GEMM within the model's bound (the header). */
static void expect_gemm(const char *what, const Gemm *g, const float *got32, const uint16_t *got16, int step,
                        int bits) {
  int f16d = got16 != NULL;
  for (int m = 0; m < g->M; m++)
    for (int n = 0; n < g->N; n++) {
      double exact = 0, mag = 0;
      for (int k = 0; k < g->K; k++) {
        double p = g->a[m * g->K + k] * g->b[k * g->N + n];
        exact += p;
        mag += fabs(p);
      }
      float want = model_dot(g, m, n, step, f16d, bits);
      float got = f16d ? wm_f16_value(got16[m * g->N + n]) : got32[m * g->N + n];
      if (memcmp(&got, &want, 4) != 0 && !(got == 0 && want == 0))
        fail_msg("%s: C[%d][%d] = %.9g, the model gives %.9g", what, m, n, got, want);
      double steps = (double)g->K / step;
      double bound = (g->K + 1) * U32 * mag + (f16d ? steps * ldexp(mag, -11) : 0) +
                     (bits ? steps * 33 * ldexp(mag, 1 - bits) : 0) + 1e-30;
      if (!(fabs(got - exact) <= bound))
        fail_msg("%s: C[%d][%d] = %.9g, the GEMM is %.9g (bound %.3g)", what, m, n, got, exact, bound);
    }
}

/* One float GEMM kernel: launch, check, free. */
typedef struct FloatCase {
  const char *kernel, *grid;
  int M, N, K;
  Elem ea, eb;
  int a_mn, b_mn, step, f16d, bits;
  double sign; /* -1: A negated */
} FloatCase;

static void run_float(const FloatCase *c, SimRun *run) {
  char a[64], b[64], out[64], m[16], n[16], k[16];
  snprintf(a, sizeof a, "buf:f32:%d:rand", c->M * c->K);
  snprintf(b, sizeof b, "buf:f32:%d:rand", c->K * c->N);
  snprintf(out, sizeof out, "buf:%s:%d:zero", c->f16d ? "u16" : "f32", c->M * c->N);
  snprintf(m, sizeof m, "i32:%d", c->M);
  snprintf(n, sizeof n, "i32:%d", c->N);
  snprintf(k, sizeof k, "i32:%d", c->K);
  memset(run, 0, sizeof *run);
  tu_launch(run, corpus(), c->kernel, c->grid, "128", 0, a, b, out, m, n, k, (const char *)NULL);
  Gemm g;
  gemm_inputs(&g, ARG(run, 0, float, (size_t)c->M * c->K), ARG(run, 1, float, (size_t)c->K * c->N), c->M, c->N,
              c->K, c->ea, c->eb, c->a_mn, c->b_mn);
  for (int i = 0; i < c->M * c->K; i++) g.a[i] *= c->sign; /* imm-scale-a: exactly -A */
  if (c->f16d) expect_gemm(c->kernel, &g, NULL, ARG(run, 2, uint16_t, (size_t)c->M * c->N), c->step, c->bits);
  else expect_gemm(c->kernel, &g, ARG(run, 2, float, (size_t)c->M * c->N), NULL, c->step, c->bits);
  gemm_free(&g);
}

/* The counters of a launch of `instrs` warpgroup instructions of
 * 64 x n x k, each reading `mats` core matrices: 4 warp instructions, 128
 * bytes and one wavefront a matrix, no conflicts (mem/gmma.c's rule: every
 * canonical layout puts a matrix's 8 rows in 8 bank groups). */
static void expect_gmma(const SimRun *run, uint64_t instrs, int n, int k, int mats, int ops_metric) {
  assert_int_equal(run->mm.metric[WM_M_GMMA_INST], 4 * instrs);
  assert_int_equal(run->mm.metric[WM_M_GMMA_WF], instrs * mats);
  assert_int_equal(run->mm.metric[WM_M_GMMA_BYTES], 128 * instrs * mats);
  assert_int_equal(run->mm.metric[WM_M_GMMA_BC], 0);
  assert_int_equal(run->mm.metric[ops_metric], 2 * instrs * 64 * n * k); /* 2 ops a multiply-add */
}

/* The --lines statistics of the launch's wgmma.mma_async lines (ptxas'
 * unrolled k loop has several) added up, the first one's explanation. */
static const LineStat *gmma_line(const SimRun *run) {
  static LineStat sum;
  memset(&sum, 0, sizeof sum);
  for (int i = 0; i < run->mm.nline; i++) {
    const LineStat *ls = &run->mm.line[i];
    if (run->kernel->code[i].op != PTX_OP_WGMMA_MMA || !ls->execs) continue;
    if (!sum.execs) memcpy(sum.why, ls->why, sizeof sum.why), sum.unit_kind = ls->unit_kind;
    sum.execs += ls->execs, sum.requests += ls->requests, sum.units += ls->units, sum.ideal += ls->ideal;
  }
  if (!sum.execs) fail_msg("no wgmma.mma_async line ran");
  return &sum;
}

/* --- 16-bit inputs from shared memory ------------------------------------ */

/* fast.cu's kernel: 128 x 128 x 128 on 4 blocks, k tiles of 64 (4 k16
 * steps): 4 x 2 x 4 = 32 warpgroup instructions, each reading A's 64 rows
 * and B's 64 as 2 chunks of 16 bytes: 16 + 16 core matrices. */
static void test_bf16_sw128(void **state) {
  (void)state;
  FloatCase c = {"wg_bf16_sw128", "2,2", 128, 128, 128, E_BF16, E_BF16, 0, 0, 16, 0, 0, 1};
  SimRun run;
  run_float(&c, &run);
  expect_gmma(&run, 32, 64, 16, 32, WM_M_OPS_HGMMA_BF16);
  /* --lines: 4 executions a warpgroup instruction, a request for each
   * operand, 16 wavefronts each, all of them the ideal */
  const LineStat *ls = gmma_line(&run);
  assert_int_equal(ls->execs, 4 * 32);
  assert_int_equal(ls->requests, 2 * 32);
  assert_int_equal(ls->units, 32 * 32);
  assert_int_equal(ls->ideal, 32 * 32);
  assert_int_equal(ls->unit_kind, MEM_UNIT_WAVEFRONTS);
  assert_string_equal(ls->why, "B: 128B-swizzled K-major 64x16 16-bit tile, 16 core matrices, conflict-free; "
                               "A: 128B-swizzled K-major 64x16 16-bit tile, 16 core matrices, conflict-free");
  sim_run_free(&run);
}

static void test_bf16_sw64_nmajor(void **state) {
  (void)state;
  FloatCase c = {"wg_bf16_sw64_nmajor", "2,1", 64, 128, 128, E_BF16, E_BF16, 0, 1, 16, 0, 0, 1};
  SimRun run;
  run_float(&c, &run);
  /* 2 blocks x 4 k tiles x 2 steps; B N-major: 8 chunks of 8 columns x 2
   * groups of 8 K rows, 16 matrices, as A's */
  expect_gmma(&run, 16, 64, 16, 32, WM_M_OPS_HGMMA_BF16);
  sim_run_free(&run);
}

static void test_bf16_n128(void **state) {
  (void)state;
  FloatCase c = {"wg_bf16_n128", "2,1", 64, 256, 128, E_BF16, E_BF16, 0, 0, 16, 0, 0, 1};
  SimRun run;
  run_float(&c, &run);
  /* 2 blocks x 2 k tiles x 4 steps of m64n128k16: A 16 matrices, B 32 */
  expect_gmma(&run, 16, 128, 16, 48, WM_M_OPS_HGMMA_BF16);
  sim_run_free(&run);
}

static void test_f16_layouts(void **state) {
  (void)state;
  static const FloatCase cases[] = {
    {"wg_f16_sw32", "1,1", 64, 64, 64, E_F16, E_F16, 0, 0, 16, 0, 0, 1},
    {"wg_f16_interleave", "1,1", 64, 64, 128, E_F16, E_F16, 0, 0, 16, 0, 0, 1},
    {"wg_f16_mn", "1,1", 64, 64, 128, E_F16, E_F16, 1, 1, 16, 0, 0, 1},
    {"wg_f16_neg", "1,1", 64, 64, 64, E_F16, E_F16, 0, 1, 16, 0, 0, -1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    SimRun run;
    run_float(&cases[i], &run);
    expect_gmma(&run, (uint64_t)cases[i].K / 16, 64, 16, 32, WM_M_OPS_HGMMA_F16);
    sim_run_free(&run);
  }
}

/* --- A from registers ----------------------------------------------------- */

static void test_registers_a(void **state) {
  (void)state;
  static const FloatCase cases[] = {
    {"wg_f16_rs_f16", "1,1", 64, 64, 64, E_F16, E_F16, 0, 0, 16, 1, 0, 1},
    {"wg_f16_rs", "1,1", 64, 64, 64, E_F16, E_F16, 0, 1, 16, 0, 0, 1},
    {"wg_tf32_rs", "1,1", 64, 64, 64, E_TF32, E_TF32, 0, 0, 8, 0, 0, 1},
    {"wg_e5m2_rs_f16", "1,1", 64, 64, 128, E_E5M2, E_E5M2, 0, 0, 32, 1, 14, 1},
  };
  static const int ops[] = {WM_M_OPS_HGMMA_F16, WM_M_OPS_HGMMA_F16, WM_M_OPS_HGMMA_TF32, WM_M_OPS_FP8};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    SimRun run;
    run_float(&cases[i], &run);
    /* only B is read from shared memory: 16 core matrices */
    expect_gmma(&run, (uint64_t)cases[i].K / cases[i].step, 64, cases[i].step, 16, ops[i]);
    if (i == 1)
      assert_string_equal(gmma_line(&run)->why,
                          "B: 32B-swizzled N-major 64x16 16-bit tile, 16 core matrices, conflict-free; A from registers");
    sim_run_free(&run);
  }
}

/* --- tf32 and fp8 --------------------------------------------------------- */

static void test_tf32_fp8(void **state) {
  (void)state;
  static const FloatCase cases[] = {
    {"wg_tf32_sw128", "1,1", 64, 64, 64, E_TF32, E_TF32, 0, 0, 8, 0, 0, 1},
    {"wg_e4m3", "1,1", 64, 64, 256, E_E4M3, E_E4M3, 0, 0, 32, 0, 14, 1},
    {"wg_e4m3_e5m2", "1,1", 64, 64, 128, E_E4M3, E_E5M2, 0, 0, 32, 0, 14, 1},
  };
  static const int ops[] = {WM_M_OPS_HGMMA_TF32, WM_M_OPS_FP8, WM_M_OPS_FP8};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    SimRun run;
    run_float(&cases[i], &run);
    expect_gmma(&run, (uint64_t)cases[i].K / cases[i].step, 64, cases[i].step, 32, ops[i]);
    sim_run_free(&run);
  }
}

/* --- integers ------------------------------------------------------------- */

static void test_s8(void **state) {
  (void)state;
  SimRun run = {0};
  tu_launch(&run, corpus(), "wg_s8", "1,1", "128", 0, "buf:u8:16384:rand", "buf:u8:16384:rand", "buf:i32:4096:zero",
            "i32:64", "i32:64", "i32:256", (const char *)NULL);
  const int8_t *a = ARG(&run, 0, int8_t, 16384), *bt = ARG(&run, 1, int8_t, 16384);
  const int32_t *c = ARG(&run, 2, int32_t, 4096);
  for (int m = 0; m < 64; m++)
    for (int n = 0; n < 64; n++) {
      int32_t want = 0;
      for (int k = 0; k < 256; k++) want += a[m * 256 + k] * bt[n * 256 + k];
      if (c[m * 64 + n] != want) fail_msg("wg_s8: C[%d][%d] = %d, expected %d", m, n, c[m * 64 + n], want);
    }
  expect_gmma(&run, 8, 64, 32, 32, WM_M_OPS_IGMMA_INT8);
  sim_run_free(&run);
}

/* u8 x s8 onto C0 = 2147400000 with .satfinite: each instruction's sum is
 * clamped to the s32 range, so a row of positive products saturates at
 * INT32_MAX and a later negative one comes down from there. */
static void test_u8s8_satfinite(void **state) {
  (void)state;
  SimRun run = {0};
  tu_launch(&run, corpus(), "wg_u8s8_sat", "1,1", "128", 0, "buf:u8:4096:rand", "buf:u8:4096:rand",
            "buf:i32:4096:zero", "i32:64", "i32:64", "i32:64", "buf:i32:4096:2147400000", (const char *)NULL);
  const uint8_t *a = ARG(&run, 0, uint8_t, 4096);
  const int8_t *bt = ARG(&run, 1, int8_t, 4096);
  const int32_t *c = ARG(&run, 2, int32_t, 4096);
  int clamped = 0;
  for (int m = 0; m < 64; m++)
    for (int n = 0; n < 64; n++) {
      int64_t acc = 2147400000;
      for (int k0 = 0; k0 < 64; k0 += 32) {
        for (int k = k0; k < k0 + 32; k++) acc += a[m * 64 + k] * bt[n * 64 + k];
        if (acc > INT32_MAX) acc = INT32_MAX, clamped++;
      }
      if (c[m * 64 + n] != (int32_t)acc) fail_msg("wg_u8s8_sat: C[%d][%d] = %d, expected %lld", m, n, c[m * 64 + n],
                                                   (long long)acc);
    }
  assert_true(clamped > 100); /* the case is tested: about half of the sums clamp */
  expect_gmma(&run, 2, 64, 32, 16, WM_M_OPS_IGMMA_INT8);
  sim_run_free(&run);
}

static int popc8(uint8_t v) {
  int n = 0;
  for (; v; v &= (uint8_t)(v - 1)) n++;
  return n;
}

static void test_b1(void **state) {
  (void)state;
  SimRun run = {0};
  tu_launch(&run, corpus(), "wg_b1", "1,1", "128", 0, "buf:u8:8192:rand", "buf:u8:8192:rand", "buf:i32:4096:zero",
            "i32:64", "i32:64", "i32:128", (const char *)NULL);
  const uint8_t *a = ARG(&run, 0, uint8_t, 8192), *bt = ARG(&run, 1, uint8_t, 8192);
  const int32_t *c = ARG(&run, 2, int32_t, 4096);
  for (int m = 0; m < 64; m++)
    for (int n = 0; n < 64; n++) {
      int want = 0;
      for (int k = 0; k < 128; k++) want += popc8(a[m * 128 + k] & bt[n * 128 + k]);
      if (c[m * 64 + n] != want) fail_msg("wg_b1: C[%d][%d] = %d, expected %d", m, n, c[m * 64 + n], want);
    }
  /* 1024 bits of K: 4 instructions of k256, 32 bytes a row */
  expect_gmma(&run, 4, 64, 256, 32, WM_M_OPS_BGMMA_B1);
  sim_run_free(&run);
}

/* --- the fragment --------------------------------------------------------- */

/* The PTX ISA's figure of the m64nNk16 accumulator ("WGMMA .m64nNk16
 * register fragment layout for accumulator matrix D"): warp w of the
 * warpgroup holds rows 16w..16w+15; in each 8-column block j its lane
 * T = 4 r + q holds d[4j], d[4j+1] at row r, columns 2q, 2q+1 and d[4j+2],
 * d[4j+3] at row r + 8. */
static void test_fragment(void **state) {
  (void)state;
  SimRun run = {0};
  tu_launch(&run, corpus(), "wg_frag", "1", "128", 0, "buf:f32:1024:rand", "buf:f32:1024:rand", "buf:f32:4096:zero",
            (const char *)NULL);
  Gemm g;
  gemm_inputs(&g, ARG(&run, 0, float, 1024), ARG(&run, 1, float, 1024), 64, 64, 16, E_BF16, E_BF16, 0, 0);
  const float *out = ARG(&run, 2, float, 4096);
  for (int thread = 0; thread < 128; thread++) {
    int w = thread / 32, lane = thread % 32, r = lane / 4, q = lane % 4;
    for (int j = 0; j < 8; j++)
      for (int v = 0; v < 4; v++) {
        int row = 16 * w + r + (v >= 2 ? 8 : 0), col = 8 * j + 2 * q + v % 2;
        float want = model_dot(&g, row, col, 16, 0, 0);
        float got = out[(4 * j + v) * 128 + thread];
        if (got != want)
          fail_msg("thread %d d[%d] = %g: the figure puts D[%d][%d] = %g there", thread, 4 * j + v, got, row, col, want);
      }
  }
  gemm_free(&g);
  sim_run_free(&run);
}

/* --- the benchmark's kernel (bench/wgmma_kernels.cu), small ---------------- */

/* 256 x 256 x 128 on 4 blocks of its 64 x 256 tiles (m64n256k16: 128
 * accumulators a thread, the bench's 2048^3 at a sixteenth of each side):
 * bf16 inputs as they come, bit for bit against the model. */
static void test_bench_kernel(void **state) {
  (void)state;
  char path[1024];
  snprintf(path, sizeof path, "%s/bench/ptx/wgmma_kernels.ptx", WM_SOURCE_DIR);
  PtxModule *bm = tu_load(path);
  SimRun run = {0};
  tu_launch(&run, bm, "wgmma_gemm_bf16", "1,4", "128", 0, "buf:bf16:32768:rand", "buf:bf16:32768:rand",
            "buf:f32:65536:zero", "i32:256", "i32:256", "i32:128", (const char *)NULL);
  const uint16_t *a = ARG(&run, 0, uint16_t, 32768), *bt = ARG(&run, 1, uint16_t, 32768);
  Gemm g = {256, 256, 128, malloc(sizeof(double) * 32768), malloc(sizeof(double) * 32768)};
  for (int m = 0; m < 256; m++)
    for (int k = 0; k < 128; k++) g.a[m * 128 + k] = wm_bf16_value(a[m * 128 + k]);
  for (int k = 0; k < 128; k++)
    for (int n = 0; n < 256; n++) g.b[k * 256 + n] = wm_bf16_value(bt[n * 128 + k]);
  expect_gemm("wgmma_gemm_bf16", &g, ARG(&run, 2, float, 65536), NULL, 16, 0);
  /* 4 blocks x 2 k tiles x 4 steps; A 16 core matrices, B 256 rows: 64 */
  expect_gmma(&run, 32, 256, 16, 80, WM_M_OPS_HGMMA_BF16);
  gemm_free(&g);
  sim_run_free(&run);
  ptx_module_free(bm);
}

/* --- in a device function ------------------------------------------------- */

/* A wgmma in a .func that the kernel calls (its D of more than 4 registers
 * moves with the function's registers when ptx_link.c appends it; the
 * kernel has a wgmma of its own, so a D left pointing at the kernel's
 * vectors would name the kernel's registers): zero tiles, scale-d 1, so
 * each thread's D comes back as it went in, 1..32. */
static const char call_ptx[] =
    ".version 8.4\n"
    ".target sm_90a\n"
    ".address_size 64\n"
    ".shared .align 1024 .b8 tile[4096];\n"
    ".func wg_func(.param .b64 out)\n"
    "{\n"
    "  .reg .f32 %f<33>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  .reg .b32 %r<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.f32 %f1, 0f3F800000;\n"
    "  mov.f32 %f2, 0f40000000;\n"
    "  mov.f32 %f3, 0f40400000;\n"
    "  mov.f32 %f4, 0f40800000;\n"
    "  mov.f32 %f5, 0f40A00000;\n"
    "  mov.f32 %f6, 0f40C00000;\n"
    "  mov.f32 %f7, 0f40E00000;\n"
    "  mov.f32 %f8, 0f41000000;\n"
    "  mov.f32 %f9, 0f41100000;\n"
    "  mov.f32 %f10, 0f41200000;\n"
    "  mov.f32 %f11, 0f41300000;\n"
    "  mov.f32 %f12, 0f41400000;\n"
    "  mov.f32 %f13, 0f41500000;\n"
    "  mov.f32 %f14, 0f41600000;\n"
    "  mov.f32 %f15, 0f41700000;\n"
    "  mov.f32 %f16, 0f41800000;\n"
    "  mov.f32 %f17, 0f41880000;\n"
    "  mov.f32 %f18, 0f41900000;\n"
    "  mov.f32 %f19, 0f41980000;\n"
    "  mov.f32 %f20, 0f41A00000;\n"
    "  mov.f32 %f21, 0f41A80000;\n"
    "  mov.f32 %f22, 0f41B00000;\n"
    "  mov.f32 %f23, 0f41B80000;\n"
    "  mov.f32 %f24, 0f41C00000;\n"
    "  mov.f32 %f25, 0f41C80000;\n"
    "  mov.f32 %f26, 0f41D00000;\n"
    "  mov.f32 %f27, 0f41D80000;\n"
    "  mov.f32 %f28, 0f41E00000;\n"
    "  mov.f32 %f29, 0f41E80000;\n"
    "  mov.f32 %f30, 0f41F00000;\n"
    "  mov.f32 %f31, 0f41F80000;\n"
    "  mov.f32 %f32, 0f42000000;\n"
    "  mov.u64 %rd2, tile;\n"
    "  shr.u64 %rd3, %rd2, 4;\n"
    "  or.b64 %rd3, %rd3, 68719476736;\n"
    "  or.b64 %rd3, %rd3, 524288;\n"
    "  wgmma.fence.sync.aligned;\n"
    "  wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8, %f9, %f10, %f11, %f12, %f13, %f14, %f15, %f16, %f17, %f18, %f19, %f20, %f21, %f22, %f23, %f24, %f25, %f26, %f27, %f28, %f29, %f30, %f31, %f32}, %rd3, %rd3, 1, 1, 1, 0, 0;\n"
    "  wgmma.commit_group.sync.aligned;\n"
    "  wgmma.wait_group.sync.aligned 0;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd4, %r1, 128;\n"
    "  add.s64 %rd5, %rd1, %rd4;\n"
    "  st.global.f32 [%rd5+0], %f1;\n"
    "  st.global.f32 [%rd5+4], %f2;\n"
    "  st.global.f32 [%rd5+8], %f3;\n"
    "  st.global.f32 [%rd5+12], %f4;\n"
    "  st.global.f32 [%rd5+16], %f5;\n"
    "  st.global.f32 [%rd5+20], %f6;\n"
    "  st.global.f32 [%rd5+24], %f7;\n"
    "  st.global.f32 [%rd5+28], %f8;\n"
    "  st.global.f32 [%rd5+32], %f9;\n"
    "  st.global.f32 [%rd5+36], %f10;\n"
    "  st.global.f32 [%rd5+40], %f11;\n"
    "  st.global.f32 [%rd5+44], %f12;\n"
    "  st.global.f32 [%rd5+48], %f13;\n"
    "  st.global.f32 [%rd5+52], %f14;\n"
    "  st.global.f32 [%rd5+56], %f15;\n"
    "  st.global.f32 [%rd5+60], %f16;\n"
    "  st.global.f32 [%rd5+64], %f17;\n"
    "  st.global.f32 [%rd5+68], %f18;\n"
    "  st.global.f32 [%rd5+72], %f19;\n"
    "  st.global.f32 [%rd5+76], %f20;\n"
    "  st.global.f32 [%rd5+80], %f21;\n"
    "  st.global.f32 [%rd5+84], %f22;\n"
    "  st.global.f32 [%rd5+88], %f23;\n"
    "  st.global.f32 [%rd5+92], %f24;\n"
    "  st.global.f32 [%rd5+96], %f25;\n"
    "  st.global.f32 [%rd5+100], %f26;\n"
    "  st.global.f32 [%rd5+104], %f27;\n"
    "  st.global.f32 [%rd5+108], %f28;\n"
    "  st.global.f32 [%rd5+112], %f29;\n"
    "  st.global.f32 [%rd5+116], %f30;\n"
    "  st.global.f32 [%rd5+120], %f31;\n"
    "  st.global.f32 [%rd5+124], %f32;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry wg_call(.param .u64 out)\n"
    "{\n"
    "  .reg .f32 %g<33>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.f32 %g1, 0fBF800000;\n"
    "  mov.f32 %g2, 0fC0000000;\n"
    "  mov.f32 %g3, 0fC0400000;\n"
    "  mov.f32 %g4, 0fC0800000;\n"
    "  mov.f32 %g5, 0fC0A00000;\n"
    "  mov.f32 %g6, 0fC0C00000;\n"
    "  mov.f32 %g7, 0fC0E00000;\n"
    "  mov.f32 %g8, 0fC1000000;\n"
    "  mov.f32 %g9, 0fC1100000;\n"
    "  mov.f32 %g10, 0fC1200000;\n"
    "  mov.f32 %g11, 0fC1300000;\n"
    "  mov.f32 %g12, 0fC1400000;\n"
    "  mov.f32 %g13, 0fC1500000;\n"
    "  mov.f32 %g14, 0fC1600000;\n"
    "  mov.f32 %g15, 0fC1700000;\n"
    "  mov.f32 %g16, 0fC1800000;\n"
    "  mov.f32 %g17, 0fC1880000;\n"
    "  mov.f32 %g18, 0fC1900000;\n"
    "  mov.f32 %g19, 0fC1980000;\n"
    "  mov.f32 %g20, 0fC1A00000;\n"
    "  mov.f32 %g21, 0fC1A80000;\n"
    "  mov.f32 %g22, 0fC1B00000;\n"
    "  mov.f32 %g23, 0fC1B80000;\n"
    "  mov.f32 %g24, 0fC1C00000;\n"
    "  mov.f32 %g25, 0fC1C80000;\n"
    "  mov.f32 %g26, 0fC1D00000;\n"
    "  mov.f32 %g27, 0fC1D80000;\n"
    "  mov.f32 %g28, 0fC1E00000;\n"
    "  mov.f32 %g29, 0fC1E80000;\n"
    "  mov.f32 %g30, 0fC1F00000;\n"
    "  mov.f32 %g31, 0fC1F80000;\n"
    "  mov.f32 %g32, 0fC2000000;\n"
    "  mov.u64 %rd2, tile;\n"
    "  shr.u64 %rd3, %rd2, 4;\n"
    "  wgmma.fence.sync.aligned;\n"
    "  wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%g1, %g2, %g3, %g4, %g5, %g6, %g7, %g8, %g9, %g10, %g11, %g12, %g13, %g14, %g15, %g16, %g17, %g18, %g19, %g20, %g21, %g22, %g23, %g24, %g25, %g26, %g27, %g28, %g29, %g30, %g31, %g32}, %rd3, %rd3, 1, 1, 1, 0, 0;\n"
    "  wgmma.commit_group.sync.aligned;\n"
    "  wgmma.wait_group.sync.aligned 0;\n"
    "  {\n"
    "  .param .b64 param0;\n"
    "  st.param.b64 [param0], %rd1;\n"
    "  call.uni wg_func, (param0);\n"
    "  }\n"
    "  ret;\n"
    "}\n";

static void test_device_function(void **state) {
  (void)state;
  char *path = tu_temp_file(".ptx", call_ptx);
  PtxModule *cm = tu_load(path);
  SimRun run = {0};
  tu_launch(&run, cm, "wg_call", "1", "128", 0, "buf:f32:4096:zero", (const char *)NULL);
  const float *out = ARG(&run, 0, float, 4096);
  for (int t = 0; t < 128; t++)
    for (int i = 0; i < 32; i++)
      if (out[t * 32 + i] != (float)(i + 1)) fail_msg("thread %d: D[%d] = %g, expected %d", t, i, out[t * 32 + i], i + 1);
  assert_int_equal(run.mm.metric[WM_M_GMMA_INST], 8); /* the kernel's and the function's */
  sim_run_free(&run);
  ptx_module_free(cm);
  unlink(path);
  free(path);
}

/* --- located errors ------------------------------------------------------- */

/* The launch must fail: its message (static buffer) and code. */
static const char *launch_fails(const char *name, const char *block, const char *const *args, int *code) {
  static WmErr e;
  LaunchSpec *ls = calloc(1, sizeof *ls);
  assert_non_null(ls);
  memset(&e, 0, sizeof e);
  snprintf(ls->name, sizeof ls->name, "%s", name);
  snprintf(ls->label, sizeof ls->label, "%s", name);
  assert_int_equal(launch_parse_dim("1", ls->grid, &e), 0);
  assert_int_equal(launch_parse_dim(block, ls->block, &e), 0);
  for (; *args; args++) assert_int_equal(launch_parse_arg(*args, &ls->args[ls->nargs++], &e), 0);
  SimOptions o;
  sim_options_init(&o);
  SimRun run;
  memset(&run, 0, sizeof run);
  int rc = sim_run_launch(corpus(), ls, &o, &run, &e);
  sim_run_free(&run);
  free(ls);
  if (rc == 0) fail_msg("%s ran without an error", name);
  *code = e.code;
  return e.msg;
}

static void expect_in(const char *msg, const char *part) {
  if (!strstr(msg, part)) fail_msg("'%s' not in: %s", part, msg);
}

/* 96 threads: warps 0-2, not a warpgroup */
static void test_partial_warpgroup(void **state) {
  (void)state;
  static const char *const args[] = {"buf:f32:4096", "buf:f32:4096", "buf:f32:4096:zero", "i32:64", "i32:64",
                                     "i32:64", NULL};
  int code;
  const char *msg = launch_fails("wg_f16_sw32", "96", args, &code);
  assert_int_equal(code, WM_EFAULT);
  expect_in(msg, "is executed by a warpgroup of 4 warps (128 threads");
  expect_in(msg, "threads 0..127, is not whole in this block of 96 threads");
  expect_in(msg, "kernel wg_f16_sw32");
  expect_in(msg, "wgmma_gemm.cu:");
}

static void test_descriptor_past_shared(void **state) {
  (void)state;
  static const char *const args[] = {"buf:f32:4096", "buf:f32:4096", "buf:f32:4096:zero", "i32:1", "i32:8192",
                                     NULL};
  int code;
  const char *msg = launch_fails("wg_bad", "128", args, &code);
  assert_int_equal(code, WM_EFAULT);
  /* sb follows sa's 2048 bytes: its descriptor moved 8192 bytes on starts
   * at 0x2800, past the block's 4096 bytes of shared memory */
  expect_in(msg, "wgmma.mma_async's B descriptor");
  expect_in(msg, "start 0x2800, LBO 16, SBO 256, K-major 32B-swizzled");
  expect_in(msg, "reads shared memory at 0x2800 (row 0, chunk 0), past the block's 4096 bytes");
  expect_in(msg, "kernel wg_bad");
}

static void test_descriptors_differ(void **state) {
  (void)state;
  static const char *const args[] = {"buf:f32:4096", "buf:f32:4096", "buf:f32:4096:zero", "i32:2", "i32:0", NULL};
  int code;
  const char *msg = launch_fails("wg_bad", "128", args, &code);
  assert_int_equal(code, WM_EFAULT);
  expect_in(msg, "wgmma.mma_async's B descriptor differs between the threads of the warpgroup");
  expect_in(msg, "thread (5,0,0)");
}

static void test_warp_leaves(void **state) {
  (void)state;
  static const char *const args[] = {"buf:f32:4096", "buf:f32:4096", "buf:f32:4096:zero", "i32:3", "i32:0", NULL};
  int code;
  const char *msg = launch_fails("wg_bad", "128", args, &code);
  assert_int_equal(code, WM_EDEADLOCK);
  expect_in(msg, "wgmma deadlock in kernel wg_bad, block (0,0,0)");
  expect_in(msg, "its warpgroup's 4 warps execute it together");
  expect_in(msg, "warp 3 has exited");
  expect_in(msg, "warp 0 waits at a wgmma.mma_async for the other warps of its warpgroup (0..3)");
}

/* warpmem check --tool racecheck of wg_early in `mode`: its exit status
 * (0 clean, 5 findings) and stdout (caller frees). */
static char *check_early(int mode, int want) {
  char cmd[2048], *out = NULL, *err = NULL;
  snprintf(cmd, sizeof cmd,
           "check '%s' --kernel wg_early --tool racecheck --grid 1 --block 128 --arg buf:f32:4096:rand "
           "--arg buf:f32:4096:rand --arg buf:f32:4096:zero --arg i32:%d",
           tu_corpus("wgmma_gemm.ptx"), mode);
  int st = tu_run_cli(cmd, &out, &err);
  if (st != want) fail_msg("%s: exit %d, want %d\n%s\n%s", cmd, st, want, out, err);
  free(err);
  return out;
}

/* The accumulators read before the wait: racecheck names the read, the
 * wgmma and why; each warp's one read (mode 0), every accumulator each
 * warp stores after a wait_group 1 that leaves the only group pending
 * (mode 1: 32 x 4); the correct wait_group 0 (mode 2): nothing. */
static void test_check_early_read(void **state) {
  (void)state;
  char *out = check_early(0, 5);
  expect_in(out, "racecheck: wgmma register hazard in kernel wg_early (4 times)");
  expect_in(out, "is read before the wgmma.wait_group that completes the wgmma.mma_async at wgmma_gemm.cu:");
  expect_in(out, "(its group: not waited for): undefined on the GPU");
  free(out);
  out = check_early(1, 5);
  expect_in(out, "racecheck: wgmma register hazard in kernel wg_early (128 times)");
  free(out);
  out = check_early(2, 0);
  expect_in(out, "racecheck 0");
  free(out);
}

/* Malformed wgmma in PTX: a located message with a caret. */
static const char *parse_fails(const char *instr) {
  static char msg[2048];
  char text[4096];
  snprintf(text, sizeof text,
           ".version 8.4\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
           "  .reg .f32 %%f<140>;\n  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<4>;\n  .reg .pred %%p<2>;\n"
           "  %s\n  ret;\n}\n",
           instr);
  WmErr e;
  memset(&e, 0, sizeof e);
  PtxModule *m = ptx_parse("bad.ptx", strdup(text), &e);
  if (m) {
    const PtxKernel *k = ptx_find_kernel(m, "k", &e);
    int ok = k != NULL;
    ptx_module_free(m);
    if (ok) fail_msg("'%s' was accepted", instr);
  }
  snprintf(msg, sizeof msg, "%s", e.msg);
  return msg;
}

static void test_malformed(void **state) {
  (void)state;
  char regs[1024] = "{";
  for (int i = 0; i < 31; i++) snprintf(regs + strlen(regs), sizeof regs - strlen(regs), "%s%%f%d", i ? ", " : "", i);
  strcat(regs, "}");
  char instr[1200];
  snprintf(instr, sizeof instr, "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 %s, %%rd1, %%rd2, 1, 1, 1, 0, 0;",
           regs);
  const char *msg = parse_fails(instr);
  expect_in(msg, "bad.ptx:10:");
  expect_in(msg, "D of this wgmma.mma_async (.m64n64k16.f32) has 32 registers, found 31");
  expect_in(msg, "^");
  msg = parse_fails("wgmma.mma_async.sync.aligned.m64n8k16.f16.bf16.bf16 {%r1, %r2}, %rd1, %rd2, 1, 1, 1, 0, 0;");
  expect_in(msg, "D of .bf16 is .f32 (here .f16)");
  msg = parse_fails("wgmma.mma_async.sync.aligned.m64n8k32.f32.tf32.tf32 {%f1, %f2, %f3, %f4}, %rd1, %rd2, 1, 1, 1;");
  expect_in(msg, ".tf32 takes K = 8");
  msg = parse_fails("wgmma.mma_async.sync.aligned.m64n40k32.s32.s8.s8 {%r1}, %rd1, %rd2, 1;");
  expect_in(msg, "N = 40 is not a shape of .s8");
  msg = parse_fails("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, 1, 2, 1, 0, 0;");
  expect_in(msg, "imm-scale-a is 1 or -1, found '2'");
  msg = parse_fails("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %r1, %rd2, 1, 1, 1, 0, 0;");
  expect_in(msg, "a 64-bit matrix descriptor");
  msg = parse_fails("wgmma.fence.sync;");
  expect_in(msg, "needs .sync.aligned");
  msg = parse_fails("wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %r1, 0, 1, 1, 1, 0, 0;");
  expect_in(msg, "the sparse wgmma.mma_async.sp is not supported");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_bf16_sw128),
    cmocka_unit_test(test_bf16_sw64_nmajor),
    cmocka_unit_test(test_bf16_n128),
    cmocka_unit_test(test_f16_layouts),
    cmocka_unit_test(test_registers_a),
    cmocka_unit_test(test_tf32_fp8),
    cmocka_unit_test(test_s8),
    cmocka_unit_test(test_u8s8_satfinite),
    cmocka_unit_test(test_b1),
    cmocka_unit_test(test_fragment),
    cmocka_unit_test(test_bench_kernel),
    cmocka_unit_test(test_device_function),
    cmocka_unit_test(test_partial_warpgroup),
    cmocka_unit_test(test_descriptor_past_shared),
    cmocka_unit_test(test_descriptors_differ),
    cmocka_unit_test(test_warp_leaves),
    cmocka_unit_test(test_check_early_read),
    cmocka_unit_test(test_malformed),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  ptx_module_free(mod);
  return rc;
}
