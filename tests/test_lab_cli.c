/* test_lab_cli.c - `warpmem lab` end to end, without a GPU (the driver name
 * points nowhere, so the same results come on a machine with one), and the
 * catalogue reader's located errors.
 *
 * Expected counters are first principles for the 512x512 transpose with
 * 32x32 blocks: a warp's 32 loads of consecutive floats are 4 sectors; the
 * naive kernel's 32 stores are 2 KB apart, one sector each; reading a column
 * of a 32x32 float tile is a 32-way bank conflict, and of a 32x33 one none.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/lab_catalogue.h"
#include "testutil.h"

static char *run_ok(const char *args) {
  char *out = NULL, *err = NULL;
  int rc = tu_run_cli(args, &out, &err);
  if (rc != 0) fail_msg("warpmem %s: exit %d\n%s", args, rc, err ? err : "");
  free(err);
  return out;
}

static json_t *find_named(json_t *arr, const char *key, const char *name) {
  size_t i;
  json_t *v;
  json_array_foreach(arr, i, v) {
    const char *s = json_string_value(json_object_get(v, key));
    if (s && !strcmp(s, name)) return v;
  }
  fail_msg("no %s %s", key, name);
  return NULL;
}

static json_int_t metric(json_t *launch, const char *name) {
  return json_integer_value(json_object_get(json_object_get(json_object_get(launch, "simulation"), "metrics"), name));
}

static void test_list(void **state) {
  (void)state;
  char *out = run_ok("lab --list");
  const char *groups[] = {"inc", "float3", "transpose", "matmul", "madd", "mm16", "smem_square", "smem_rect",
                          "adjdiff", "tiles", "sgemm", "local", "spaces", "atomics", "blocksize", "occupancy",
                          "words", "patterns", "aos_soa", "carveout"};
  for (size_t g = 0; g < sizeof groups / sizeof *groups; g++) {
    char head[64];
    snprintf(head, sizeof head, "\n%s (seed 00", groups[g]);
    if (!strstr(out, head) && strncmp(out, head + 1, strlen(head) - 1)) fail_msg("--list has no group %s", groups[g]);
  }
  assert_non_null(strstr(out, "tr_v4#8192"));
  assert_non_null(strstr(out, "gpu grid=128,128,1 block=16,16,1"));
  free(out);
}

/* One experiment as JSON: the structure, the seed's numbers, and the
 * counters that explain the transpose. */
static void test_json_transpose(void **state) {
  (void)state;
  char *out = run_ok("lab --only tr512 --format json --no-gpu");
  json_error_t je;
  json_t *root = json_loads(out, 0, &je);
  if (!root) fail_msg("not JSON: %s", je.text);
  assert_true(json_is_null(json_object_get(root, "gpu")));
  assert_string_equal(json_string_value(json_object_get(root, "no_gpu_reason")), "--no-gpu");
  json_t *groups = json_object_get(root, "groups");
  assert_int_equal(json_array_size(groups), 1);
  json_t *exps = json_object_get(json_array_get(groups, 0), "experiments");
  json_t *x = find_named(exps, "name", "tr512");
  assert_string_equal(json_string_value(json_object_get(x, "baseline")), "tr_naive#512");
  json_t *ls = json_object_get(x, "launches");
  assert_int_equal(json_array_size(ls), 5);
  json_t *naive = find_named(ls, "launch", "tr_naive#512"), *smem = find_named(ls, "launch", "tr_smem#512"),
         *pad = find_named(ls, "launch", "tr_pad#512");
  const char *ldr = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", *lds = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
  const char *str = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", *sts = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
  const char *swf = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", *sin = "smsp__inst_executed_op_shared_ld.sum";
  assert_int_equal(metric(naive, ldr), 8192); /* 512 * 512 / 32 warps, one load each */
  assert_int_equal(metric(naive, lds), 4 * 8192);
  assert_int_equal(metric(naive, sts), 32 * metric(naive, str));
  assert_int_equal(metric(smem, swf), 32 * metric(smem, sin));
  assert_int_equal(metric(pad, swf), metric(pad, sin));
  assert_true(json_real_value(json_object_get(pad, "seed_speedup")) == 8.0); /* "t=1" against "t=8" */
  assert_string_equal(json_string_value(json_object_get(naive, "seed_reported")), "t=8");
  assert_true(json_real_value(json_object_get(pad, "bytes")) == 2097152.0);
  assert_null(json_object_get(pad, "gpu"));
  json_decref(root);
  free(out);
}

/* Without a driver: says so, and still simulates. */
static void test_no_gpu_text(void **state) {
  (void)state;
  char *out = run_ok("lab --only rect");
  assert_non_null(strstr(out, "no GPU found ("));
  assert_non_null(strstr(out, "showing simulation only"));
  assert_non_null(strstr(out, "setRowReadColRectPad2"));
  assert_non_null(strstr(out, "16.0/1.0")); /* 16-way conflicted column reads of tile[16][32] */
  assert_null(strstr(out, "hot us"));       /* no measured columns */
  free(out);
  out = run_ok("lab --only rect --format markdown");
  assert_non_null(strstr(out, "| launch |"));
  assert_non_null(strstr(out, "## smem_rect (seed 002)"));
  free(out);
}

static void test_csv(void **state) {
  (void)state;
  char *out = run_ok("lab --only madd512 --format csv");
  assert_true(!strncmp(out, "group,experiment,launch,", 24));
  assert_non_null(strstr(out, "madd,madd512,madd_nc,madd_nc,262144,262144,1,3145728,0,16,16,"));
  assert_non_null(strstr(out, "madd,madd512,madd_c,madd_c,262144,262144,1,3145728,0,4,4,"));
  int lines = 0;
  for (const char *p = out; *p; p++) lines += *p == '\n';
  assert_int_equal(lines, 4);
  free(out);
}

static void test_out_dir(void **state) {
  (void)state;
  char dir[] = "/tmp/wmlabXXXXXX";
  assert_non_null(mkdtemp(dir));
  char args[256], path[300];
  snprintf(args, sizeof args, "lab --only dynsmem --out %s/r", dir);
  free(run_ok(args));
  snprintf(path, sizeof path, "%s/r/results.json", dir);
  json_error_t je;
  json_t *root = json_load_file(path, 0, &je);
  if (!root) fail_msg("%s: %s", path, je.text);
  assert_non_null(strstr(json_string_value(json_object_get(root, "command")), "--only dynsmem"));
  json_decref(root);
  snprintf(path, sizeof path, "%s/r/results.md", dir);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  char buf[4096];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  assert_non_null(strstr(buf, "# warpmem lab: simulation only"));
  assert_non_null(strstr(buf, "matrix_mult_mixed"));
  /* results.html: the page, with the launch's pictures (matrix_mult_mixed
   * reads its tiles from shared memory: a bank picture) */
  snprintf(path, sizeof path, "%s/r/results.html", dir);
  f = fopen(path, "r");
  assert_non_null(f);
  static char page[1 << 20];
  n = fread(page, 1, sizeof page - 1, f);
  page[n] = '\0';
  fclose(f);
  assert_non_null(strstr(page, "<!doctype html>"));
  assert_non_null(strstr(page, "data-launch=\"matrix_mult_mixed\""));
  assert_non_null(strstr(page, "data-space=\"shared\""));
  assert_non_null(strstr(page, "</html>"));
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

static void test_bad_only(void **state) {
  (void)state;
  char *err = NULL;
  assert_int_equal(tu_run_cli("lab --only nosuch", NULL, &err), 2);
  assert_non_null(strstr(err, "--only nosuch: no group, experiment, launch or kernel"));
  free(err);
  assert_int_equal(tu_run_cli("lab --format yaml", NULL, &err), 2);
  assert_non_null(strstr(err, "text, markdown, json, csv or html"));
  free(err);
}

/* ---- the catalogue reader's errors ------------------------------------------ */

static void parse_fails(const char *text, const char *want_loc, const char *want_msg) {
  LabCatalogue c;
  memset(&c, 0, sizeof c);
  WmErr e = {0};
  int rc = lab_catalogue_parse(&c, "cat.cu", text, &e);
  lab_catalogue_free(&c);
  if (rc == 0) fail_msg("accepted:\n%s", text);
  if (!strstr(e.msg, want_loc) || !strstr(e.msg, want_msg))
    fail_msg("message\n%s\nlacks '%s' and '%s'", e.msg, want_loc, want_msg);
}

#define HEAD "//! group: g\n//! seed: 000\n//! exp: x\n"
#define LAUNCH_A "//@ k grid=1 block=32 args=buf:f32:32\n"

static void test_catalogue_errors(void **state) {
  (void)state;
  parse_fails(HEAD LAUNCH_A "//! colour: red\n", "cat.cu:5:5:", "expected 'KEY: VALUE'");
  parse_fails("//! title: t\n", "cat.cu:1:5:", "before the first '//! group:'");
  parse_fails(HEAD LAUNCH_A "//! seed-says: x\n", "cat.cu:5:5:", "'seed-says:' belongs to an experiment");
  parse_fails("//! group: g\n" LAUNCH_A, "cat.cu:2:", "outside an experiment");
  parse_fails(HEAD LAUNCH_A "//! gpu: grid=2 block=32 args=buf:f32:64,i32:1,\n", "cat.cu:5:", "empty argument");
  parse_fails(HEAD "//! peak: copy\n" LAUNCH_A, "cat.cu:5:", "needs bytes");
  parse_fails(HEAD "//! peak: cublas\n", "cat.cu:4:", "peak: copy, none or 'cublas N'");
  parse_fails(HEAD LAUNCH_A "//! speedup: fast\n", "cat.cu:5:", "speedup: a positive number");
  parse_fails(HEAD LAUNCH_A "//! carveout: 120\n", "cat.cu:5:", "carveout: a percent");
  parse_fails(HEAD "//! exp: y\n" LAUNCH_A, "cat.cu:3:", "experiment 'x' has no //@ launch");
  parse_fails(HEAD LAUNCH_A "//! exp: x\n" "//@ k#2 grid=1 block=32 args=buf:f32:32\n", "cat.cu:5:", "defined twice");
  /* and a good one: defaults flow from the experiment to its launches */
  LabCatalogue c;
  memset(&c, 0, sizeof c);
  WmErr e = {0};
  const char *good = HEAD "//! bytes: 256\n//! peak: copy\n" LAUNCH_A "//! gpu: grid=4 block=32 args=buf:f32:128\n"
                          "//@ k#b grid=1 block=32 args=buf:f32:32\n//! bytes: 512\n//! tolerate: 3\n";
  if (lab_catalogue_parse(&c, "cat.cu", good, &e)) fail_msg("%s", e.msg);
  assert_int_equal(c.nlaunches, 2);
  assert_true(c.launches[0].bytes == 256 && c.launches[1].bytes == 512);
  assert_true(c.launches[0].scale == 4 && c.launches[1].scale == 1);
  assert_int_equal(c.launches[0].gpu.grid[0], 4);
  assert_int_equal(c.launches[1].tolerate, 3);
  assert_int_equal(c.launches[1].carveout, -1);
  assert_int_equal(c.exps[0].n, 2);
  lab_catalogue_free(&c);
}

/* tests/corpus is a catalogue too: one group per file, every //@ line of
 * every file a launch of it, and device printf kept out of a JSON report. */
static void test_corpus_catalogue(void **state) {
  (void)state;
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/tests/corpus", WM_SOURCE_DIR);
  LabCatalogue c;
  WmErr e = {0};
  if (lab_catalogue_load(&c, dir, &e)) fail_msg("%s", e.msg);
  assert_int_equal(c.ngroups, c.nfiles);
  for (int f = 0; f < c.nfiles; f++) {
    char *text = wm_read_file(c.files[f].cu, NULL, &e);
    assert_non_null(text);
    int lines = 0, launches = 0;
    for (const char *p = text; (p = strstr(p, "\n//@ ")); p++) lines++;
    if (!strncmp(text, "//@ ", 4)) lines++;
    for (int i = 0; i < c.nlaunches; i++) launches += c.launches[i].file == f;
    if (lines != launches) fail_msg("%s: %d //@ lines, %d launches in the catalogue", c.files[f].cu, lines, launches);
    free(text);
  }
  lab_catalogue_free(&c);
  char args[4200], *out = NULL;
  snprintf(args, sizeof args, "lab --dir %s --no-gpu --format json --only printf", dir);
  out = run_ok(args);
  json_error_t je;
  json_t *root = json_loads(out, 0, &je);
  if (!root) fail_msg("not JSON (%s): %.200s", je.text, out);
  assert_int_equal(json_array_size(json_object_get(root, "groups")), 1);
  json_decref(root);
  free(out);
}

int main(void) {
  setenv("WARPMEM_LIBCUDA", "/nonexistent/libcuda.so.1", 1); /* no GPU, even where there is one */
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_list),          cmocka_unit_test(test_json_transpose), cmocka_unit_test(test_no_gpu_text),
    cmocka_unit_test(test_csv),           cmocka_unit_test(test_out_dir),        cmocka_unit_test(test_bad_only),
    cmocka_unit_test(test_catalogue_errors), cmocka_unit_test(test_corpus_catalogue),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
