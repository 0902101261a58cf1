/* report_lab_vs.c - simulated counters beside measured ones (report_doc.h's
 * ReportVs): the table of `lab --ncu` (Nsight Compute at the simulated
 * sizes, text or markdown, and ncu.md) and that of `lab --groundtruth` (the
 * H200's committed counters; text, markdown, CSV and JSON, a row at a time
 * as the launches are simulated).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/diag.h"

/* ---- lab --ncu ---------------------------------------------------------------- */

/* X(metric, column head): the counters compared, in the table's order.  A
 * column is shown only where a launch shown has it non-zero on either side
 * (the tensor-core, cp.async and texture families stay out of tables of
 * launches that use none). */
#define NCU_COMPARED(X)                                                      \
  X("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "ld req")             \
  X("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "ld sect")             \
  X("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "st req")             \
  X("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "st sect")             \
  X("l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "loc ld sect")          \
  X("l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", "loc st sect")          \
  X("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "smem ld wf")    \
  X("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "smem st wf")    \
  X("smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum", "ldgsts sect")     \
  X("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum", "ldgsts wf") \
  X("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum", "ldsm wf")     \
  X("l1tex__t_requests_pipe_tex_mem_texture.sum", "tex req")                 \
  X("l1tex__t_sectors_pipe_tex_mem_texture.sum", "tex sect")                 \
  X("lts__t_sectors_srcunit_tex_op_read.sum", "L2 rd sect")                  \
  X("lts__t_sectors_srcunit_tex_op_write.sum", "L2 wr sect")                 \
  X("dram__bytes_read.sum", "DRAM rd B")                                     \
  X("dram__bytes_write.sum", "DRAM wr B")                                    \
  X("gpu__time_duration.sum", "time ns")

static const char *const compared[] = {
#define X(metric, head) metric,
  NCU_COMPARED(X)
#undef X
};
static const char *const compared_head[] = {
#define X(metric, head) head,
  NCU_COMPARED(X)
#undef X
};
#define NCMP (int)(sizeof compared / sizeof *compared)

int report_vs_ncu_count(void) { return NCMP; }
const char *report_vs_ncu_metric(int c) { return c >= 0 && c < NCMP ? compared[c] : NULL; }

static int metric_index(const char *name) {
  for (int k = 0; k < WM_M_COUNT; k++)
    if (!strcmp(wm_metric_name[k], name)) return k;
  return -1;
}

/* The simulated value of compared counter c, -1 if none. */
static double sim_value(const ReportVsRow *r, int c) {
  int k = metric_index(compared[c]);
  return r->sim && k >= 0 ? (double)r->sim[k] : -1;
}

/* The measured one, -1 if none. */
static double meas_value(const ReportVsRow *r, int c) {
  int k = metric_index(compared[c]);
  return r->meas && k >= 0 ? r->meas[k] : -1;
}

static void ncu_cell(char *b, size_t n, double sim, double meas) {
  if (meas < 0) snprintf(b, n, "%.0f/?", sim);
  else if (sim == 0 && meas == 0) snprintf(b, n, "-");
  else if (sim == meas) snprintf(b, n, "%.0f =", sim);
  else if (meas == 0) snprintf(b, n, "%.0f/0", sim);
  else snprintf(b, n, "%.0f/%.0f %.0f%%", sim, meas, 100.0 * sim / meas);
}

/* Column c is shown when a row has it non-zero on either side. */
static void shown_columns(const ReportVs *vs, int *show) {
  for (int c = 0; c < NCMP; c++) {
    show[c] = 0;
    for (int i = 0; i < vs->nrows && !show[c]; i++)
      if (sim_value(&vs->rows[i], c) > 0 || meas_value(&vs->rows[i], c) > 0) show[c] = 1;
  }
}

static void ncu_row(FILE *out, const ReportVsRow *r, const int *show, int md) {
  fprintf(out, md ? "| %s |" : "%-26s", r->label);
  for (int c = 0; c < NCMP; c++) {
    if (!show[c]) continue;
    char b[64];
    double sim = sim_value(r, c);
    if (!r->sim) snprintf(b, sizeof b, "not simulated");
    else if (!r->meas) snprintf(b, sizeof b, "not profiled");
    else if (sim < 0) snprintf(b, sizeof b, "?/%.0f", meas_value(r, c));
    else ncu_cell(b, sizeof b, sim, meas_value(r, c));
    fprintf(out, md ? " %s |" : " %-22s", b);
  }
  fputs("\n", out);
}

static void ncu_table(FILE *out, const ReportVs *vs, int md) {
  int show[NCMP];
  shown_columns(vs, show);
  fprintf(out, md ? "\n## Simulated vs measured counters (Nsight Compute, simulated sizes)\n\n|launch|"
                  : "\nsimulated vs measured counters (Nsight Compute, at the simulated sizes): 'N =' equal, 'sim/gpu P%%'\n%-26s",
          md ? "" : "launch");
  for (int c = 0; c < NCMP; c++)
    if (show[c]) fprintf(out, md ? " %s |" : " %-22s", compared_head[c]);
  fputs("\n", out);
  if (md) {
    fputs("|---|", out);
    for (int c = 0; c < NCMP; c++)
      if (show[c]) fputs("---|", out);
    fputs("\n", out);
  }
  for (int i = 0; i < vs->nrows; i++) ncu_row(out, &vs->rows[i], show, md);
}


int report_vs_ncu_md(FILE *out, const ReportDoc *d) {
  fprintf(out, "# warpmem lab --ncu: %s, %s\n\n`%s`\n", d->device.name, d->date, d->command);
  return report_vs_write(out, d, REPORT_MARKDOWN);
}

/* ---- lab --groundtruth ---------------------------------------------------------- */

/* The columns compared: simulated vs measured. */
static const struct {
  WmMetric m;
  const char *head;
} cols[] = {
  {WM_M_GLD_REQ, "ld req"},   {WM_M_GLD_SEC, "ld sectors"}, {WM_M_GST_REQ, "st req"},
  {WM_M_GST_SEC, "st sectors"}, {WM_M_LLD_SEC, "local ld sect"}, {WM_M_LST_SEC, "local st sect"},
  {WM_M_SLD_WF, "smem ld wavefr"}, {WM_M_SST_WF, "smem st wavefr"},
  {WM_M_L2_RD, "L2 rd sectors"},  {WM_M_L2_WR, "L2 wr sectors"}, {WM_M_DRAM_RD, "DRAM rd bytes"},
  {WM_M_TIME, "time ns"},
};
#define NCOLS (int)(sizeof cols / sizeof *cols)

struct ReportVsOut {
  FILE *out;
  ReportFormat f;
  json_t *arr;             /* JSON: the rows, written at the end */
  int nrows;
};

/* The measured value of metric m, -1 if none (the table holds integers). */
static long long truth_get(const ReportVsRow *r, int m) { return r->meas && r->meas[m] >= 0 ? (long long)r->meas[m] : -1; }

static void truth_cell(char *buf, size_t n, uint64_t sim, long long meas) {
  if (sim == 0 && meas <= 0) snprintf(buf, n, "-");
  else if (meas < 0) snprintf(buf, n, "%llu", (unsigned long long)sim);
  else if ((long long)sim == meas) snprintf(buf, n, "%llu =", (unsigned long long)sim);
  else snprintf(buf, n, "%llu/%lld %.0f%%", (unsigned long long)sim, meas,
                meas ? 100.0 * (double)sim / (double)meas : 0.0);
}

ReportVsOut *report_vs_begin(FILE *out, ReportFormat f) {
  ReportVsOut *v = wm_xcalloc(1, sizeof *v);
  v->out = out;
  v->f = f;
  v->arr = json_array();
  if (f == REPORT_TEXT) {
    fprintf(out, "%-22s", "experiment");
    for (int c = 0; c < NCOLS; c++) fprintf(out, " %-19s", cols[c].head);
    fprintf(out, "\n");
  } else if (f == REPORT_MARKDOWN) {
    fprintf(out, "| experiment |");
    for (int c = 0; c < NCOLS; c++) fprintf(out, " %s |", cols[c].head);
    fprintf(out, "\n|---|");
    for (int c = 0; c < NCOLS; c++) fprintf(out, "---|");
    fprintf(out, "\n");
  } else if (f == REPORT_CSV) {
    fprintf(out, "launch");
    for (int c = 0; c < NCOLS; c++) fprintf(out, ",sim:%s,h200:%s", wm_metric_name[cols[c].m], wm_metric_name[cols[c].m]);
    fprintf(out, "\n");
  }
  return v;
}

static json_t *truth_json(const ReportVsRow *r) {
  json_t *obj = json_object(), *sim = json_object(), *meas = json_object();
  json_object_set_new(obj, "launch", json_string(r->label));
  for (int m = 0; m < WM_M_COUNT; m++) {
    json_object_set_new(sim, wm_metric_name[m], json_integer((json_int_t)r->sim[m]));
    long long v = truth_get(r, m);
    if (v >= 0) json_object_set_new(meas, wm_metric_name[m], json_integer(v));
  }
  json_object_set_new(obj, "simulated", sim);
  json_object_set_new(obj, "h200_measured", meas);
  json_object_set_new(obj, "seconds", json_real(r->seconds));
  return obj;
}

void report_vs_row(ReportVsOut *v, const ReportVsRow *r) {
  FILE *out = v->out;
  v->nrows++;
  if (v->f == REPORT_JSON) {
    json_array_append_new(v->arr, truth_json(r));
  } else if (v->f == REPORT_CSV) {
    fprintf(out, "%s", r->label);
    for (int c = 0; c < NCOLS; c++)
      fprintf(out, ",%llu,%lld", (unsigned long long)r->sim[cols[c].m], truth_get(r, cols[c].m));
    fprintf(out, "\n");
  } else {
    int md = v->f == REPORT_MARKDOWN;
    fprintf(out, md ? "| %s |" : "%-22s", r->label);
    for (int c = 0; c < NCOLS; c++) {
      char b[64];
      truth_cell(b, sizeof b, r->sim[cols[c].m], truth_get(r, cols[c].m));
      fprintf(out, md ? " %s |" : " %-19s", b);
    }
    fprintf(out, "\n");
  }
  fflush(out);
}

void report_vs_end(ReportVsOut *v, int ok, double seconds) {
  if (ok && v->f == REPORT_JSON) {
    json_dumpf(v->arr, v->out, JSON_INDENT(2));
    fprintf(v->out, "\n");
  }
  if (ok && v->f == REPORT_TEXT)
    fprintf(v->out, "\n%d experiments simulated in %.1f s.  'N =': equal to the H200's count; 'sim/h200 P%%' otherwise; '-': none.\n"
                    "Shared-memory wavefronts measured on the GPU include up to +10%% from other L1 traffic.\n",
            v->nrows, seconds);
  json_decref(v->arr);
  free(v);
}

void report_vs_list_line(FILE *out, const LaunchSpec *l) {
  fprintf(out, "%-24s grid=(%u,%u,%u) block=(%u,%u,%u)\n", l->label, l->grid[0], l->grid[1], l->grid[2], l->block[0],
          l->block[1], l->block[2]);
}

/* ---- either, whole --------------------------------------------------------------- */

int report_vs_write(FILE *out, const ReportDoc *d, ReportFormat f) {
  if (!d->vs) return -1;
  if (d->vs->kind == REPORT_VS_NCU) {
    ncu_table(out, d->vs, f == REPORT_MARKDOWN);
  } else {
    ReportVsOut *v = report_vs_begin(out, f);
    for (int i = 0; i < d->vs->nrows; i++) report_vs_row(v, &d->vs->rows[i]);
    report_vs_end(v, 1, d->sim_seconds);
  }
  return ferror(out) ? -1 : 0;
}
