/* test_emu_prepare.c - every kernel nvcc made for the test data decodes into
 * the emulator's form, and branches reconverge where they should. */
#include <stdlib.h>
#include <string.h>

#include "emu/emu_int.h"
#include "testutil.h"

/* Names with a folder are the ground truth's (groundtruth/ptx/), the others
 * tests/data's. */
static const char *const modules[] = {
  "ptx/seed_kernels.ptx", "ptx/probe_kernels.ptx", "parse_coverage.ptx", "parse_more.ptx",
  "emu_semantics.ptx", "emu_funnel.ptx", "bad_kernels.ptx", "gen_patterns.ptx", "half_intrinsics.ptx", NULL,
};

static const char *module_path(const char *name) { return strchr(name, '/') ? tu_truth(name) : tu_data(name); }

/* Each kernel the parser accepts is one the emulator can prepare: the
 * operand checks refuse nothing nvcc emits. */
static void test_prepare_every_kernel(void **state) {
  (void)state;
  int prepared = 0;
  for (int i = 0; modules[i]; i++) {
    WmErr e = {0};
    PtxModule *m = ptx_load(module_path(modules[i]), arch_ptx_target(), &e);
    if (!m) fail_msg("%s: %s", modules[i], e.msg);
    for (int k = 0; k < m->nkernels; k++) {
      if (m->kernels[k].unsupported) continue;
      EmuProgram p;
      if (emu_prepare(&p, m, &m->kernels[k], 0x700000000000ull, &e))
        fail_msg("%s: kernel %s: %s", modules[i], m->kernels[k].name, e.msg);
      /* every branch's reconvergence point is an instruction or the exit */
      for (int j = 0; j < p.ncode; j++)
        if (p.code[j].op == PTX_OP_BRA) assert_true(p.code[j].rpc <= (uint32_t)p.ncode);
      emu_program_free(&p);
      prepared++;
    }
    ptx_module_free(m);
  }
  assert_true(prepared >= 60);
}

/* if/else: the branch around the then-part reconverges after the else-part,
 * at the first instruction both paths reach. */
static void test_reconverges_after_if_else(void **state) {
  (void)state;
  static const char ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 k_p)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<4>;\n"
    " mov.u32 %r1, %tid.x;\n"              /* 0 */
    " setp.lt.u32 %p1, %r1, 16;\n"         /* 1 */
    " @%p1 bra $THEN;\n"                   /* 2 */
    " add.s32 %r2, %r1, 2;\n"              /* 3: else */
    " bra.uni $JOIN;\n"                    /* 4 */
    "$THEN:\n add.s32 %r2, %r1, 1;\n"      /* 5: then */
    "$JOIN:\n add.s32 %r3, %r2, 1;\n"      /* 6: join */
    " ret;\n}\n";
  WmErr e = {0};
  PtxModule *m = ptx_parse("if.ptx", strdup(ptx), &e);
  if (!m) fail_msg("%s", e.msg);
  EmuProgram p;
  assert_int_equal(emu_prepare(&p, m, &m->kernels[0], 0, &e), 0);
  assert_int_equal(p.code[2].op, PTX_OP_BRA);
  assert_int_equal(p.code[2].target, 5);
  assert_int_equal(p.code[2].rpc, 6);
  emu_program_free(&p);
  ptx_module_free(m);
}

/* Reductions ptxas aggregates (emu_uniform.c): an integer add to a
 * compiler-provable uniform address (a __device__ variable; an address
 * from parameters and %ctaid) reaches memory from one lane, as the H100
 * counts it, when its value is uniform too or is 32 bits (REDUX.SUM adds
 * the lanes' values: the lab's atomic_sum in SASS; in shared memory too:
 * atomic_sum_hier); a %tid-dependent
 * address, a 64-bit per-thread value, a float add, or an atom whose result
 * is read keeps every lane. */
static void test_aggregated_reductions(void **state) {
  (void)state;
  static const char ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".global .align 4 .u32 ctr;\n"
    ".visible .entry k(.param .u64 k_p)\n{\n"
    " .reg .b32 %r<8>;\n .reg .b64 %rd<8>;\n .reg .f32 %f<2>;\n .shared .align 4 .u32 sh;\n"
    " mov.u64 %rd1, ctr;\n"                          /* 0 */
    " atom.global.add.u32 %r1, [%rd1], 1;\n"         /* 1: aggregated (result unused: a RED) */
    " ld.param.u64 %rd2, [k_p];\n"                   /* 2 */
    " mov.u32 %r2, %ctaid.x;\n"                      /* 3 */
    " mul.wide.u32 %rd3, %r2, 4;\n"                  /* 4 */
    " add.s64 %rd4, %rd2, %rd3;\n"                   /* 5 */
    " red.global.add.u32 [%rd4], %r2;\n"             /* 6: aggregated: per block */
    " mov.u32 %r3, %tid.x;\n"                        /* 7 */
    " red.global.add.u32 [%rd1], %r3;\n"             /* 8: a per-thread value: REDUX.SUM, aggregated */
    " mul.wide.u32 %rd5, %r3, 4;\n"                  /* 9 */
    " add.s64 %rd6, %rd2, %rd5;\n"                   /* 10 */
    " red.global.add.u32 [%rd6], 1;\n"               /* 11: a per-thread address */
    " red.global.add.f32 [%rd1], 0f3F800000;\n"      /* 12: float: order matters */
    " atom.global.add.u32 %r4, [%rd1], 1;\n"         /* 13: its result is read */
    " st.global.u32 [%rd6], %r4;\n"                  /* 14 */
    " cvt.u64.u32 %rd7, %r3;\n"                      /* 15 */
    " red.global.add.u64 [%rd1], %rd7;\n"            /* 16: a per-thread 64-bit value */
    " red.shared.add.u32 [sh], %r3;\n"               /* 17: shared, the same: aggregated */
    " ret;\n}\n";
  WmErr e = {0};
  PtxModule *m = ptx_parse("agg.ptx", strdup(ptx), &e);
  if (!m) fail_msg("%s", e.msg);
  EmuProgram p;
  assert_int_equal(emu_prepare(&p, m, &m->kernels[0], 0x700000000000ull, &e), 0);
  const int agg[] = {1, 6, 8, 17}, every[] = {11, 12, 13, 16};
  for (int i = 0; i < 4; i++) assert_int_equal(p.code[agg[i]].fuse, FUSE_AGGREGATE);
  for (int i = 0; i < 4; i++) assert_int_equal(p.code[every[i]].fuse, FUSE_NONE);
  emu_program_free(&p);
  ptx_module_free(m);
}

/* In a device function: a reduction of an immediate to a __device__
 * variable is aggregated; one of the function's parameter (each thread's
 * argument, read from its frame) widened to 64 bits is not (no REDUX for
 * it). */
static void test_aggregated_in_function(void **state) {
  (void)state;
  static const char ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".global .align 4 .u32 ctr;\n"
    ".func f(.param .b32 f_p)\n{\n .reg .b32 %r<3>;\n .reg .b64 %rd<3>;\n"
    " ld.param.b32 %r1, [f_p];\n mov.u64 %rd1, ctr;\n cvt.u64.u32 %rd2, %r1;\n"
    " red.global.add.u32 [%rd1], 1;\n red.global.add.u64 [%rd1], %rd2;\n ret;\n}\n"
    ".visible .entry k(.param .u64 k_p)\n{\n .reg .b32 %r<3>;\n mov.u32 %r1, %tid.x;\n"
    " { .param .b32 param0;\n st.param.b32 [param0+0], %r1;\n call.uni f, (param0);\n }\n ret;\n}\n";
  WmErr e = {0};
  PtxModule *m = ptx_parse("aggf.ptx", strdup(ptx), &e);
  if (!m) fail_msg("%s", e.msg);
  EmuProgram p;
  assert_int_equal(emu_prepare(&p, m, &m->kernels[0], 0x700000000000ull, &e), 0);
  int reds = 0;
  for (int i = 0; i < p.ncode; i++) {
    if (p.code[i].op != PTX_OP_RED) continue;
    reds++;
    int immediate = p.code[i].s[0] >= p.const_base;
    assert_int_equal(p.code[i].fuse, immediate ? FUSE_AGGREGATE : FUSE_NONE);
  }
  assert_int_equal(reds, 2);
  emu_program_free(&p);
  ptx_module_free(m);
}

/* A half type chooses its function when the kernel is prepared: the
 * arithmetic of f16/bf16 gets one, moves and f32 keep the row's; a half
 * form PTX lacks is refused at its line and column. */
static void test_half_chosen_at_prepare(void **state) {
  (void)state;
  static const char ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 k_p)\n{\n"
    " .reg .b16 %h<4>;\n .reg .b32 %r<4>;\n .reg .f32 %f<4>;\n"
    " mov.b16 %h1, 0x3c00;\n"            /* 0: bits only */
    " add.rn.f16 %h2, %h1, %h1;\n"        /* 1 */
    " fma.rn.bf16x2 %r1, %r2, %r2, %r2;\n" /* 2 */
    " add.f32 %f1, %f2, %f2;\n"           /* 3 */
    " cvt.f32.f16 %f3, %h2;\n"            /* 4 */
    " ret;\n}\n";
  WmErr e = {0};
  PtxModule *m = ptx_parse("h.ptx", strdup(ptx), &e);
  if (!m) fail_msg("%s", e.msg);
  EmuProgram p;
  assert_int_equal(emu_prepare(&p, m, &m->kernels[0], 0, &e), 0);
  assert_int_equal(p.code[0].half, 0);
  assert_int_not_equal(p.code[1].half, 0);
  assert_int_not_equal(p.code[2].half, 0);
  assert_int_not_equal(p.code[1].half, p.code[2].half); /* add and fma differ */
  assert_int_equal(p.code[3].half, 0);
  assert_int_not_equal(p.code[4].half, 0);
  emu_program_free(&p);
  ptx_module_free(m);

  static const char bad[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 k_p)\n{\n"
    " .reg .b16 %h<4>;\n"
    " rcp.approx.f16 %h1, %h2;\n"
    " ret;\n}\n";
  m = ptx_parse("b.ptx", strdup(bad), &e);
  if (!m) fail_msg("%s", e.msg);
  assert_int_not_equal(emu_prepare(&p, m, &m->kernels[0], 0, &e), 0);
  assert_int_equal(e.code, WM_EUNSUP);
  if (!strstr(e.msg, "b.ptx:7:2: cannot emulate 'rcp.approx.f16 %h1, %h2': no half-precision form of rcp.f16"))
    fail_msg("unexpected message: %s", e.msg);
  ptx_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_prepare_every_kernel),
    cmocka_unit_test(test_reconverges_after_if_else),
    cmocka_unit_test(test_half_chosen_at_prepare),
    cmocka_unit_test(test_aggregated_reductions),
    cmocka_unit_test(test_aggregated_in_function),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
