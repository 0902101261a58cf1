/* test_report.c - the report writer: text, JSON and CSV, with and without
 * --lines, on a hand-built module, kernel and memory model. */
#include "testutil.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"

/* A tiny PTX text; the instructions below point into it. */
static char ptx_text[] =
  ".version 8.0\n"                              /* 1 */
  ".target sm_90\n"                             /* 2 */
  ".file 1 \"/home/u/src/seed_kernels.cu\"\n"   /* 3 */
  ".visible .entry tr_naive(\n"                 /* 4 */
  "  .param .u64 p0\n"                          /* 5 */
  ")\n"                                         /* 6 */
  "{\n"                                         /* 7 */
  "  ld.global.f32   %f9, [%rd2];\n"            /* 8 */
  "  st.global.f32   [%rd4], %f9;\n"            /* 9 */
  "  ld.shared.u32   %r1, [%r2+4];\n"           /* 10 */
  "  ld.param.u64    %rd1, [p0];\n"             /* 11 */
  "  ret;\n"                                    /* 12 */
  "}\n";

typedef struct Fixture {
  char *files[2];
  PtxModule mod;
  PtxInstr code[5];
  PtxKernel k;
  MemModel mm;
  ReportRun run[2];
} Fixture;

static uint32_t offset_of(const char *needle) {
  const char *p = strstr(ptx_text, needle);
  assert_non_null(p);
  return (uint32_t)(p - ptx_text);
}

static int count_of(const char *s, const char *needle) {
  int n = 0;
  for (const char *p = s; (p = strstr(p, needle)); p++) n++;
  return n;
}

static PtxInstr instr(int op, int space, uint32_t ptx_line, uint32_t cu_line, const char *text) {
  PtxInstr in;
  memset(&in, 0, sizeof in);
  in.op = (uint16_t)op;
  in.space = (uint8_t)space;
  in.type = PTX_T_F32;
  in.vec = 1;
  in.guard = PTX_NOREG;
  in.ptx_line = ptx_line;
  in.ptx_col = 3;
  in.cu_file = cu_line ? 1 : 0;
  in.cu_line = cu_line;
  in.text = offset_of(text);
  return in;
}

static Fixture *fixture(void) {
  Fixture *f = calloc(1, sizeof *f);
  f->files[1] = "/home/u/src/seed_kernels.cu";
  f->mod.path = "seed_kernels.ptx";
  f->mod.text = ptx_text;
  f->mod.files = f->files;
  f->mod.nfiles = 2;
  f->mod.address_size = 64;
  /* code order differs from PTX line order on purpose: reports sort by line */
  f->code[0] = instr(PTX_OP_ST, PTX_S_GLOBAL, 9, 14, "st.global.f32");
  f->code[1] = instr(PTX_OP_LD, PTX_S_GLOBAL, 8, 14, "ld.global.f32");
  f->code[2] = instr(PTX_OP_LD, PTX_S_SHARED, 10, 0, "ld.shared.u32");
  f->code[3] = instr(PTX_OP_LD, PTX_S_PARAM, 11, 12, "ld.param.u64");
  f->code[4] = instr(PTX_OP_RET, PTX_S_NONE, 12, 15, "ret;");
  f->k.name = "tr_naive";
  f->k.plain_name = f->k.name;
  f->k.code = f->code;
  f->k.ncode = 5;
  f->k.line = 4;
  MemConfig cfg = {.sm = 90};
  assert_int_equal(mem_init(&f->mm, &cfg, 5), 0);
  for (int m = 0; m < WM_M_COUNT; m++) f->mm.metric[m] = 1000 + (uint64_t)m; /* all distinct */
  f->mm.metric[WM_M_GLD_REQ] = 131072;
  f->mm.metric[WM_M_GLD_SEC] = 4194304;
  f->mm.metric[WM_M_GST_REQ] = 131072;
  f->mm.metric[WM_M_GST_SEC] = 524288;
  f->mm.metric[WM_M_SLD_INST] = 100;
  f->mm.metric[WM_M_SLD_WF] = 250;
  f->mm.metric[WM_M_SLD_BC] = 150;
  f->mm.metric[WM_M_INST] = 9999999999ull;
  LineStat *ls = f->mm.line;
  ls[0] = (LineStat){.execs = 131072, .requests = 131072, .units = 524288, .ideal = 524288,
                     .unit_kind = 1, .worst = 4};
  strcpy(ls[0].why, "32 lanes write 4 sectors: consecutive 4-byte words, coalesced");
  ls[1] = (LineStat){.execs = 131072, .requests = 131072, .units = 4194304, .ideal = 524288,
                     .unit_kind = 1, .worst = 32};
  strcpy(ls[1].why, "32 lanes read 32 sectors where 4 would do: lanes are 8 KiB apart, \"one\" sector each");
  ls[2] = (LineStat){.execs = 100, .requests = 100, .units = 250, .ideal = 100, .unit_kind = 2,
                     .worst = 3};
  strcpy(ls[2].why, "3-way bank conflict");
  ls[3] = (LineStat){.execs = 7, .requests = 0, .units = 0, .ideal = 0, .unit_kind = 0};
  /* ls[4] (ret) never counted: execs 0 */
  for (int i = 0; i < 2; i++) {
    ReportRun *r = &f->run[i];
    r->launch = i == 0 ? "tr_naive" : "tr_naive#b";
    r->mod = &f->mod;
    r->kernel = &f->k;
    r->grid[0] = 64, r->grid[1] = 64, r->grid[2] = 1;
    r->block[0] = 32, r->block[1] = 32, r->block[2] = 1;
    r->smem = i == 0 ? 0 : 4096;
    r->mm = &f->mm;
    r->thread_instrs = 56164352;
    r->seconds = 0.41;
  }
  return f;
}

static void fixture_free(Fixture *f) {
  mem_free(&f->mm);
  free(f);
}

/* Runs report_write into a string (malloc'd). */
static char *render(const ReportRun *runs, int n, ReportFormat fmt, int lines) {
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&buf, &len);
  assert_non_null(out);
  assert_int_equal(report_write(out, runs, n, fmt, lines), 0);
  fclose(out);
  return buf;
}

static void test_json(void **state) {
  (void)state;
  Fixture *f = fixture();
  char *s = render(f->run, 2, REPORT_JSON, 0);
  json_error_t je;
  json_t *root = json_loads(s, 0, &je);
  if (!root) fail_msg("%s\n%s", je.text, s);
  assert_true(json_is_array(root));
  assert_int_equal(json_array_size(root), 2);
  json_t *o = json_array_get(root, 0);
  static const char *const keys[] = {"launch", "kernel", "grid", "block", "smem", "status", "metrics",
                                     "simulation"};
  void *it = json_object_iter(o);
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++, it = json_object_iter_next(o, it)) {
    assert_non_null(it);
    assert_string_equal(json_object_iter_key(it), keys[i]);
  }
  assert_null(it); /* no "lines" without --lines */
  assert_string_equal(json_string_value(json_object_get(o, "launch")), "tr_naive");
  assert_string_equal(json_string_value(json_object_get(o, "kernel")), "tr_naive");
  assert_int_equal(json_integer_value(json_array_get(json_object_get(o, "grid"), 1)), 64);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(o, "block"), 2)), 1);
  assert_int_equal(json_integer_value(json_object_get(o, "smem")), 0);
  json_t *m = json_object_get(o, "metrics");
  assert_int_equal(json_object_size(m), WM_M_COUNT);
  it = json_object_iter(m);
  for (int k = 0; k < WM_M_COUNT; k++, it = json_object_iter_next(m, it)) {
    assert_string_equal(json_object_iter_key(it), wm_metric_name[k]); /* X-macro order */
    json_t *v = json_object_iter_value(it);
    assert_true(json_is_integer(v));
    assert_int_equal(json_integer_value(v), f->mm.metric[k]);
  }
  assert_int_equal(json_integer_value(
                     json_object_get(m, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")),
                   4194304);
  assert_int_equal(json_integer_value(json_object_get(m, "smsp__inst_executed.sum")),
                   9999999999ll);
  json_t *sim = json_object_get(o, "simulation");
  assert_int_equal(json_integer_value(json_object_get(sim, "thread_instructions")), 56164352);
  assert_true(json_real_value(json_object_get(sim, "seconds")) == 0.41);
  assert_int_equal(json_integer_value(json_object_get(json_array_get(root, 1), "smem")), 4096);
  /* pretty-printed, 2-space indent */
  assert_non_null(strstr(s, "[\n  {\n    \"launch\": \"tr_naive\","));
  json_decref(root);
  free(s);
  fixture_free(f);
}

static void test_json_lines(void **state) {
  (void)state;
  Fixture *f = fixture();
  char *s = render(f->run, 1, REPORT_JSON, 1);
  json_error_t je;
  json_t *root = json_loads(s, 0, &je);
  if (!root) fail_msg("%s\n%s", je.text, s);
  json_t *lines = json_object_get(json_array_get(root, 0), "lines");
  assert_int_equal(json_array_size(lines), 4); /* ret never counted */
  json_t *l0 = json_array_get(lines, 0);
  static const char *const keys[] = {"cu_file", "cu_line", "ptx_line", "instruction", "space",
                                     "op", "requests", "units", "unit", "per_request",
                                     "ideal_per_request", "explanation"};
  void *it = json_object_iter(l0);
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++, it = json_object_iter_next(l0, it))
    assert_string_equal(json_object_iter_key(it), keys[i]);
  assert_null(it);
  /* sorted by PTX line: the load (code[1], line 8) first */
  assert_string_equal(json_string_value(json_object_get(l0, "cu_file")),
                      "/home/u/src/seed_kernels.cu");
  assert_int_equal(json_integer_value(json_object_get(l0, "cu_line")), 14);
  assert_int_equal(json_integer_value(json_object_get(l0, "ptx_line")), 8);
  assert_string_equal(json_string_value(json_object_get(l0, "instruction")),
                      "ld.global.f32 %f9, [%rd2]");
  assert_string_equal(json_string_value(json_object_get(l0, "space")), "global");
  assert_string_equal(json_string_value(json_object_get(l0, "op")), "ld");
  assert_int_equal(json_integer_value(json_object_get(l0, "requests")), 131072);
  assert_int_equal(json_integer_value(json_object_get(l0, "units")), 4194304);
  assert_string_equal(json_string_value(json_object_get(l0, "unit")), "sectors");
  assert_true(json_number_value(json_object_get(l0, "per_request")) == 32.0);
  assert_true(json_number_value(json_object_get(l0, "ideal_per_request")) == 4.0);
  assert_non_null(strstr(json_string_value(json_object_get(l0, "explanation")), "8 KiB apart"));
  json_t *l1 = json_array_get(lines, 1);
  assert_int_equal(json_integer_value(json_object_get(l1, "ptx_line")), 9);
  assert_string_equal(json_string_value(json_object_get(l1, "op")), "st");
  json_t *l2 = json_array_get(lines, 2); /* no .loc */
  assert_true(json_is_null(json_object_get(l2, "cu_file")));
  assert_true(json_is_null(json_object_get(l2, "cu_line")));
  assert_string_equal(json_string_value(json_object_get(l2, "unit")), "wavefronts");
  assert_true(json_number_value(json_object_get(l2, "per_request")) == 2.5);
  json_t *l3 = json_array_get(lines, 3); /* param load: no requests, no unit */
  assert_int_equal(json_integer_value(json_object_get(l3, "requests")), 0);
  assert_true(json_is_null(json_object_get(l3, "unit")));
  assert_true(json_is_null(json_object_get(l3, "per_request")));
  assert_true(json_is_null(json_object_get(l3, "ideal_per_request")));
  json_decref(root);
  free(s);
  fixture_free(f);
}

static void test_csv(void **state) {
  (void)state;
  Fixture *f = fixture();
  char *s = render(f->run, 2, REPORT_CSV, 0);
  char want[8192] = "launch,kernel";
  for (int m = 0; m < WM_M_COUNT; m++) {
    strcat(want, ",");
    strcat(want, wm_metric_name[m]);
  }
  strcat(want, ",status,error\ntr_naive,tr_naive");
  for (int m = 0; m < WM_M_COUNT; m++)
    snprintf(want + strlen(want), sizeof want - strlen(want), ",%llu",
             (unsigned long long)f->mm.metric[m]);
  strcat(want, ",ok,\n");
  assert_int_equal(strncmp(s, want, strlen(want)), 0);
  assert_non_null(strstr(s, "\ntr_naive#b,tr_naive,131072,4194304,"));
  /* exactly 3 lines */
  int nl = 0;
  for (const char *p = s; *p; p++) nl += *p == '\n';
  assert_int_equal(nl, 3);
  free(s);
  fixture_free(f);
}

static void test_csv_lines(void **state) {
  (void)state;
  Fixture *f = fixture();
  f->run[0].launch = "odd,name";
  char *s = render(f->run, 1, REPORT_CSV, 1);
  const char *sec = strstr(s, "\n\nlaunch,cu_file,cu_line,ptx_line,instruction,requests,units,"
                              "unit,per_request,ideal_per_request,explanation\n");
  if (!sec) fail_msg("no lines section in:\n%s", s);
  assert_int_equal(strncmp(s, "launch,kernel,", 14), 0);
  assert_non_null(strstr(s, "\n\"odd,name\",tr_naive,131072,"));
  assert_non_null(strstr(sec, "\n\"odd,name\",/home/u/src/seed_kernels.cu,14,8,"
                              "\"ld.global.f32 %f9, [%rd2]\",131072,4194304,sectors,32,4,"
                              "\"32 lanes read 32 sectors where 4 would do: lanes are 8 KiB "
                              "apart, \"\"one\"\" sector each\"\n"));
  assert_non_null(strstr(sec, "\n\"odd,name\",,,10,\"ld.shared.u32 %r1, [%r2+4]\",100,250,"
                              "wavefronts,2.5,1,3-way bank conflict\n"));
  assert_non_null(strstr(sec, ",11,\"ld.param.u64 %rd1, [p0]\",0,0,,,,\n"));
  /* rows in PTX line order */
  assert_true(strstr(sec, ",14,8,") < strstr(sec, ",14,9,"));
  free(s);
  fixture_free(f);
}

static void test_text(void **state) {
  (void)state;
  Fixture *f = fixture();
  char *s = render(f->run, 2, REPORT_TEXT, 0);
  assert_int_equal(strncmp(s, "tr_naive  grid=(64,64,1) block=(32,32,1) smem=0  kernel tr_naive  "
                              "[0.41 s, 137 M thread-instr/s]\n", 88), 0);
  assert_non_null(strstr(s, "\ntr_naive#b  grid=(64,64,1) block=(32,32,1) smem=4096"));
  for (int m = 0; m < WM_M_COUNT; m++) {
    char row[256];
    snprintf(row, sizeof row, "%s ", wm_metric_name[m]);
    assert_non_null(strstr(s, row));
    assert_non_null(strstr(s, wm_metric_desc[m]));
  }
  assert_non_null(strstr(s, " 4194304  32-byte sectors touched by global loads"));
  assert_non_null(strstr(s, " 9999999999  warp instructions executed"));
  /* derived ratios */
  const char *d = strstr(s, "derived");
  assert_non_null(d);
  const char *gl = strstr(d, "global load");
  assert_non_null(gl);
  assert_non_null(strstr(gl, "sectors/request"));
  assert_non_null(strstr(gl, "32.00"));
  const char *gs = strstr(d, "global store");
  assert_non_null(gs);
  assert_non_null(strstr(gs, "4.00"));
  const char *sl = strstr(d, "shared load");
  assert_non_null(sl);
  assert_non_null(strstr(sl, "wavefronts/instruction"));
  assert_non_null(strstr(sl, "2.50"));
  assert_non_null(strstr(sl, "60.0% of wavefronts are bank conflicts"));
  assert_null(strstr(s, "memory instructions"));
  free(s);
  fixture_free(f);
}

static void test_text_lines(void **state) {
  (void)state;
  Fixture *f = fixture();
  char *s = render(f->run, 1, REPORT_TEXT, 1);
  const char *t = strstr(s, "memory instructions (by PTX line)");
  if (!t) fail_msg("%s", s);
  const char *l8 = strstr(t, "seed_kernels.cu:14  ptx:8 ");
  const char *l9 = strstr(t, "seed_kernels.cu:14  ptx:9 ");
  const char *l10 = strstr(t, "ptx:10 ");
  assert_non_null(l8);
  assert_non_null(l9);
  assert_non_null(l10);
  assert_true(l8 < l9 && l9 < l10);
  assert_null(strstr(t, "/home/u/src")); /* base name only */
  assert_null(strstr(t, "ptx:12")); /* never executed */
  const char *eol = strchr(l8, '\n');
  char row[512];
  snprintf(row, sizeof row, "%.*s", (int)(eol - l8), l8);
  assert_non_null(strstr(row, "ld.global.f32 %f9, [%rd2]"));
  assert_non_null(strstr(row, "131072"));
  assert_non_null(strstr(row, "sectors"));
  assert_non_null(strstr(row, "32.00"));
  assert_non_null(strstr(row, "4.00"));
  assert_non_null(strstr(row, "8 KiB apart"));
  eol = strchr(l10, '\n');
  const char *bol = l10;
  while (bol > t && bol[-1] != '\n') bol--;
  snprintf(row, sizeof row, "%.*s", (int)(eol - bol), bol);
  assert_int_equal(strncmp(row, "  - ", 4), 0); /* no .loc */
  assert_non_null(strstr(row, "wavefronts"));
  assert_non_null(strstr(row, "2.50"));
  free(s);
  fixture_free(f);
}

/* --lines=source: the load and store of line 14 added up (2 instructions,
 * 262144 requests, 4194304 + 524288 sectors: 18.00 per request against
 * 4.00), the worst explanation the load's (3670016 sectors over its ideal,
 * the store none); the shared load without a .loc on a row of its own by
 * PTX line; the parameter load (line 12) without a unit. */
static void test_text_source(void **state) {
  (void)state;
  Fixture *f = fixture();
  char *s = render(f->run, 1, REPORT_TEXT, REPORT_LINES_SOURCE);
  const char *t = strstr(s, "memory instructions (by source line)");
  if (!t) fail_msg("%s", s);
  assert_null(strstr(s, "(by PTX line)"));
  const char *l12 = strstr(t, "seed_kernels.cu:12 ");
  const char *l14 = strstr(t, "seed_kernels.cu:14 ");
  const char *p10 = strstr(t, "ptx:10 ");
  assert_non_null(l12);
  assert_non_null(l14);
  assert_non_null(p10);
  assert_true(l12 < l14 && l14 < p10); /* lines with a .loc first */
  char row[512];
  const char *eol = strchr(l14, '\n');
  snprintf(row, sizeof row, "%.*s", (int)(eol - l14), l14);
  if (!strstr(row, " 2        262144  sectors            4718592      18.00       4.00  32 lanes read 32 sectors"))
    fail_msg("row: %s", row);
  assert_non_null(strstr(row, "8 KiB apart"));
  eol = strchr(p10, '\n');
  snprintf(row, sizeof row, "%.*s", (int)(eol - p10), p10);
  assert_non_null(strstr(row, "wavefronts"));
  assert_non_null(strstr(row, "2.50"));
  assert_non_null(strstr(row, "3-way bank conflict"));
  free(s);
  s = render(f->run, 1, REPORT_JSON, REPORT_LINES_SOURCE);
  json_t *root = json_loads(s, 0, NULL);
  assert_non_null(root);
  json_t *src = json_object_get(json_array_get(root, 0), "source_lines");
  assert_int_equal(json_array_size(src), 3);
  assert_true(json_is_null(json_object_get(json_array_get(src, 0), "unit")));
  json_t *r0 = json_array_get(src, 1);
  assert_int_equal(json_integer_value(json_object_get(r0, "cu_line")), 14);
  assert_int_equal(json_integer_value(json_object_get(r0, "instructions")), 2);
  assert_int_equal(json_integer_value(json_object_get(r0, "units")), 4718592);
  assert_true(json_number_value(json_object_get(r0, "per_request")) == 18.0);
  assert_int_equal(json_integer_value(json_object_get(json_array_get(src, 2), "ptx_line")), 10);
  assert_int_equal(json_array_size(json_object_get(json_array_get(root, 0), "lines")), 4);
  json_decref(root);
  free(s);
  s = render(f->run, 1, REPORT_CSV, REPORT_LINES_SOURCE);
  const char *c = strstr(s, "\nlaunch,cu_file,cu_line,ptx_line,instructions,requests,units,unit,per_request,"
                            "ideal_per_request,explanation\n");
  if (!c) fail_msg("%s", s);
  assert_non_null(strstr(c, "\ntr_naive,/home/u/src/seed_kernels.cu,14,,2,262144,4718592,sectors,18,4,\"32 lanes read"));
  assert_non_null(strstr(c, "\ntr_naive,,,10,1,100,250,wavefronts,2.5,1,3-way bank conflict\n"));
  assert_null(strstr(c, "ld.global.f32")); /* not the section by instruction */
  free(s);
  fixture_free(f);
}

/* The HTML page: a chart per launch that ran, a picture slot per executed
 * memory instruction (4: ret never ran), the source file missing (the PTX
 * shown instead), everything from the input escaped, a failed launch's
 * message on the page. */
static void test_html(void **state) {
  (void)state;
  Fixture *f = fixture();
  f->run[1].launch = "k<T>#'b'";
  f->run[1].status = REPORT_FAILED;
  f->run[1].error = "out of bounds at <0x10> & \"more\"";
  char *s = render(f->run, 2, REPORT_HTML, 0);
  assert_int_equal(strncmp(s, "<!doctype html>", 15), 0);
  assert_non_null(strstr(s, "</html>\n"));
  assert_non_null(strstr(s, "wmInit();"));
  assert_int_equal(count_of(s, "<svg class=\"mem-chart\""), 1);
  assert_int_equal(count_of(s, "<div class=\"pic\" data-instr="), 4);
  for (int i = 0; i < 4; i++) {
    char slot[64];
    snprintf(slot, sizeof slot, "<div class=\"pic\" data-instr=\"%d\">", i);
    assert_non_null(strstr(s, slot));
  }
  assert_non_null(strstr(s, "data-file=\"/home/u/src/seed_kernels.cu\" data-lines=\"0\" data-found=\"0\""));
  assert_non_null(strstr(s, "<tbody class=\"grp mem\" data-line=\"14\" data-requests=\"262144\" data-per-req=\"18.0000\""));
  assert_non_null(strstr(s, "&quot;one&quot; sector each"));
  assert_non_null(strstr(s, "k&lt;T&gt;#&#39;b&#39;"));
  assert_null(strstr(s, "k<T>"));
  assert_non_null(strstr(s, "out of bounds at &lt;0x10&gt; &amp; &quot;more&quot;</pre>"));
  assert_non_null(strstr(s, "<section class=\"launch\" id=\"launch-1\" data-launch=\"k&lt;T&gt;#&#39;b&#39;\" "
                            "data-status=\"failed\">"));
  const uint64_t *m = f->mm.metric; /* the chart's load arrow: global, local and cp.async reads */
  char arrow[160];
  snprintf(arrow, sizeof arrow, "data-link=\"kernel-l1\" data-op=\"load\" data-requests=\"%llu\" data-units=\"%llu\"",
           (unsigned long long)(m[WM_M_GLD_REQ] + m[WM_M_LLD_REQ] + m[WM_M_LDGSTS_REQ]),
           (unsigned long long)(m[WM_M_GLD_SEC] + m[WM_M_LLD_SEC] + m[WM_M_LDGSTS_SEC]));
  assert_non_null(strstr(s, arrow));
  free(s);
  fixture_free(f);
}

/* A long kernel in a file of 3000 lines: the source view shows the lines
 * around its memory instructions (100 and 2900, 3 either side), not the
 * 2851 lines the kernel spans; source text is escaped. */
static void test_html_long_file(void **state) {
  (void)state;
  char path[] = "/tmp/wm_report_long_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *src = fdopen(fd, "w");
  for (int i = 1; i <= 3000; i++) fprintf(src, "  x[%d] = a < b && c > d;\n", i);
  fclose(src);
  Fixture *f = fixture();
  f->files[1] = path;
  f->code[0].cu_line = 100, f->code[1].cu_line = 100, f->code[3].cu_line = 2900, f->code[4].cu_line = 2950;
  char *s = render(f->run, 1, REPORT_HTML, 0);
  unlink(path);
  assert_non_null(strstr(s, "data-lines=\"3000\" data-found=\"1\""));
  assert_non_null(strstr(s, "<tbody class=\"grp mem\" data-line=\"100\""));
  assert_non_null(strstr(s, "<tbody class=\"grp mem\" data-line=\"2900\""));
  assert_non_null(strstr(s, "<tbody class=\"grp plain\" data-line=\"97\""));
  assert_non_null(strstr(s, "<tbody class=\"grp plain\" data-line=\"2903\""));
  assert_null(strstr(s, "data-line=\"96\""));
  assert_null(strstr(s, "data-line=\"1000\""));
  assert_null(strstr(s, "data-line=\"2904\""));
  assert_int_equal(count_of(s, "<tbody class=\"gap\">"), 3); /* before 97, between, after 2903 */
  assert_non_null(strstr(s, "x[100] = a &lt; b &amp;&amp; c &gt; d;"));
  assert_int_equal(count_of(s, "<tbody class=\"grp"), 2 * 7 + 1); /* + the shared load without a .loc */
  free(s);
  fixture_free(f);
}

/* Zero runs, zero counters, no lines, no .loc, no model: nothing crashes
 * and nothing divides by zero. */
static void test_degenerate(void **state) {
  (void)state;
  char *s = render(NULL, 0, REPORT_JSON, 1);
  assert_string_equal(s, "[]\n");
  free(s);
  s = render(NULL, 0, REPORT_TEXT, 1);
  assert_string_equal(s, "");
  free(s);
  s = render(NULL, 0, REPORT_CSV, 1);
  assert_int_equal(strncmp(s, "launch,kernel,l1tex__", 21), 0);
  assert_non_null(strstr(s, "\n\nlaunch,cu_file,"));
  free(s);

  PtxKernel k = {.name = "_Z4noopv", .plain_name = "noop"};
  MemModel mm;
  MemConfig cfg = {.sm = 90};
  assert_int_equal(mem_init(&mm, &cfg, 0), 0);
  ReportRun r[2] = {{.launch = "noop", .kernel = &k, .mm = &mm, .grid = {1, 1, 1},
                     .block = {1, 1, 1}},
                    {.launch = NULL, .kernel = &k, .mm = NULL}};
  for (int fmt = REPORT_TEXT; fmt <= REPORT_HTML; fmt++) {
    if (fmt == REPORT_NCU_CSV) continue;
    s = render(r, 2, (ReportFormat)fmt, fmt == REPORT_HTML ? REPORT_LINES_SOURCE : 1);
    assert_non_null(strstr(s, "noop"));
    assert_null(strstr(s, "nan"));
    assert_null(strstr(s, "inf"));
    free(s);
  }
  s = render(r, 1, REPORT_TEXT, 1);
  assert_non_null(strstr(s, "kernel noop (_Z4noopv)"));
  assert_non_null(strstr(s, "[0 thread-instr]"));
  assert_non_null(strstr(s, "memory instructions: none executed"));
  assert_null(strstr(s, "derived"));
  free(s);
  s = render(r, 2, REPORT_JSON, 1);
  json_t *j = json_loads(s, 0, NULL);
  assert_non_null(j);
  assert_string_equal(json_string_value(json_object_get(json_array_get(j, 1), "launch")), "noop");
  assert_int_equal(json_array_size(json_object_get(json_array_get(j, 0), "lines")), 0);
  json_decref(j);
  free(s);
  mem_free(&mm);
}

static void test_write_error(void **state) {
  (void)state;
  FILE *full = fopen("/dev/full", "w");
  if (!full) skip();
  Fixture *f = fixture();
  for (int fmt = REPORT_TEXT; fmt <= REPORT_HTML; fmt++) {
    clearerr(full);
    assert_int_equal(report_write(full, f->run, 2, (ReportFormat)fmt, 1), -1);
  }
  fclose(full);
  fixture_free(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_json),       cmocka_unit_test(test_json_lines),
    cmocka_unit_test(test_csv),        cmocka_unit_test(test_csv_lines),
    cmocka_unit_test(test_text),       cmocka_unit_test(test_text_lines),
    cmocka_unit_test(test_degenerate), cmocka_unit_test(test_write_error),
    cmocka_unit_test(test_text_source), cmocka_unit_test(test_html),
    cmocka_unit_test(test_html_long_file),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
