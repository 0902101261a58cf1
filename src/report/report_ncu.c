/* report_ncu.c - the counters in the layout of `ncu --csv --page raw
 * --print-units base`, so that scripts written for Nsight Compute's output
 * read warpmem's unchanged.
 *
 * That layout (as measured files in docs/results show it): a header row of
 * quoted column names, the fixed ones first (ID, Process ID, Process Name,
 * Host Name, Kernel Name, Context, Stream, Block Size, Grid Size, Device,
 * CC), then the metrics sorted by name; a row of units; one row per
 * profiled kernel, every field quoted, numbers with thousands separators.
 * Only the metrics Nsight Compute has are written (not warpmem__*), and
 * only the launches that ran (Nsight Compute profiles no failed launch).
 * Kernel Name is the function's name (ncu writes C++ kernels' parameter
 * types too, in its own spelling).
 */
#include "report/report.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mem/metrics.h"

static const char *const fixed[] = {"ID",        "Process ID", "Process Name", "Host Name", "Kernel Name", "Context",
                                    "Stream",    "Block Size", "Grid Size",    "Device",    "CC"};
#define NFIXED (int)(sizeof fixed / sizeof fixed[0])

/* A column: a counter (metric >= 0) or a rate (rate >= 0). */
typedef struct Column {
  const char *name;
  int metric, rate;
} Column;

static int by_name(const void *a, const void *b) {
  return strcmp(((const Column *)a)->name, ((const Column *)b)->name);
}

/* Nsight Compute's names among warpmem's counters and rates, sorted. */
static int columns(Column *c) {
  int n = 0;
  for (int m = 0; m < WM_M_COUNT; m++)
    if (strncmp(wm_metric_name[m], "warpmem__", 9)) c[n++] = (Column){wm_metric_name[m], m, -1};
  for (int r = 0; r < REPORT_NRATES; r++)
    if (strncmp(report_rate_name[r], "warpmem__", 9)) c[n++] = (Column){report_rate_name[r], -1, r};
  qsort(c, (size_t)n, sizeof *c, by_name);
  return n;
}

/* The unit Nsight Compute prints for a metric with --print-units base. */
static const char *unit_of(const char *name) {
  if (!strncmp(name, "dram__bytes", 11)) return "byte";
  if (!strncmp(name, "gpu__time_duration", 18)) return "ns";
  if (strstr(name, ".pct")) return "%";
  if (strstr(name, "sectors") || strstr(name, "sector_")) return "sector";
  if (!strncmp(name, "lts__t_requests", 15)) return "request";
  if (!strncmp(name, "sm__warps_launched", 18)) return "warp";
  if (!strncmp(name, "smsp__inst_executed", 19)) return "inst";
  return "";
}

static void quoted(FILE *out, const char *s, int first) {
  fputs(first ? "\"" : ",\"", out);
  for (; *s; s++) {
    if (*s == '"') fputc('"', out);
    fputc(*s, out);
  }
  fputc('"', out);
}

/* 1234567 -> "1,234,567", as Nsight Compute writes counts. */
static void grouped(FILE *out, uint64_t v) {
  char digits[24], buf[32];
  int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v), o = 0;
  for (int i = 0; i < n; i++) {
    if (i && (n - i) % 3 == 0) buf[o++] = ',';
    buf[o++] = digits[i];
  }
  buf[o] = '\0';
  quoted(out, buf, 0);
}

static void dims(char *buf, size_t n, const uint32_t d[3]) {
  snprintf(buf, n, "(%u, %u, %u)", d[0], d[1], d[2]);
}

static void kernel_row(FILE *out, const ReportRun *r, int id, const Column *c, int nc) {
  char buf[64];
  snprintf(buf, sizeof buf, "%d", id);
  quoted(out, buf, 1);
  snprintf(buf, sizeof buf, "%ld", (long)getpid());
  quoted(out, buf, 0);
  quoted(out, "warpmem", 0);
  quoted(out, "127.0.0.1", 0);
  const PtxKernel *k = r->kernel;
  quoted(out, k && k->plain_name ? k->plain_name : k ? k->name : r->launch, 0);
  quoted(out, "1", 0);
  quoted(out, "7", 0);
  dims(buf, sizeof buf, r->block);
  quoted(out, buf, 0);
  dims(buf, sizeof buf, r->grid);
  quoted(out, buf, 0);
  quoted(out, "0", 0);
  snprintf(buf, sizeof buf, "%d.%d", r->arch ? r->arch->cc / 10 : 9, r->arch ? r->arch->cc % 10 : 0);
  quoted(out, buf, 0);
  for (int i = 0; i < nc; i++) {
    if (c[i].metric >= 0) {
      grouped(out, r->mm->metric[c[i].metric]);
      continue;
    }
    double v = report_rate(r->mm, (ReportRate)c[i].rate);
    if (v < 0) quoted(out, "n/a", 0);
    else {
      snprintf(buf, sizeof buf, "%.2f", v);
      quoted(out, buf, 0);
    }
  }
  fputc('\n', out);
}

void report_write_ncu_csv(FILE *out, const ReportRun *runs, int nruns) {
  Column c[WM_M_COUNT + REPORT_NRATES];
  int nc = columns(c);
  for (int i = 0; i < NFIXED; i++) quoted(out, fixed[i], i == 0);
  for (int i = 0; i < nc; i++) quoted(out, c[i].name, 0);
  fputc('\n', out);
  for (int i = 0; i < NFIXED; i++) quoted(out, "", i == 0);
  for (int i = 0; i < nc; i++) quoted(out, unit_of(c[i].name), 0);
  fputc('\n', out);
  int id = 0;
  for (int i = 0; i < nruns; i++)
    if (runs[i].status == REPORT_OK && runs[i].mm) kernel_row(out, &runs[i], id++, c, nc);
}
