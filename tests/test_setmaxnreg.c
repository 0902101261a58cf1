/* test_setmaxnreg.c - setmaxnreg as warp-specialised kernels use it: a
 * producer warpgroup gives registers back (.dec) and two consumer
 * warpgroups take them (.inc), in a block of 384 threads at the 168
 * registers a thread ptxas gives __launch_bounds__(384, 1) (65536 / 384
 * rounded down to 8): 40 x 128 + 232 x 256 = 168 x 384, the pool exactly.
 * Then what the PTX ISA forbids, and an .inc the pool can never satisfy
 * (a located deadlock), and the occupancy's note. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "testutil.h"

/* A kernel: warpgroup 0 runs `dec` (a setmaxnreg line or nothing), the
 * others `inc`; each thread then stores its warpgroup + 1. */
static char *kernel_ptx(const char *dec, const char *inc) {
  static char text[4096];
  snprintf(text, sizeof text,
           ".version 8.0\n.target sm_90\n.address_size 64\n"
           ".visible .entry ws(.param .u64 out) {\n"
           "  .reg .b32 %%r<8>;\n  .reg .b64 %%rd<4>;\n  .reg .pred %%p<3>;\n"
           "  ld.param.u64 %%rd1, [out];\n  cvta.to.global.u64 %%rd1, %%rd1;\n"
           "  mov.u32 %%r1, %%tid.x;\n  shr.u32 %%r2, %%r1, 7;\n"
           "  setp.eq.u32 %%p1, %%r2, 0;\n  @%%p1 bra PRODUCER;\n"
           "  %s\n  bra.uni DONE;\n"
           "PRODUCER:\n  %s\n"
           "DONE:\n  add.u32 %%r3, %%r2, 1;\n  mul.wide.u32 %%rd2, %%r1, 4;\n  add.u64 %%rd3, %%rd1, %%rd2;\n"
           "  st.global.u32 [%%rd3], %%r3;\n  ret;\n}\n",
           inc, dec);
  return tu_temp_file(".ptx", text);
}

/* Runs ws on one block of `threads` threads at `regs` registers a thread
 * (0: unknown); 0 with run filled, or -1 with the message in *e. */
static int run_ws(const char *dec, const char *inc, int threads, int regs, SimRun *run, WmErr *e) {
  char *path = kernel_ptx(dec, inc);
  PtxModule *m = tu_load(path);
  LaunchSpec *ls = calloc(1, sizeof *ls);
  assert_non_null(ls);
  snprintf(ls->name, sizeof ls->name, "ws");
  snprintf(ls->label, sizeof ls->label, "ws");
  ls->grid[0] = ls->grid[1] = ls->grid[2] = 1;
  ls->block[0] = (uint32_t)threads, ls->block[1] = ls->block[2] = 1;
  assert_int_equal(launch_parse_arg("buf:u32:384:zero", &ls->args[ls->nargs++], e), 0);
  SimOptions o;
  sim_options_init(&o);
  o.keep_buffers = 1;
  o.regs = regs;
  memset(run, 0, sizeof *run);
  int rc = sim_run_launch(m, ls, &o, run, e);
  free(ls);
  ptx_module_free(m);
  unlink(path);
  free(path);
  return rc;
}

static void expect_fails(const char *dec, const char *inc, int threads, int code, const char *needle) {
  SimRun run;
  WmErr e = {0};
  if (run_ws(dec, inc, threads, 168, &run, &e) == 0) fail_msg("ran without an error (expected '%s')", needle);
  sim_run_free(&run);
  if (e.code != code) fail_msg("error code %d, expected %d: %s", e.code, code, e.msg);
  if (!strstr(e.msg, needle)) fail_msg("expected '%s' in: %s", needle, e.msg);
}

static void test_producer_consumer(void **state) {
  (void)state;
  SimRun run;
  WmErr e = {0};
  /* the consumers run first (warps in order, the producer is warp 0..3:
   * they ask before it gives) and wait until it has given back */
  if (run_ws("setmaxnreg.dec.sync.aligned.u32 40;", "setmaxnreg.inc.sync.aligned.u32 232;", 384, 168, &run, &e))
    fail_msg("%s", e.msg);
  const uint32_t *out = tu_arg_buf(&run, 0, 4, 384);
  for (int t = 0; t < 384; t++)
    if (out[t] != (uint32_t)(t / 128 + 1)) fail_msg("out[%d] = %u, expected %d", t, out[t], t / 128 + 1);
  if (!strstr(run.occ_note, "setmaxnreg redistributes the block's 168 registers a thread between its warpgroups"))
    fail_msg("occupancy note: %s", run.occ_note);
  assert_int_equal(run.occ.blocks_sm, 1); /* blocks per SM: the 168 registers at launch */
  sim_run_free(&run);
  /* registers unknown: only the counts are checked */
  if (run_ws("setmaxnreg.dec.sync.aligned.u32 40;", "setmaxnreg.inc.sync.aligned.u32 240;", 384, 0, &run, &e))
    fail_msg("%s", e.msg);
  sim_run_free(&run);
}

static void test_errors(void **state) {
  (void)state;
  /* 2 x 128 x (240 - 168) = 18432 wanted, 128 x (168 - 40) = 16384 given back */
  expect_fails("setmaxnreg.dec.sync.aligned.u32 40;", "setmaxnreg.inc.sync.aligned.u32 240;", 384, WM_EDEADLOCK,
               "register deadlock in kernel ws");
  /* warps 4..10 took 7 x 32 x 72 = 16128 of the 16384: 256 left, warp 11 wants 2304 */
  expect_fails("setmaxnreg.dec.sync.aligned.u32 40;", "setmaxnreg.inc.sync.aligned.u32 240;", 384, WM_EDEADLOCK,
               "warp 11 waits at PTX");
  expect_fails("setmaxnreg.dec.sync.aligned.u32 40;", "setmaxnreg.inc.sync.aligned.u32 240;", 384, WM_EDEADLOCK,
               "in setmaxnreg.inc for 240 registers a thread (it has 168; the block's pool has 256 free, of 168 x 384");
  expect_fails("setmaxnreg.dec.sync.aligned.u32 44;", "", 384, WM_EFAULT, "setmaxnreg count 44");
  expect_fails("setmaxnreg.dec.sync.aligned.u32 264;", "", 384, WM_EFAULT, "setmaxnreg count 264");
  expect_fails("setmaxnreg.dec.sync.aligned.u32 200;", "", 384, WM_EFAULT, "must not lower the count nor .dec raise it");
  expect_fails("", "setmaxnreg.inc.sync.aligned.u32 160;", 384, WM_EFAULT, "must not lower the count");
  expect_fails("setmaxnreg.dec.sync.aligned.u32 40;", "", 96, WM_EFAULT, "the block's last one is not whole");
  /* half of warp 0 only */
  expect_fails("setp.lt.u32 %p2, %r1, 16;\n  @%p2 setmaxnreg.dec.sync.aligned.u32 40;", "", 384, WM_EFAULT,
               "every thread of the warpgroup must execute it");
  /* warps of one warpgroup asking for different counts */
  expect_fails("setp.lt.u32 %p2, %r1, 64;\n  @%p2 bra LOW;\n  setmaxnreg.dec.sync.aligned.u32 48;\n  bra.uni DONE;\n"
               "LOW:\n  setmaxnreg.dec.sync.aligned.u32 40;",
               "", 384, WM_EFAULT, "the warpgroup's warps must execute the same setmaxnreg");
}

/* The parser wants .inc or .dec. */
static void test_parse(void **state) {
  (void)state;
  char *path = kernel_ptx("setmaxnreg.sync.aligned.u32 40;", "");
  WmErr e = {0};
  char *text = wm_read_file(path, NULL, &e);
  assert_non_null(text);
  PtxModule *m = ptx_parse(path, text, &e);
  if (m) {
    const PtxKernel *k = ptx_find_kernel(m, "ws", &e);
    assert_null(k);
    ptx_module_free(m);
  }
  if (!strstr(e.msg, "needs an operation modifier")) fail_msg("%s", e.msg);
  unlink(path);
  free(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_producer_consumer),
    cmocka_unit_test(test_errors),
    cmocka_unit_test(test_parse),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
