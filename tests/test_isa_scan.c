/* test_isa_scan.c - `warpmem isa --scan`: one line per kernel (ok, or
 * refused with the reason's key, the CUDA line from .loc and the PTX
 * location), the summary grouped by reason, the JSON form and the exit
 * statuses (0 nothing refused, 3 something refused, 1 a file not loaded,
 * 2 usage).  The refused kernel uses an instruction no PTX ISA has, so the
 * test does not change as warpmem learns real ones. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "util/diag.h"

#define HEAD ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"/src/demo/kern.cu\"\n"

/* Line 9 holds the refused instruction; .loc puts it on kern.cu:42. */
static const char *two_kernels = HEAD
    ".visible .entry good(.param .u64 out) {\n"        /* 5 */
    "  .reg .b64 %rd<2>;\n"                            /* 6 */
    "  ld.param.u64 %rd1, [out];\n"                    /* 7 */
    "  ret;\n}\n"                                      /* 8-9 */
    ".visible .entry bad(.param .u64 out) {\n"         /* 10 */
    "  .reg .b32 %r<2>;\n"                             /* 11 */
    "  .loc 1 42 7\n"                                  /* 12 */
    "  frobnicate.b32 %r1, %r1;\n"                     /* 13 */
    "  ret;\n}\n"
    ".visible .entry worse(.param .u64 out) {\n"
    "  .reg .b32 %r<2>;\n"
    "  frobnicate.b32 %r1, %r1;\n"
    "  ret;\n}\n";

static const char *one_good = HEAD
    ".visible .entry fine(.param .u64 out) {\n"
    "  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [out];\n  ret;\n}\n";

/* Two instances of one template: the C++ name alone would not tell them
 * apart, so each line adds its PTX name. */
static const char *twins = HEAD
    ".visible .entry _Z3dupIiEvPT_(.param .u64 a) {\n  ret;\n}\n"
    ".visible .entry _Z3dupIfEvPT_(.param .u64 a) {\n  ret;\n}\n";

static char dir[] = "/tmp/wmscanXXXXXX";

static const char *write_ptx(const char *name, const char *text) {
  static char path[4][256];
  static int next;
  char *p = path[next++ % 4];
  snprintf(p, sizeof path[0], "%s/%s", dir, name);
  FILE *f = fopen(p, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
  return p;
}

static int setup(void **state) {
  (void)state;
  return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  const char *names[] = {"two.ptx", "good.ptx", "broken.ptx", "twins.ptx"};
  for (int i = 0; i < 4; i++) {
    char p[300];
    snprintf(p, sizeof p, "%s/%s", dir, names[i]);
    unlink(p);
  }
  rmdir(dir);
  return 0;
}

static char *scan(const char *args, int expect_status) {
  char cmd[1024], *out = NULL;
  snprintf(cmd, sizeof cmd, "isa --scan %s", args);
  int st = tu_run_cli(cmd, &out, NULL);
  assert_non_null(out);
  if (st != expect_status) fail_msg("`warpmem %s` exited %d, not %d:\n%s", cmd, st, expect_status, out);
  return out;
}

/* The line of `out` that contains `needle`, as a new string. */
static char *line_with(const char *out, const char *needle) {
  const char *p = strstr(out, needle);
  if (!p) fail_msg("no line with '%s' in:\n%s", needle, out);
  while (p > out && p[-1] != '\n') p--;
  return wm_xstrndup(p, strcspn(p, "\n"));
}

static void test_lines_and_summary(void **state) {
  (void)state;
  char *out = scan(write_ptx("two.ptx", two_kernels), 3);
  char *head = line_with(out, "two.ptx:");
  assert_string_equal(strstr(head, "two.ptx:"), "two.ptx: 3 kernels, 2 refused");
  char *good = line_with(out, " good");
  assert_string_equal(good, "  ok       good");
  char *bad = line_with(out, " bad ");
  assert_non_null(strstr(bad, "  refused  bad  [frobnicate.b32]  at kern.cu:42, PTX "));
  assert_non_null(strstr(bad, "two.ptx:13:3: unsupported instruction 'frobnicate.b32'"));
  char *worse = line_with(out, " worse ");
  assert_non_null(strstr(worse, "[frobnicate.b32]  at "));
  assert_null(strstr(worse, "kern.cu")); /* no .loc in that kernel */
  assert_non_null(strstr(out, "\ntotal: 1 file, 3 kernels, 2 refused\n"));
  assert_non_null(strstr(out, "refusals by reason, most common first:\n      2  frobnicate.b32\n"));
  free(head), free(good), free(bad), free(worse), free(out);
}

static void test_nothing_refused_is_status_0(void **state) {
  (void)state;
  char *out = scan(write_ptx("good.ptx", one_good), 0);
  assert_non_null(strstr(out, "  ok       fine\n"));
  assert_non_null(strstr(out, "total: 1 file, 1 kernels, 0 refused\n"));
  assert_null(strstr(out, "refusals by reason"));
  free(out);
}

static void test_template_twins_named(void **state) {
  (void)state;
  char *out = scan(write_ptx("twins.ptx", twins), 0);
  assert_non_null(strstr(out, "  ok       dup (_Z3dupIiEvPT_)\n  ok       dup (_Z3dupIfEvPT_)\n"));
  free(out);
}

static void test_json(void **state) {
  (void)state;
  char args[700];
  const char *two = write_ptx("two.ptx", two_kernels);
  snprintf(args, sizeof args, "%s %s --format json", two, write_ptx("good.ptx", one_good));
  char *out = scan(args, 3);
  json_error_t je;
  json_t *root = json_loads(out, 0, &je);
  if (!root) fail_msg("not JSON (%s):\n%s", je.text, out);
  assert_int_equal(json_integer_value(json_object_get(root, "kernels")), 4);
  assert_int_equal(json_integer_value(json_object_get(root, "refused")), 2);
  json_t *files = json_object_get(root, "files");
  assert_int_equal(json_array_size(files), 2);
  json_t *bad = json_array_get(json_object_get(json_array_get(files, 0), "results"), 1);
  assert_string_equal(json_string_value(json_object_get(bad, "plain_name")), "bad");
  assert_string_equal(json_string_value(json_object_get(bad, "status")), "refused");
  assert_string_equal(json_string_value(json_object_get(bad, "reason")), "frobnicate.b32");
  assert_string_equal(json_string_value(json_object_get(bad, "cuda_line")), "kern.cu:42");
  json_t *r0 = json_array_get(json_object_get(root, "by_reason"), 0);
  assert_string_equal(json_string_value(json_object_get(r0, "reason")), "frobnicate.b32");
  assert_int_equal(json_integer_value(json_object_get(r0, "count")), 2);
  json_decref(root);
  free(out);
}

/* PTX warpmem does not parse refuses its whole file: each of its entries is
 * listed as refused, the other files are still scanned (status 3); a file
 * that cannot be read is an error (status 1). */
static void test_whole_file_refused(void **state) {
  (void)state;
  char args[700];
  snprintf(args, sizeof args, "%s %s",
           write_ptx("broken.ptx", HEAD ".visible .entry k1(.param .u64 a) {\n  ret;\n}\n"
                                   ".visible .entry _Z2k2Pf(.param .u64 a) {\n  ret;\n}\n"
                                   ".frobnicate 3;\n"),
           write_ptx("good.ptx", one_good));
  char *out = scan(args, 3);
  assert_non_null(strstr(out, "broken.ptx: refused as a whole (2 kernels): "));
  char *k2 = line_with(out, " k2 ");
  assert_non_null(strstr(k2, "  refused  k2  ["));
  assert_non_null(strstr(k2, "broken.ptx:11:"));
  assert_non_null(strstr(out, "  ok       fine\n"));
  assert_non_null(strstr(out, "total: 2 files, 3 kernels, 2 refused\n"));
  free(k2);
  free(out);
  out = scan("/nonexistent/x.ptx", 1);
  assert_non_null(strstr(out, "x.ptx: error: "));
  assert_non_null(strstr(out, "1 file not loaded"));
  free(out);
}

static void test_usage(void **state) {
  (void)state;
  assert_int_equal(tu_run_cli("isa --scan", NULL, NULL), 2);
  assert_int_equal(tu_run_cli("isa --format json", NULL, NULL), 2);
  assert_int_equal(tu_run_cli("isa --scan x.cu --arch 90", NULL, NULL), 2);
  assert_int_equal(tu_run_cli("isa --scan x.ptx --format markdown", NULL, NULL), 2);
  char *out = NULL;
  assert_int_equal(tu_run_cli("isa --help", &out, NULL), 0);
  assert_non_null(strstr(out, "--scan FILE..."));
  free(out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lines_and_summary),    cmocka_unit_test(test_nothing_refused_is_status_0),
      cmocka_unit_test(test_template_twins_named), cmocka_unit_test(test_json),
      cmocka_unit_test(test_whole_file_refused),   cmocka_unit_test(test_usage),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
