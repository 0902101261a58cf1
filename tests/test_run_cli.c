/* test_run_cli.c - `warpmem run` as a command: its options, the checks of
 * the app before it runs, and the hand-over of the runtime's report after,
 * with fakes (no nvcc, no GPU, no warpmem runtime needed):
 *   fake_rt/libcudart.so.13  a fake of warpmem's runtime that writes, at
 *                            the app's exit, "fake runtime: warpmem" and
 *                            the variables warpmem run set (rt/rt_env.h);
 *   fake_cuda_app            needs libcudart.so.13, found only through
 *                            LD_LIBRARY_PATH; exits with argv[1];
 *   fake_rpath_app           the same with an RPATH to a fake of NVIDIA's
 *                            ("fake runtime: nvidia"), which the loader
 *                            would take first.
 * The apps of tests/apps (built with nvcc, run with the real runtime) are
 * run_app.sh's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "util/diag.h"

/* Runs warpmem with args; checks the status (printing both streams if it
 * differs).  *out and *err are the caller's to free. */
static void run(const char *args, int want, char **out, char **err) {
  int st = tu_run_cli(args, out, err);
  assert_non_null(*out);
  assert_non_null(*err);
  if (st != want) print_message("warpmem %s: status %d\nstdout:\n%s\nstderr:\n%s\n", args, st, *out, *err);
  assert_int_equal(st, want);
}

static void expect_in(const char *text, const char *needle) {
  if (!strstr(text, needle)) print_message("expected \"%s\" in:\n%s\n", needle, text);
  assert_non_null(strstr(text, needle));
}

/* warpmem run ARGS fails with status want, a message containing `msg`
 * on stderr and nothing on stdout. */
static void fails(const char *args, int want, const char *msg) {
  char *out, *err;
  run(args, want, &out, &err);
  expect_in(err, msg);
  assert_string_equal(out, "");
  free(out);
  free(err);
}

static void use_fake_rt(void) { setenv("WARPMEM_RT_DIR", WM_FAKE_RT, 1); }

static void test_help(void **state) {
  (void)state;
  char *out, *err;
  run("run --help", 0, &out, &err);
  const char *const words[] = {"APP [ARGS...]", "-cudart shared", "--kernel-name", "regex:", "--launch-skip",
                               "--launch-count", "--arch", "--loads", "--no-caches", "--mem-limit",
                               "--stack-size", "--heap-size", "--format", "--lines", "--out", "--quiet",
                               "WARPMEM_RT_DIR", "exit status"};
  for (size_t i = 0; i < sizeof words / sizeof *words; i++) expect_in(out, words[i]);
  free(out);
  free(err);
  run("--help", 0, &out, &err);
  expect_in(out, "run APP");
  free(out);
  free(err);
}

/* Every bad value is a usage error (2) naming it, before any app runs
 * (true would run: these must not get that far). */
static void test_bad_options(void **state) {
  (void)state;
  use_fake_rt();
  fails("run", 2, "needs an APP");
  fails("run --format xml true", 2, "--format takes text, json, csv, ncu-csv or html, not 'xml'");
  fails("run --format", 2, "--format needs a value");
  fails("run --launch-skip -1 true", 2, "--launch-skip takes a count");
  fails("run --launch-count 1x true", 2, "--launch-count takes a count");
  fails("run -c '' true", 2, "--launch-count takes a count");
  fails("run --kernel-name 'regex:(' true", 2, "not a POSIX extended regular expression");
  fails("run --kernel-name '' true", 2, "--kernel-name takes a kernel name");
  fails("run --arch pascal9 true", 2, "unknown --arch 'pascal9'");
  fails("run --loads cx true", 2, "--loads takes ca");
  fails("run --mem-limit 0 true", 2, "--mem-limit takes a byte count");
  fails("run --stack-size 8 true", 2, "--stack-size takes bytes per thread");
  fails("run --heap-size 1T true", 2, "--heap-size takes bytes");
  fails("run --max-instructions 0 true", 2, "--max-instructions takes warp instructions");
  fails("run --timeout abc true", 2, "--timeout takes seconds");
  fails("run --grid 1 true", 2, "unknown option '--grid'");
  fails("run --lines --", 2, "needs an APP");
}

static void test_bad_apps(void **state) {
  (void)state;
  use_fake_rt();
  fails("run no-such-app-wm", 1, "no-such-app-wm: no such program in PATH");
  fails("run ./no/such/app", 1, "./no/such/app: No such file or directory");
  fails("run /tmp", 1, "is a folder");
  char *script = tu_temp_file(".sh", "#!/bin/sh -e\necho hi\n"), *text = tu_temp_file(".txt", "hello\n");
  char args[512];
  snprintf(args, sizeof args, "chmod +x %s %s", script, text);
  assert_int_equal(system(args), 0);
  snprintf(args, sizeof args, "run %s", text);
  fails(args, 1, "not an ELF");
  /* a script: how to run it instead */
  snprintf(args, sizeof args, "run %s", script);
  fails(args, 1, "is a script (#!/bin/sh -e)");
  fails(args, 1, "warpmem run /bin/sh ");
  unlink(script);
  unlink(text);
  free(script);
  free(text);
}

/* An ELF with device code (.nv_fatbin) and no libcudart: nvcc's default
 * static runtime, which reaches warpmem through its libcuda.so.1 (the
 * app_*_static tests run real ones): without that library warpmem says
 * so.  Made from a copy of /bin/true with objcopy; skipped without them. */
static void test_static_runtime(void **state) {
  (void)state;
  setenv("WARPMEM_RT_DIR", "/tmp", 1); /* a folder without libcuda.so.1 */
  char *blob = tu_temp_file(".bin", ""), *app = tu_temp_file("", "");
  char cmd[1024];
  /* a fat binary's header (magic 0xba55ed50, version 1, 16 bytes, no parts) */
  snprintf(cmd, sizeof cmd, "printf '\\120\\355\\125\\272\\1\\0\\20\\0\\0\\0\\0\\0\\0\\0\\0\\0' >%s && "
           "objcopy --add-section .nv_fatbin=%s /bin/true %s 2>/dev/null && chmod +x %s", blob, blob, app, app);
  if (system(cmd) != 0) {
    unlink(blob);
    unlink(app);
    skip(); /* no objcopy (binutils) */
  }
  snprintf(cmd, sizeof cmd, "run %s", app);
  fails(cmd, 1, "warpmem's CUDA driver API is not built: /tmp/libcuda.so.1 is missing");
  unlink(blob);
  unlink(app);
  free(blob);
  free(app);
}

static void test_runtime_missing(void **state) {
  (void)state;
  setenv("WARPMEM_RT_DIR", "/nonexistent/rt", 1);
  fails("run " WM_FAKE_APP, 1, "warpmem's CUDA runtime is not built: no folder /nonexistent/rt");
  fails("run " WM_FAKE_APP, 1, "make build");
  setenv("WARPMEM_RT_DIR", "/tmp", 1); /* a folder without libcudart.so.13 */
  fails("run " WM_FAKE_APP, 1, "/tmp/libcudart.so.13 is missing");
}

/* The app's output, then the report; the app's status; every option
 * reaches the runtime as its variable. */
static void test_fake_app(void **state) {
  (void)state;
  use_fake_rt();
  char *out, *err;
  run("run --format json -k regex:^vec -s 2 -c 1 --arch h100 --loads cg --no-caches --lines -q "
      "--mem-limit 1G --stack-size 2K --heap-size 16M --max-instructions 5M --timeout 2.5 " WM_FAKE_APP " 5 x",
      5, &out, &err);
  const char *app = strstr(out, "fake app: runtime 13, 2 argument(s)\n");
  const char *rep = strstr(out, "fake runtime: warpmem\n");
  assert_non_null(app);
  assert_non_null(rep);
  assert_true(app < rep); /* the report follows the app's output */
  const char *const vars[] = {"WARPMEM_RUN_FORMAT=json", "WARPMEM_RUN_KERNEL=regex:^vec", "WARPMEM_RUN_SKIP=2",
                              "WARPMEM_RUN_COUNT=1", "WARPMEM_RUN_ARCH=h100", "WARPMEM_RUN_LOADS=cg",
                              "WARPMEM_RUN_CACHES=0", "WARPMEM_RUN_LINES=1", "WARPMEM_RUN_PROGRESS=0",
                              "WARPMEM_RUN_MEM_LIMIT=1073741824", "WARPMEM_RUN_STACK=2048",
                              "WARPMEM_RUN_HEAP=16777216", "WARPMEM_RUN_MAX_INSTRUCTIONS=5M",
                              "WARPMEM_RUN_TIMEOUT=2.5"};
  for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) expect_in(out, vars[i]);
  free(out);
  free(err);
  /* defaults: unset, even if the caller's shell has one */
  setenv("WARPMEM_RUN_KERNEL", "stale", 1);
  run("run " WM_FAKE_APP, 0, &out, &err);
  expect_in(out, "WARPMEM_RUN_FORMAT=text\n");
  expect_in(out, "WARPMEM_RUN_KERNEL=(unset)\n");
  expect_in(out, "WARPMEM_RUN_COUNT=(unset)\n");
  unsetenv("WARPMEM_RUN_KERNEL");
  free(out);
  free(err);
  /* --format html and --lines=source reach the runtime */
  run("run --format html --lines=source " WM_FAKE_APP, 0, &out, &err);
  expect_in(out, "WARPMEM_RUN_FORMAT=html\n");
  expect_in(out, "WARPMEM_RUN_LINES=2\n");
  free(out);
  free(err);
}

/* Options end at APP: what follows is the app's, options included. */
static void test_app_arguments(void **state) {
  (void)state;
  use_fake_rt();
  char *out, *err;
  run("run -- " WM_FAKE_APP " 0 --format --bogus", 0, &out, &err);
  expect_in(out, "fake app: runtime 13, 3 argument(s)");
  free(out);
  free(err);
}

static void test_out_file(void **state) {
  (void)state;
  use_fake_rt();
  char *path = tu_temp_file(".txt", "old");
  char args[512];
  snprintf(args, sizeof args, "run --out %s " WM_FAKE_APP, path);
  char *out, *err;
  run(args, 0, &out, &err);
  expect_in(out, "fake app:");
  assert_null(strstr(out, "fake runtime"));
  WmErr e;
  char *rep = wm_read_file(path, NULL, &e);
  assert_non_null(rep);
  assert_int_equal(strncmp(rep, "fake runtime: warpmem\n", 22), 0);
  free(rep);
  free(out);
  free(err);
  unlink(path);
  free(path);
}

/* The loader would take NVIDIA's libcudart through the app's RPATH:
 * warpmem's is preloaded instead, with a note, and it is warpmem's that
 * reports. */
static void test_rpath_app(void **state) {
  (void)state;
  use_fake_rt();
  char *out, *err;
  run("run " WM_FAKE_RPATH_APP, 0, &out, &err);
  expect_in(err, "an RPATH");
  expect_in(err, "preloading warpmem's");
  expect_in(out, "fake runtime: warpmem\n");
  assert_null(strstr(out, "nvidia"));
  free(out);
  free(err);
}

/* No report: said, with the reason the ELF and the app's end suggest; the
 * status is still the app's. */
static void test_no_report(void **state) {
  (void)state;
  use_fake_rt();
  char *out, *err;
  run("run sh -c 'echo plain; exit 3'", 3, &out, &err);
  assert_string_equal(out, "plain\n");
  expect_in(err, "needs neither libcudart nor libcuda");
  free(out);
  free(err);
  run("run " WM_FAKE_APP " 4 _exit", 4, &out, &err);
  expect_in(err, "no report: ");
  expect_in(err, "made no kernel launch");
  expect_in(err, "_exit");
  free(out);
  free(err);
}

/* A signal: said, and 128 + its number, as a shell does. */
static void test_signal(void **state) {
  (void)state;
  use_fake_rt();
  char *out, *err;
  run("run sh -c 'kill -KILL $$'", 137, &out, &err);
  expect_in(err, "killed by signal 9");
  free(out);
  free(err);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_help),          cmocka_unit_test(test_bad_options),
    cmocka_unit_test(test_bad_apps),      cmocka_unit_test(test_static_runtime),
    cmocka_unit_test(test_runtime_missing), cmocka_unit_test(test_fake_app),
    cmocka_unit_test(test_app_arguments), cmocka_unit_test(test_out_file),
    cmocka_unit_test(test_rpath_app),     cmocka_unit_test(test_no_report),
    cmocka_unit_test(test_signal),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
