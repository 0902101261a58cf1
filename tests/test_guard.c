/* test_guard.c - never hang, never lose a report: the watchdog
 * (--max-instructions, --timeout), the spin watch on a grid whose blocks
 * wait for each other, the reports of the launches beside a stopped one in
 * every format, and the limits on input (docs/limits.md).
 *
 * The kernels are tests/guard/guard_kernels.cu (PTX committed beside it):
 * count_forever (for (;;) with a store, lines 26-28), poll_forever
 * (while (*flag != 12345) n++, line 36) and wait_for_all (a hand-made grid
 * barrier in a plain launch, line 44), each with a launch that ends around it. */
#include <jansson.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launch/launch.h"
#include "ptx/ptx.h"
#include "rt/rt_env.h"
#include "rt/rt_int.h"
#include "testutil.h"
#include "util/sys.h"

static char guard_ptx[4096];

static int setup(void **state) {
  (void)state;
  snprintf(guard_ptx, sizeof guard_ptx, "%s/../guard/ptx/guard_kernels.ptx", WM_TEST_DATA);
  unsetenv("WARPMEM_THREADS");
  return 0;
}

static void expect_in(const char *text, const char *what) {
  if (!text || !strstr(text, what)) fail_msg("expected '%s' in:\n%s", what, text ? text : "(null)");
}

/* The line after `where` in text is one of count_forever's loop (26-28). */
static void expect_loop_line(const char *text, const char *where) {
  expect_in(text, where);
  int line = atoi(strstr(text, where) + strlen(where));
  if (line < 26 || line > 28) fail_msg("line %d is not in count_forever's loop:\n%s", line, text);
}

/* Runs `warpmem ARGS` (with guard_ptx for %s) and returns its status; its
 * stdout and stderr in out/err, its wall time in *secs. */
static int run_guard(const char *args, char **out, char **err, double *secs) {
  char cmd[8192];
  snprintf(cmd, sizeof cmd, args, guard_ptx);
  double t0 = wm_now();
  int st = tu_run_cli(cmd, out, err);
  if (secs) *secs = wm_now() - t0;
  return st;
}

/* A spin whose registers change (poll_forever: a counter beside the flag)
 * ends at a small budget, with its source line, PTX line and block/warp. */
static void test_poll_forever_budget(void **state) {
  (void)state;
  char *out, *err;
  double s;
  assert_int_equal(run_guard("sim %s --kernel poll_forever --max-instructions 200000", &out, &err, &s), 4);
  expect_in(out, "watchdog: kernel _Z12poll_foreverPVjPj ran more than 200000 warp instructions");
  expect_in(out, "1 warps of 1 blocks in progress were stopped");
  expect_in(out, "block (0,0,0) warp 0 (thread (0,0,0)) is at: guard_kernels.cu:36, PTX ");
  expect_in(out, "guard_kernels.ptx:");
  assert_true(s < 10); /* 200000 warp instructions: milliseconds */
  free(out);
  free(err);
}

/* for (;;) with a store, on one and on two host threads: every block in
 * progress is stopped, and its warps listed. */
static void test_count_forever_budget(void **state) {
  (void)state;
  for (int t = 1; t <= 2; t++) {
    char *out, *err;
    setenv("WARPMEM_THREADS", t == 1 ? "1" : "2", 1);
    assert_int_equal(run_guard("sim %s --kernel count_forever --max-instructions 1M --format json", &out, &err, NULL), 4);
    json_error_t je;
    json_t *root = json_loads(out, 0, &je);
    assert_non_null(root);
    const char *msg = json_string_value(json_object_get(json_array_get(root, 0), "error"));
    expect_in(msg, "ran more than 1048576 warp instructions (--max-instructions 1048576)");
    expect_loop_line(msg, "warp 0 (thread (0,0,0)) is at: guard_kernels.cu:");
    expect_loop_line(msg, "warp 1 (thread (32,0,0)) is at: guard_kernels.cu:");
    json_decref(root);
    free(out);
    free(err);
  }
  unsetenv("WARPMEM_THREADS");
}

/* --timeout 1 stops an endless kernel after about a second. */
static void test_timeout(void **state) {
  (void)state;
  char *out, *err;
  double s;
  assert_int_equal(run_guard("sim %s --kernel count_forever --timeout 1", &out, &err, &s), 4);
  expect_in(out, "watchdog: kernel _Z13count_foreverPjPVj still running after ");
  expect_in(out, "(--timeout 1; ");
  expect_loop_line(out, "is at: guard_kernels.cu:");
  assert_true(s >= 1.0);
  assert_true(s < 8.0); /* a second, and the start of the process on a busy machine */
  free(out);
  free(err);
}

/* A cooperative launch (every block resident, one host thread) too. */
static void test_cooperative_budget(void **state) {
  (void)state;
  char *out, *err;
  assert_int_equal(run_guard("sim %s --kernel count_forever --cooperative --max-instructions 1M", &out, &err,
                             NULL), 4);
  expect_in(out, "4 warps of 2 blocks in progress were stopped; where they are:");
  expect_loop_line(out, "block (1,0,0) warp 1 (thread (32,0,0)) is at: guard_kernels.cu:");
  free(out);
  free(err);
}

/* Blocks of a plain launch that wait for each other: the spin watch says so
 * (no progress, and that a cooperative launch is needed) within seconds,
 * on one host thread and on two, with the default budget. */
static void test_cross_block_spin(void **state) {
  (void)state;
  for (int t = 1; t <= 2; t++) {
    char *out, *err;
    double s;
    setenv("WARPMEM_THREADS", t == 1 ? "1" : "2", 1);
    assert_int_equal(run_guard("sim %s --kernel wait_for_all", &out, &err, &s), 4);
    expect_in(out, "no progress: ");
    expect_in(out, "a flag that another block sets needs all blocks resident");
    expect_in(out, "guard_kernels.cu:44");
    assert_true(s < 30);
    free(out);
    free(err);
  }
  unsetenv("WARPMEM_THREADS");
}

/* The status and error of launch `label` in a JSON report's runs. */
static const char *run_status(json_t *root, const char *label, const char **error) {
  json_t *runs = root; /* sim's JSON: an array of launches */
  for (size_t i = 0; i < json_array_size(runs); i++) {
    json_t *r = json_array_get(runs, i);
    if (strcmp(json_string_value(json_object_get(r, "launch")) ?: "", label)) continue;
    if (error) *error = json_string_value(json_object_get(r, "error"));
    return json_string_value(json_object_get(r, "status"));
  }
  fail_msg("no launch %s in the report", label);
  return NULL;
}

/* The whole file: the launches that end report in every format; the
 * stopped ones are in their place; the JSON parses. */
static void test_others_report(void **state) {
  (void)state;
  char *out, *err;
  assert_int_equal(run_guard("sim %s --max-instructions 300000 --format json", &out, &err, NULL), 4);
  json_error_t je;
  json_t *root = json_loads(out, 0, &je);
  if (!root) fail_msg("invalid JSON (%s, line %d):\n%s", je.text, je.line, out);
  const char *error = NULL;
  assert_string_equal(run_status(root, "scale", NULL), "ok");
  assert_string_equal(run_status(root, "count_to", NULL), "ok");
  assert_string_equal(run_status(root, "scale#after", NULL), "ok");
  assert_string_equal(run_status(root, "count_forever", &error), "failed");
  expect_in(error, "watchdog");
  assert_string_equal(run_status(root, "poll_forever", &error), "failed");
  expect_in(error, "guard_kernels.cu:36");
  json_decref(root);
  free(out);
  free(err);
  assert_int_equal(run_guard("sim %s --max-instructions 300000 --format csv", &out, &err, NULL), 4);
  expect_in(out, "scale#after");
  expect_in(out, "failed");
  free(out);
  free(err);
  assert_int_equal(run_guard("sim %s --max-instructions 300000", &out, &err, NULL), 4);
  expect_in(out, "scale#after  grid=(4,1,1)");
  expect_in(out, "FAILED: launch poll_forever (line 12): watchdog");
  free(out);
  free(err);
}

/* warpmem lab on a catalogue of endless kernels (tests/guard): each is
 * reported in place in every format, the JSON parses. */
static void test_lab_reports(void **state) {
  (void)state;
  char args[8192], *out, *err, dir[4096];
  snprintf(dir, sizeof dir, "%s/../guard", WM_TEST_DATA);
  snprintf(args, sizeof args, "lab --dir '%s' --no-gpu --max-instructions 300000 --format json", dir);
  assert_int_equal(tu_run_cli(args, &out, &err), 4);
  json_error_t je;
  json_t *root = json_loads(out, 0, &je);
  if (!root) fail_msg("invalid JSON (%s, line %d):\n%s", je.text, je.line, out);
  expect_in(out, "\"poll_forever\"");
  expect_in(out, "watchdog: kernel _Z12poll_foreverPVjPj");
  json_decref(root);
  free(out);
  free(err);
  const char *const fmts[] = {"markdown", "csv", "text"};
  for (int f = 0; f < 3; f++) {
    snprintf(args, sizeof args, "lab --dir '%s' --no-gpu --max-instructions 300000 --format %s", dir, fmts[f]);
    assert_int_equal(tu_run_cli(args, &out, &err), 4);
    expect_in(out, "count_to");
    expect_in(out, "scale#after");
    expect_in(out, "watchdog");
    free(out);
    free(err);
  }
}

/* Bad values of the options and of warpmem run's variables are refused. */
static void test_bad_values(void **state) {
  (void)state;
  const char *const bad[] = {"--max-instructions 0", "--max-instructions abc", "--max-instructions -5",
                             "--timeout 0", "--timeout -1", "--timeout 1x", "--timeout nan", "--max-instructions"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char args[8192], *err;
    snprintf(args, sizeof args, "sim %%s --kernel scale %s", bad[i]);
    assert_int_equal(run_guard(args, NULL, &err, NULL), 2);
    expect_in(err, strstr(bad[i], "timeout") ? "--timeout takes seconds" : "--max-instructions");
    free(err);
  }
  RtConfig c;
  char msg[512];
  setenv(RT_ENV_MAXINSTR, "5M", 1);
  setenv(RT_ENV_TIMEOUT, "2.5", 1);
  assert_int_equal(rtx_env_read(&c, msg, sizeof msg), 0);
  assert_int_equal(c.o.max_instrs, 5u << 20);
  assert_true(c.o.timeout == 2.5);
  rtx_env_free(&c);
  setenv(RT_ENV_MAXINSTR, "abc", 1);
  assert_int_equal(rtx_env_read(&c, msg, sizeof msg), -1);
  expect_in(msg, "WARPMEM_RUN_MAX_INSTRUCTIONS='abc'");
  unsetenv(RT_ENV_MAXINSTR);
  setenv(RT_ENV_TIMEOUT, "0", 1);
  assert_int_equal(rtx_env_read(&c, msg, sizeof msg), -1);
  expect_in(msg, "WARPMEM_RUN_TIMEOUT='0'");
  unsetenv(RT_ENV_TIMEOUT);
}

/* A FIFO, a device, a directory given as a file: refused at once, never
 * read (a FIFO with no writer would block forever). */
static void test_special_files(void **state) {
  (void)state;
  char fifo[] = "/tmp/wmguard-XXXXXX", path[64], args[256], *err;
  assert_non_null(mkdtemp(fifo));
  const char *const names[] = {"k.ptx", "k.cu"};
  for (int i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s/%s", fifo, names[i]);
    assert_int_equal(mkfifo(path, 0600), 0);
    snprintf(args, sizeof args, "sim %s", path);
    double t0 = wm_now();
    assert_int_equal(tu_run_cli(args, NULL, &err), 1);
    assert_true(wm_now() - t0 < 20);
    expect_in(err, "a FIFO (named pipe), not a file");
    free(err);
  }
  snprintf(args, sizeof args, "lab --dir %s --no-gpu", fifo); /* its k.cu is a FIFO */
  assert_int_equal(tu_run_cli(args, NULL, &err), 1);
  expect_in(err, "a FIFO (named pipe), not a file");
  free(err);
  for (int i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s/%s", fifo, names[i]);
    unlink(path);
  }
  assert_int_equal(tu_run_cli("sim /dev/zero", NULL, &err), 1);
  expect_in(err, "/dev/zero: a device, not a file");
  free(err);
  snprintf(args, sizeof args, "sim %s", fifo);
  assert_int_equal(tu_run_cli(args, NULL, &err), 1);
  expect_in(err, "a directory, not a file");
  free(err);
  rmdir(fifo);
}

/* nvcc and ptxas run under a time limit; a bad limit is refused. */
static void test_tool_limits(void **state) {
  (void)state;
  char *out, *err, cu[4200];
  snprintf(cu, sizeof cu, "sim %s/../guard/guard_kernels.cu", WM_TEST_DATA);
  setenv("WARPMEM_NVCC_TIMEOUT", "abc", 1);
  assert_int_equal(tu_run_cli(cu, NULL, &err), 2);
  expect_in(err, "WARPMEM_NVCC_TIMEOUT=abc: expected seconds");
  free(err);
  char nvcc[4096];
  if (wm_find_program("nvcc", nvcc, sizeof nvcc) == 0 || access("/usr/local/cuda/bin/nvcc", X_OK) == 0) {
    setenv("WARPMEM_NVCC_TIMEOUT", "0.01", 1); /* nvcc takes a second at least */
    double s;
    double t0 = wm_now();
    assert_int_equal(tu_run_cli(cu, NULL, &err), 1);
    s = wm_now() - t0;
    expect_in(err, "nvcc did not finish within 0.01 s on ");
    expect_in(err, "guard_kernels.cu and was stopped (its time limit: WARPMEM_NVCC_TIMEOUT, default 300 s)");
    assert_true(s < 10);
    free(err);
  }
  unsetenv("WARPMEM_NVCC_TIMEOUT");
  setenv("WARPMEM_PTXAS_TIMEOUT", "0.001", 1);
  assert_int_equal(run_guard("sim %s --kernel scale", &out, &err, NULL), 0);
  if (!strstr(out, "ptxas not found")) expect_in(out, "ptxas -v (the registers per thread) did not finish within");
  expect_in(out, "assuming 32");
  free(out);
  free(err);
  unsetenv("WARPMEM_PTXAS_TIMEOUT");
}

/* Sizes from input are checked before anything is allocated: a .local
 * array of 4 GB (4 TB for a block of 1024 threads), 4097 launches, a PTX
 * text over 256 MiB. */
static void test_input_limits(void **state) {
  (void)state;
  char *ptx = tu_temp_file(".ptx", ".version 8.0\n.target sm_90\n.address_size 64\n"
                                   ".visible .entry k(.param .u64 p)\n{\n .local .align 4 .b8 big[4000000000];\n"
                                   " .reg .b64 %rd<3>;\n mov.u64 %rd1, big;\n ret;\n}\n");
  char args[4200], *out, *err;
  snprintf(args, sizeof args, "sim %s --kernel k --grid 1 --block 1024 --arg buf:u32:1", ptx);
  assert_int_equal(tu_run_cli(args, &out, &err), 1);
  expect_in(err, "kernel k has 4000000000 bytes of local memory per thread");
  expect_in(err, "at most 512 KiB per thread");
  free(out);
  free(err);
  unlink(ptx);
  free(ptx);
  size_t n = 4200 * 40 + 200;
  char *text = malloc(n), *p = text;
  p += sprintf(p, ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n ret;\n}\n");
  for (int i = 0; i < 4200; i++) p += sprintf(p, "//@ k#%d grid=1 block=1 args=\n", i);
  ptx = tu_temp_file(".ptx", text);
  free(text);
  snprintf(args, sizeof args, "sim %s", ptx);
  assert_int_equal(tu_run_cli(args, NULL, &err), 1);
  expect_in(err, "more than 4096 '//@' launches in one file");
  free(err);
  unlink(ptx);
  free(ptx);
  text = malloc((size_t)PTX_MAX_BYTES + 2); /* ptx_parse owns it */
  memset(text, ' ', (size_t)PTX_MAX_BYTES + 1);
  text[PTX_MAX_BYTES + 1] = '\0';
  WmErr e = {0};
  assert_null(ptx_parse("big.ptx", text, &e));
  assert_int_equal(e.code, WM_ELIMIT);
  expect_in(e.msg, "big.ptx: 268435457 bytes of PTX, over the 256 MiB warpmem reads");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup(test_poll_forever_budget, setup),
    cmocka_unit_test_setup(test_count_forever_budget, setup),
    cmocka_unit_test_setup(test_timeout, setup),
    cmocka_unit_test_setup(test_cooperative_budget, setup),
    cmocka_unit_test_setup(test_cross_block_spin, setup),
    cmocka_unit_test_setup(test_others_report, setup),
    cmocka_unit_test_setup(test_lab_reports, setup),
    cmocka_unit_test_setup(test_bad_values, setup),
    cmocka_unit_test_setup(test_special_files, setup),
    cmocka_unit_test_setup(test_tool_limits, setup),
    cmocka_unit_test_setup(test_input_limits, setup),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
