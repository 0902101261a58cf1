/* lab_report.c - the lab's tables: text and markdown (one table per
 * experiment, grouped), CSV (one row per launch), JSON (everything), and
 * the results files of --out (results.json, results.md).
 *
 * Notes:
 * - Counters per request (sectors, wavefronts) are the simulated launch's:
 *   they do not depend on the size (tests/test_lab_scaling.c).  Byte counts
 *   and the predicted time are for the GPU-size launch: where the two sizes
 *   differ they are the simulated ones scaled by the ratio of the work
 *   (the catalogue's scale:, by default the ratio of threads), marked '~'.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "lab/lab.h"
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

static int shown(const Lab *lab, int c) { return !columns[c].gpu || lab->refs.have_gpu; }

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

static void cell(const Lab *lab, int c, int i, char *b, size_t n) {
  const LabLaunch *l = &lab->cat.launches[i];
  const LabResult *r = &lab->res[i];
  const uint64_t *m = r->metric;
  const char *approx = r->scale != 1 ? "~" : "";
  char x[32], y[32];
  b[0] = '\0';
  switch ((LabColumn)c) {
  case C_LAUNCH: snprintf(b, n, "%s", l->sim.label); break;
  case C_THREADS:
    human(x, sizeof x, (double)lab_spec_threads(&l->sim));
    human(y, sizeof y, (double)lab_spec_threads(&l->gpu));
    if (lab_spec_threads(&l->sim) == lab_spec_threads(&l->gpu)) snprintf(b, n, "%s", x);
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
  case C_COLD: number(b, n, r->measured ? r->t.cold.median_s * 1e6 : 0, 1); break;
  case C_HOT: number(b, n, r->measured ? r->t.hot.median_s * 1e6 : 0, 1); break;
  case C_GBS:
    if (!r->measured) snprintf(b, n, "-");
    else if (l->flops > 0) snprintf(b, n, "%.1fT", r->t.hot_gflops / 1e3);
    else number(b, n, r->t.hot_gbps, 0);
    break;
  case C_PEAK: number(b, n, r->pct_peak, 1); break;
  case C_SPEEDUP:
    if (r->speedup > 0) snprintf(b, n, "%.2fx", r->speedup);
    else snprintf(b, n, "-");
    break;
  case C_SEED:
    if (l->seed_speedup > 0) snprintf(b, n, "%.3gx", l->seed_speedup);
    else snprintf(b, n, "-");
    break;
  case C_MATCH:
    if (r->gpu_error[0] && !r->match[0]) snprintf(b, n, "error");
    else snprintf(b, n, "%s", r->match[0] ? (r->match_ok ? (strncmp(r->match, "equal but", 9) ? "equal" : "race ok") : "DIFFER")
                                          : "-");
    break;
  case C_REPORTED: snprintf(b, n, "%s", l->reported ? l->reported : ""); break;
  case C_COUNT: break;
  }
}

/* ---- text and markdown ----------------------------------------------------- */


static void table_head(const Lab *lab, FILE *out, int md) {
  if (md) {
    fputs("|", out);
    for (int c = 0; c < C_COUNT; c++)
      if (shown(lab, c)) fprintf(out, " %s |", columns[c].head);
    fputs("\n|", out);
    for (int c = 0; c < C_COUNT; c++)
      if (shown(lab, c)) fputs(c == C_LAUNCH || c == C_REPORTED || c == C_MATCH ? "---|" : "---:|", out);
    fputs("\n", out);
    return;
  }
  fputs("   ", out);
  for (int c = 0; c < C_COUNT; c++)
    if (shown(lab, c)) fprintf(out, c == C_LAUNCH ? "%-*s" : " %*s", columns[c].width, columns[c].head);
  fputs("\n", out);
}

static void table_row(const Lab *lab, FILE *out, int i, int md) {
  char b[512];
  fputs(md ? "|" : "   ", out);
  for (int c = 0; c < C_COUNT; c++) {
    if (!shown(lab, c)) continue;
    cell(lab, c, i, b, sizeof b);
    if (md) fprintf(out, " %s |", b);
    else fprintf(out, c == C_LAUNCH ? "%-*s" : " %*s", columns[c].width, b);
  }
  fputs("\n", out);
}

/* A launch the simulation refused or that failed, with its located message
 * (markdown: in a code block, the message has a caret line). */
static void sim_error(const Lab *lab, FILE *out, int i, int md) {
  const LabResult *r = &lab->res[i];
  const char *what = report_status_name[r->sim_status];
  if (md) {
    fprintf(out, "\n- %s: simulation %s:\n\n```\n%s\n```\n", lab->cat.launches[i].sim.label, what, r->sim_error);
    return;
  }
  fprintf(out, "   ! %s: simulation %s: ", lab->cat.launches[i].sim.label, what);
  for (const char *p = r->sim_error; *p; p++) {
    fputc(*p, out);
    if (*p == '\n') fputs("       ", out);
  }
  fputc('\n', out);
}

static void gpu_errors(const Lab *lab, FILE *out, const LabExp *x, int md) {
  for (int i = x->first; i < x->first + x->n; i++) {
    const LabResult *r = &lab->res[i];
    if (!r->selected) continue;
    if (r->sim_status != REPORT_OK) sim_error(lab, out, i, md);
    if (r->gpu_error[0]) fprintf(out, "%s%s: GPU: %s\n", md ? "\n- " : "   ! ", lab->cat.launches[i].sim.label, r->gpu_error);
    if (r->match[0] && !r->match_ok) fprintf(out, "%s%s: outputs: %s\n", md ? "\n- " : "   ! ", lab->cat.launches[i].sim.label, r->match);
  }
}

static void header_lines(const Lab *lab, FILE *out, int md) {
  const LabRefs *r = &lab->refs;
  const char *p = md ? "- " : "";
  if (r->have_gpu) {
    fprintf(out, "%sGPU: %s (%d SMs, %.1f GB, L2 %d MiB, SM clock up to %d MHz, driver %d)\n", p, r->info.name,
            r->info.sms, (double)r->info.total_mem / 1e9, r->info.l2_bytes >> 20, r->info.clock_khz / 1000,
            r->info.driver_version);
    if (r->have_copy)
      fprintf(out, "%sdevice-to-device copy: %.0f GB/s (1 GiB; float4 copy kernel %.0f GB/s): the %%peak of bandwidth rows\n",
              p, r->copy.d2d_gbps, r->copy.vec4_gbps);
    for (int k = 0; k < r->ncublas; k++)
      fprintf(out, "%scuBLAS SGEMM %d: %.3f ms, %.1f TFLOP/s: the %%peak of SGEMM rows\n", p, r->cublas_n[k],
              r->cublas_s[k] * 1e3, 2.0 * r->cublas_n[k] * r->cublas_n[k] * (double)r->cublas_n[k] / r->cublas_s[k] / 1e12);
    if (r->cublas_note[0]) fprintf(out, "%scuBLAS: %s\n", p, r->cublas_note);
  } else {
    fprintf(out, "%sno GPU found (%s): showing simulation only\n", p, r->no_gpu_reason);
  }
}

static void text_report(const Lab *lab, FILE *out, int md) {
  const LabCatalogue *c = &lab->cat;
  if (md) header_lines(lab, out, 1);
  for (int g = 0; g < c->ngroups; g++) {
    const LabGroup *gr = &c->groups[g];
    if (!lab_group_selected(lab, gr)) continue;
    char seed[32] = ""; /* catalogues other than the seeds' (tests/corpus) have none */
    if (gr->seed >= 0) snprintf(seed, sizeof seed, " (seed %03d)", gr->seed);
    if (md) fprintf(out, "\n## %s%s\n\n%s\n", gr->name, seed, gr->title ? gr->title : "");
    else fprintf(out, "\n== %s%s: %s\n", gr->name, seed, gr->title ? gr->title : "");
    for (int x = gr->first; x < gr->first + gr->n; x++) {
      const LabExp *ex = &c->exps[x];
      if (!lab_exp_selected(lab, ex)) continue;
      if (md) {
        fprintf(out, "\n### %s: %s\n\n", ex->name, ex->title ? ex->title : "");
        if (ex->seed_says) fprintf(out, "The seed: %s\n\n", ex->seed_says);
      } else {
        fprintf(out, "\n-- %s: %s\n", ex->name, ex->title ? ex->title : "");
        if (ex->seed_says) fprintf(out, "   seed: %s\n", ex->seed_says);
      }
      table_head(lab, out, md);
      for (int i = ex->first; i < ex->first + ex->n; i++)
        if (lab->res[i].selected) table_row(lab, out, i, md);
      gpu_errors(lab, out, ex, md);
      if (ex->why) fprintf(out, md ? "\nWhy ours differs: %s\n" : "   why: %s\n", ex->why);
      for (int i = ex->first; i < ex->first + ex->n; i++)
        if (lab->res[i].selected && c->launches[i].why)
          fprintf(out, md ? "\n%s: %s\n" : "   %s: %s\n", c->launches[i].sim.label, c->launches[i].why);
    }
  }
  fprintf(out, md ? "\n## Columns\n\n" : "\ncolumns:\n");
  for (int k = 0; k < C_COUNT; k++)
    if (shown(lab, k)) fprintf(out, md ? "- **%s**: %s\n" : "  %-14s %s\n", columns[k].head, columns[k].what);
  fprintf(out, "%s%d launches simulated in %.1f s (the //@ sizes); '~': scaled from the simulated size to the "
          "GPU size by the ratio of work (scale: in the catalogue; else of threads).\n", md ? "\n" : "\n", lab->nselected, lab->sim_seconds);
  if (!md) header_lines(lab, out, 0);
}

/* ---- CSV -------------------------------------------------------------------- */

static void csv_report(const Lab *lab, FILE *out) {
  fputs("group,experiment,launch,kernel,sim_threads,gpu_threads,scale,bytes,flops,"
        "ld_sectors_per_req,st_sectors_per_req,smem_ld_wavefronts_per_inst,smem_st_wavefronts_per_inst,"
        "local_sectors_per_req,l2_bytes,dram_bytes,predicted_us,cold_us,hot_us,gbps,gflops,pct_peak,speedup,"
        "seed_speedup,outputs,status,error\n", out);
  for (int i = 0; i < lab->cat.nlaunches; i++) {
    const LabResult *r = &lab->res[i];
    if (!r->selected) continue;
    const LabLaunch *l = &lab->cat.launches[i];
    const LabExp *x = &lab->cat.exps[l->exp];
    const uint64_t *m = r->metric;
    double q[5] = {
      m[WM_M_GLD_REQ] ? (double)m[WM_M_GLD_SEC] / (double)m[WM_M_GLD_REQ] : 0,
      m[WM_M_GST_REQ] ? (double)m[WM_M_GST_SEC] / (double)m[WM_M_GST_REQ] : 0,
      m[WM_M_SLD_INST] ? (double)m[WM_M_SLD_WF] / (double)m[WM_M_SLD_INST] : 0,
      m[WM_M_SST_INST] ? (double)m[WM_M_SST_WF] / (double)m[WM_M_SST_INST] : 0,
      m[WM_M_LLD_REQ] + m[WM_M_LST_REQ]
        ? (double)(m[WM_M_LLD_SEC] + m[WM_M_LST_SEC]) / (double)(m[WM_M_LLD_REQ] + m[WM_M_LST_REQ]) : 0};
    const char *names[] = {lab->cat.groups[x->group].name, x->name, l->sim.label, l->sim.name};
    for (int k = 0; k < 4; k++) {
      wm_csv_write(out, names[k]);
      fputc(',', out);
    }
    fprintf(out, "%llu,%llu,%g,%.0f,%.0f,%g,%g,%g,%g,%g,%.0f,%.0f,%.3f,", (unsigned long long)lab_spec_threads(&l->sim),
            (unsigned long long)lab_spec_threads(&l->gpu), r->scale, l->bytes, l->flops, q[0], q[1], q[2], q[3], q[4],
            32.0 * (double)(m[WM_M_L2_RD] + m[WM_M_L2_WR] + m[WM_M_L2_ATOM] + m[WM_M_L2_RED]) * r->scale,
            (double)(m[WM_M_DRAM_RD] + m[WM_M_DRAM_WR]) * r->scale, r->pred_ns / 1e3);
    if (r->measured)
      fprintf(out, "%.3f,%.3f,%.1f,%.1f,%.2f,%.3f,", r->t.cold.median_s * 1e6, r->t.hot.median_s * 1e6, r->t.hot_gbps,
              r->t.hot_gflops, r->pct_peak, r->speedup);
    else
      fputs(",,,,,,", out);
    if (l->seed_speedup > 0) fprintf(out, "%g", l->seed_speedup);
    fputc(',', out);
    wm_csv_write(out, r->match);
    fprintf(out, ",%s,", report_status_name[r->sim_status]);
    wm_csv_write(out, r->sim_error);
    fputc('\n', out);
  }
}

/* ---- JSON ------------------------------------------------------------------- */

static json_t *spec_json(const LaunchSpec *s) {
  json_t *args = json_array();
  for (int a = 0; a < s->nargs; a++) json_array_append_new(args, json_string(s->args[a].text));
  return json_pack("{s:[i,i,i], s:[i,i,i], s:i, s:o, s:I}", "grid", (int)s->grid[0], (int)s->grid[1], (int)s->grid[2],
                   "block", (int)s->block[0], (int)s->block[1], (int)s->block[2], "smem", (int)s->smem, "args", args,
                   "threads", (json_int_t)lab_spec_threads(s));
}

static json_t *stats_json(const GpuStats *s) {
  return json_pack("{s:i, s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:i, s:s}", "samples", s->n, "discarded", s->discarded,
                   "median_s", s->median_s, "min_s", s->min_s, "max_s", s->max_s, "noise", s->noise, "clock_mhz",
                   s->clock_mhz, "spent_s", s->spent_s, "batch", s->batch, "stop", gpu_stop_reason_name(s->stop));
}

static void set_str(json_t *o, const char *k, const char *v) {
  if (v) json_object_set_new(o, k, json_string(v));
}

static json_t *launch_json(const Lab *lab, int i) {
  const LabLaunch *l = &lab->cat.launches[i];
  const LabResult *r = &lab->res[i];
  json_t *j = json_object(), *sim = json_object(), *metrics = json_object();
  set_str(j, "launch", l->sim.label);
  set_str(j, "kernel", l->sim.name);
  json_object_set_new(j, "line", json_integer(l->sim.line));
  json_object_set_new(j, "simulated_spec", spec_json(&l->sim));
  json_object_set_new(j, "gpu_spec", spec_json(&l->gpu));
  json_object_set_new(j, "scale", json_real(r->scale));
  if (l->bytes > 0) json_object_set_new(j, "bytes", json_real(l->bytes));
  if (l->flops > 0) json_object_set_new(j, "flops", json_real(l->flops));
  if (l->seed_speedup > 0) json_object_set_new(j, "seed_speedup", json_real(l->seed_speedup));
  set_str(j, "seed_reported", l->reported);
  set_str(j, "why", l->why);
  if (l->carveout >= 0) json_object_set_new(j, "carveout", json_integer(l->carveout));
  for (int m = 0; m < WM_M_COUNT; m++) json_object_set_new(metrics, wm_metric_name[m], json_integer((json_int_t)r->metric[m]));
  set_str(sim, "status", report_status_name[r->sim_status]);
  if (r->sim_status != REPORT_OK) set_str(sim, "error", r->sim_error);
  json_object_set_new(sim, "metrics", metrics);
  json_object_set_new(sim, "thread_instructions", json_integer((json_int_t)r->thread_instrs));
  json_object_set_new(sim, "seconds", json_real(r->sim_seconds));
  if (r->twin >= 0) set_str(sim, "same_as", lab->cat.launches[r->twin].sim.label);
  json_object_set_new(sim, "registers", json_integer(r->regs));
  json_object_set_new(sim, "blocks_per_sm", json_integer(r->blocks_per_sm));
  if (r->pred_ns > 0) json_object_set_new(sim, "predicted_ns_gpu_size", json_real(r->pred_ns));
  json_object_set_new(j, "simulation", sim);
  if (lab->refs.have_gpu) {
    json_t *g = json_object();
    if (r->measured) {
      json_object_set_new(g, "cold", stats_json(&r->t.cold));
      json_object_set_new(g, "hot", stats_json(&r->t.hot));
      json_object_set_new(g, "hot_gbps", json_real(r->t.hot_gbps));
      json_object_set_new(g, "cold_gbps", json_real(r->t.cold_gbps));
      if (l->flops > 0) json_object_set_new(g, "hot_gflops", json_real(r->t.hot_gflops));
      if (r->pct_peak > 0) json_object_set_new(g, "pct_peak", json_real(r->pct_peak));
      if (r->speedup > 0) json_object_set_new(g, "speedup", json_real(r->speedup));
      json_object_set_new(g, "registers", json_integer(r->attrs.regs));
      json_object_set_new(g, "local_bytes", json_integer(r->attrs.local_bytes));
    }
    set_str(g, "outputs", r->match[0] ? r->match : NULL);
    json_object_set_new(g, "outputs_ok", json_boolean(r->match_ok));
    if (r->gpu_error[0]) set_str(g, "error", r->gpu_error);
    json_object_set_new(j, "gpu", g);
  }
  return j;
}

static json_t *report_json(const Lab *lab) {
  const LabCatalogue *c = &lab->cat;
  const LabRefs *rf = &lab->refs;
  json_t *root = json_object(), *groups = json_array();
  set_str(root, "command", lab->opt.command);
  set_str(root, "date", lab->date);
  set_str(root, "simulated_arch", sim_arch(&lab->opt.sim)->name);
  json_object_set_new(root, "simulation_seconds", json_real(lab->sim_seconds));
  if (rf->have_gpu) {
    json_t *g = json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:I}", "name", rf->info.name, "sms", rf->info.sms,
                          "cc", rf->info.cc_major * 10 + rf->info.cc_minor, "clock_khz", rf->info.clock_khz, "l2_bytes",
                          rf->info.l2_bytes, "driver", rf->info.driver_version, "memory", (json_int_t)rf->info.total_mem);
    if (rf->have_copy) {
      json_object_set_new(g, "copy_d2d_gbps", json_real(rf->copy.d2d_gbps));
      json_object_set_new(g, "copy_vec4_gbps", json_real(rf->copy.vec4_gbps));
    }
    json_t *cb = json_object();
    for (int k = 0; k < rf->ncublas; k++) {
      char n[16];
      snprintf(n, sizeof n, "%d", rf->cublas_n[k]);
      json_object_set_new(cb, n, json_pack("{s:f, s:f}", "seconds", rf->cublas_s[k], "tflops",
                                           2.0 * rf->cublas_n[k] * rf->cublas_n[k] * (double)rf->cublas_n[k] / rf->cublas_s[k] / 1e12));
    }
    json_object_set_new(g, "cublas_sgemm", cb);
    set_str(g, "cublas_note", rf->cublas_note[0] ? rf->cublas_note : NULL);
    json_object_set_new(root, "gpu", g);
  } else {
    json_object_set_new(root, "gpu", json_null());
    set_str(root, "no_gpu_reason", rf->no_gpu_reason);
  }
  for (int g = 0; g < c->ngroups; g++) {
    const LabGroup *gr = &c->groups[g];
    json_t *exps = json_array();
    for (int x = gr->first; x < gr->first + gr->n; x++) {
      const LabExp *ex = &c->exps[x];
      if (!lab_exp_selected(lab, ex)) continue;
      json_t *ls = json_array();
      for (int i = ex->first; i < ex->first + ex->n; i++)
        if (lab->res[i].selected) json_array_append_new(ls, launch_json(lab, i));
      json_t *e = json_object();
      set_str(e, "name", ex->name);
      set_str(e, "title", ex->title);
      set_str(e, "seed_says", ex->seed_says);
      set_str(e, "why", ex->why);
      set_str(e, "peak", lab_peak_name(ex->peak));
      if (ex->peak == LAB_PEAK_CUBLAS) json_object_set_new(e, "peak_n", json_integer(ex->peak_n));
      set_str(e, "baseline", c->launches[ex->first].sim.label);
      json_object_set_new(e, "launches", ls);
      json_array_append_new(exps, e);
    }
    if (json_array_size(exps) == 0) {
      json_decref(exps);
      continue;
    }
    json_t *gj = json_object();
    set_str(gj, "name", gr->name);
    json_object_set_new(gj, "seed", json_integer(gr->seed));
    set_str(gj, "title", gr->title);
    set_str(gj, "file", c->files[gr->file].cu);
    json_object_set_new(gj, "experiments", exps);
    json_array_append_new(groups, gj);
  }
  json_object_set_new(root, "groups", groups);
  return root;
}

int lab_report(const Lab *lab, FILE *out, LabFormat f) {
  if (f == LAB_JSON) {
    json_t *j = report_json(lab);
    int rc = json_dumpf(j, out, JSON_INDENT(2));
    fputc('\n', out);
    json_decref(j);
    return rc;
  }
  if (f == LAB_HTML) return lab_report_html(lab, out);
  if (f == LAB_CSV) csv_report(lab, out);
  else text_report(lab, out, f == LAB_MARKDOWN);
  return ferror(out) ? -1 : 0;
}

int lab_write_results(const Lab *lab, const char *dir) {
  if (mkdir(dir, 0777) && errno != EEXIST) {
    fprintf(stderr, "warpmem: lab --out %s: %s\n", dir, strerror(errno));
    return -1;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/results.json", dir);
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "warpmem: lab: cannot write %s: %s\n", path, strerror(errno));
    return -1;
  }
  int rc = lab_report(lab, f, LAB_JSON);
  if (fclose(f)) rc = -1;
  snprintf(path, sizeof path, "%s/results.md", dir);
  f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "warpmem: lab: cannot write %s: %s\n", path, strerror(errno));
    return -1;
  }
  fprintf(f, "# warpmem lab: %s, %s\n\nProduced by `%s` (simulated preset: %s).\n\n",
          lab->refs.have_gpu ? lab->refs.info.name : "simulation only", lab->date, lab->opt.command,
          sim_arch(&lab->opt.sim)->name);
  if (lab_report(lab, f, LAB_MARKDOWN)) rc = -1;
  if (fclose(f)) rc = -1;
  snprintf(path, sizeof path, "%s/results.html", dir);
  f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "warpmem: lab: cannot write %s: %s\n", path, strerror(errno));
    return -1;
  }
  if (lab_report_html(lab, f)) rc = -1;
  if (fclose(f)) rc = -1;
  if (rc == 0) fprintf(stderr, "warpmem lab: wrote %s/results.json, results.md and results.html\n", dir);
  return rc;
}

/* ---- --list ----------------------------------------------------------------- */

static void spec_line(FILE *out, const LaunchSpec *s) {
  char t[32];
  human(t, sizeof t, (double)lab_spec_threads(s));
  fprintf(out, "grid=%u,%u,%u block=%u,%u,%u", s->grid[0], s->grid[1], s->grid[2], s->block[0], s->block[1], s->block[2]);
  if (s->smem) fprintf(out, " smem=%u", s->smem);
  fprintf(out, " (%s threads)", t);
}

void lab_list(const Lab *lab, FILE *out) {
  const LabCatalogue *c = &lab->cat;
  for (int g = 0; g < c->ngroups; g++) {
    const LabGroup *gr = &c->groups[g];
    if (!lab_group_selected(lab, gr)) continue;
    char seed[32] = "";
    if (gr->seed >= 0) snprintf(seed, sizeof seed, "seed %03d, ", gr->seed);
    fprintf(out, "%s (%s%s): %s\n", gr->name, seed, c->files[gr->file].cu, gr->title ? gr->title : "");
    for (int x = gr->first; x < gr->first + gr->n; x++) {
      const LabExp *ex = &c->exps[x];
      if (!lab_exp_selected(lab, ex)) continue;
      fprintf(out, "  %s: %s\n", ex->name, ex->title ? ex->title : "");
      for (int i = ex->first; i < ex->first + ex->n; i++) {
        if (!lab->res[i].selected) continue;
        const LabLaunch *l = &c->launches[i];
        fprintf(out, "    %-26s sim ", l->sim.label);
        spec_line(out, &l->sim);
        if (l->has_gpu_spec) {
          fprintf(out, "; gpu ");
          spec_line(out, &l->gpu);
        }
        fputc('\n', out);
      }
    }
  }
}
