/* report.c - the counters of one or more launches as text, JSON or CSV.
 *
 * Notes:
 * - Metrics are listed in the X-macro order of metrics.h, all of them (zeros
 *   included), so reports of different kernels line up and diff cleanly.
 * - Ratios (sectors per request, wavefronts per instruction) are shown only
 *   where their denominator is non-zero; JSON writes null and CSV an empty
 *   field for a line without requests.
 * - JSON and CSV give the CUDA file as the PTX's .file names it (the full
 *   path nvcc saw); text shows its base name to keep the table narrow.
 * - A run whose `mm` or `kernel` is NULL is reported with zero counters and
 *   no lines rather than rejected: the report never fails on its input, only
 *   on writing.
 */
#include "report/report.h"
#include "report/report_html.h"
#include "report/report_int.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/csv.h"

/* ---- shared helpers ------------------------------------------------------ */

ReportStatus report_status_of(int code) {
  return wm_kernel_fault(code) || code == WM_EGPU || code == WM_EWATCHDOG ? REPORT_FAILED : REPORT_REFUSED;
}

static uint64_t metric(const ReportRun *r, int m) { return r->mm ? r->mm->metric[m] : 0; }

static const char *op_name(const PtxInstr *in) {
  return in->op < PTX_OP_COUNT ? ptx_op_name[in->op] : "";
}

/* ---- text ---------------------------------------------------------------- */

static void text_ratio(FILE *out, const char *what, const char *per, uint64_t num, uint64_t den,
                       const char *extra) {
  if (den == 0) return;
  fprintf(out, "    %-14s %-22s %8.2f%s\n", what, per, (double)num / (double)den, extra);
}

static void text_lines(FILE *out, const ReportRun *r) {
  int n;
  LineRow *v = report_line_rows(r, &n);
  if (!v) {
    fprintf(out, "\n  memory instructions: none executed\n");
    return;
  }
  /* column widths */
  enum { MAXW = 56 };
  char (*src)[64] = wm_xmalloc((size_t)n * sizeof *src);
  char (*ins)[MAXW + 1] = wm_xmalloc((size_t)n * sizeof *ins);
  int wsrc = 6, wins = 11;
  for (int i = 0; i < n; i++) {
    const PtxInstr *in = v[i].in;
    const char *f = report_cu_file(r, in);
    if (in->cu_line)
      snprintf(src[i], sizeof src[i], "%s:%u", *f ? report_base_name(f) : "?", in->cu_line);
    else
      snprintf(src[i], sizeof src[i], "-");
    char full[512];
    report_instr_text(r, in, full, sizeof full);
    if (strlen(full) > MAXW) {
      memcpy(ins[i], full, MAXW - 3);
      strcpy(ins[i] + MAXW - 3, "...");
    } else {
      strcpy(ins[i], full);
    }
    int a = (int)strlen(src[i]), b = (int)strlen(ins[i]);
    if (a > wsrc) wsrc = a;
    if (b > wins) wins = b;
  }
  fprintf(out, "\n  memory instructions (by PTX line)\n");
  fprintf(out, "  %-*s  %-9s  %-*s  %10s  %-10s  %9s  %9s  %s\n", wsrc, "source", "ptx", wins,
          "instruction", "requests", "unit", "units/req", "ideal/req", "explanation");
  for (int i = 0; i < n; i++) {
    const LineStat *ls = v[i].ls;
    char ptx[24], per[24], ideal[24];
    snprintf(ptx, sizeof ptx, "ptx:%u", v[i].in->ptx_line);
    if (ls->requests && ls->unit_kind) {
      snprintf(per, sizeof per, "%.2f", (double)ls->units / (double)ls->requests);
      snprintf(ideal, sizeof ideal, "%.2f", (double)ls->ideal / (double)ls->requests);
    } else {
      strcpy(per, "-");
      strcpy(ideal, "-");
    }
    fprintf(out, "  %-*s  %-9s  %-*s  %10llu  %-10s  %9s  %9s%s%s\n", wsrc, src[i], ptx, wins,
            ins[i], (unsigned long long)ls->requests, ls->unit_kind ? report_unit_name(ls->unit_kind) : "-",
            per, ideal, ls->why[0] ? "  " : "", ls->why);
  }
  free(src);
  free(ins);
  free(v);
}

static void text_occupancy(FILE *out, const ReportRun *r) {
  const char *note = r->occ_note && r->occ_note[0] ? r->occ_note : NULL;
  if (!r->arch || (!r->occ && !note)) return;
  fprintf(out, "\n  occupancy on %s (%s), %d registers per thread (%s)\n", r->arch->name, r->arch->gpu, r->regs,
          r->regs_from ? r->regs_from : "?");
  if (r->occ) {
    const OccResult *o = r->occ;
    char lim[96];
    occ_limiters_text(o->limiters, lim, sizeof lim);
    fprintf(out, "    %d blocks per SM, %d of %d warps (%.1f%%), limited by %s\n", o->blocks_sm, o->warps_sm,
            o->max_warps_sm, o->occupancy_pct, lim);
    if (r->arch->l1_smem_bytes)
      fprintf(out, "    shared memory %u bytes per block, carveout %u KiB, L1 %u KiB\n", o->smem_block,
              o->carveout / 1024, o->l1_bytes / 1024);
  }
  if (note) fprintf(out, "    note: %s\n", note);
}

/* ---- caches, DRAM and time ----------------------------------------------- */

static void text_bytes(FILE *out, const char *what, double bytes, const char *extra) {
  const char *unit = bytes >= 1e9 ? "GB" : bytes >= 1e6 ? "MB" : bytes >= 1e3 ? "kB" : "B";
  double v = bytes >= 1e9 ? bytes / 1e9 : bytes >= 1e6 ? bytes / 1e6 : bytes >= 1e3 ? bytes / 1e3 : bytes;
  fprintf(out, "    %-22s %9.1f %-2s%s\n", what, v, unit, extra);
}

static void text_hierarchy(FILE *out, const ReportRun *r) {
  const ModelTime *t = r->time;
  if (!t || !r->mm || !r->arch) return;
  const uint64_t *m = r->mm->metric;
  const Arch *a = r->arch;
  fprintf(out, "\n  memory hierarchy on %s: L1 %u KiB per SM, L2 %d MiB, %s %.2f TB/s\n", a->name,
          r->occ ? r->occ->l1_bytes / 1024 : (unsigned)a->l1_bytes / 1024, a->l2_bytes >> 20, a->dram,
          a->dram_gbs / 1000);
  char extra[160];
  for (int i = 0; i < REPORT_NRATES; i++) {
    static const char *const what[REPORT_NRATES] = {"L1 sector hit rate", "L2 sector hit rate",
                                                    "DRAM row-buffer hits", "DRAM bytes used"};
    double v = report_rate(r->mm, (ReportRate)i);
    if (v >= 0) fprintf(out, "    %-22s %8.1f%%\n", what[i], v);
  }
  if (m[WM_M_XBAR])
    snprintf(extra, sizeof extra, "  (%llu L2 sectors asked for by L1 misses and uncached loads; %llu more came"
             " with another SM's read of the same round)", (unsigned long long)m[WM_M_L2_RD],
             (unsigned long long)m[WM_M_XBAR]);
  else
    snprintf(extra, sizeof extra, "  (%llu L2 sectors asked for by L1 misses and uncached loads)",
             (unsigned long long)m[WM_M_L2_RD]);
  text_bytes(out, "L2 read", 32.0 * (double)m[WM_M_L2_RD], extra);
  text_bytes(out, "L2 write", 32.0 * (double)m[WM_M_L2_WR], "");
  snprintf(extra, sizeof extra, "  (%.1f MB of it asked for; reads fetch %d-byte units, half-written sectors are filled)",
           (double)m[WM_M_DRAM_USED] / 1e6, a->fetch_bytes);
  text_bytes(out, "DRAM read", (double)m[WM_M_DRAM_RD], extra);
  text_bytes(out, "DRAM write", (double)m[WM_M_DRAM_WR], "  (dirty L2 lines evicted during the kernel)");
  fprintf(out, "\n  predicted time %.1f us -- %s\n", t->ns / 1000, t->why);
  fprintf(out, "    bounds:");
  for (int b = 0; b < MODEL_NBOUNDS; b++)
    fprintf(out, "%s %s %.1f us", b ? "," : "", model_bound_name[b], t->bound_ns[b] / 1000);
  fprintf(out, "; plus launch %.1f us\n", t->launch_ns / 1000);
  if (r->blocks_run) {
    uint64_t grid = (uint64_t)r->grid[0] * r->grid[1] * r->grid[2];
    fprintf(out, "    sampled: %llu of %llu blocks simulated (--sample), counters scaled by %.2f\n",
            (unsigned long long)r->blocks_run, (unsigned long long)grid, (double)grid / (double)r->blocks_run);
  }
}

static json_t *json_time(const ReportRun *r) {
  const ModelTime *t = r->time;
  json_t *o = json_object();
  json_object_set_new(o, "gpu__time_duration.sum", json_real(t->ns));
  json_object_set_new(o, "limiter", json_string(model_bound_name[t->limiter]));
  json_object_set_new(o, "why", json_string(t->why));
  json_t *b = json_object();
  for (int i = 0; i < MODEL_NBOUNDS; i++) json_object_set_new(b, model_bound_name[i], json_real(t->bound_ns[i]));
  json_object_set_new(o, "bounds_ns", b);
  json_object_set_new(o, "launch_ns", json_real(t->launch_ns));
  json_t *rates = json_object();
  for (int i = 0; i < REPORT_NRATES; i++) {
    double v = report_rate(r->mm, (ReportRate)i);
    json_object_set_new(rates, report_rate_name[i], v >= 0 ? json_real(v) : json_null());
  }
  json_object_set_new(o, "rates", rates);
  if (r->blocks_run) json_object_set_new(o, "blocks_simulated", json_integer((json_int_t)r->blocks_run));
  return o;
}

/* A launch that did not run: "REFUSED: " or "FAILED: " and its message,
 * every line of it indented under the heading. */
static void text_not_run(FILE *out, const ReportRun *r) {
  fprintf(out, "\n  %s: ", r->status == REPORT_REFUSED ? "REFUSED" : "FAILED");
  for (const char *p = r->error ? r->error : "(no message)"; *p; p++) {
    fputc(*p, out);
    if (*p == '\n' && p[1]) fputs("    ", out);
  }
  fputc('\n', out);
}

static void text_run(FILE *out, const ReportRun *r, int lines) {
  const PtxKernel *k = r->kernel;
  fprintf(out, "%s  grid=(%u,%u,%u) block=(%u,%u,%u) smem=%u  kernel %s", report_launch_name(r),
          r->grid[0], r->grid[1], r->grid[2], r->block[0], r->block[1], r->block[2], r->smem,
          k && k->plain_name ? k->plain_name : report_kernel_name(r));
  if (k && k->plain_name && k->name && strcmp(k->plain_name, k->name) != 0)
    fprintf(out, " (%s)", k->name);
  if (r->status != REPORT_OK) {
    fprintf(out, "  [%s]\n", report_run_status(r));
    text_not_run(out, r);
    return;
  }
  double rate = r->seconds > 0 ? (double)r->thread_instrs / r->seconds : 0;
  if (rate >= 1e6)
    fprintf(out, "  [%.2f s, %.0f M thread-instr/s]\n", r->seconds, rate / 1e6);
  else if (r->seconds > 0)
    fprintf(out, "  [%.2f s, %.0f thread-instr/s]\n", r->seconds, rate);
  else
    fprintf(out, "  [%llu thread-instr]\n", (unsigned long long)r->thread_instrs);

  int wname = 6, wval = 5;
  for (int m = 0; m < WM_M_COUNT; m++) {
    int a = (int)strlen(wm_metric_name[m]);
    char num[32];
    int b = snprintf(num, sizeof num, "%llu", (unsigned long long)metric(r, m));
    if (a > wname) wname = a;
    if (b > wval) wval = b;
  }
  fprintf(out, "\n  %-*s  %*s  %s\n", wname, "metric", wval, "value", "description");
  for (int m = 0; m < WM_M_COUNT; m++)
    fprintf(out, "  %-*s  %*llu  %s\n", wname, wm_metric_name[m], wval,
            (unsigned long long)metric(r, m), wm_metric_desc[m]);

  /* the ratios a teacher looks at first */
  static const struct { const char *what; int num, den; } sec[] = {
    {"global load", WM_M_GLD_SEC, WM_M_GLD_REQ},    {"global store", WM_M_GST_SEC, WM_M_GST_REQ},
    {"global atomic", WM_M_GATOM_SEC, WM_M_GATOM_REQ}, {"global red", WM_M_GRED_SEC, WM_M_GRED_REQ},
    {"local load", WM_M_LLD_SEC, WM_M_LLD_REQ},     {"local store", WM_M_LST_SEC, WM_M_LST_REQ},
    {"LDGSTS global", WM_M_LDGSTS_SEC, WM_M_LDGSTS_REQ},
  };
  static const struct { const char *what; int num, den, bc; } wf[] = {
    {"shared load", WM_M_SLD_WF, WM_M_SLD_INST, WM_M_SLD_BC},
    {"shared store", WM_M_SST_WF, WM_M_SST_INST, WM_M_SST_BC},
    {"shared atomic", WM_M_SATOM_WF, WM_M_SATOM_INST, -1},
    {"ldmatrix", WM_M_LDSM_WF, WM_M_LDSM_INST, WM_M_LDSM_BC},
    {"stmatrix", WM_M_STSM_WF, WM_M_STSM_INST, WM_M_STSM_BC},
    {"LDGSTS shared", WM_M_LDGSTS_WF, WM_M_LDGSTS_INST, WM_M_LDGSTS_BC},
  };
  int any = 0;
  for (size_t i = 0; i < sizeof sec / sizeof sec[0]; i++) any |= metric(r, sec[i].den) != 0;
  for (size_t i = 0; i < sizeof wf / sizeof wf[0]; i++) any |= metric(r, wf[i].den) != 0;
  if (any) {
    fprintf(out, "\n  derived\n");
    for (size_t i = 0; i < sizeof sec / sizeof sec[0]; i++)
      text_ratio(out, sec[i].what, "sectors/request", metric(r, sec[i].num), metric(r, sec[i].den),
                 "");
    for (size_t i = 0; i < sizeof wf / sizeof wf[0]; i++) {
      char extra[96] = "";
      if (wf[i].bc >= 0 && metric(r, wf[i].num))
        snprintf(extra, sizeof extra, "  (%.1f%% of wavefronts are bank conflicts)",
                 100.0 * (double)metric(r, wf[i].bc) / (double)metric(r, wf[i].num));
      int old_banks = r->mm && r->mm->gen.banks != MEM_BANKS_SM70; /* bank transactions */
      text_ratio(out, wf[i].what, old_banks ? "transactions/instr." : "wavefronts/instruction",
                 metric(r, wf[i].num),
                 metric(r, wf[i].den), extra);
    }
    /* the generation's transactions, and seed 004's "bus utilization" */
    uint64_t greqs = metric(r, WM_M_GLD_REQ) + metric(r, WM_M_GST_REQ) + metric(r, WM_M_GATOM_REQ) +
                     metric(r, WM_M_GRED_REQ);
    text_ratio(out, "global", "transactions/request", metric(r, WM_M_G_TRANS), greqs, "");
    if (metric(r, WM_M_G_MOVED))
      fprintf(out, "    %-14s %-22s %7.1f%%  (%llu of %llu bytes moved were asked for)\n", "global",
              "bus utilization", 100.0 * (double)metric(r, WM_M_G_USED) / (double)metric(r, WM_M_G_MOVED),
              (unsigned long long)metric(r, WM_M_G_USED), (unsigned long long)metric(r, WM_M_G_MOVED));
    fprintf(out, "    (best case: a warp of 32 lanes reading consecutive 4-, 8- or 16-byte words "
                 "needs 4, 8 or 16 sectors;\n     a conflict-free shared access needs 1 "
                 "wavefront per 128 bytes)\n");
  }
  text_occupancy(out, r);
  text_hierarchy(out, r);
  if (lines == REPORT_LINES_SOURCE) report_text_source(out, r);
  else if (lines) text_lines(out, r);
  if (r->warnings) {
    fprintf(out, "\n  approximate results (the GPU's own approximations differ within their bounds):\n    ");
    for (const char *p = r->warnings; *p; p++) {
      fputc(*p, out);
      if (*p == '\n') fputs("    ", out);
    }
    fputc('\n', out);
  }
}

/* ---- JSON ---------------------------------------------------------------- */

static json_t *dim3(const uint32_t d[3]) {
  json_t *a = json_array();
  for (int i = 0; i < 3; i++) json_array_append_new(a, json_integer((json_int_t)d[i]));
  return a;
}

static json_t *ratio_or_null(uint64_t num, uint64_t den) {
  return den ? json_real((double)num / (double)den) : json_null();
}

static json_t *json_lines(const ReportRun *r) {
  json_t *arr = json_array();
  int n;
  LineRow *v = report_line_rows(r, &n);
  for (int i = 0; i < n; i++) {
    const PtxInstr *in = v[i].in;
    const LineStat *ls = v[i].ls;
    char text[512];
    report_instr_text(r, in, text, sizeof text);
    json_t *o = json_object();
    json_object_set_new(o, "cu_file", in->cu_line ? json_string(report_cu_file(r, in)) : json_null());
    json_object_set_new(o, "cu_line", in->cu_line ? json_integer(in->cu_line) : json_null());
    json_object_set_new(o, "ptx_line", json_integer(in->ptx_line));
    json_object_set_new(o, "instruction", json_string(text));
    json_object_set_new(o, "space", json_string(ptx_space_name((PtxSpace)in->space)));
    json_object_set_new(o, "op", json_string(op_name(in)));
    json_object_set_new(o, "requests", json_integer((json_int_t)ls->requests));
    json_object_set_new(o, "units", json_integer((json_int_t)ls->units));
    json_object_set_new(o, "unit", ls->unit_kind ? json_string(report_unit_name(ls->unit_kind)) : json_null());
    json_object_set_new(o, "per_request",
                        ls->unit_kind ? ratio_or_null(ls->units, ls->requests) : json_null());
    json_object_set_new(o, "ideal_per_request",
                        ls->unit_kind ? ratio_or_null(ls->ideal, ls->requests) : json_null());
    json_object_set_new(o, "explanation", json_string(ls->why));
    json_array_append_new(arr, o);
  }
  free(v);
  return arr;
}

json_t *report_occupancy_json(const Arch *a, const OccResult *r, int regs, const char *regs_from) {
  json_t *o = json_object();
  json_object_set_new(o, "arch", json_string(a->name));
  json_object_set_new(o, "registers", json_integer(regs));
  json_object_set_new(o, "registers_from", regs_from ? json_string(regs_from) : json_null());
  json_object_set_new(o, "blocks_per_sm", json_integer(r->blocks_sm));
  json_object_set_new(o, "warps_per_sm", json_integer(r->warps_sm));
  json_object_set_new(o, "max_warps_per_sm", json_integer(r->max_warps_sm));
  json_object_set_new(o, "occupancy_pct", json_real(r->occupancy_pct));
  json_t *lims = json_array(), *limits = json_object();
  for (int l = 0; l < OCC_LIMIT_COUNT; l++) {
    char key[32];
    snprintf(key, sizeof key, "%s", occ_limit_name((OccLimit)l));
    for (char *p = key; *p; p++)
      if (*p == ' ') *p = '_';
    if (r->limiters & (1u << l)) json_array_append_new(lims, json_string(key));
    json_object_set_new(limits, key, r->limit[l] == OCC_UNLIMITED ? json_null() : json_integer(r->limit[l]));
  }
  json_object_set_new(o, "limiters", lims);
  json_object_set_new(o, "limits", limits);
  json_object_set_new(o, "registers_per_warp", json_integer(r->regs_warp));
  json_object_set_new(o, "registers_per_block", json_integer(r->regs_block));
  json_object_set_new(o, "smem_per_block", json_integer(r->smem_block));
  json_object_set_new(o, "smem_per_sm", json_integer(r->smem_sm));
  json_object_set_new(o, "carveout_bytes", json_integer(r->carveout));
  json_object_set_new(o, "l1_bytes", json_integer(r->l1_bytes));
  json_object_set_new(o, "optin", json_boolean(r->optin));
  return o;
}

/* The warnings text, a line each, as an array of strings. */
static json_t *json_warnings(const char *text) {
  json_t *a = json_array();
  for (const char *p = text; *p;) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    json_array_append_new(a, json_stringn(p, n));
    p += n + (nl != NULL);
  }
  return a;
}

static int write_json(FILE *out, const ReportRun *runs, int nruns, int lines) {
  json_t *root = json_array();
  for (int i = 0; i < nruns; i++) {
    const ReportRun *r = &runs[i];
    json_t *o = json_object();
    json_object_set_new(o, "launch", json_string(report_launch_name(r)));
    json_object_set_new(o, "kernel", json_string(report_kernel_name(r)));
    json_object_set_new(o, "grid", dim3(r->grid));
    json_object_set_new(o, "block", dim3(r->block));
    json_object_set_new(o, "smem", json_integer(r->smem));
    json_object_set_new(o, "status", json_string(report_run_status(r)));
    if (r->status != REPORT_OK) {
      json_object_set_new(o, "error", json_string(r->error ? r->error : ""));
      json_array_append_new(root, o);
      continue;
    }
    json_t *m = json_object();
    for (int k = 0; k < WM_M_COUNT; k++)
      json_object_set_new(m, wm_metric_name[k], json_integer((json_int_t)metric(r, k)));
    json_object_set_new(o, "metrics", m);
    json_t *sim = json_object();
    json_object_set_new(sim, "thread_instructions", json_integer((json_int_t)r->thread_instrs));
    json_object_set_new(sim, "seconds", json_real(r->seconds));
    json_object_set_new(o, "simulation", sim);
    if (r->arch && (r->occ || (r->occ_note && r->occ_note[0]))) {
      json_t *occ = r->occ ? report_occupancy_json(r->arch, r->occ, r->regs, r->regs_from) : json_object();
      if (!r->occ) json_object_set_new(occ, "arch", json_string(r->arch->name));
      json_object_set_new(occ, "note", r->occ_note && r->occ_note[0] ? json_string(r->occ_note) : json_null());
      json_object_set_new(o, "occupancy", occ);
    }
    if (r->time && r->mm) json_object_set_new(o, "time", json_time(r));
    if (lines) json_object_set_new(o, "lines", json_lines(r));
    if (lines == REPORT_LINES_SOURCE) json_object_set_new(o, "source_lines", report_json_source(r));
    if (r->warnings) json_object_set_new(o, "warnings", json_warnings(r->warnings));
    json_array_append_new(root, o);
  }
  int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
  json_decref(root);
  if (rc == 0 && fputc('\n', out) == EOF) rc = -1;
  return rc;
}

/* ---- CSV ----------------------------------------------------------------- */

static void csv_ratio(FILE *out, uint8_t kind, uint64_t num, uint64_t den) {
  if (kind && den) fprintf(out, ",%.6g", (double)num / (double)den);
  else fputc(',', out);
}

/* Occupancy columns after the metrics, when any run has them: registers,
 * blocks_per_sm, warps_per_sm, occupancy_pct, limiter (empty where the block
 * cannot run on the preset). */
static void csv_occupancy(FILE *out, const ReportRun *r) {
  if (!r->occ) {
    fprintf(out, ",%d,,,,", r->regs);
    return;
  }
  char lim[96];
  occ_limiters_text(r->occ->limiters, lim, sizeof lim);
  fprintf(out, ",%d,%d,%d,%.1f,", r->regs, r->occ->blocks_sm, r->occ->warps_sm, r->occ->occupancy_pct);
  wm_csv_write(out, lim);
}

static void write_csv(FILE *out, const ReportRun *runs, int nruns, int lines) {
  int occ = 0;
  for (int i = 0; i < nruns; i++) occ |= runs[i].arch != NULL && (runs[i].occ || runs[i].occ_note);
  fputs("launch,kernel", out);
  for (int m = 0; m < WM_M_COUNT; m++) {
    fputc(',', out);
    wm_csv_write(out, wm_metric_name[m]);
  }
  if (occ) fputs(",registers,blocks_per_sm,warps_per_sm,occupancy_pct,limiter", out);
  int timed = 0;
  for (int i = 0; i < nruns; i++) timed |= runs[i].time != NULL;
  if (timed) {
    for (int i = 0; i < REPORT_NRATES; i++) fprintf(out, ",%s", report_rate_name[i]);
    fputs(",time_limiter", out);
  }
  fputs(",status,error\n", out);
  for (int i = 0; i < nruns; i++) {
    wm_csv_write(out, report_launch_name(&runs[i]));
    fputc(',', out);
    wm_csv_write(out, report_kernel_name(&runs[i]));
    if (runs[i].status != REPORT_OK) { /* empty counters, then why */
      int empty = WM_M_COUNT + (occ ? 5 : 0) + (timed ? REPORT_NRATES + 1 : 0);
      for (int k = 0; k < empty; k++) fputc(',', out);
      fprintf(out, ",%s,", report_run_status(&runs[i]));
      wm_csv_write(out, runs[i].error ? runs[i].error : "");
      fputc('\n', out);
      continue;
    }
    for (int m = 0; m < WM_M_COUNT; m++)
      fprintf(out, ",%llu", (unsigned long long)metric(&runs[i], m));
    if (occ) csv_occupancy(out, &runs[i]);
    if (timed) {
      for (int k = 0; k < REPORT_NRATES; k++) {
        double v = runs[i].time && runs[i].mm ? report_rate(runs[i].mm, (ReportRate)k) : -1;
        if (v >= 0) fprintf(out, ",%.2f", v);
        else fputc(',', out);
      }
      fprintf(out, ",%s", runs[i].time ? model_bound_name[runs[i].time->limiter] : "");
    }
    fputs(",ok,\n", out);
  }
  if (!lines) return;
  if (lines == REPORT_LINES_SOURCE) {
    report_csv_source(out, runs, nruns);
    return;
  }
  fputs("\nlaunch,cu_file,cu_line,ptx_line,instruction,requests,units,unit,per_request,"
        "ideal_per_request,explanation\n", out);
  for (int i = 0; i < nruns; i++) {
    const ReportRun *r = &runs[i];
    int n;
    LineRow *v = report_line_rows(r, &n);
    for (int j = 0; j < n; j++) {
      const PtxInstr *in = v[j].in;
      const LineStat *ls = v[j].ls;
      char text[512];
      report_instr_text(r, in, text, sizeof text);
      wm_csv_write(out, report_launch_name(r));
      fputc(',', out);
      wm_csv_write(out, report_cu_file(r, in));
      if (in->cu_line) fprintf(out, ",%u", in->cu_line);
      else fputc(',', out);
      fprintf(out, ",%u,", in->ptx_line);
      wm_csv_write(out, text);
      fprintf(out, ",%llu,%llu,%s", (unsigned long long)ls->requests,
              (unsigned long long)ls->units, report_unit_name(ls->unit_kind));
      csv_ratio(out, ls->unit_kind, ls->units, ls->requests);
      csv_ratio(out, ls->unit_kind, ls->ideal, ls->requests);
      fputc(',', out);
      wm_csv_write(out, ls->why);
      fputc('\n', out);
    }
    free(v);
  }
}

/* ---- entry --------------------------------------------------------------- */

int report_write(FILE *out, const ReportRun *runs, int nruns, ReportFormat fmt, int lines) {
  if (nruns < 0) nruns = 0;
  int rc = 0;
  switch (fmt) {
  case REPORT_JSON:
    rc = write_json(out, runs, nruns, lines);
    break;
  case REPORT_CSV:
    write_csv(out, runs, nruns, lines);
    break;
  case REPORT_NCU_CSV:
    report_write_ncu_csv(out, runs, nruns);
    break;
  case REPORT_HTML:
    rc = report_html_write(out, runs, nruns, NULL, lines);
    break;
  default:
    for (int i = 0; i < nruns; i++) {
      if (i) fputc('\n', out);
      text_run(out, &runs[i], lines);
    }
    break;
  }
  if (fflush(out) != 0 || ferror(out)) rc = -1;
  return rc ? -1 : 0;
}

int report_doc_write(FILE *out, const ReportDoc *d, ReportFormat fmt) {
  if (d->ngroups) return report_lab_write(out, d, fmt);
  if (d->vs) return report_vs_write(out, d, fmt);
  return report_write(out, d->runs, d->nruns, fmt, d->lines);
}
