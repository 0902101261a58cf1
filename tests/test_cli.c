/* test_cli.c - the command line's successful paths, end to end.
 *
 * Expected numbers are the H200's (groundtruth/h200-seed-counters.csv) or
 * follow from the launch: copy_k with 16384 blocks of 256 threads moves 4M
 * floats, one request per warp (131072) and 4 sectors per request.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "util/csv.h"

static char *run_ok(const char *args) {
  char *out = NULL, *err = NULL;
  int rc = tu_run_cli(args, &out, &err);
  if (rc != 0) fail_msg("warpmem %s exited %d:\n%s", args, rc, err ? err : "");
  free(err);
  return out;
}

static json_int_t metric(json_t *launch, const char *name) {
  json_t *v = json_object_get(json_object_get(launch, "metrics"), name);
  if (!json_is_integer(v)) fail_msg("no integer metric %s", name);
  return json_integer_value(v);
}

/* A .ptx runs the //@ launches of the .cu beside it; JSON is an array of
 * launches with Nsight Compute's metric names. */
static void test_json_of_a_file(void **state) {
  (void)state;
  char args[1024];
  snprintf(args, sizeof args, "sim '%s' --kernel tr_naive --format json --lines --init zero",
           tu_truth("ptx/seed_kernels.ptx"));
  char *out = run_ok(args);
  json_error_t je;
  json_t *root = json_loads(out, 0, &je);
  if (!root) fail_msg("not JSON (%s):\n%s", je.text, out);
  assert_true(json_is_array(root));
  assert_int_equal(json_array_size(root), 1);
  json_t *l = json_array_get(root, 0);
  assert_string_equal(json_string_value(json_object_get(l, "launch")), "tr_naive");
  assert_string_equal(json_string_value(json_object_get(l, "kernel")), "tr_naive");
  assert_int_equal(json_integer_value(json_array_get(json_object_get(l, "grid"), 1)), 64);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(l, "block"), 0)), 32);
  /* the H200's counts for this launch */
  assert_int_equal(metric(l, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"), 131072);
  assert_int_equal(metric(l, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 4194304);
  assert_int_equal(metric(l, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 524288);
  assert_int_equal(metric(l, "sm__warps_launched.sum"), 131072);
  /* --lines: the transposed store is 32 sectors per request, 4 ideally */
  json_t *lines = json_object_get(l, "lines");
  assert_true(json_is_array(lines));
  int found = 0;
  for (size_t i = 0; i < json_array_size(lines); i++) {
    json_t *ln = json_array_get(lines, i);
    const char *ins = json_string_value(json_object_get(ln, "instruction"));
    if (!ins || strncmp(ins, "st.global", 9)) continue;
    found = 1;
    assert_true(strstr(json_string_value(json_object_get(ln, "cu_file")), "seed_kernels.cu") != NULL);
    assert_int_equal(json_integer_value(json_object_get(ln, "cu_line")), 39);
    assert_true(json_real_value(json_object_get(ln, "per_request")) == 32.0);
    assert_true(json_real_value(json_object_get(ln, "ideal_per_request")) == 4.0);
    assert_non_null(strstr(json_string_value(json_object_get(ln, "explanation")), "8 KiB apart"));
  }
  assert_true(found);
  json_decref(root);
  free(out);
}

/* One launch from the options, as CSV: header of metric names, one row. */
static void test_csv_of_one_launch(void **state) {
  (void)state;
  char args[1024];
  snprintf(args, sizeof args,
           "sim '%s' --kernel copy_k --grid 16384 --block 256 --arg buf:f32:4194304 "
           "--arg buf:f32:4194304 --arg i32:4194304 --format csv",
           tu_truth("ptx/seed_kernels.ptx"));
  char *out = run_ok(args);
  assert_true(strncmp(out, "launch,kernel,", 14) == 0);
  /* find the column of the global load sectors, then its value */
  char *p = out, *head[256], *row[256];
  int nhead = wm_csv_read(&p, head, 256), col = -1;
  assert_in_range(nhead, 3, 256);
  for (int c = 0; c < nhead; c++)
    if (!strcmp(head[c], "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")) col = c;
  assert_true(col > 1);
  assert_int_equal(wm_csv_read(&p, row, 256), nhead);
  assert_string_equal(row[col], "524288");
  assert_int_equal(*p, '\0'); /* one row */
  free(out);
}

/* Text with --lines names the source line and explains the conflict. */
static void test_text_lines_explain(void **state) {
  (void)state;
  char args[1024];
  snprintf(args, sizeof args, "sim '%s' --kernel setRowReadCol --lines", tu_truth("ptx/seed_kernels.ptx"));
  char *out = run_ok(args);
  assert_non_null(strstr(out, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"));
  assert_non_null(strstr(out, "135168")); /* 4224 loads x 32 wavefronts, as measured */
  assert_non_null(strstr(out, "32-way bank conflict"));
  assert_non_null(strstr(out, "seed_kernels.cu:"));
  free(out);
}

/* --lines=source: setRowReadCol's shared store, shared load and global
 * store share one CUDA line (a macro); its shared row adds the store's 4224
 * wavefronts (one per warp) to the load's 4224 x 32 (as measured): 139392
 * for 8448 requests, 16.50 per request against 1.  The
 * HTML page goes to --out: nothing on stdout, the page in the file. */
static void test_source_lines_and_html(void **state) {
  (void)state;
  char args[1024];
  snprintf(args, sizeof args, "sim '%s' --kernel setRowReadCol --lines=source", tu_truth("ptx/seed_kernels.ptx"));
  char *out = run_ok(args);
  const char *t = strstr(out, "memory instructions (by source line)");
  assert_non_null(t);
  assert_null(strstr(out, "(by PTX line)"));
  assert_non_null(strstr(t, "2          8448  wavefronts          139392      16.50       1.00  32 wavefronts: 32-way bank conflict"));
  free(out);
  char path[] = "/tmp/wm_cli_html_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  snprintf(args, sizeof args, "sim '%s' --kernel setRowReadCol --format html -o %s", tu_truth("ptx/seed_kernels.ptx"), path);
  out = run_ok(args);
  assert_string_equal(out, "");
  free(out);
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  char buf[256] = "";
  assert_non_null(fgets(buf, sizeof buf, f));
  fclose(f);
  unlink(path);
  assert_string_equal(buf, "<!doctype html>\n");
}

/* --dump writes the output buffer: copy_k of iota gives iota. */
static void test_dump(void **state) {
  (void)state;
  char dir[] = "/tmp/wmdumpXXXXXX";
  assert_non_null(mkdtemp(dir));
  char args[1024];
  snprintf(args, sizeof args,
           "sim '%s' --kernel copy_k --grid 4 --block 256 --arg buf:f32:1024:zero "
           "--arg buf:f32:1024:iota --arg i32:1024 --dump %s",
           tu_truth("ptx/seed_kernels.ptx"), dir);
  free(run_ok(args));
  float v[1024];
  tu_read_dump(dir, "copy_k.arg0.f32.bin", v, sizeof v);
  for (int i = 0; i < 1024; i++)
    if (v[i] != (float)i) fail_msg("copy_k output[%d] = %g, want %d", i, (double)v[i], i);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  assert_int_equal(system(cmd), 0);
}

/* The lab's ground truth: simulated next to measured; with --only, one
 * launch. */
static void test_lab_only(void **state) {
  (void)state;
  char *out = run_ok("lab --groundtruth --only setRowReadColRect --format json");
  json_t *root = json_loads(out, 0, NULL);
  assert_non_null(root);
  assert_int_equal(json_array_size(root), 1);
  json_t *l = json_array_get(root, 0);
  const char *m = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
  json_int_t sim = json_integer_value(json_object_get(json_object_get(l, "simulated"), m));
  json_int_t meas = json_integer_value(json_object_get(json_object_get(l, "h200_measured"), m));
  assert_int_equal(meas, 33792); /* 2112 loads x 16-way conflict, measured */
  assert_int_equal(sim, meas);
  json_decref(root);
  free(out);
}

/* --const sets a __constant__ array before the run; without it the
 * initializer stands.  The kernel copies k[0..3] to out. */
static const char const_ptx[] =
  ".version 8.0\n.target sm_90\n.address_size 64\n"
  ".const .align 4 .b8 k[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};\n"
  ".visible .entry copyk(.param .u64 p_out)\n{\n"
  " .reg .b32 %r<4>;\n .reg .b64 %rd<6>;\n"
  " ld.param.u64 %rd1, [p_out];\n cvta.to.global.u64 %rd2, %rd1;\n"
  " mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd3, %r1, 4;\n"
  " mov.u64 %rd4, k;\n add.s64 %rd5, %rd4, %rd3;\n ld.const.u32 %r2, [%rd5];\n"
  " add.s64 %rd5, %rd2, %rd3;\n st.global.u32 [%rd5], %r2;\n ret;\n}\n";

static void run_copyk(const char *extra, int32_t want[4]) {
  char *path = tu_temp_file(".ptx", const_ptx);
  char dir[] = "/tmp/wmconstXXXXXX", args[1024];
  assert_non_null(mkdtemp(dir));
  snprintf(args, sizeof args, "sim %s --kernel copyk --grid 1 --block 4 --arg buf:i32:4:zero %s --dump %s", path,
           extra, dir);
  free(run_ok(args));
  int32_t v[4];
  tu_read_dump(dir, "copyk.arg0.i32.bin", v, sizeof v);
  for (int i = 0; i < 4; i++) assert_int_equal(v[i], want[i]);
  snprintf(args, sizeof args, "rm -rf '%s' '%s'", dir, path);
  assert_int_equal(system(args), 0);
  free(path);
}

static void test_const(void **state) {
  (void)state;
  int32_t init[4] = {1, 2, 3, 4}, set[4] = {-7, 40, 3, 4};
  run_copyk("", init);
  run_copyk("--const k=i32:-7,40", set);
  /* a name the module does not have is an error that lists the ones it has */
  char *path = tu_temp_file(".ptx", const_ptx), args[512], *err = NULL;
  snprintf(args, sizeof args, "sim %s --kernel copyk --grid 1 --block 4 --arg buf:i32:4 --const kk=i32:1", path);
  assert_int_equal(tu_run_cli(args, NULL, &err), 2);
  assert_non_null(strstr(err, "no __constant__, __device__ or __managed__ variable kk (it has: k)"));
  free(err);
  /* more values than the variable holds */
  snprintf(args, sizeof args, "sim %s --kernel copyk --grid 1 --block 4 --arg buf:i32:4 --const k=i32:1,2,3,4,5", path);
  assert_int_equal(tu_run_cli(args, NULL, &err), 2);
  assert_non_null(strstr(err, "holds 16 bytes"));
  free(err);
  unlink(path);
  free(path);
}

/* A launch too large to simulate in reasonable time is refused up front,
 * with the option that lifts the limit. */
static void test_absurd_grid(void **state) {
  (void)state;
  char args[1024], *err = NULL;
  snprintf(args, sizeof args,
           "sim '%s' --kernel copy_k --grid 2147483647 --block 1024 --arg buf:f32:4 --arg buf:f32:4 --arg i32:4",
           tu_truth("ptx/seed_kernels.ptx"));
  assert_int_equal(tu_run_cli(args, NULL, &err), 1);
  assert_non_null(strstr(err, "2199023254528 threads"));
  assert_non_null(strstr(err, "--max-threads"));
  free(err);
}

/* Every report ends with the levels beyond L1 and the predicted time, and
 * names the limiter; --no-caches leaves them out. */
static void test_time_and_hierarchy(void **state) {
  (void)state;
  char args[1024];
  snprintf(args, sizeof args, "sim '%s' --kernel tr_naive --grid 64,64 --block 32,32 --arg buf:f32:4194304 "
           "--arg buf:f32:4194304 --arg i32:2048 --arg i32:2048", tu_truth("ptx/seed_kernels.ptx"));
  char *out = run_ok(args);
  assert_non_null(strstr(out, "memory hierarchy on h200"));
  assert_non_null(strstr(out, "predicted time"));
  /* 32 scattered sectors per store request, a line each: the L1 sends the
   * L2 4.2 M write requests (2048^2 floats / 32 lanes x 32 lines), one per
   * 4 clocks per SM, which bounds it */
  assert_non_null(strstr(out, "-- L1/shared-bound: 4.2 M write requests to L2"));
  free(out);
  strcat(args, " --no-caches --format json");
  out = run_ok(args);
  json_t *root = json_loads(out, 0, NULL);
  assert_non_null(root);
  json_t *l = json_array_get(root, 0);
  assert_null(json_object_get(l, "time"));
  assert_int_equal(metric(l, "lts__t_sectors_srcunit_tex_op_write.sum"), 0);
  assert_int_equal(metric(l, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 4194304); /* unchanged */
  json_decref(root);
  free(out);
}

/* --sample 4 runs every 4th wave: copy_k's 16384 blocks on 132 SMs x 8
 * resident are 15.5 waves of 1056; waves 0, 4, 8 and 12 run (4224 blocks),
 * and since every block does the same, the scaled counters equal the full
 * run's (524288 = 16384 x 8 warps x 4 sectors; one load round a warp,
 * 131072) and DRAM reads agree. */
static void test_sample(void **state) {
  (void)state;
  char args[1024];
  const char *launch = "--kernel copy_k --grid 16384 --block 256 --arg buf:f32:4194304 --arg buf:f32:4194304 "
                       "--arg i32:4194304 --format json --init zero";
  snprintf(args, sizeof args, "sim '%s' %s", tu_truth("ptx/seed_kernels.ptx"), launch);
  char *out = run_ok(args);
  json_t *full = json_loads(out, 0, NULL);
  free(out);
  strcat(args, " --sample 4");
  out = run_ok(args);
  json_t *part = json_loads(out, 0, NULL);
  free(out);
  assert_non_null(full);
  assert_non_null(part);
  json_t *f = json_array_get(full, 0), *p = json_array_get(part, 0);
  assert_int_equal(json_integer_value(json_object_get(json_object_get(p, "time"), "blocks_simulated")), 4224);
  assert_int_equal(metric(p, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 524288);
  assert_int_equal(metric(f, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 524288);
  assert_int_equal(metric(p, "warpmem__load_rounds"), 131072);
  assert_int_equal(metric(f, "warpmem__load_rounds"), 131072);
  double fd = (double)metric(f, "dram__bytes_read.sum"), pd = (double)metric(p, "dram__bytes_read.sum");
  assert_true(pd > 0.98 * fd && pd < 1.02 * fd);
  json_decref(full);
  json_decref(part);
  /* a bad value is a usage error */
  char *err = NULL;
  snprintf(args, sizeof args, "sim '%s' %s --sample 0", tu_truth("ptx/seed_kernels.ptx"), launch);
  assert_int_equal(tu_run_cli(args, NULL, &err), 2);
  assert_non_null(strstr(err, "--sample"));
  free(err);
}

/* The caches see the blocks in launch order whatever the host threads:
 * every counter, L2, DRAM and the predicted time included, is the same with
 * one thread and with three (the launches mix L1 reuse, partial writes and
 * data races: adj_naive, stride_copy#2, inc_case#2). */
static void test_deterministic_caches(void **state) {
  (void)state;
  static const char *const launches[] = {
    "--kernel adj_naive --grid 1024 --block 256 --arg buf:i32:262144 --arg buf:i32:262144 --arg i32:262144",
    "--kernel stride_copy --grid 1024 --block 256 --arg buf:f32:524288 --arg buf:f32:524288 --arg i32:2",
    "--kernel inc_case --grid 1024 --block 256 --arg buf:f32:262144 --arg i32:2",
  };
  for (size_t k = 0; k < sizeof launches / sizeof *launches; k++) {
    char args[1024], *out[2];
    for (int t = 0; t < 2; t++) {
      setenv("WARPMEM_THREADS", t ? "3" : "1", 1);
      snprintf(args, sizeof args, "sim '%s' %s --format csv --init zero", tu_truth("ptx/seed_kernels.ptx"), launches[k]);
      out[t] = run_ok(args);
    }
    unsetenv("WARPMEM_THREADS");
    assert_non_null(strstr(out[0], "dram__bytes_read.sum"));
    assert_string_equal(out[0], out[1]);
    free(out[0]);
    free(out[1]);
  }
}

/* --help documents the contract; sim --help the //@ grammar. */
static void test_help(void **state) {
  (void)state;
  char *out = run_ok("sim --help");
  assert_non_null(strstr(out, "buf:TYPE:COUNT[:INIT]"));
  assert_non_null(strstr(out, "--format"));
  free(out);
  out = run_ok("--help");
  assert_non_null(strstr(out, "lab"));
  free(out);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_json_of_a_file), cmocka_unit_test(test_csv_of_one_launch),
    cmocka_unit_test(test_text_lines_explain), cmocka_unit_test(test_dump),
    cmocka_unit_test(test_lab_only), cmocka_unit_test(test_absurd_grid), cmocka_unit_test(test_const), cmocka_unit_test(test_help),
    cmocka_unit_test(test_time_and_hierarchy), cmocka_unit_test(test_sample),
    cmocka_unit_test(test_deterministic_caches), cmocka_unit_test(test_source_lines_and_html),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
