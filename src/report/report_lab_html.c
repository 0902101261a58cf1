/* report_lab_html.c - the lab's page (`warpmem lab --format html`, --out's
 * results.html): one self-contained page (report_html.h) with, per group
 * and experiment of the document (report_doc.h), the seed's words, charts of
 * the predicted (and, on a GPU, measured) time and bandwidth of each launch,
 * and for each launch a picture of one warp's access per memory instruction
 * (report_picture.h).  An experiment with a padded shared-memory layout and
 * its unpadded twin shows the two side by side.
 *
 * Notes:
 * - The pictures come from each launch's kept accesses (ReportLabLaunch.acc,
 *   kept by the lab right after the simulation, while the module lives).
 * - Every number drawn is also in data-* attributes (data-launch,
 *   data-predicted, data-measured on the chart's bars; the pictures' own),
 *   so tests read the data, not pixels.
 * - A launch that reuses an identical earlier simulation (its twin) shows
 *   the earlier one's pictures.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/report_html.h"
#include "report/report_picture.h"
#include "util/diag.h"

enum { LAB_HTML_PICTURES = 8 };

/* The result whose accesses launch i shows (its twin's when it reused one). */
static const ReportLabLaunch *pictured(const ReportDoc *d, int i) {
  const ReportLabLaunch *r = &d->launches[i];
  return !r->acc && r->twin >= 0 ? &d->launches[r->twin] : r;
}

/* ---- pieces ---------------------------------------------------------------- */

/* The pictures drawn so far: a later access of the same shape (the same
 * lanes, width, space, op, offsets from lane 0, and lane 0's place in its
 * 256 bytes: its 128-byte line, its Kepler bank row) points to the first
 * instead of drawing it again -- the catalogue runs each kernel at several
 * sizes. */
typedef struct Seen {
  const ReportAccess **acc;
  const char **label;     /* the launch that drew it */
  int n, cap;
} Seen;

/* Textures: the same lanes, texels, sectors relative to the first (and
 * its place in its 256 bytes) and the same lanes on each. */
static int same_tex_shape(const MemPicture *a, const MemPicture *b) {
  if (a->mask != b->mask || a->size != b->size || a->texop != b->texop || a->tex.nsector != b->tex.nsector ||
      a->tex.more != b->tex.more || a->tex.texels != b->tex.texels || a->tex.sector[0] % 8 != b->tex.sector[0] % 8)
    return 0;
  for (unsigned k = 0; k < a->tex.nsector; k++)
    if (a->tex.lanes[k] != b->tex.lanes[k] || a->tex.sector[k] - a->tex.sector[0] != b->tex.sector[k] - b->tex.sector[0])
      return 0;
  return 1;
}

static int same_shape(const MemPicture *a, const MemPicture *b) {
  if (a->texop || b->texop) return same_tex_shape(a, b);
  if (a->mask != b->mask || a->size != b->size || a->space != b->space || a->op != b->op ||
      a->addr[0] % 256 != b->addr[0] % 256)
    return 0;
  for (uint32_t m = a->mask; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctz(m);
    if (a->addr[l] - a->addr[0] != b->addr[l] - b->addr[0]) return 0;
  }
  return 1;
}

/* The number of the first picture of a's shape, or -1 (then a is added). */
static int seen_before(Seen *sn, const ReportAccess *a, const char *label) {
  for (int k = 0; k < sn->n; k++)
    if (same_shape(&sn->acc[k]->ls.pic, &a->ls.pic)) return k;
  if (sn->n == sn->cap) {
    sn->cap = sn->cap ? 2 * sn->cap : 64;
    sn->acc = wm_xrealloc(sn->acc, (size_t)sn->cap * sizeof *sn->acc);
    sn->label = wm_xrealloc(sn->label, (size_t)sn->cap * sizeof *sn->label);
  }
  sn->acc[sn->n] = a;
  sn->label[sn->n++] = label;
  return -1;
}

/* One memory instruction: what --lines says of it, then its picture (or,
 * unless `force`, a link to the same shape's picture drawn before). */
static void access_figure(FILE *out, Seen *sn, const ReportLabLaunch *l, const ReportLabLaunch *r, const ReportAccess *a, int force) {
  const LineStat *ls = &a->ls;
  int first = a->ls.pic.mask ? seen_before(sn, a, l->sim->label) : -1;
  if (first < 0 && a->ls.pic.mask) fprintf(out, "<figure id=\"wm-pic-%d\"", sn->n - 1);
  else fputs("<figure", out);
  fputs(" class=\"lab-access\" data-launch=\"", out);
  report_html_text(out, l->sim->label);
  fputs("\" data-kernel=\"", out);
  report_html_text(out, l->sim->name);
  fprintf(out, "\" data-ptx-line=\"%u\"><figcaption><code>", a->ptx_line);
  report_html_text(out, a->text);
  fputs("</code> ", out);
  if (a->src[0]) {
    report_html_text(out, a->src);
    fprintf(out, ":%u, ", a->cu_line);
  }
  fprintf(out, "ptx:%u", a->ptx_line);
  if (ls->requests && ls->unit_kind)
    fprintf(out, " &mdash; %.2f %s per request (ideal %.2f)", (double)ls->units / (double)ls->requests,
            ls->unit_kind == MEM_UNIT_WAVEFRONTS ? "wavefronts" : ls->unit_kind == MEM_UNIT_SECTORS ? "sectors"
                                                                                                 : "transactions",
            (double)ls->ideal / (double)ls->requests);
  if (ls->why[0]) {
    fputs(": ", out);
    report_html_text(out, ls->why);
  }
  fputs("</figcaption>\n", out);
  if (first >= 0 && !force) {
    fprintf(out, "<p class=\"lab-same\" data-same-as=\"wm-pic-%d\">the same access pattern as in <a href=\"#wm-pic-%d\">", first,
            first);
    report_html_text(out, sn->label[first]);
    fputs("</a></p></figure>\n", out);
    return;
  }
  MemModel mm;
  LineStat copy = *ls;
  memset(&mm, 0, sizeof mm);
  mm.gen = r->gen;
  mm.line = &copy;
  mm.nline = 1;
  report_picture_svg(out, &mm, 0);
  fputs("</figure>\n", out);
}

/* ---- charts ---------------------------------------------------------------- */

typedef enum { CHART_TIME, CHART_RATE } ChartKind;

/* Launch i's value on a chart: time in microseconds, or GB/s (TFLOP/s for
 * multiplies), predicted or measured; 0: none. */
static double chart_value(const ReportDoc *d, int i, ChartKind k, int measured) {
  const ReportLabLaunch *l = &d->launches[i], *r = l;
  double ns = measured ? (r->gpu_run.timed ? r->gpu_run.hot.median_s * 1e9 : 0) : r->pred_ns;
  if (k == CHART_TIME || ns <= 0) return k == CHART_TIME ? ns / 1e3 : 0;
  if (l->flops > 0) return l->flops / ns / 1e3;
  return l->bytes > 0 ? l->bytes / ns : 0;
}

static void chart_bar(FILE *out, int y, double v, double max, const char *fill, const char *unit) {
  enum { X0 = 190, BARW = 440 };
  if (v <= 0) return;
  int w = max > 0 ? (int)(BARW * v / max + 0.5) : 0;
  fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"8\" fill=\"%s\"/>", X0, y, w < 1 ? 1 : w, fill);
  fprintf(out, "<text x=\"%d\" y=\"%d\">%.3g %s</text>", X0 + w + 4, y + 8, v, unit);
}

/* Horizontal bars per launch of experiment x: predicted (blue) and, on a
 * GPU, measured (orange). */
static void chart(FILE *out, const ReportDoc *d, const ReportExp *x, ChartKind k) {
  const char *unit = k == CHART_TIME ? "us" : "GB/s";
  double max = 0;
  int rows = 0;
  for (int i = x->first; i < x->first + x->n; i++) {
    if (!d->launches[i].simulated) continue;
    if (k == CHART_RATE && d->launches[i].flops > 0) unit = "TFLOP/s";
    for (int m = 0; m < 2; m++) max = chart_value(d, i, k, m) > max ? chart_value(d, i, k, m) : max;
    rows++;
  }
  if (max <= 0) return;
  int gpu = d->device.have_gpu, rh = gpu ? 22 : 14;
  fprintf(out, "<svg class=\"lab-chart\" xmlns=\"http://www.w3.org/2000/svg\" data-chart=\"%s\" data-unit=\"%s\" "
               "width=\"720\" height=\"%d\" font-family=\"sans-serif\" font-size=\"10\">\n",
          k == CHART_TIME ? "time" : "rate", unit, 20 + rows * rh);
  fprintf(out, "<text x=\"0\" y=\"11\" font-weight=\"bold\">%s</text><rect x=\"190\" y=\"3\" width=\"10\" height=\"8\" "
               "fill=\"#4472c4\"/><text x=\"204\" y=\"11\">predicted</text>",
          k == CHART_TIME ? "time per launch" : "bandwidth");
  if (gpu) fputs("<rect x=\"270\" y=\"3\" width=\"10\" height=\"8\" fill=\"#ed7d31\"/><text x=\"284\" y=\"11\">measured (hot median)</text>", out);
  fputs("\n", out);
  int y = 20;
  for (int i = x->first; i < x->first + x->n; i++) {
    if (!d->launches[i].simulated) continue;
    double p = chart_value(d, i, k, 0), m = chart_value(d, i, k, 1);
    fputs("<g class=\"lab-bar\" data-launch=\"", out);
    report_html_text(out, d->launches[i].sim->label);
    fprintf(out, "\" data-predicted=\"%.6g\"", p);
    if (m > 0) fprintf(out, " data-measured=\"%.6g\"", m);
    fprintf(out, "><text x=\"0\" y=\"%d\">", y + 8);
    report_html_text(out, d->launches[i].sim->label);
    fputs("</text>", out);
    chart_bar(out, y, p, max, "#4472c4", unit);
    if (gpu) chart_bar(out, y + 10, m, max, "#ed7d31", unit);
    fputs("</g>\n", out);
    y += rh;
  }
  fputs("</svg>\n", out);
}

/* ---- padded and unpadded, side by side ---------------------------------------- */

/* Where "pad" (any case) starts in s, or -1. */
static int pad_at(const char *s) {
  for (int i = 0; s[i] && s[i + 1] && s[i + 2]; i++)
    if (tolower((unsigned char)s[i]) == 'p' && tolower((unsigned char)s[i + 1]) == 'a' &&
        tolower((unsigned char)s[i + 2]) == 'd')
      return i;
  return -1;
}

static int has_shared(const ReportDoc *d, int i) {
  const ReportLabLaunch *r = pictured(d, i);
  for (int a = 0; a < r->nacc; a++)
    if (r->acc[a].ls.pic.mask && r->acc[a].ls.pic.space == PTX_S_SHARED) return 1;
  return 0;
}

/* The unpadded twin of padded launch p in experiment x: the launch whose
 * kernel is p's without "pad" (or "Ipad"), else the closest earlier launch
 * with shared memory and no "pad"; -1 if none. */
static int unpadded_twin(const ReportDoc *d, const ReportExp *x, int p) {
  const char *name = d->launches[p].sim->name;
  char want[256];
  int at = pad_at(name);
  if (at > 0 && (name[at - 1] == 'I' || name[at - 1] == 'i')) at--;
  snprintf(want, sizeof want, "%.*s%s", at, name, name + pad_at(name) + 3);
  for (int i = x->first; i < x->first + x->n; i++)
    if (i != p && !strcmp(d->launches[i].sim->name, want) && has_shared(d, i)) return i;
  for (int i = p - 1; i >= x->first; i--)
    if (pad_at(d->launches[i].sim->name) < 0 && has_shared(d, i)) return i;
  return -1;
}

static void shared_column(FILE *out, Seen *sn, const ReportDoc *d, int i, const char *what) {
  const ReportLabLaunch *r = pictured(d, i);
  fputs("<div><h5>", out);
  report_html_text(out, d->launches[i].sim->label);
  fprintf(out, " (%s)</h5>\n", what);
  for (int a = 0; a < r->nacc; a++)
    if (r->acc[a].ls.pic.mask && r->acc[a].ls.pic.space == PTX_S_SHARED)
      access_figure(out, sn, &d->launches[i], r, &r->acc[a], 1);
  fputs("</div>\n", out);
}

static void padded_pairs(FILE *out, Seen *sn, const ReportDoc *d, const ReportExp *x) {
  for (int p = x->first; p < x->first + x->n; p++) {
    if (pad_at(d->launches[p].sim->name) < 0 || !has_shared(d, p)) continue;
    int u = unpadded_twin(d, x, p);
    if (u < 0) continue;
    fputs("<div class=\"lab-pair\" data-unpadded=\"", out);
    report_html_text(out, d->launches[u].sim->label);
    fputs("\" data-padded=\"", out);
    report_html_text(out, d->launches[p].sim->label);
    fputs("\">\n", out);
    shared_column(out, sn, d, u, "unpadded");
    shared_column(out, sn, d, p, "padded");
    fputs("</div>\n", out);
  }
}

/* ---- the page ----------------------------------------------------------------- */

static void launch_section(FILE *out, Seen *sn, const ReportDoc *d, int i) {
  const ReportLabLaunch *l = &d->launches[i], *r = l;
  fputs("<details class=\"lab-launch\" data-launch=\"", out);
  report_html_text(out, l->sim->label);
  fputs("\" data-kernel=\"", out);
  report_html_text(out, l->sim->name);
  fputs("\"><summary>", out);
  report_html_text(out, l->sim->label);
  fputs("</summary>\n", out);
  if (!r->simulated) {
    fprintf(out, "<p class=\"lab-error\">simulation %s:</p><pre>", report_status_name[r->status]);
    report_html_text(out, r->error);
    fputs("</pre>\n", out);
  }
  const ReportLabLaunch *pr = pictured(d, i);
  if (r->twin >= 0 && r->simulated) {
    fputs("<p>the same simulation as ", out);
    report_html_text(out, d->launches[r->twin].sim->label);
    fputs("</p>\n", out);
  }
  /* at most LAB_HTML_PICTURES new pictures a launch: an unrolled loop's
   * dozens of loads would make the page megabytes long */
  int drawn = 0, left = 0;
  for (int a = 0; a < pr->nacc; a++) {
    int before = sn->n;
    if (drawn < LAB_HTML_PICTURES) access_figure(out, sn, l, pr, &pr->acc[a], 0);
    else left++;
    drawn += sn->n > before;
  }
  if (left)
    fprintf(out, "<p class=\"lab-more\" data-more=\"%d\">%d more memory instructions: <code>warpmem sim --lines</code> "
                 "or <code>--format html</code> on the kernel shows them all</p>\n",
            left, left);
  fputs("</details>\n", out);
}

static void experiment(FILE *out, Seen *sn, const ReportDoc *d, const ReportExp *x) {
  fputs("<section class=\"lab-exp\" data-exp=\"", out);
  report_html_text(out, x->name);
  fputs("\"><h3>", out);
  report_html_text(out, x->name);
  if (x->title) {
    fputs(": ", out);
    report_html_text(out, x->title);
  }
  fputs("</h3>\n", out);
  if (x->seed_says) {
    fputs("<p class=\"lab-seed\">The seed: ", out);
    report_html_text(out, x->seed_says);
    fputs("</p>\n", out);
  }
  if (x->why) {
    fputs("<p class=\"lab-why\">Why ours differs: ", out);
    report_html_text(out, x->why);
    fputs("</p>\n", out);
  }
  chart(out, d, x, CHART_TIME);
  chart(out, d, x, CHART_RATE);
  padded_pairs(out, sn, d, x);
  for (int i = x->first; i < x->first + x->n; i++) launch_section(out, sn, d, i);
  fputs("</section>\n", out);
}

static void page_head(FILE *out, const ReportDoc *d) {
  fputs("<p class=\"lab-device\">", out);
  if (d->device.have_gpu) {
    fputs("Measured on ", out);
    report_html_text(out, d->device.name);
    fputs(" and simulated", out);
  } else {
    fputs("No GPU (", out);
    report_html_text(out, d->device.no_gpu_reason);
    fputs("): the charts show predicted times and bandwidths only, simulated", out);
  }
  fputs(" on the preset ", out);
  report_html_text(out, d->arch);
  fprintf(out, ", %s. Produced by <code>", d->date);
  report_html_text(out, d->command);
  fputs("</code>. Each picture is the costliest request of its instruction: a warp's 32 lanes against the "
        "32-byte sectors (global, local) or the banks (shared, wavefronts numbered) they touch.</p>\n", out);
}

int report_lab_html(FILE *out, const ReportDoc *d) {
  Seen sn = {0};
  report_html_begin(out, d->title ? d->title : "warpmem lab");
  page_head(out, d);
  for (int g = 0; g < d->ngroups; g++) {
    const ReportGroup *gr = &d->groups[g];
    fputs("<section class=\"lab-group\" data-group=\"", out);
    report_html_text(out, gr->name);
    fputs("\"><h2>", out);
    report_html_text(out, gr->name);
    fputs(": ", out);
    report_html_text(out, gr->title ? gr->title : "");
    fprintf(out, " (seed %03d)</h2>\n", gr->seed);
    for (int e = gr->first; e < gr->first + gr->n; e++) experiment(out, &sn, d, &d->exps[e]);
    fputs("</section>\n", out);
  }
  report_html_end(out);
  free(sn.acc);
  free(sn.label);
  return ferror(out) ? -1 : 0;
}
