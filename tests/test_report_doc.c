/* test_report_doc.c - the lab's renderers read nothing but the document
 * (report_doc.h): a document built by hand, with no catalogue and no lab,
 * rendered in every format.
 *
 * Golden numbers from first principles: one launch of 64 x 256 threads
 * whose 512 global load requests touch 2048 sectors (4 per request, as 32
 * lanes reading 4-byte words need) and whose 512 stores touch 16384 (32:
 * one sector per lane); a GPU-size launch of 4x the threads scales the L2
 * bytes by 4: 32 B x (2048 + 16384) x 4 = 2.36 MB, marked '~'.  The second
 * launch reuses the first one's simulation: JSON says "same_as".
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

static char *render(const ReportDoc *d, ReportFormat f) {
  char *buf = NULL;
  size_t n = 0;
  FILE *out = open_memstream(&buf, &n);
  assert_non_null(out);
  assert_int_equal(report_doc_write(out, d, f), 0);
  fclose(out);
  return buf;
}

static void spec(LaunchSpec *s, const char *label, uint32_t grid) {
  memset(s, 0, sizeof *s);
  snprintf(s->name, sizeof s->name, "copyT");
  snprintf(s->label, sizeof s->label, "%s", label);
  s->grid[0] = grid, s->grid[1] = s->grid[2] = 1;
  s->block[0] = 256, s->block[1] = s->block[2] = 1;
}

static void test_lab_document(void **state) {
  (void)state;
  static LaunchSpec sim, gpu, sim2;
  spec(&sim, "copyT#a", 64);
  spec(&gpu, "copyT#a", 256);
  spec(&sim2, "copyT#b", 64);
  uint64_t metric[WM_M_COUNT] = {0};
  metric[WM_M_GLD_REQ] = 512, metric[WM_M_GLD_SEC] = 2048;
  metric[WM_M_GST_REQ] = 512, metric[WM_M_GST_SEC] = 16384;
  metric[WM_M_L2_RD] = 2048, metric[WM_M_L2_WR] = 16384;
  ReportLabLaunch l[2] = {
    {.sim = &sim, .gpu = &gpu, .has_gpu_spec = 1, .carveout = -1, .simulated = 1, .error = "", .twin = -1,
     .metric = metric, .scale = 4, .pred_ns = 8000, .gpu_run = {.outputs = "", .error = ""}},
    {.sim = &sim2, .gpu = &sim2, .carveout = -1, .simulated = 1, .error = "", .twin = 0, .metric = metric,
     .scale = 1, .gpu_run = {.outputs = "", .error = ""}},
  };
  ReportExp x = {.name = "transpose", .title = "a column per warp", .peak = "none", .baseline = "copyT#a",
                 .first = 0, .n = 2};
  ReportGroup g = {.name = "g", .title = "the group", .file = "g.cu", .seed = 7, .first = 0, .n = 1};
  ReportDoc d = {.command = "by hand", .date = "2026-11-26", .arch = "h200", .groups = &g, .ngroups = 1,
                 .exps = &x, .nexps = 1, .launches = l, .nlaunches = 2,
                 .device = {.no_gpu_reason = "none here", .cublas_note = ""}};
  char *t = render(&d, REPORT_TEXT);
  const char *row = strstr(t, "copyT#a");
  assert_non_null(row);
  assert_non_null(strstr(row, "16.4K/65.5K")); /* threads simulated / on the GPU */
  assert_non_null(strstr(row, "4.0"));         /* load sectors per request */
  assert_non_null(strstr(row, "32.0"));        /* store sectors per request */
  assert_non_null(strstr(row, "~2.4"));        /* L2 MB at the GPU size */
  assert_non_null(strstr(t, "== g (seed 007): the group"));
  assert_non_null(strstr(t, "no GPU found (none here)"));
  assert_null(strstr(t, "cold us"));           /* no GPU: no measured columns */
  free(t);
  char *j = render(&d, REPORT_JSON);
  assert_non_null(strstr(j, "\"same_as\": \"copyT#a\""));
  assert_non_null(strstr(j, "\"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum\": 16384"));
  free(j);
  char *c = render(&d, REPORT_CSV);
  assert_non_null(strstr(c, "g,transpose,copyT#a,copyT,16384,65536,4,0,0,4,32,0,0,0,2359296,0,8.000,"));
  free(c);
  char *m = render(&d, REPORT_MARKDOWN);
  assert_non_null(strstr(m, "### transpose: a column per warp"));
  free(m);
  char *start = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&start, &n);
  d.device = (ReportDevice){.have_gpu = 1, .name = "H", .sms = 132, .cublas_note = ""};
  report_lab_start(f, &d);
  fclose(f);
  assert_string_equal(start, "GPU: H, 132 SMs: simulating and measuring 2 launches\n");
  free(start);
  char *h = render(&d, REPORT_HTML);
  assert_non_null(strstr(h, "data-launch=\"copyT#b\""));
  assert_non_null(strstr(h, "the same simulation as copyT#a"));
  assert_non_null(strstr(h, "Measured on H and simulated"));
  free(h);
}

/* Counters beside measured ones (lab --ncu): a launch not profiled says so
 * in every cell; equal counts print "N ="; a column nobody uses is left out. */
static void test_vs_document(void **state) {
  (void)state;
  uint64_t sim[WM_M_COUNT] = {0};
  double meas[WM_M_COUNT];
  for (int k = 0; k < WM_M_COUNT; k++) meas[k] = -1;
  sim[WM_M_GLD_REQ] = 512, meas[WM_M_GLD_REQ] = 512;
  sim[WM_M_GLD_SEC] = 2048, meas[WM_M_GLD_SEC] = 4096;
  ReportVsRow rows[2] = {{.label = "k#1", .sim = sim, .meas = meas}, {.label = "k#2", .sim = sim}};
  ReportVs vs = {.kind = REPORT_VS_NCU, .rows = rows, .nrows = 2};
  ReportDoc d = {.vs = &vs};
  char *t = render(&d, REPORT_MARKDOWN);
  assert_non_null(strstr(t, "| k#1 | 512 = | 2048/4096 50% |"));
  assert_non_null(strstr(t, "| k#2 | not profiled | not profiled |"));
  assert_null(strstr(t, "st req"));
  free(t);
}

/* Each report takes its own formats, by one parser: the lab takes
 * markdown (and "md"), not ncu-csv; sim and run the other way round; the
 * message lists what the report takes. */
static void test_format_names(void **state) {
  (void)state;
  ReportFormat f = REPORT_TEXT;
  char why[96];
  assert_int_equal(report_format_parse("md", REPORT_LAB_FORMATS, &f, why, sizeof why), 0);
  assert_int_equal(f, REPORT_MARKDOWN);
  assert_int_equal(report_format_parse("ncu-csv", REPORT_RUN_FORMATS, &f, why, sizeof why), 0);
  assert_int_equal(f, REPORT_NCU_CSV);
  assert_int_equal(report_format_parse("ncu-csv", REPORT_LAB_FORMATS, &f, why, sizeof why), -1);
  assert_string_equal(why, "text, markdown, json, csv or html");
  assert_int_equal(report_format_parse("markdown", REPORT_RUN_FORMATS, &f, why, sizeof why), -1);
  assert_string_equal(why, "text, json, csv, ncu-csv or html");
  assert_int_equal(report_format_parse(NULL, REPORT_RUN_FORMATS, &f, why, sizeof why), -1);
  assert_int_equal(f, REPORT_NCU_CSV); /* untouched by a refusal */
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_lab_document),
    cmocka_unit_test(test_vs_document),
    cmocka_unit_test(test_format_names),
  };
  return cmocka_run_group_tests_name("report document", tests, NULL, NULL);
}
