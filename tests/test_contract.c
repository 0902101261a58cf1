/* test_contract.c - which mul-add pairs ptxas fuses into one fma, read from
 * its code (src/ptx/ptx_sass.c), and the emulator rounding each as ptxas's
 * code does.  The inputs make one rounding and two differ: a = 1 + 2^-12
 * (f32) so a*a = 1 + 2^-11 + 2^-24, whose last term a rounded product
 * drops; a*a - 1 is then 2^-11 + 2^-24 fused and 2^-11 apart (f64: a =
 * 1 + 2^-27, 2^-26 + 2^-54 against 2^-26).  Which pairs ptxas fuses is
 * what its code shows (nvdisasm, under each PTX line): a product read once
 * by an add or a sub (either side) is fused; one also stored, or a mul.rn,
 * is not.  Each pair reads its own loads, so that ptxas cannot merge
 * them.  Skipped, with the reason, without ptxas or nvdisasm. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <setjmp.h>
#include <cmocka.h>

#include "ptx/ptx.h"
#include "sim/sim.h"
#include "testutil.h"

static const char *ptx =
  ".version 8.0\n.target sm_90\n.address_size 64\n"
  ".visible .entry pairs(.param .u64 pa, .param .u64 pc, .param .u64 pd, .param .u64 po, .param .u64 pq)\n{\n"
  "  .reg .f32 %f<24>;\n  .reg .f64 %fd<8>;\n  .reg .b64 %rd<8>;\n"
  "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pc];\n  ld.param.u64 %rd3, [pd];\n"
  "  ld.param.u64 %rd4, [po];\n  ld.param.u64 %rd5, [pq];\n"
  "  ld.global.f32 %f1, [%rd1];\n  ld.global.f32 %f2, [%rd1+4];\n  ld.global.f32 %f3, [%rd2];\n"
  "  neg.f32 %f4, %f3;\n"
  "  mul.f32 %f5, %f1, %f2;\n  add.f32 %f6, %f5, %f3;\n  st.global.f32 [%rd4], %f6;\n"          /* a*a + c */
  "  ld.global.f32 %f15, [%rd1+8];\n  ld.global.f32 %f16, [%rd1+12];\n"
  "  ld.global.f32 %f17, [%rd1+16];\n  ld.global.f32 %f18, [%rd1+20];\n"
  "  mul.f32 %f7, %f15, %f16;\n  sub.f32 %f8, %f7, %f4;\n  st.global.f32 [%rd4+4], %f8;\n"        /* a*a - 1 */
  "  mul.f32 %f9, %f17, %f18;\n  sub.f32 %f10, %f4, %f9;\n  st.global.f32 [%rd4+8], %f10;\n"      /* 1 - a*a */
  "  mul.f32 %f11, %f1, %f2;\n  add.f32 %f12, %f11, %f3;\n  st.global.f32 [%rd4+12], %f12;\n"
  "  st.global.f32 [%rd4+16], %f11;\n"                                                          /* kept */
  "  mul.rn.f32 %f13, %f1, %f2;\n  add.f32 %f14, %f13, %f3;\n  st.global.f32 [%rd4+20], %f14;\n" /* .rn */
  "  ld.global.f64 %fd1, [%rd3];\n  ld.global.f64 %fd2, [%rd3+8];\n  cvt.f64.f32 %fd3, %f3;\n"
  "  mul.f64 %fd4, %fd1, %fd2;\n  add.f64 %fd5, %fd4, %fd3;\n  st.global.f64 [%rd5], %fd5;\n"     /* f64 */
  "  ret;\n}\n";

/* The 1-based line of the first instruction text `s` in ptx. */
static uint32_t line_of(const char *s) {
  const char *at = strstr(ptx, s);
  assert_non_null(at);
  uint32_t line = 1;
  for (const char *p = ptx; p < at; p++) line += *p == '\n';
  return line;
}

static const PtxInstr *at_line(const PtxModule *m, uint32_t line) {
  for (int i = 0; i < m->kernels[0].ncode; i++)
    if (m->kernels[0].code[i].ptx_line == line) return &m->kernels[0].code[i];
  fail_msg("no instruction on line %u", line);
  return NULL;
}

static void test_pairs(void **state) {
  (void)state;
  char *path = tu_temp_file(".ptx", ptx);
  PtxModule *m = tu_load(path);
  if (ptx_contractions(m, 90)) {
    print_message("skipped: %s\n", m->fused_note);
    ptx_module_free(m);
    skip();
  }
  assert_true(m->fused_known);
  static const struct { const char *text; int fused; } want[] = {
    {"add.f32 %f6", 1}, {"sub.f32 %f8", 1}, {"sub.f32 %f10", 1}, {"add.f32 %f12", 0}, {"add.f32 %f14", 0},
    {"add.f64 %fd5", 1}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    const PtxInstr *in = at_line(m, line_of(want[i].text));
    if (!!in->fused != want[i].fused) fail_msg("%s: fused %u, expected %d", want[i].text, in->fused, want[i].fused);
  }
  SimRun run;
  tu_launch(&run, m, "pairs", "1", "32", 0, "buf:f32:6:1.000244140625", "buf:f32:1:-1",
            "buf:f64:2:1.0000000074505806", "buf:f32:6:zero", "buf:f64:1:zero", NULL);
  const float *o = tu_arg_buf(&run, 3, 4, 6);
  const double *q = tu_arg_buf(&run, 4, 8, 1);
  volatile float a = 1.000244140625f, p = a * a; /* volatile: no contraction here */
  volatile double ad = 1.0000000074505806, pd = ad * ad;
  float twice = p - 1.0f, once = fmaf(a, a, -1.0f);
  assert_true(once != twice); /* the inputs tell the two apart */
  assert_true(o[0] == once);
  assert_true(o[1] == once);
  assert_true(o[2] == -once);
  assert_true(o[3] == twice && o[4] == p);
  assert_true(o[5] == twice);
  assert_true(q[0] == fma(ad, ad, -1.0) && q[0] != pd - 1.0);
  sim_run_free(&run);
  ptx_module_free(m);
  unlink(path);
  free(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_pairs)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
