/* test_isa.c - the one table of instructions (ptx_ops.h) and what is made
 * from it: every row parses with its shape's operands and runs through its
 * exec function, `warpmem isa` lists every row, and
 * docs/ptx-instructions.md is what `warpmem isa --format markdown` prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ptx/ptx.h"
#include "testutil.h"
#include "util/diag.h"

/* The documented list is the generated one (regenerate with
 * `build/warpmem isa --format markdown > docs/ptx-instructions.md`). */
static void test_docs_list_is_generated(void **state) {
  (void)state;
  char *out = NULL;
  assert_int_equal(tu_run_cli("isa --format markdown", &out, NULL), 0);
  WmErr e = {0};
  char *doc = wm_read_file(WM_SOURCE_DIR "/docs/ptx-instructions.md", NULL, &e);
  assert_non_null(doc);
  if (strcmp(out, doc) != 0)
    fail_msg("docs/ptx-instructions.md differs from `warpmem isa --format markdown`: regenerate it with\n"
             "  build/warpmem isa --format markdown > docs/ptx-instructions.md");
  free(doc);
  free(out);
}

/* Every row is listed once, under its mnemonic. */
static void test_every_row_listed(void **state) {
  (void)state;
  char *out = NULL;
  assert_int_equal(tu_run_cli("isa --format markdown", &out, NULL), 0);
  for (int op = 0; op < PTX_OP_COUNT; op++) {
    char cell[64];
    snprintf(cell, sizeof cell, "| `%s` |", ptx_op[op].name);
    const char *at = strstr(out, cell);
    assert_non_null(at);
    assert_null(strstr(at + 1, cell));
  }
  free(out);
  char *one = NULL;
  assert_int_equal(tu_run_cli("isa shfl", &one, NULL), 0);
  assert_non_null(strstr(one, "d[|p], a, b, c[, mask]"));
  free(one);
  assert_int_equal(tu_run_cli("isa nosuchop", NULL, NULL), 2);
}

/* The table's columns agree with each other: an exec function for every
 * row, a valid shape, immediates typed only with known letters, and memory
 * instructions taking an address. */
static void test_columns_consistent(void **state) {
  (void)state;
  for (int op = 0; op < PTX_OP_COUNT; op++) {
    const PtxOpInfo *o = &ptx_op[op];
    assert_true(o->exec && o->exec[0]);
    assert_true(o->shape < PTX_SH_COUNT);
    assert_true(o->sem && o->sem[0]);
    for (const char *c = o->imm; *c; c++) assert_non_null(strchr("t2ubp", *c));
    if (o->flags & OPF_MEM)
      assert_true(o->shape == PTX_SH_LD || o->shape == PTX_SH_ST || o->shape == PTX_SH_ATOM ||
                  o->shape == PTX_SH_RED || o->shape == PTX_SH_MLOAD || o->shape == PTX_SH_MSTORE ||
                  o->shape == PTX_SH_CPASYNC || o->shape == PTX_SH_BULK || o->shape == PTX_SH_TMA ||
                  o->shape == PTX_SH_TMAP_OP);
    if (!strcmp(o->exec, "simt")) assert_true(o->flags & (OPF_BRANCH | OPF_EXIT | OPF_BARRIER));
  }
}

/* fns (added from the table alone): the PTX ISA's four examples, run in the
 * emulator; 0xaaaaaaaa has every odd bit set. */
static void test_fns_runs(void **state) {
  (void)state;
  const char *ptx =
      ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".visible .entry k(.param .u64 out) {\n"
      "  .reg .b32 %r<6>;\n  .reg .b64 %rd<3>;\n"
      "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd2, %rd1;\n"
      "  fns.b32 %r1, 0xaaaaaaaa, 3, 1;\n  st.global.u32 [%rd2], %r1;\n"
      "  fns.b32 %r2, 0xaaaaaaaa, 3, -1;\n  st.global.u32 [%rd2+4], %r2;\n"
      "  fns.b32 %r3, 0xaaaaaaaa, 2, 1;\n  st.global.u32 [%rd2+8], %r3;\n"
      "  fns.b32 %r4, 0xaaaaaaaa, 2, -1;\n  st.global.u32 [%rd2+12], %r4;\n"
      "  fns.b32 %r5, 0xaaaaaaaa, 2, 0;\n  st.global.u32 [%rd2+16], %r5;\n"
      "  ret;\n}\n";
  char *path = tu_temp_file(".ptx", ptx);
  char dir[] = "/tmp/wm_fns_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "sim %s --kernel k --grid 1 --block 1 --arg buf:u32:5:zero --dump %s --no-caches",
           path, dir);
  char *err = NULL;
  int st = tu_run_cli(cmd, NULL, &err);
  if (st) fail_msg("warpmem sim failed: %s", err ? err : "");
  free(err);
  uint32_t got[5];
  tu_read_dump(dir, "k.arg0.u32.bin", got, sizeof got);
  assert_int_equal(got[0], 3);
  assert_int_equal(got[1], 3);
  assert_int_equal(got[2], 3);
  assert_int_equal(got[3], 1);
  assert_int_equal(got[4], 0xffffffffu); /* offset 0: bit 2 is clear */
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  assert_int_equal(system(cmd), 0);
  unlink(path);
  free(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_docs_list_is_generated),
    cmocka_unit_test(test_every_row_listed),
    cmocka_unit_test(test_columns_consistent),
    cmocka_unit_test(test_fns_runs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
