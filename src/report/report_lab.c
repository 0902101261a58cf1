/* report_lab.c - the lab's report (report_doc.h's groups, experiments and
 * launches): text and markdown (one table per experiment, grouped), CSV
 * (one row per launch), JSON (everything), results.md's heading and the
 * --list of the catalogue.  The HTML page is report_lab_html.c's.
 *
 * Notes:
 * - Counters per request (sectors, wavefronts) are the simulated launch's:
 *   they do not depend on the size (tests/test_lab_scaling.c).  Byte counts
 *   and the predicted time are for the GPU-size launch: where the two sizes
 *   differ they are the simulated ones scaled by the ratio of the work
 *   (the catalogue's scale:, by default the ratio of threads), marked '~'.
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "util/csv.h"

/* X(ENUM, "head", width, on a GPU only, "what it shows") -- the columns. */
#define LAB_COLUMNS(X)                                                                                   \
  X(LAUNCH, "launch", 24, 0, "NAME#VARIANT; an experiment's first launch is its baseline")              \
  X(THREADS, "threads", 10, 0, "threads simulated / measured on the GPU where the sizes differ")          \
  X(LDSR, "ld s/r", 6, 0, "global load sectors per request (simulated; 4 is ideal for 4-byte words)")   \
  X(STSR, "st s/r", 6, 0, "global store sectors per request")                                           \
  X(SMEM, "smem wf/i", 9, 0, "shared-memory wavefronts per instruction, loads/stores (1 = no conflict)") \
  X(LOCAL, "loc s/r", 7, 0, "local-memory sectors per request")                                         \
  X(L2, "L2 MB", 8, 0, "L2 bytes read + written by L1 (predicted, GPU size)")                           \
  X(DRAM, "DRAM MB", 8, 0, "DRAM bytes read + written (predicted, GPU size)")                           \
  X(PRED, "pred us", 8, 0, "predicted time, microseconds (GPU size)")                                    \
  X(COLD, "cold us", 8, 1, "measured median, L2 flushed before each launch")                            \
  X(HOT, "hot us", 8, 1, "measured median, back-to-back launches")                                      \
  X(GBS, "GB/s", 7, 1, "bytes as the seed counts them (read + written) / hot time; for multiplies TFLOP/s (T)") \
  X(PEAK, "%peak", 6, 1, "% of the device-to-device copy bandwidth, or of cuBLAS SGEMM")                \
  X(SPEEDUP, "speedup", 7, 1, "baseline hot time / this launch's")                                      \
  X(SEED, "seed", 7, 0, "the speedup the seed reported on its GPU")                                     \
  X(MATCH, "outputs", 8, 1, "GPU outputs vs the emulator's, at the simulated size")                     \
  X(REPORTED, "seed reported", 0, 0, "the seed's own number or words for this launch")

typedef enum {
#define X(e, head, w, gpu, what) C_##e,
  LAB_COLUMNS(X)
#undef X
  C_COUNT
} LabColumn;

static const struct {
  const char *head;
  int width, gpu;
  const char *what;
} columns[C_COUNT] = {
#define X(e, head, w, gpu, what) {head, w, gpu, what},
  LAB_COLUMNS(X)
#undef X
};

static int shown(const ReportDoc *d, int c) { return !columns[c].gpu || d->device.have_gpu; }

/* ---- cells ---------------------------------------------------------------- */

static void human(char *b, size_t n, double v) {
  if (v >= 1e9) snprintf(b, n, "%.3gG", v / 1e9);
  else if (v >= 1e6) snprintf(b, n, "%.3gM", v / 1e6);
  else if (v >= 1e3) snprintf(b, n, "%.3gK", v / 1e3);
  else snprintf(b, n, "%.0f", v);
}

static void ratio(char *b, size_t n, uint64_t num, uint64_t den) {
  if (den == 0) snprintf(b, n, "-");
  else snprintf(b, n, "%.1f", (double)num / (double)den);
}

static void number(char *b, size_t n, double v, int digits) {
  if (v <= 0) snprintf(b, n, "-");
  else snprintf(b, n, "%.*f", digits, v);
}

static void cell(const ReportDoc *d, int c, int i, char *b, size_t n) {
  const ReportLabLaunch *l = &d->launches[i], *r = l;
  const ReportMeasured *g = &l->gpu_run;
  const uint64_t *m = r->metric;
  const char *approx = r->scale != 1 ? "~" : "";
  char x[32], y[32];
  b[0] = '\0';
  switch ((LabColumn)c) {
  case C_LAUNCH: snprintf(b, n, "%s", l->sim->label); break;
  case C_THREADS:
    human(x, sizeof x, (double)launch_threads(l->sim));
    human(y, sizeof y, (double)launch_threads(l->gpu));
    if (launch_threads(l->sim) == launch_threads(l->gpu)) snprintf(b, n, "%s", x);
    else snprintf(b, n, "%s/%s", x, y);
    break;
  case C_LDSR: ratio(b, n, m[WM_M_GLD_SEC], m[WM_M_GLD_REQ]); break;
  case C_STSR: ratio(b, n, m[WM_M_GST_SEC], m[WM_M_GST_REQ]); break;
  case C_SMEM:
    if (m[WM_M_SLD_INST] + m[WM_M_SST_INST] == 0) {
      snprintf(b, n, "-");
    } else {
      ratio(x, sizeof x, m[WM_M_SLD_WF], m[WM_M_SLD_INST]);
      ratio(y, sizeof y, m[WM_M_SST_WF], m[WM_M_SST_INST]);
      snprintf(b, n, "%s/%s", x, y);
    }
    break;
  case C_LOCAL: ratio(b, n, m[WM_M_LLD_SEC] + m[WM_M_LST_SEC], m[WM_M_LLD_REQ] + m[WM_M_LST_REQ]); break;
  case C_L2: {
    double v = 32.0 * (double)(m[WM_M_L2_RD] + m[WM_M_L2_WR] + m[WM_M_L2_ATOM] + m[WM_M_L2_RED]) * r->scale;
    if (v <= 0) snprintf(b, n, "-");
    else snprintf(b, n, "%s%.1f", approx, v / 1e6);
    break;
  }
  case C_DRAM: {
    double v = (double)(m[WM_M_DRAM_RD] + m[WM_M_DRAM_WR]) * r->scale;
    if (v <= 0) snprintf(b, n, "-");
    else snprintf(b, n, "%s%.1f", approx, v / 1e6);
    break;
  }
  case C_PRED:
    if (r->pred_ns <= 0) snprintf(b, n, "-");
    else snprintf(b, n, "%s%.1f", approx, r->pred_ns / 1e3);
    break;
  case C_COLD: number(b, n, g->timed ? g->cold.median_s * 1e6 : 0, 1); break;
  case C_HOT: number(b, n, g->timed ? g->hot.median_s * 1e6 : 0, 1); break;
  case C_GBS:
    if (!g->timed) snprintf(b, n, "-");
    else if (l->flops > 0) snprintf(b, n, "%.1fT", g->hot_gflops / 1e3);
    else number(b, n, g->hot_gbps, 0);
    break;
  case C_PEAK: number(b, n, g->pct_peak, 1); break;
  case C_SPEEDUP:
    if (g->speedup > 0) snprintf(b, n, "%.2fx", g->speedup);
    else snprintf(b, n, "-");
    break;
  case C_SEED:
    if (l->seed_speedup > 0) snprintf(b, n, "%.3gx", l->seed_speedup);
    else snprintf(b, n, "-");
    break;
  case C_MATCH:
    if (g->error[0] && !g->outputs[0]) snprintf(b, n, "error");
    else snprintf(b, n, "%s", g->outputs[0] ? (g->outputs_ok ? (strncmp(g->outputs, "equal but", 9) ? "equal" : "race ok") : "DIFFER")
                                            : "-");
    break;
  case C_REPORTED: snprintf(b, n, "%s", l->reported ? l->reported : ""); break;
  case C_COUNT: break;
  }
}

/* ---- text and markdown ----------------------------------------------------- */


static void table_head(const ReportDoc *d, FILE *out, int md) {
  if (md) {
    fputs("|", out);
    for (int c = 0; c < C_COUNT; c++)
      if (shown(d, c)) fprintf(out, " %s |", columns[c].head);
    fputs("\n|", out);
    for (int c = 0; c < C_COUNT; c++)
      if (shown(d, c)) fputs(c == C_LAUNCH || c == C_REPORTED || c == C_MATCH ? "---|" : "---:|", out);
    fputs("\n", out);
    return;
  }
  fputs("   ", out);
  for (int c = 0; c < C_COUNT; c++)
    if (shown(d, c)) fprintf(out, c == C_LAUNCH ? "%-*s" : " %*s", columns[c].width, columns[c].head);
  fputs("\n", out);
}

static void table_row(const ReportDoc *d, FILE *out, int i, int md) {
  char b[512];
  fputs(md ? "|" : "   ", out);
  for (int c = 0; c < C_COUNT; c++) {
    if (!shown(d, c)) continue;
    cell(d, c, i, b, sizeof b);
    if (md) fprintf(out, " %s |", b);
    else fprintf(out, c == C_LAUNCH ? "%-*s" : " %*s", columns[c].width, b);
  }
  fputs("\n", out);
}

/* A launch the simulation refused or that failed, with its located message
 * (markdown: in a code block, the message has a caret line). */
static void sim_error(const ReportDoc *d, FILE *out, int i, int md) {
  const ReportLabLaunch *r = &d->launches[i];
  const char *what = report_status_name[r->status];
  if (md) {
    fprintf(out, "\n- %s: simulation %s:\n\n```\n%s\n```\n", r->sim->label, what, r->error);
    return;
  }
  fprintf(out, "   ! %s: simulation %s: ", r->sim->label, what);
  for (const char *p = r->error; *p; p++) {
    fputc(*p, out);
    if (*p == '\n') fputs("       ", out);
  }
  fputc('\n', out);
}

static void gpu_errors(const ReportDoc *d, FILE *out, const ReportExp *x, int md) {
  for (int i = x->first; i < x->first + x->n; i++) {
    const ReportLabLaunch *r = &d->launches[i];
    const ReportMeasured *g = &r->gpu_run;
    if (r->status != REPORT_OK) sim_error(d, out, i, md);
    if (g->error[0]) fprintf(out, "%s%s: GPU: %s\n", md ? "\n- " : "   ! ", r->sim->label, g->error);
    if (g->outputs[0] && !g->outputs_ok) fprintf(out, "%s%s: outputs: %s\n", md ? "\n- " : "   ! ", r->sim->label, g->outputs);
  }
}

static double tflops(const ReportDevice *r, int k) {
  return 2.0 * r->cublas_n[k] * r->cublas_n[k] * (double)r->cublas_n[k] / r->cublas_s[k] / 1e12;
}

static void header_lines(const ReportDoc *d, FILE *out, int md) {
  const ReportDevice *r = &d->device;
  const char *p = md ? "- " : "";
  if (r->have_gpu) {
    fprintf(out, "%sGPU: %s (%d SMs, %.1f GB, L2 %d MiB, SM clock up to %d MHz, driver %d)\n", p, r->name,
            r->sms, (double)r->memory / 1e9, r->l2_bytes >> 20, r->clock_khz / 1000, r->driver);
    if (r->have_copy)
      fprintf(out, "%sdevice-to-device copy: %.0f GB/s (1 GiB; float4 copy kernel %.0f GB/s): the %%peak of bandwidth rows\n",
              p, r->copy_d2d_gbps, r->copy_vec4_gbps);
    for (int k = 0; k < r->ncublas; k++)
      fprintf(out, "%scuBLAS SGEMM %d: %.3f ms, %.1f TFLOP/s: the %%peak of SGEMM rows\n", p, r->cublas_n[k],
              r->cublas_s[k] * 1e3, tflops(r, k));
    if (r->cublas_note[0]) fprintf(out, "%scuBLAS: %s\n", p, r->cublas_note);
  } else {
    fprintf(out, "%sno GPU found (%s): showing simulation only\n", p, r->no_gpu_reason);
  }
}

static void text_experiment(const ReportDoc *d, FILE *out, const ReportExp *ex, int md) {
  if (md) {
    fprintf(out, "\n### %s: %s\n\n", ex->name, ex->title ? ex->title : "");
    if (ex->seed_says) fprintf(out, "The seed: %s\n\n", ex->seed_says);
  } else {
    fprintf(out, "\n-- %s: %s\n", ex->name, ex->title ? ex->title : "");
    if (ex->seed_says) fprintf(out, "   seed: %s\n", ex->seed_says);
  }
  table_head(d, out, md);
  for (int i = ex->first; i < ex->first + ex->n; i++) table_row(d, out, i, md);
  gpu_errors(d, out, ex, md);
  if (ex->why) fprintf(out, md ? "\nWhy ours differs: %s\n" : "   why: %s\n", ex->why);
  for (int i = ex->first; i < ex->first + ex->n; i++)
    if (d->launches[i].why) fprintf(out, md ? "\n%s: %s\n" : "   %s: %s\n", d->launches[i].sim->label, d->launches[i].why);
}

static void text_report(const ReportDoc *d, FILE *out, int md) {
  if (md) header_lines(d, out, 1);
  for (int g = 0; g < d->ngroups; g++) {
    const ReportGroup *gr = &d->groups[g];
    char seed[32] = ""; /* catalogues other than the seeds' (tests/corpus) have none */
    if (gr->seed >= 0) snprintf(seed, sizeof seed, " (seed %03d)", gr->seed);
    if (md) fprintf(out, "\n## %s%s\n\n%s\n", gr->name, seed, gr->title ? gr->title : "");
    else fprintf(out, "\n== %s%s: %s\n", gr->name, seed, gr->title ? gr->title : "");
    for (int x = gr->first; x < gr->first + gr->n; x++) text_experiment(d, out, &d->exps[x], md);
  }
  fprintf(out, md ? "\n## Columns\n\n" : "\ncolumns:\n");
  for (int k = 0; k < C_COUNT; k++)
    if (shown(d, k)) fprintf(out, md ? "- **%s**: %s\n" : "  %-14s %s\n", columns[k].head, columns[k].what);
  fprintf(out, "%s%d launches simulated in %.1f s (the //@ sizes); '~': scaled from the simulated size to the "
          "GPU size by the ratio of work (scale: in the catalogue; else of threads).\n", md ? "\n" : "\n", d->nlaunches, d->sim_seconds);
  if (!md) header_lines(d, out, 0);
}

/* ---- CSV -------------------------------------------------------------------- */

static void csv_row(const ReportDoc *d, FILE *out, const ReportGroup *gr, const ReportExp *x, int i) {
  const ReportLabLaunch *l = &d->launches[i], *r = l;
  const ReportMeasured *g = &l->gpu_run;
  const uint64_t *m = r->metric;
  double q[5] = {
    m[WM_M_GLD_REQ] ? (double)m[WM_M_GLD_SEC] / (double)m[WM_M_GLD_REQ] : 0,
    m[WM_M_GST_REQ] ? (double)m[WM_M_GST_SEC] / (double)m[WM_M_GST_REQ] : 0,
    m[WM_M_SLD_INST] ? (double)m[WM_M_SLD_WF] / (double)m[WM_M_SLD_INST] : 0,
    m[WM_M_SST_INST] ? (double)m[WM_M_SST_WF] / (double)m[WM_M_SST_INST] : 0,
    m[WM_M_LLD_REQ] + m[WM_M_LST_REQ]
      ? (double)(m[WM_M_LLD_SEC] + m[WM_M_LST_SEC]) / (double)(m[WM_M_LLD_REQ] + m[WM_M_LST_REQ]) : 0};
  const char *names[] = {gr->name, x->name, l->sim->label, l->sim->name};
  for (int k = 0; k < 4; k++) {
    wm_csv_write(out, names[k]);
    fputc(',', out);
  }
  fprintf(out, "%llu,%llu,%g,%.0f,%.0f,%g,%g,%g,%g,%g,%.0f,%.0f,%.3f,", (unsigned long long)launch_threads(l->sim),
          (unsigned long long)launch_threads(l->gpu), r->scale, l->bytes, l->flops, q[0], q[1], q[2], q[3], q[4],
          32.0 * (double)(m[WM_M_L2_RD] + m[WM_M_L2_WR] + m[WM_M_L2_ATOM] + m[WM_M_L2_RED]) * r->scale,
          (double)(m[WM_M_DRAM_RD] + m[WM_M_DRAM_WR]) * r->scale, r->pred_ns / 1e3);
  if (g->timed)
    fprintf(out, "%.3f,%.3f,%.1f,%.1f,%.2f,%.3f,", g->cold.median_s * 1e6, g->hot.median_s * 1e6, g->hot_gbps,
            g->hot_gflops, g->pct_peak, g->speedup);
  else
    fputs(",,,,,,", out);
  if (l->seed_speedup > 0) fprintf(out, "%g", l->seed_speedup);
  fputc(',', out);
  wm_csv_write(out, g->outputs);
  fprintf(out, ",%s,", report_status_name[r->status]);
  wm_csv_write(out, r->error);
  fputc('\n', out);
}

static void csv_report(const ReportDoc *d, FILE *out) {
  fputs("group,experiment,launch,kernel,sim_threads,gpu_threads,scale,bytes,flops,"
        "ld_sectors_per_req,st_sectors_per_req,smem_ld_wavefronts_per_inst,smem_st_wavefronts_per_inst,"
        "local_sectors_per_req,l2_bytes,dram_bytes,predicted_us,cold_us,hot_us,gbps,gflops,pct_peak,speedup,"
        "seed_speedup,outputs,status,error\n", out);
  for (int g = 0; g < d->ngroups; g++)
    for (int x = d->groups[g].first; x < d->groups[g].first + d->groups[g].n; x++)
      for (int i = d->exps[x].first; i < d->exps[x].first + d->exps[x].n; i++) csv_row(d, out, &d->groups[g], &d->exps[x], i);
}

/* ---- JSON ------------------------------------------------------------------- */

static json_t *spec_json(const LaunchSpec *s) {
  json_t *args = json_array();
  for (int a = 0; a < s->nargs; a++) json_array_append_new(args, json_string(s->args[a].text));
  return json_pack("{s:[i,i,i], s:[i,i,i], s:i, s:o, s:I}", "grid", (int)s->grid[0], (int)s->grid[1], (int)s->grid[2],
                   "block", (int)s->block[0], (int)s->block[1], (int)s->block[2], "smem", (int)s->smem, "args", args,
                   "threads", (json_int_t)launch_threads(s));
}

static json_t *stats_json(const ReportStats *s) {
  return json_pack("{s:i, s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:i, s:s}", "samples", s->n, "discarded", s->discarded,
                   "median_s", s->median_s, "min_s", s->min_s, "max_s", s->max_s, "noise", s->noise, "clock_mhz",
                   s->clock_mhz, "spent_s", s->spent_s, "batch", s->batch, "stop", s->stop);
}

static void set_str(json_t *o, const char *k, const char *v) {
  if (v) json_object_set_new(o, k, json_string(v));
}

static json_t *gpu_json(const ReportLabLaunch *l) {
  const ReportMeasured *r = &l->gpu_run;
  json_t *g = json_object();
  if (r->timed) {
    json_object_set_new(g, "cold", stats_json(&r->cold));
    json_object_set_new(g, "hot", stats_json(&r->hot));
    json_object_set_new(g, "hot_gbps", json_real(r->hot_gbps));
    json_object_set_new(g, "cold_gbps", json_real(r->cold_gbps));
    if (l->flops > 0) json_object_set_new(g, "hot_gflops", json_real(r->hot_gflops));
    if (r->pct_peak > 0) json_object_set_new(g, "pct_peak", json_real(r->pct_peak));
    if (r->speedup > 0) json_object_set_new(g, "speedup", json_real(r->speedup));
    json_object_set_new(g, "registers", json_integer(r->regs));
    json_object_set_new(g, "local_bytes", json_integer(r->local_bytes));
  }
  set_str(g, "outputs", r->outputs[0] ? r->outputs : NULL);
  json_object_set_new(g, "outputs_ok", json_boolean(r->outputs_ok));
  if (r->error[0]) set_str(g, "error", r->error);
  return g;
}

static json_t *launch_json(const ReportDoc *d, int i) {
  const ReportLabLaunch *l = &d->launches[i], *r = l;
  json_t *j = json_object(), *sim = json_object(), *metrics = json_object();
  set_str(j, "launch", l->sim->label);
  set_str(j, "kernel", l->sim->name);
  json_object_set_new(j, "line", json_integer(l->sim->line));
  json_object_set_new(j, "simulated_spec", spec_json(l->sim));
  json_object_set_new(j, "gpu_spec", spec_json(l->gpu));
  json_object_set_new(j, "scale", json_real(r->scale));
  if (l->bytes > 0) json_object_set_new(j, "bytes", json_real(l->bytes));
  if (l->flops > 0) json_object_set_new(j, "flops", json_real(l->flops));
  if (l->seed_speedup > 0) json_object_set_new(j, "seed_speedup", json_real(l->seed_speedup));
  set_str(j, "seed_reported", l->reported);
  set_str(j, "why", l->why);
  if (l->carveout >= 0) json_object_set_new(j, "carveout", json_integer(l->carveout));
  for (int m = 0; m < WM_M_COUNT; m++) json_object_set_new(metrics, wm_metric_name[m], json_integer((json_int_t)r->metric[m]));
  set_str(sim, "status", report_status_name[r->status]);
  if (r->status != REPORT_OK) set_str(sim, "error", r->error);
  json_object_set_new(sim, "metrics", metrics);
  json_object_set_new(sim, "thread_instructions", json_integer((json_int_t)r->thread_instrs));
  json_object_set_new(sim, "seconds", json_real(r->seconds));
  if (r->twin >= 0) set_str(sim, "same_as", d->launches[r->twin].sim->label);
  json_object_set_new(sim, "registers", json_integer(r->regs));
  json_object_set_new(sim, "blocks_per_sm", json_integer(r->blocks_per_sm));
  if (r->pred_ns > 0) json_object_set_new(sim, "predicted_ns_gpu_size", json_real(r->pred_ns));
  json_object_set_new(j, "simulation", sim);
  if (d->device.have_gpu) json_object_set_new(j, "gpu", gpu_json(l));
  return j;
}

static json_t *device_json(const ReportDevice *rf) {
  json_t *g = json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:I}", "name", rf->name, "sms", rf->sms, "cc", rf->cc,
                        "clock_khz", rf->clock_khz, "l2_bytes", rf->l2_bytes, "driver", rf->driver, "memory",
                        (json_int_t)rf->memory);
  if (rf->have_copy) {
    json_object_set_new(g, "copy_d2d_gbps", json_real(rf->copy_d2d_gbps));
    json_object_set_new(g, "copy_vec4_gbps", json_real(rf->copy_vec4_gbps));
  }
  json_t *cb = json_object();
  for (int k = 0; k < rf->ncublas; k++) {
    char n[16];
    snprintf(n, sizeof n, "%d", rf->cublas_n[k]);
    json_object_set_new(cb, n, json_pack("{s:f, s:f}", "seconds", rf->cublas_s[k], "tflops", tflops(rf, k)));
  }
  json_object_set_new(g, "cublas_sgemm", cb);
  set_str(g, "cublas_note", rf->cublas_note[0] ? rf->cublas_note : NULL);
  return g;
}

static json_t *exp_json(const ReportDoc *d, const ReportExp *ex) {
  json_t *ls = json_array();
  for (int i = ex->first; i < ex->first + ex->n; i++) json_array_append_new(ls, launch_json(d, i));
  json_t *e = json_object();
  set_str(e, "name", ex->name);
  set_str(e, "title", ex->title);
  set_str(e, "seed_says", ex->seed_says);
  set_str(e, "why", ex->why);
  set_str(e, "peak", ex->peak);
  if (!strcmp(ex->peak, "cublas")) json_object_set_new(e, "peak_n", json_integer(ex->peak_n));
  set_str(e, "baseline", ex->baseline);
  json_object_set_new(e, "launches", ls);
  return e;
}

static json_t *report_json(const ReportDoc *d) {
  json_t *root = json_object(), *groups = json_array();
  set_str(root, "command", d->command);
  set_str(root, "date", d->date);
  set_str(root, "simulated_arch", d->arch);
  json_object_set_new(root, "simulation_seconds", json_real(d->sim_seconds));
  if (d->device.have_gpu) {
    json_object_set_new(root, "gpu", device_json(&d->device));
  } else {
    json_object_set_new(root, "gpu", json_null());
    set_str(root, "no_gpu_reason", d->device.no_gpu_reason);
  }
  for (int g = 0; g < d->ngroups; g++) {
    const ReportGroup *gr = &d->groups[g];
    json_t *exps = json_array();
    for (int x = gr->first; x < gr->first + gr->n; x++) json_array_append_new(exps, exp_json(d, &d->exps[x]));
    json_t *gj = json_object();
    set_str(gj, "name", gr->name);
    json_object_set_new(gj, "seed", json_integer(gr->seed));
    set_str(gj, "title", gr->title);
    set_str(gj, "file", gr->file);
    json_object_set_new(gj, "experiments", exps);
    json_array_append_new(groups, gj);
  }
  json_object_set_new(root, "groups", groups);
  return root;
}

int report_lab_write(FILE *out, const ReportDoc *d, ReportFormat f) {
  if (f == REPORT_JSON) {
    json_t *j = report_json(d);
    int rc = json_dumpf(j, out, JSON_INDENT(2));
    fputc('\n', out);
    json_decref(j);
    return rc;
  }
  if (f == REPORT_HTML) return report_lab_html(out, d);
  if (f == REPORT_CSV) csv_report(d, out);
  else text_report(d, out, f == REPORT_MARKDOWN);
  return ferror(out) ? -1 : 0;
}

void report_lab_start(FILE *out, const ReportDoc *d) {
  if (d->device.have_gpu)
    fprintf(out, "GPU: %s, %d SMs: simulating and measuring %d launches\n", d->device.name, d->device.sms, d->nlaunches);
  else
    fprintf(out, "no GPU found (%s): showing simulation only\n", d->device.no_gpu_reason);
}

int report_lab_results_md(FILE *out, const ReportDoc *d) {
  fprintf(out, "# warpmem lab: %s, %s\n\nProduced by `%s` (simulated preset: %s).\n\n",
          d->device.have_gpu ? d->device.name : "simulation only", d->date, d->command, d->arch);
  return report_lab_write(out, d, REPORT_MARKDOWN);
}

/* ---- --list ----------------------------------------------------------------- */

static void spec_line(FILE *out, const LaunchSpec *s) {
  char t[32];
  human(t, sizeof t, (double)launch_threads(s));
  fprintf(out, "grid=%u,%u,%u block=%u,%u,%u", s->grid[0], s->grid[1], s->grid[2], s->block[0], s->block[1], s->block[2]);
  if (s->smem) fprintf(out, " smem=%u", s->smem);
  fprintf(out, " (%s threads)", t);
}

void report_lab_list(FILE *out, const ReportDoc *d) {
  for (int g = 0; g < d->ngroups; g++) {
    const ReportGroup *gr = &d->groups[g];
    char seed[32] = "";
    if (gr->seed >= 0) snprintf(seed, sizeof seed, "seed %03d, ", gr->seed);
    fprintf(out, "%s (%s%s): %s\n", gr->name, seed, gr->file, gr->title ? gr->title : "");
    for (int x = gr->first; x < gr->first + gr->n; x++) {
      const ReportExp *ex = &d->exps[x];
      fprintf(out, "  %s: %s\n", ex->name, ex->title ? ex->title : "");
      for (int i = ex->first; i < ex->first + ex->n; i++) {
        const ReportLabLaunch *l = &d->launches[i];
        fprintf(out, "    %-26s sim ", l->sim->label);
        spec_line(out, l->sim);
        if (l->has_gpu_spec) {
          fprintf(out, "; gpu ");
          spec_line(out, l->gpu);
        }
        fputc('\n', out);
      }
    }
  }
}
