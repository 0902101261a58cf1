/* test_rounds.c - warpmem__load_rounds (emu/emu_rounds.c): a warp waits a
 * memory round trip once for each group of global or local loads issued
 * before any of their values is used.  Kernels written so that the count
 * follows from the code: one warp each, so rounds = rounds per warp. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "mem/metrics.h"
#include "sim/sim.h"

#define PTX_HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

static const char *const kernels =
    PTX_HEAD
    /* ld a; use; ld b; use: the second load waits for nothing, but the
     * first value is used before it: 2 rounds */
    ".visible .entry two(.param .u64 p)\n{\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  ld.global.f32 %f1, [%rd2];\n  add.f32 %f2, %f1, %f1;\n"
    "  ld.global.f32 %f3, [%rd2+4];\n  add.f32 %f2, %f2, %f3;\n"
    "  st.global.f32 [%rd2+8], %f2;\n  ret;\n}\n"
    /* ld a; ld b; use both: 1 round */
    ".visible .entry one(.param .u64 p)\n{\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  ld.global.f32 %f1, [%rd2];\n  ld.global.f32 %f3, [%rd2+4];\n  add.f32 %f2, %f1, %f3;\n"
    "  st.global.f32 [%rd2+8], %f2;\n  ret;\n}\n"
    /* a loop of 5 iterations, each loading and storing what it loaded: 5;
     * the parameter load and the shared load count for nothing */
    ".visible .entry loop(.param .u64 p)\n{\n  .reg .pred %p<2>;\n  .reg .f32 %f<4>;\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n  .shared .align 4 .f32 s[32];\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  ld.shared.f32 %f3, [s];\n  add.f32 %f3, %f3, %f3;\n  mov.u32 %r1, 0;\n"
    "$L_top:\n  ld.global.f32 %f1, [%rd2];\n  st.global.f32 [%rd2+4], %f1;\n"
    "  add.s32 %r1, %r1, 1;\n  setp.lt.s32 %p1, %r1, 5;\n  @%p1 bra $L_top;\n  ret;\n}\n";

static uint64_t rounds_of(const char *name) {
  WmErr e = {0};
  PtxModule *m = ptx_parse("t.ptx", strdup(kernels), &e);
  if (!m) fail_msg("%s", e.msg);
  SimRun run;
  tu_launch(&run, m, name, "1", "32", 0, "buf:f32:64", NULL);
  uint64_t r = run.mm.metric[WM_M_ROUNDS];
  assert_int_equal(run.mm.metric[WM_M_WARPS], 1);
  sim_run_free(&run);
  ptx_module_free(m);
  return r;
}

static void test_two_rounds(void **state) {
  (void)state;
  assert_int_equal(rounds_of("two"), 2);
}

static void test_one_round(void **state) {
  (void)state;
  assert_int_equal(rounds_of("one"), 1);
}

static void test_loop(void **state) {
  (void)state;
  assert_int_equal(rounds_of("loop"), 5);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_two_rounds),
    cmocka_unit_test(test_one_round),
    cmocka_unit_test(test_loop),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
