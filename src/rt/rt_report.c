/* rt_report.c - what warpmem run shows of the launches: a progress line on
 * stderr per launch while the application runs, and at exit the reports of
 * the profiled launches (report_write, as `warpmem sim` writes them) and,
 * in text, a summary table of every launch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report_html.h"
#include "rt/rt_int.h"

/* "1.23 us", "4.56 ms": a time for people. */
static void fmt_time(double ns, char *buf, size_t n) {
  if (ns <= 0) snprintf(buf, n, "-");
  else if (ns < 1e3) snprintf(buf, n, "%.0f ns", ns);
  else if (ns < 1e6) snprintf(buf, n, "%.2f us", ns / 1e3);
  else snprintf(buf, n, "%.2f ms", ns / 1e6);
}

/* What limits launch r, or what became of it. */
static const char *limiter(const RtLaunchRec *r) {
  if (r->status != REPORT_OK) return r->status == REPORT_FAILED ? "FAILED" : "REFUSED";
  if (!r->profiled) return "functional";
  if (!r->run.have_time) return "no time (caches off)";
  return model_bound_limit[r->run.time.limiter];
}

/* The first line of a message (a located error spans several). */
static void first_line(const char *s, char *buf, size_t n) {
  size_t len = strcspn(s ? s : "", "\n");
  if (len >= n) len = n - 1;
  memcpy(buf, s ? s : "", len);
  buf[len] = '\0';
}

/* A launch that did not run is always said, with its whole (located)
 * message: it is the application's error. */
void rtx_progress(const RtLaunchRec *r, int n) {
  if (r->status != REPORT_OK) {
    rtx_say("launch %d: %s grid (%u,%u,%u) block (%u,%u,%u): %s: %s", n, r->label, r->grid[0], r->grid[1],
            r->grid[2], r->block[0], r->block[1], r->block[2], limiter(r), r->error ? r->error : "");
    return;
  }
  if (!rtx.cfg.progress) return;
  char t[32];
  fmt_time(r->ns, t, sizeof t);
  rtx_say("launch %d: %s grid (%u,%u,%u) block (%u,%u,%u): %s%s%s%s", n, r->label, r->grid[0], r->grid[1],
          r->grid[2], r->block[0], r->block[1], r->block[2], r->profiled ? "profiled, " : "functional",
          r->profiled ? t : "", r->profiled && r->run.have_time ? ", " : "",
          r->profiled && r->run.have_time ? model_bound_limit[r->run.time.limiter] : "");
}

/* The report row of a profiled launch (as sim_cmd.c makes them). */
static ReportRun report_row(const RtLaunchRec *r) {
  const SimRun *s = &r->run;
  ReportRun row = {.launch = r->label, .mod = r->f->m->mod, .kernel = r->f->k, .smem = r->smem};
  memcpy(row.grid, r->grid, sizeof row.grid);
  memcpy(row.block, r->block, sizeof row.block);
  if (r->status != REPORT_OK) {
    row.status = r->status;
    row.error = r->error;
    return row;
  }
  row.mm = &s->mm;
  row.thread_instrs = s->thread_instrs;
  row.seconds = s->seconds;
  row.arch = rtx.cfg.o.cfg.arch ? rtx.cfg.o.cfg.arch : arch_default();
  row.occ = s->have_occ ? &s->occ : NULL;
  row.regs = s->regs;
  row.regs_from = s->regs_from;
  row.occ_note = s->occ_note;
  row.warnings = s->approx;
  row.time = s->have_time ? &s->time : NULL;
  uint64_t blocks = (uint64_t)r->grid[0] * r->grid[1] * r->grid[2];
  if (s->blocks_run && s->blocks_run < blocks) row.blocks_run = s->blocks_run;
  return row;
}

/* The table of every launch, after the reports (text only). */
static void summary(FILE *out) {
  fprintf(out, "\n== warpmem run: %d launch%s, %llu profiled%s, %llu functional ==\n", rtx.nlaunches,
          rtx.nlaunches == 1 ? "" : "es", (unsigned long long)rtx.profiled,
          rtx.cfg.once ? " (--profile-once: the first of each kernel)" : "",
          (unsigned long long)((uint64_t)rtx.nlaunches - rtx.profiled));
  fprintf(out, "%5s  %-32s %-16s %-16s %12s  %s\n", "#", "kernel", "grid", "block", "time", "limiter");
  for (int i = 0; i < rtx.nlaunches; i++) {
    const RtLaunchRec *r = &rtx.launches[i];
    char g[48], b[48], t[32], why[200] = "";
    snprintf(g, sizeof g, "(%u,%u,%u)", r->grid[0], r->grid[1], r->grid[2]);
    snprintf(b, sizeof b, "(%u,%u,%u)", r->block[0], r->block[1], r->block[2]);
    fmt_time(r->profiled ? r->ns : 0, t, sizeof t);
    if (r->status != REPORT_OK) first_line(r->error, why, sizeof why);
    fprintf(out, "%5d  %-32s %-16s %-16s %12s  %s%s%s\n", i + 1, r->f->base, g, b, t, limiter(r), why[0] ? ": " : "",
            why);
  }
}

/* The report in the chosen format; the HTML page titled with the
 * application's name. */
static int write_rows(FILE *out, const ReportRun *rows, int n) {
  if (rtx.cfg.format != REPORT_HTML) return report_write(out, rows, n, rtx.cfg.format, rtx.cfg.lines);
  char path[4096], title[4200];
  ssize_t len = readlink("/proc/self/exe", path, sizeof path - 1);
  path[len > 0 ? len : 0] = '\0';
  const char *base = strrchr(path, '/');
  snprintf(title, sizeof title, "warpmem run %s", len > 0 ? (base ? base + 1 : path) : "");
  return report_html_write(out, rows, n, title, rtx.cfg.lines) || fflush(out) ? -1 : 0;
}

void rt_report_flush(void) {
  if (rtx_enter(0)) return;
  if (rtx.reported || rtx.nlaunches == 0 || (long)getpid() != rtx.pid) {
    rtx_leave(RT_SUCCESS);
    return;
  }
  rtx.reported = 1;
  fflush(stdout);
  FILE *out = stdout;
  if (rtx.cfg.report_path && !(out = fopen(rtx.cfg.report_path, "w"))) {
    rtx_say("cannot write the report to %s; it follows on stderr", rtx.cfg.report_path);
    out = stderr;
  }
  ReportRun *rows = wm_xcalloc((size_t)rtx.nlaunches, sizeof *rows);
  int n = 0;
  for (int i = 0; i < rtx.nlaunches; i++)
    if (rtx.launches[i].profiled) rows[n++] = report_row(&rtx.launches[i]);
  if (n && write_rows(out, rows, n)) rtx_say("cannot write the report");
  if (rtx.cfg.format == REPORT_TEXT) summary(out);
  free(rows);
  if (out == stdout || out == stderr) fflush(out);
  else fclose(out);
  rtx_leave(RT_SUCCESS);
}

int rt_launch_count(int *profiled) {
  if (rtx_enter(0)) return 0;
  int n = rtx.nlaunches;
  if (profiled) *profiled = (int)rtx.profiled;
  rtx_leave(RT_SUCCESS);
  return n;
}

void rtx_launches_free(void) {
  for (int i = 0; i < rtx.nlaunches; i++) {
    sim_run_free(&rtx.launches[i].run);
    free(rtx.launches[i].error);
  }
  free(rtx.launches);
  rtx.launches = NULL;
  rtx.nlaunches = rtx.caplaunches = 0;
}
