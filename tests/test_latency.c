/* test_latency.c - each instruction's dependent latency (emu_latency.c):
 * warpmem__dependent_clocks sums, over the warps, the clocks each straight
 * line takes a warp alone: every instruction as soon as its operands are
 * ready, an issue slot of 4 clocks each at best.
 *
 * Golden numbers from the table, which an H200 measured
 * (groundtruth/latency_kernels.cu, docs/results/h200-2026-11-26-latency).
 * The kernel below has three straight lines:
 * - ld.param x2, mov %tid, setp, bra: the setp waits for the mov (4), the
 *   bra for the setp (8): 12 clocks of chain, but 5 slots of 4: 20;
 * - rem.s32 (its result at 69), shfl.sync (+26: 95), cvt.rn.f32.s32 (+11:
 *   106), fma.rn.f32 (+4: 110), div.rn.f32 (+44: 154), ex2.approx.ftz
 *   (+17: 171), then st.global, which issues at 171 and takes its slot:
 *   175 (mul.wide and add.s64 for the address, independent, fit in the
 *   chain's waits; the slots sum to 56: rem's subroutine 17, div's 11);
 * - ret: 4.
 * 199 clocks a warp that runs the whole kernel; one whose lanes all branch
 * past the body runs the first line and ret: 24.  And the time model
 * charges them: one more rem in a lone warp's chain is 69 clocks longer;
 * two chains of 5 rems side by side take as long as one of 5.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The kernel with `rems` more rem.s32 in the chain, or with two chains
 * side by side (the second from a copy of %tid, read by nothing after). */
static const char *ptx_of(int rems, int two_chains) {
  static char text[4096];
  char extra[1024] = "";
  if (two_chains) strcat(extra, "  mov.u32 %r5, %r2;\n");
  for (int i = 0; i < rems; i++)
    strcat(extra, two_chains && i % 2 ? "  rem.s32 %r5, %r5, %r1;\n" : "  rem.s32 %r3, %r3, %r1;\n");
  snprintf(text, sizeof text,
           ".version 8.0\n.target sm_90\n.address_size 64\n"
           "//@ lat grid=1 block=32 args=buf:f32:64,i32:7\n"
           "//@ lat#2 grid=1 block=64 args=buf:f32:64,i32:7\n"
           ".visible .entry lat(.param .u64 p, .param .u32 n) {\n"
           "  .reg .b32 %%r<8>; .reg .b64 %%rd<4>; .reg .f32 %%f<6>; .reg .pred %%p<2>;\n"
           "  ld.param.u64 %%rd1, [p];\n"
           "  ld.param.u32 %%r1, [n];\n"
           "  mov.u32 %%r2, %%tid.x;\n"
           "  setp.ge.u32 %%p1, %%r2, 32;\n"
           "  @%%p1 bra DONE;\n"
           "  rem.s32 %%r3, %%r2, %%r1;\n"
           "%s"
           "  shfl.sync.bfly.b32 %%r4, %%r3, 1, 31, -1;\n"
           "  cvt.rn.f32.s32 %%f1, %%r4;\n"
           "  fma.rn.f32 %%f2, %%f1, %%f1, %%f1;\n"
           "  div.rn.f32 %%f3, %%f2, %%f1;\n"
           "  ex2.approx.ftz.f32 %%f4, %%f3;\n"
           "  mul.wide.u32 %%rd2, %%r2, 4;\n"
           "  add.s64 %%rd3, %%rd1, %%rd2;\n"
           "  st.global.f32 [%%rd3], %%f4;\n"
           "DONE:\n"
           "  ret;\n"
           "}\n",
           extra);
  return text;
}

static char *sim_out(int rems, int two_chains, const char *arch, const char *format) {
  char *path = tu_temp_file(".ptx", ptx_of(rems, two_chains)), args[512], *out = NULL;
  snprintf(args, sizeof args, "sim '%s' --arch %s --format %s", path, arch, format);
  assert_int_equal(tu_run_cli(args, &out, NULL), 0);
  unlink(path);
  free(path);
  return out;
}

static char *sim_csv(int rems, const char *arch) { return sim_out(rems, 0, arch, "csv"); }

/* the three lines of a warp that runs the whole kernel (above) */
#define WHOLE (20 + (69 + 26 + 11 + 4 + 44 + 17 + 4) + 4)
#define SKIP (20 + 4) /* the first line and ret */

static void test_dependent_clocks(void **state) {
  (void)state;
  char *out = sim_csv(0, "h200");
  assert_true(tu_csv_value(out, "lat", "warpmem__dependent_clocks") == WHOLE);
  assert_true(tu_csv_value(out, "lat#2", "warpmem__dependent_clocks") == WHOLE + SKIP);
  assert_true(tu_csv_value(out, "lat", "smsp__inst_executed.sum") == 15);
  free(out);
}

/* A lone warp's chain: 10 more rem.s32 are 690 clocks longer, at the
 * h200's 1.98 GHz 348 ns (the launch is latency-bound by that chain). */
static void test_chain_time(void **state) {
  (void)state;
  char *a = sim_csv(0, "h200"), *b = sim_csv(10, "h200");
  double ta = tu_csv_value(a, "lat", "gpu__time_duration.sum"), tb = tu_csv_value(b, "lat", "gpu__time_duration.sum");
  assert_true(tu_csv_value(b, "lat", "warpmem__dependent_clocks") == WHOLE + 690);
  assert_true(tb - ta > 690 / 1.98 - 2 && tb - ta < 690 / 1.98 + 2);
  free(a);
  free(b);
  /* and the report says what the chain is made of: the 10 rems' 348 ns
   * are in its "us of dependent instructions" */
  char *text = sim_out(10, 0, "h200", "text");
  assert_non_null(strstr(text, "latency-bound: a warp's chain, 1 wave x"));
  assert_non_null(strstr(text, "us of dependent instructions"));
  free(text);
}

/* Latencies overlap where nothing waits: 10 rems in two chains of 5 add
 * the clocks of 5 (345), not of 10; their 170 slots fit in the waits. */
static void test_overlap(void **state) {
  (void)state;
  char *out = sim_out(10, 1, "h200", "csv");
  assert_true(tu_csv_value(out, "lat", "warpmem__dependent_clocks") == WHOLE + 345);
  free(out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_dependent_clocks),
    cmocka_unit_test(test_chain_time),
    cmocka_unit_test(test_overlap),
  };
  return cmocka_run_group_tests_name("latency", tests, NULL, NULL);
}
