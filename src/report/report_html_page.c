/* report_html_page.c - the HTML page of sim and run (report_html.h):
 * a summary of the launches, one section per launch, every counter. */
#include "report/report_html_int.h"
#include "report/report_int.h"

#include <string.h>

static void time_text(char *buf, size_t n, double ns) {
  if (ns >= 1e6) snprintf(buf, n, "%.2f ms", ns / 1e6);
  else if (ns >= 1e3) snprintf(buf, n, "%.1f us", ns / 1e3);
  else snprintf(buf, n, "%.0f ns", ns);
}

static void summary(FILE *out, const ReportRun *runs, int nruns) {
  fputs("<h2>Launches</h2>\n<table class=\"sortable\" id=\"launches\">\n<thead><tr>"
        "<th data-key=\"pos\">#</th><th data-key=\"launch\" data-type=\"str\">launch</th><th>grid</th><th>block</th>"
        "<th data-key=\"status\" data-type=\"str\">status</th><th class=\"n\" data-key=\"ns\">predicted time</th>"
        "<th>limiter</th></tr></thead>\n<tbody>\n", out);
  for (int i = 0; i < nruns; i++) {
    const ReportRun *r = &runs[i];
    const ModelTime *t = r->status == REPORT_OK && r->mm ? r->time : NULL;
    fprintf(out, "<tr data-pos=\"%d\" data-launch=\"", i);
    report_html_text(out, report_launch_name(r));
    fprintf(out, "\" data-status=\"%s\" data-ns=\"%.1f\"><td class=\"n\">%d</td><td><a href=\"#launch-%d\">", report_run_status(r),
            t ? t->ns : -1.0, i + 1, i);
    report_html_text(out, report_launch_name(r));
    fprintf(out, "</a></td><td>(%u,%u,%u)</td><td>(%u,%u,%u)</td><td>%s</td>", r->grid[0], r->grid[1], r->grid[2],
            r->block[0], r->block[1], r->block[2], report_run_status(r));
    char ts[32] = "";
    if (t) time_text(ts, sizeof ts, t->ns);
    fprintf(out, "<td class=\"n\">%s</td><td>%s</td></tr>\n", ts, t ? model_bound_limit[t->limiter] : "");
  }
  fputs("</tbody>\n</table>\n", out);
}

void report_html_time(FILE *out, const ReportRun *r) {
  const ModelTime *t = r->time;
  if (!t || !r->mm) return;
  double max = t->ns;
  for (int b = 0; b < MODEL_NBOUNDS; b++)
    if (t->bound_ns[b] > max) max = t->bound_ns[b];
  if (!(max > 0)) max = 1;
  char ts[32];
  time_text(ts, sizeof ts, t->ns);
  fprintf(out, "<h3>Predicted time</h3>\n<p class=\"meta\">%s: ", ts);
  report_html_text(out, t->why);
  fputs("</p>\n", out);
  enum { W = 700, LABEL = 170, ROW = 22 };
  int h = ROW * (MODEL_NBOUNDS + 1) + 8;
  fprintf(out, "<svg class=\"time-bars\" width=\"%d\" height=\"%d\" data-ns=\"%.1f\" data-limiter=\"%s\" "
               "role=\"img\" aria-label=\"bounds of the predicted time\">\n", W, h, t->ns, model_bound_name[t->limiter]);
  for (int b = 0; b <= MODEL_NBOUNDS; b++) {
    int total = b == MODEL_NBOUNDS;
    double v = total ? t->ns : t->bound_ns[b];
    double len = (W - LABEL - 90) * (v > 0 ? v / max : 0);
    int lim = !total && b == t->limiter;
    int y = 4 + b * ROW;
    time_text(ts, sizeof ts, v);
    fprintf(out, "<g class=\"bar%s\" data-bound=\"%s\" data-ns=\"%.1f\">", lim ? " limiter" : "",
            total ? "predicted" : model_bound_name[b], v);
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" font-size=\"12\"%s>%s%s</text>", LABEL - 8, y + 14,
            lim || total ? " font-weight=\"bold\"" : "", total ? "predicted time" : model_bound_name[b],
            lim ? " (limiter)" : "");
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>", LABEL, y + 2, len, ROW - 6,
            total ? "#1d2330" : lim ? "#d9534f" : "#8fb3d9");
    fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"12\">%s</text></g>\n", LABEL + len + 6, y + 14, ts);
  }
  fputs("</svg>\n", out);
}

/* Every counter of every launch that ran, one column per launch (as
 * ncu's raw page): the descriptions once, in the metric's title. */
static void counters(FILE *out, const ReportRun *runs, int nruns) {
  fputs("<h2>All counters</h2>\n<details class=\"counters\"><summary>Nsight Compute's metric names, one column per "
        "launch</summary>\n<div class=\"scroll\"><table><thead><tr><th>metric</th>", out);
  for (int i = 0; i < nruns; i++) {
    if (runs[i].status != REPORT_OK || !runs[i].mm) continue;
    fputs("<th class=\"n\">", out);
    report_html_text(out, report_launch_name(&runs[i]));
    fputs("</th>", out);
  }
  fputs("</tr></thead>\n<tbody>\n", out);
  for (int m = 0; m < WM_M_COUNT; m++) {
    fprintf(out, "<tr><td title=\"%s\"><code>%s</code></td>", wm_metric_desc[m], wm_metric_name[m]);
    for (int i = 0; i < nruns; i++)
      if (runs[i].status == REPORT_OK && runs[i].mm)
        fprintf(out, "<td class=\"n\">%llu</td>", (unsigned long long)runs[i].mm->metric[m]);
    fputs("</tr>\n", out);
  }
  fputs("</tbody></table></div></details>\n", out);
}

static void heading(FILE *out, const ReportRun *r, int id) {
  fprintf(out, "<section class=\"launch\" id=\"launch-%d\" data-launch=\"", id);
  report_html_text(out, report_launch_name(r));
  fprintf(out, "\" data-status=\"%s\">\n<h2>", report_run_status(r));
  report_html_text(out, report_launch_name(r));
  fprintf(out, "</h2>\n<p class=\"meta\">kernel <code>");
  const PtxKernel *k = r->kernel;
  report_html_text(out, k && k->plain_name ? k->plain_name : report_kernel_name(r));
  fprintf(out, "</code>, grid (%u,%u,%u), block (%u,%u,%u), %u bytes of dynamic shared memory", r->grid[0], r->grid[1],
          r->grid[2], r->block[0], r->block[1], r->block[2], r->smem);
  if (r->status == REPORT_OK && r->thread_instrs)
    fprintf(out, ", %llu thread-instructions simulated", (unsigned long long)r->thread_instrs);
  if (r->blocks_run) fprintf(out, ", %llu blocks simulated (--sample; counters scaled)", (unsigned long long)r->blocks_run);
  fputs("</p>\n", out);
}

static void run_section(FILE *out, const ReportRun *r, int id) {
  heading(out, r, id);
  if (r->status != REPORT_OK) {
    fprintf(out, "<div class=\"error\" data-status=\"%s\"><b>%s:</b>\n<pre>", report_run_status(r),
            r->status == REPORT_REFUSED ? "REFUSED" : "FAILED");
    report_html_text(out, r->error ? r->error : "(no message)");
    fputs("</pre></div>\n</section>\n", out);
    return;
  }
  if (r->mm) {
    report_html_chart(out, r);
    report_html_time(out, r);
  }
  report_html_occ(out, r);
  report_html_source(out, r, id);
  if (r->warnings) {
    fputs("<h3>Approximate results</h3>\n<pre class=\"warnings\">", out);
    report_html_text(out, r->warnings);
    fputs("</pre>\n", out);
  }
  fputs("</section>\n", out);
}

int report_html_write(FILE *out, const ReportRun *runs, int nruns, const char *title, int lines) {
  (void)lines;
  report_html_begin(out, title ? title : "warpmem report");
  fputs("<p class=\"meta\">warpmem: the memory system of each launch, simulated (no GPU). Click a column header "
        "to sort.</p>\n", out);
  summary(out, runs, nruns);
  for (int i = 0; i < nruns; i++) run_section(out, &runs[i], i);
  counters(out, runs, nruns);
  report_html_end(out);
  return ferror(out) ? -1 : 0;
}
