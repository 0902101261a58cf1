/* lab_doc.c - the lab's results as a report document (report_doc.h): the
 * shown (--only) groups, experiments and launches of the catalogue with
 * their simulations, measurements and kept accesses, and the device's
 * reference points.  Every format of `warpmem lab` is rendered from it by
 * src/report/ (report_lab.c, report_lab_html.c, report_lab_vs.c); this file
 * formats nothing.
 *
 * Notes:
 * - The pictures need each launch's per-instruction statistics after its
 *   module is freed: lab_keep_accesses copies them (with the instruction's
 *   text and lines) right after the simulation, only for the HTML page.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lab/lab.h"
#include "ptx/ptx.h"
#include "util/diag.h"

/* ---- keeping the accesses ------------------------------------------------- */

static int access_cmp(const void *a, const void *b) {
  const ReportAccess *x = a, *y = b;
  return (x->ptx_line > y->ptx_line) - (x->ptx_line < y->ptx_line);
}

void lab_keep_accesses(Lab *lab, int i, const SimRun *run, const PtxModule *mod) {
  LabResult *r = &lab->res[i];
  const PtxKernel *k = run->kernel;
  const MemModel *mm = &run->mm;
  if (!k || !mm->line || r->acc) return;
  int lim = mm->nline < k->ncode ? mm->nline : k->ncode, n = 0;
  for (int c = 0; c < lim; c++) n += mm->line[c].execs > 0;
  if (!n) return;
  r->acc = wm_xcalloc((size_t)n, sizeof *r->acc);
  for (int c = 0; c < lim; c++) {
    if (!mm->line[c].execs) continue;
    const PtxInstr *in = &k->code[c];
    ReportAccess *a = &r->acc[r->nacc++];
    a->ptx_line = in->ptx_line;
    a->cu_line = in->cu_line;
    a->ls = mm->line[c];
    ptx_instr_text(mod, in, a->text, sizeof a->text);
    const char *f = in->cu_line ? ptx_cu_file(mod, in) : NULL;
    const char *base = f ? strrchr(f, '/') : NULL;
    snprintf(a->src, sizeof a->src, "%s", base ? base + 1 : f ? f : "");
  }
  qsort(r->acc, (size_t)r->nacc, sizeof *r->acc, access_cmp);
  r->gen = mm->gen;
}

void lab_free_accesses(Lab *lab) {
  for (int i = 0; lab->res && i < lab->cat.nlaunches; i++) {
    free(lab->res[i].acc);
    lab->res[i].acc = NULL;
    lab->res[i].nacc = 0;
  }
}

/* ---- the document ----------------------------------------------------------- */

static ReportStats stats(const GpuStats *s) {
  return (ReportStats){.n = s->n, .discarded = s->discarded, .median_s = s->median_s, .min_s = s->min_s,
                       .max_s = s->max_s, .noise = s->noise, .clock_mhz = s->clock_mhz, .spent_s = s->spent_s,
                       .batch = s->batch, .stop = gpu_stop_reason_name(s->stop)};
}

static void fill_launch(const Lab *lab, int i, const int *shown_at, ReportLabLaunch *d) {
  const LabLaunch *l = &lab->cat.launches[i];
  const LabResult *r = &lab->res[i];
  *d = (ReportLabLaunch){.sim = &l->sim, .gpu = &l->gpu, .has_gpu_spec = l->has_gpu_spec, .bytes = l->bytes,
                         .flops = l->flops, .seed_speedup = l->seed_speedup, .reported = l->reported, .why = l->why,
                         .carveout = l->carveout, .simulated = r->simulated, .status = r->sim_status,
                         .error = r->sim_error, .twin = r->twin >= 0 ? shown_at[r->twin] : -1, .metric = r->metric,
                         .seconds = r->sim_seconds, .thread_instrs = r->thread_instrs, .regs = r->regs,
                         .blocks_per_sm = r->blocks_per_sm, .scale = r->scale, .pred_ns = r->pred_ns,
                         .acc = r->acc, .nacc = r->nacc, .gen = r->gen};
  ReportMeasured *g = &d->gpu_run;
  g->timed = r->measured;
  g->cold = stats(&r->t.cold);
  g->hot = stats(&r->t.hot);
  g->cold_gbps = r->t.cold_gbps;
  g->hot_gbps = r->t.hot_gbps;
  g->hot_gflops = r->t.hot_gflops;
  g->regs = r->attrs.regs;
  g->local_bytes = r->attrs.local_bytes;
  g->speedup = r->speedup;
  g->pct_peak = r->pct_peak;
  g->outputs = r->match;
  g->outputs_ok = r->match_ok;
  g->error = r->gpu_error;
}

static void fill_device(const Lab *lab, ReportDevice *d) {
  const LabRefs *r = &lab->refs;
  *d = (ReportDevice){.have_gpu = r->have_gpu, .no_gpu_reason = r->no_gpu_reason, .name = r->info.name,
                      .sms = r->info.sms, .cc = r->info.cc_major * 10 + r->info.cc_minor,
                      .clock_khz = r->info.clock_khz, .l2_bytes = r->info.l2_bytes,
                      .driver = r->info.driver_version, .memory = (uint64_t)r->info.total_mem,
                      .have_copy = r->have_copy, .copy_d2d_gbps = r->copy.d2d_gbps,
                      .copy_vec4_gbps = r->copy.vec4_gbps, .ncublas = r->ncublas, .cublas_n = r->cublas_n,
                      .cublas_s = r->cublas_s, .cublas_note = r->cublas_note};
}

/* The shown launches' places in the document (-1: not shown), in
 * catalogue order: groups, their experiments, their launches. */
static int number_shown(const Lab *lab, int *shown_at) {
  const LabCatalogue *c = &lab->cat;
  int n = 0;
  for (int i = 0; i < c->nlaunches; i++) shown_at[i] = -1;
  for (int g = 0; g < c->ngroups; g++)
    for (int x = c->groups[g].first; x < c->groups[g].first + c->groups[g].n; x++)
      for (int i = c->exps[x].first; i < c->exps[x].first + c->exps[x].n; i++)
        if (lab->res[i].selected) shown_at[i] = n++;
  return n;
}

void lab_doc_build(const Lab *lab, LabDoc *ld) {
  const LabCatalogue *c = &lab->cat;
  memset(ld, 0, sizeof *ld);
  ld->shown_at = wm_xcalloc((size_t)c->nlaunches + 1, sizeof *ld->shown_at);
  int n = number_shown(lab, ld->shown_at);
  ld->groups = wm_xcalloc((size_t)c->ngroups + 1, sizeof *ld->groups);
  ld->exps = wm_xcalloc((size_t)c->nexps + 1, sizeof *ld->exps);
  ld->launches = wm_xcalloc((size_t)n + 1, sizeof *ld->launches);
  ReportDoc *d = &ld->doc;
  for (int g = 0; g < c->ngroups; g++) {
    const LabGroup *gr = &c->groups[g];
    ReportGroup *dg = &ld->groups[d->ngroups];
    *dg = (ReportGroup){.name = gr->name, .title = gr->title, .file = c->files[gr->file].cu, .seed = gr->seed,
                        .first = d->nexps};
    for (int x = gr->first; x < gr->first + gr->n; x++) {
      const LabExp *ex = &c->exps[x];
      if (!lab_exp_selected(lab, ex)) continue;
      ReportExp *de = &ld->exps[d->nexps++];
      *de = (ReportExp){.name = ex->name, .title = ex->title, .seed_says = ex->seed_says, .why = ex->why,
                        .peak = lab_peak_name(ex->peak), .peak_n = ex->peak == LAB_PEAK_CUBLAS ? ex->peak_n : 0,
                        .baseline = c->launches[ex->first].sim.label,
                        .first = d->nlaunches};
      for (int i = ex->first; i < ex->first + ex->n; i++)
        if (lab->res[i].selected) fill_launch(lab, i, ld->shown_at, &ld->launches[d->nlaunches++]);
      de->n = d->nlaunches - de->first;
    }
    dg->n = d->nexps - dg->first;
    if (dg->n) d->ngroups++;
  }
  d->command = lab->opt.command;
  d->date = lab->date;
  d->arch = sim_arch(&lab->opt.sim)->name;
  d->sim_seconds = lab->sim_seconds;
  fill_device(lab, &d->device);
  d->groups = ld->groups;
  d->exps = ld->exps;
  d->launches = ld->launches;
}

void lab_doc_free(LabDoc *ld) {
  free(ld->shown_at);
  free(ld->groups);
  free(ld->exps);
  free(ld->launches);
  free(ld->vs_rows);
  memset(ld, 0, sizeof *ld);
}

/* ---- rendering it ------------------------------------------------------------ */

int lab_report(const Lab *lab, FILE *out, LabFormat f) {
  LabDoc ld;
  lab_doc_build(lab, &ld);
  int rc = report_lab_write(out, &ld.doc, f);
  lab_doc_free(&ld);
  return rc;
}

void lab_list(const Lab *lab, FILE *out) {
  LabDoc ld;
  lab_doc_build(lab, &ld);
  report_lab_list(out, &ld.doc);
  lab_doc_free(&ld);
}

/* Writes dir/name with write(f, doc); -1 (said on stderr) if it cannot. */
static int write_file(const char *dir, const char *name, const ReportDoc *d, int (*write)(FILE *, const ReportDoc *)) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "warpmem: lab: cannot write %s: %s\n", path, strerror(errno));
    return -2;
  }
  int rc = write(f, d) ? -1 : 0;
  if (fclose(f)) rc = -1;
  return rc;
}

static int write_json(FILE *f, const ReportDoc *d) { return report_lab_write(f, d, REPORT_JSON); }

int lab_write_results(const Lab *lab, const char *dir) {
  if (mkdir(dir, 0777) && errno != EEXIST) {
    fprintf(stderr, "warpmem: lab --out %s: %s\n", dir, strerror(errno));
    return -1;
  }
  static const char *const names[] = {"results.json", "results.md", "results.html"};
  int (*const writers[])(FILE *, const ReportDoc *) = {write_json, report_lab_results_md, report_lab_html};
  LabDoc ld;
  lab_doc_build(lab, &ld);
  int rc = 0;
  for (int w = 0; w < 3 && rc != -2; w++) {
    int k = write_file(dir, names[w], &ld.doc, writers[w]);
    rc = k == -2 ? -2 : rc | k;
  }
  lab_doc_free(&ld);
  if (rc == 0) fprintf(stderr, "warpmem lab: wrote %s/results.json, results.md and results.html\n", dir);
  return rc ? -1 : 0;
}
