/* test_lab_ncu.c - `warpmem lab --ncu`'s table from Nsight Compute's CSV,
 * without a GPU: a two-launch catalogue, simulated counters set by hand and
 * a CSV written as ncu prints its raw page (`--csv --page raw --print-units
 * base`: a header, a units line, one line per kernel).
 *
 * What must hold: a launch whose kernel has no row (it failed on the GPU)
 * takes none, so the next launch still gets its own; the texture columns
 * appear because a launch uses textures, the ldmatrix and cp.async ones do
 * not because none does; equal counts print "N =".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/lab.h"
#include "testutil.h"

static const char *catalogue =
  "//! group: g\n"
  "//! exp: e\n"
  "//@ texk grid=1 block=32 args=tex:f32:64x64,buf:f32:32\n"
  "//@ plain grid=1 block=32 args=buf:f32:32\n"
  "//@ texk#2 grid=1 block=32 args=tex:f32:64x64,buf:f32:32\n";

static const char *csv =
  "==PROF== Connected to process 1\n"
  "\"ID\",\"Kernel Name\",\"l1tex__t_requests_pipe_tex_mem_texture.sum\",\"l1tex__t_sectors_pipe_tex_mem_texture.sum\","
  "\"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum\",\"gpu__time_duration.sum\"\n"
  "\"\",\"\",\"request\",\"sector\",\"sector\",\"ns\"\n"
  "\"0\",\"texk\",\"1\",\"9\",\"4\",\"2,048\"\n"
  "\"1\",\"texk\",\"1\",\"12\",\"4\",\"2,112\"\n";

static void set_metric(LabResult *r, const char *name, uint64_t v) {
  for (int k = 0; k < WM_M_COUNT; k++)
    if (!strcmp(wm_metric_name[k], name)) r->metric[k] = v;
}

static void test_table_columns_and_rows(void **state) {
  (void)state;
  Lab lab;
  memset(&lab, 0, sizeof lab);
  WmErr e = {0};
  if (lab_catalogue_parse(&lab.cat, "t.cu", catalogue, &e)) fail_msg("%s", e.msg);
  assert_int_equal(lab.cat.nlaunches, 3);
  lab.res = calloc((size_t)lab.cat.nlaunches, sizeof *lab.res);
  for (int i = 0; i < 3; i++) {
    lab.res[i].selected = 1;
    set_metric(&lab.res[i], "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 4);
  }
  /* one request of 9 sectors: the emulator's count for launch 0 */
  set_metric(&lab.res[0], "l1tex__t_requests_pipe_tex_mem_texture.sum", 1);
  set_metric(&lab.res[0], "l1tex__t_sectors_pipe_tex_mem_texture.sum", 9);
  set_metric(&lab.res[2], "l1tex__t_requests_pipe_tex_mem_texture.sum", 1);
  set_metric(&lab.res[2], "l1tex__t_sectors_pipe_tex_mem_texture.sum", 8);
  FILE *in = fmemopen((void *)csv, strlen(csv), "r");
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  assert_int_equal(lab_ncu_table(&lab, in, out, 1), 0);
  fclose(in);
  fclose(out);
  /* texture columns shown, ldmatrix and cp.async not */
  assert_non_null(strstr(text, " tex req |"));
  assert_non_null(strstr(text, " tex sect |"));
  assert_null(strstr(text, "ldsm"));
  assert_null(strstr(text, "ldgsts"));
  /* plain has no row: the second texk row goes to texk#2 (8 of 12 sectors) */
  const char *plain = strstr(text, "| plain |");
  assert_non_null(plain);
  assert_non_null(strstr(plain, "not profiled"));
  const char *second = strstr(text, "| texk#2 |");
  assert_non_null(second);
  assert_non_null(strstr(second, "8/12 67%"));
  const char *first = strstr(text, "| texk |");
  assert_non_null(first);
  assert_true(strstr(first, "9 =") && strstr(first, "9 =") < plain);
  free(text);
  free(lab.res);
  lab_catalogue_free(&lab.cat);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_table_columns_and_rows),
  };
  return cmocka_run_group_tests_name("lab --ncu table", tests, NULL, NULL);
}
