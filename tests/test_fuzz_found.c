/* test_fuzz_found.c - the faults the fuzz harnesses found (docs/fuzzing.md),
 * each through the library call that had it, with the located error or the
 * result it gives now.  (The inputs themselves are in fuzz/corpus, replayed
 * under ASan and UBSan by test_fuzz_corpus.) */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"
#include "ptx/ptx_merge.h"
#include "testutil.h"

static char *merge2(const char *a, const char *b, WmErr *e) {
  const char *texts[2] = {a, b}, *names[2] = {"u0.ptx", "u1.ptx"};
  return ptx_merge(texts, names, 2, e);
}

/* A unit ending inside its header (".target" and nothing after): the
 * linker read tokens past the end of the unit's; now the header is copied
 * as it is and the parser locates the missing target (which it used to
 * take from the next directive: `.target .file`). */
static void test_merge_unit_ends_in_header(void **state) {
  WmErr e = {0};
  char *text = merge2(".version 8.0\n.target", ".version 7.0\n.target sm_90\n.address_size 64\n.file", &e);
  assert_non_null(text);
  assert_non_null(strstr(text, ".version 8.0\n.target"));
  PtxModule *m = ptx_parse("merged.ptx", text, &e);
  assert_null(m);
  assert_int_equal(e.code, WM_EPARSE);
  assert_non_null(strstr(e.msg, "merged.ptx:2:8: expected a target"));
}

/* .file numbers were added up over the units in an int (2e9 + 2e9
 * overflowed): a number over 0xffff, which ptx_parse refuses too, is
 * refused where it is written. */
static void test_merge_file_number_too_large(void **state) {
  WmErr e = {0};
  char *text = merge2(".file 1 \"a.cu\"\n", ".version 8.0\n.file 2000000000 \"b.cu\"\n", &e);
  assert_null(text);
  assert_int_equal(e.code, WM_EPARSE);
  assert_non_null(strstr(e.msg, "u1.ptx:2:7: file number too large"));
  assert_non_null(strstr(e.msg, "^"));
}

/* A .loc file number of 2^63-1 in a later unit overflowed when moved past
 * the earlier units' files; a number the parser would refuse is now left
 * as written (and ptx_parse ignores a .loc naming no .file). */
static void test_merge_loc_number_huge(void **state) {
  WmErr e = {0};
  char *text = merge2(".file 5 \"a.cu\"\n", ".file 1 \"b.cu\"\n.entry k()\n{\n.loc 9223372036854775807 1 1\n.loc 1 2 3\nret;\n}\n", &e);
  assert_non_null(text);
  assert_non_null(strstr(text, ".file 6 \"b.cu\""));
  assert_non_null(strstr(text, ".loc 9223372036854775807 1 1"));
  assert_non_null(strstr(text, ".loc 6 2 3"));
  free(text);
}

/* A .func declaration with an unclosed '(' before its ';' made the linker
 * look for the function's name forever; now it has none, the statement is
 * copied and the parser refuses it. */
static void test_merge_func_unclosed_paren(void **state) {
  WmErr e = {0};
  char *text = merge2(".func .x (;", ".version 8.0\n", &e);
  assert_non_null(text);
  assert_non_null(strstr(text, ".func .x (;"));
  PtxModule *m = ptx_parse("merged.ptx", text, &e);
  assert_null(m);
  assert_int_equal(e.code, WM_EPARSE);
  assert_non_null(strstr(e.msg, "unbalanced '(' in a .func declaration"));
  assert_non_null(strstr(e.msg, "merged.ptx:"));
}

/* A module whose first .global variable has 0 bytes (`.b8 a[0]`): the
 * parser computed its initializer's place as NULL + 0 (UBSan: applying
 * zero offset to null pointer); the segment now exists from the first
 * variable, and the module parses as before. */
static void test_parse_first_global_empty(void **state) {
  WmErr e = {0};
  PtxModule *m = ptx_parse("z0.ptx",
                           wm_xstrdup(".version 8.0\n.target sm_90\n.address_size 64\n"
                                      ".global .align 4 .b8 a[0];\n.const .align 4 .b8 c[0];\n"
                                      ".visible .entry k() { ret; }\n"),
                           &e);
  if (!m) fail_msg("%s", e.msg);
  assert_int_equal(m->nvars, 2);
  assert_int_equal(m->global_size, 0);
  assert_int_equal(m->const_size, 0);
  assert_non_null(m->global_init);
  ptx_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_merge_unit_ends_in_header),
      cmocka_unit_test(test_merge_file_number_too_large),
      cmocka_unit_test(test_merge_loc_number_huge),
      cmocka_unit_test(test_merge_func_unclosed_paren),
      cmocka_unit_test(test_parse_first_global_empty),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
