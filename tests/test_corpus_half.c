/* test_corpus_half.c - tests/corpus/half_precision.cu: the real-code half
 * kernels against CPU references.
 *
 * The references redo each kernel's arithmetic in double, where it is
 * exact for these inputs (rand fills f16 and bf16 buffers with values of
 * [0, 1) on an 11- or 8-bit grid: products need at most 22 bits, sums of
 * them a few more), and round once to the format with util/half.h, in the
 * kernel's order of operations.  So every result the PTX ISA defines is
 * checked bit for bit; the one approximation (ex2.approx behind h2exp2) is
 * checked within its error, and the steps after it from the emulator's own
 * exponentials, bit for bit.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "testutil.h"
#include "util/half.h"

static PtxModule *mod;

static const PtxModule *module(void) {
  if (!mod) mod = tu_load(tu_corpus("half_precision.ptx"));
  return mod;
}

static double f16v(uint16_t h) { return wm_from_narrow(wm_fmt_f16, h); }
static double bf16v(uint16_t h) { return wm_from_narrow(wm_fmt_bf16, h); }
static uint16_t f16r(double v) { return (uint16_t)wm_to_narrow(wm_fmt_f16, v, WM_RND_NEAREST); }
static uint16_t bf16r(double v) { return (uint16_t)wm_to_narrow(wm_fmt_bf16, v, WM_RND_NEAREST); }

static void expect_bits16(const char *what, const uint16_t *got, const uint16_t *want, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) fail_msg("%s[%zu] = 0x%04x, expected 0x%04x", what, i, got[i], want[i]);
}

/* Inputs must look like rand's: in [0, 1), not all equal (a kernel that
 * never ran would leave zeros everywhere). */
static void expect_rand_inputs(const char *what, const uint16_t *v, size_t n, int bf) {
  size_t distinct = 0;
  for (size_t i = 0; i < n; i++) {
    double x = bf ? bf16v(v[i]) : f16v(v[i]);
    if (!(x >= 0 && x < 1)) fail_msg("%s[%zu] = %g is not in [0, 1)", what, i, x);
    distinct += i > 0 && v[i] != v[i - 1];
  }
  if (distinct < n / 2) fail_msg("%s: %zu distinct neighbours of %zu", what, distinct, n);
}

/* z = fma(0.75, x, y) on pairs: 0.75 is 0x3a00 exactly; one rounding */
static void test_haxpy(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, module(), "haxpy", "4", "128", 0, "i32:1000", "f32:0.75", "buf:f16:2000:rand",
            "buf:f16:2000:rand", "buf:f16:2000:zero", NULL);
  const uint16_t *x = tu_arg_buf(&run, 2, 2, 2000), *y = tu_arg_buf(&run, 3, 2, 2000);
  const uint16_t *z = tu_arg_buf(&run, 4, 2, 2000);
  expect_rand_inputs("x", x, 2000, 0);
  static uint16_t want[2000];
  for (int i = 0; i < 2000; i++) want[i] = f16r(0.75 * f16v(x[i]) + f16v(y[i]));
  expect_bits16("z", z, want, 2000);
  sim_run_free(&run);
}

/* Each thread: a bf16 fma chain over its pairs (grid stride 128), its pair
 * folded with one bf16 add, then a shuffle-down tree in bf16 (a lane past
 * the warp reads its own value); lane 0 of warp w writes partial[w]. */
static void test_bf16_dot(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, module(), "bf16_dot", "2", "64", 0, "buf:bf16:1024:rand", "buf:bf16:1024:rand",
            "buf:bf16:4:zero", "buf:f32:4:zero", "i32:512", NULL);
  const uint16_t *a = tu_arg_buf(&run, 0, 2, 1024), *b = tu_arg_buf(&run, 1, 2, 1024);
  const uint16_t *part = tu_arg_buf(&run, 2, 2, 4);
  const float *part_f = tu_arg_buf(&run, 3, 4, 4);
  expect_rand_inputs("a", a, 1024, 1);
  uint16_t s[128], want[4];
  for (int t = 0; t < 128; t++) {
    uint16_t lo = 0, hi = 0;
    for (int i = t; i < 512; i += 128) {
      lo = bf16r(bf16v(a[2 * i]) * bf16v(b[2 * i]) + bf16v(lo));
      hi = bf16r(bf16v(a[2 * i + 1]) * bf16v(b[2 * i + 1]) + bf16v(hi));
    }
    s[t] = bf16r(bf16v(lo) + bf16v(hi));
  }
  for (int w = 0; w < 4; w++) {
    uint16_t *v = s + 32 * w, nv[32];
    for (int off = 16; off > 0; off >>= 1) {
      for (int l = 0; l < 32; l++) nv[l] = bf16r(bf16v(v[l]) + bf16v(v[l + off < 32 ? l + off : l]));
      memcpy(v, nv, sizeof nv);
    }
    want[w] = v[0];
    if (part_f[w] != (float)bf16v(v[0])) fail_msg("partial_f[%d] = %a, expected %a", w, part_f[w], bf16v(v[0]));
  }
  expect_bits16("partial", part, want, 4);
  sim_run_free(&run);
}

/* Softmax of 8 rows of 64: the row maximum (exact), t = (x - max) * log2e
 * in f16 (exact steps), e = 2^t within ex2.approx's error (one f16 ulp
 * here: ex2.approx.ftz.f32 is within 2 f32 ulps, far below f16's), then
 * the float sums in the butterfly's order and y = e / sum rounded to f16,
 * from the emulator's e, bit for bit. */
static void test_softmax(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, module(), "softmax_half", "8", "32", 0, "buf:f16:512:rand", "buf:f16:512:zero",
            "buf:f16:512:zero", "buf:f16:8:zero", "i32:64", NULL);
  const uint16_t *x = tu_arg_buf(&run, 0, 2, 512), *y = tu_arg_buf(&run, 1, 2, 512);
  const uint16_t *e = tu_arg_buf(&run, 2, 2, 512), *mx = tu_arg_buf(&run, 3, 2, 8);
  expect_rand_inputs("x", x, 512, 0);
  uint16_t log2e = f16r((double)1.4426950408889634f);
  for (int r = 0; r < 8; r++) {
    const uint16_t *xr = x + 64 * r, *er = e + 64 * r, *yr = y + 64 * r;
    double m = -65504;
    for (int c = 0; c < 64; c++) m = fmax(m, f16v(xr[c]));
    if (mx[r] != f16r(m)) fail_msg("row_max[%d] = 0x%04x, expected 0x%04x", r, mx[r], f16r(m));
    for (int c = 0; c < 64; c++) {
      uint16_t t = f16r(f16v(f16r(f16v(xr[c]) - m)) * f16v(log2e));
      double exact = exp2(f16v(t)), ulp = ldexp(1.0, (int)floor(log2(exact)) - 10);
      if (fabs(f16v(er[c]) - exact) > ulp)
        fail_msg("e[%d][%d] = %a, 2^%a = %a (more than an ulp apart)", r, c, f16v(er[c]), f16v(t), exact);
    }
    float sum[32];
    for (int l = 0; l < 32; l++) sum[l] = (float)f16v(er[2 * l]) + (float)f16v(er[2 * l + 1]);
    for (int off = 16; off > 0; off >>= 1) {
      float ns[32];
      for (int l = 0; l < 32; l++) ns[l] = sum[l] + sum[l ^ off];
      memcpy(sum, ns, sizeof ns);
    }
    for (int c = 0; c < 64; c++) {
      float q = (float)f16v(er[c]) / sum[c % 32];
      if (yr[c] != f16r(q)) fail_msg("y[%d][%d] = 0x%04x, expected 0x%04x", r, c, yr[c], f16r(q));
    }
  }
  sim_run_free(&run);
}

/* 1024 items in 16 bins: each adds {1, 0.5} to an __half2 bin and 0.25 to
 * a bf16 bin; the sums are small multiples of 2^-2, exact in any order. */
static void test_atomics(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, module(), "half_atomics", "4", "256", 0, "buf:i32:1024:rand", "buf:u32:16:zero",
            "buf:bf16:16:zero", "i32:1024", NULL);
  const int32_t *items = tu_arg_buf(&run, 0, 4, 1024);
  const uint32_t *bins2 = tu_arg_buf(&run, 1, 4, 16);
  const uint16_t *binsb = tu_arg_buf(&run, 2, 2, 16);
  int count[16] = {0};
  for (int i = 0; i < 1024; i++) count[items[i] & 15]++;
  for (int b = 0; b < 16; b++) {
    uint32_t want2 = (uint32_t)f16r(count[b] * 0.5) << 16 | f16r(count[b] * 1.0);
    if (bins2[b] != want2) fail_msg("bins2[%d] = 0x%08x, expected 0x%08x (%d items)", b, bins2[b], want2, count[b]);
    if (binsb[b] != bf16r(count[b] * 0.25))
      fail_msg("binsb[%d] = 0x%04x, expected 0x%04x (%d items)", b, binsb[b], bf16r(count[b] * 0.25), count[b]);
  }
  sim_run_free(&run);
}

static int teardown(void **state) {
  (void)state;
  if (mod) ptx_module_free(mod);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_haxpy),
    cmocka_unit_test(test_bf16_dot),
    cmocka_unit_test(test_softmax),
    cmocka_unit_test(test_atomics),
  };
  return cmocka_run_group_tests(tests, NULL, teardown);
}
