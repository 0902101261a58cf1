/* report_html_occ.c - the occupancy as the CUDA occupancy calculator plots
 * it: warps per SM against threads per block, registers per thread and
 * shared memory per block, each with the other two held at the launch's
 * values and the launch marked.  Each chart's svg carries data-axis,
 * data-current (the launch's x), data-current-warps, data-max-warps and
 * data-points ("x:warps ..."), computed with occ_compute. */
#include "report/report_html_int.h"

#include <stdlib.h>

typedef enum { AXIS_THREADS, AXIS_REGS, AXIS_SMEM } Axis;

typedef struct Plot {
  Axis axis;
  int n;
  int *x, *warps;
  int cur_x, cur_warps, max_warps;
} Plot;

enum { PW = 370, PH = 230, ML = 46, MR = 14, MT = 28, MB = 40, MAXPTS = 300 };

/* Warps per SM of `in` on a (0 where the block cannot run there). */
static int warps_of(const Arch *a, const OccInput *in) {
  OccResult res;
  WmErr e = {0};
  return occ_compute(a, in, &res, &e) == 0 ? res.warps_sm : 0;
}

static void sample(const Arch *a, const OccInput *base, Plot *p) {
  int lo = 0, hi = 0, step = 1;
  if (p->axis == AXIS_THREADS) lo = step = a->warp_size, hi = a->max_threads_block;
  else if (p->axis == AXIS_REGS) lo = 1, hi = a->regs_thread;
  else {
    hi = a->smem_block_optin > a->smem_block ? a->smem_block_optin : a->smem_block;
    step = a->smem_unit > 0 ? a->smem_unit : 128;
    while (hi / step > MAXPTS - 1) step *= 2;
  }
  if (step < 1) step = 1;
  p->x = wm_xmalloc(sizeof *p->x * (size_t)(MAXPTS + 1));
  p->warps = wm_xmalloc(sizeof *p->warps * (size_t)(MAXPTS + 1));
  p->n = 0;
  for (int v = lo; v <= hi && p->n < MAXPTS; v += step) {
    OccInput in = *base;
    if (p->axis == AXIS_THREADS) in.threads = v;
    else if (p->axis == AXIS_REGS) in.regs = v;
    else in.smem = (uint32_t)v;
    p->x[p->n] = v;
    p->warps[p->n++] = warps_of(a, &in);
  }
  p->cur_x = p->axis == AXIS_THREADS ? base->threads : p->axis == AXIS_REGS ? base->regs : (int)base->smem;
  p->cur_warps = warps_of(a, base);
  p->max_warps = a->max_warps_sm;
}

static double px(const Plot *p, double v) {
  double hi = p->x[p->n - 1] > p->cur_x ? p->x[p->n - 1] : p->cur_x;
  return ML + (PW - ML - MR) * (hi > 0 ? v / hi : 0);
}

static double py(const Plot *p, double w) {
  return PH - MB - (PH - MT - MB) * (p->max_warps > 0 ? w / p->max_warps : 0);
}

static void axes(FILE *out, const Plot *p, const char *xlabel) {
  fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>", ML, PH - MB, PW - MR, PH - MB);
  fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", ML, MT, ML, PH - MB);
  for (int i = 0; i <= 4; i++) {
    int w = p->max_warps * i / 4;
    fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>", ML, py(p, w), PW - MR, py(p, w));
    fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%d</text>\n", ML - 4, py(p, w) + 3, w);
  }
  double hi = p->x[p->n - 1] > p->cur_x ? p->x[p->n - 1] : p->cur_x;
  for (int i = 0; i <= 4; i++) {
    double v = hi * i / 4;
    char t[32];
    if (p->axis == AXIS_SMEM) snprintf(t, sizeof t, "%.0fK", v / 1024);
    else snprintf(t, sizeof t, "%.0f", v);
    fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">%s</text>", px(p, v), PH - MB + 13, t);
  }
  fprintf(out, "\n<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s</text>", (ML + PW - MR) / 2,
          PH - 8, xlabel);
  fprintf(out, "<text x=\"12\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\" transform=\"rotate(-90 12 %d)\">"
               "warps per SM</text>\n", (MT + PH - MB) / 2, (MT + PH - MB) / 2);
}

/* Whether point i is drawn: the first, the last, and where warps change. */
static int step_at(const Plot *p, int i) { return i == 0 || i == p->n - 1 || p->warps[i] != p->warps[i - 1]; }

static void plot(FILE *out, const Plot *p, const char *title, const char *xlabel) {
  static const char *const axis_name[] = {"threads", "registers", "shared"};
  fprintf(out, "<svg class=\"occ-chart\" width=\"%d\" height=\"%d\" data-axis=\"%s\" data-current=\"%d\" "
               "data-current-warps=\"%d\" data-max-warps=\"%d\" data-points=\"",
          PW, PH, axis_name[p->axis], p->cur_x, p->cur_warps, p->max_warps);
  for (int i = 0; i < p->n; i++)
    if (step_at(p, i)) fprintf(out, "%s%d:%d", i ? " " : "", p->x[i], p->warps[i]);
  fprintf(out, "\" role=\"img\" aria-label=\"%s\">\n", title);
  fprintf(out, "<text x=\"%d\" y=\"16\" font-size=\"12\" font-weight=\"bold\">%s</text>\n", ML, title);
  axes(out, p, xlabel);
  fputs("<polyline fill=\"none\" stroke=\"#3c78b4\" stroke-width=\"2\" points=\"", out);
  for (int i = 0; i < p->n; i++) {
    if (!step_at(p, i)) continue;
    if (i) fprintf(out, "%.0f,%.0f ", px(p, p->x[i]), py(p, p->warps[i - 1]));
    fprintf(out, "%.0f,%.0f ", px(p, p->x[i]), py(p, p->warps[i]));
  }
  fputs("\"/>\n", out);
  fprintf(out, "<circle class=\"current\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#d9534f\" data-x=\"%d\" "
               "data-warps=\"%d\"><title>this launch: %d, %d warps per SM</title></circle>\n",
          px(p, p->cur_x), py(p, p->cur_warps), p->cur_x, p->cur_warps, p->cur_x, p->cur_warps);
  fputs("</svg>\n", out);
}

void report_html_occ(FILE *out, const ReportRun *r) {
  if (!r->arch) return;
  fputs("<h3>Occupancy</h3>\n<p class=\"meta\">", out);
  if (r->occ) {
    char lim[96];
    occ_limiters_text(r->occ->limiters, lim, sizeof lim);
    fprintf(out, "%d blocks per SM, %d of %d warps (%.1f%%), limited by %s; %d registers per thread (", r->occ->blocks_sm,
            r->occ->warps_sm, r->occ->max_warps_sm, r->occ->occupancy_pct, lim, r->regs);
    report_html_text(out, r->regs_from ? r->regs_from : "?");
    fprintf(out, "), %u bytes of shared memory per block allocated, on %s. ", r->occ->smem_block, r->arch->name);
  }
  if (r->occ_note && r->occ_note[0]) report_html_text(out, r->occ_note);
  fputs("</p>\n", out);
  if (!r->occ) return;
  uint64_t threads = (uint64_t)r->block[0] * r->block[1] * r->block[2];
  OccInput base = {.threads = threads > 0x7fffffff ? 0x7fffffff : (int)threads, .regs = r->regs,
                   .smem = (r->kernel ? r->kernel->shared_static : 0) + r->smem, .carveout_pct = OCC_CARVEOUT_DEFAULT};
  static const char *const title[] = {"Varying block size", "Varying register count", "Varying shared memory"};
  static const char *const xlabel[] = {"threads per block", "registers per thread", "shared memory per block (bytes)"};
  fputs("<div class=\"charts occupancy\">\n", out);
  for (int a = AXIS_THREADS; a <= AXIS_SMEM; a++) {
    Plot p = {.axis = (Axis)a};
    sample(r->arch, &base, &p);
    if (p.n) plot(out, &p, title[a], xlabel[a]);
    free(p.x);
    free(p.warps);
  }
  fputs("</div>\n", out);
}
