/* lab_ncu.c - `warpmem lab --ncu`: the simulated launches profiled with
 * Nsight Compute, their counters beside the simulator's.
 *
 * The profiler needs a process to profile: this one runs itself again as
 * `warpmem lab --ncu-child` under `ncu --csv --page raw --print-units base
 * --metrics <metrics.h's Nsight Compute names>`; the child launches each
 * selected launch once at its simulated size (the //@ line, the same data
 * the emulator ran), so every count is comparable one for one.  Rows of the
 * profiler's CSV are matched to launches in order, by kernel name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab/lab.h"
#include "arch/arch.h"
#include "util/csv.h"
#include "util/sys.h"

/* The counters compared are report_lab_vs.c's (report_vs_ncu_metric), at
 * most NCMP_MAX of them. */
enum { NCMP_MAX = 64 };

static int ncmp(void) {
  int n = report_vs_ncu_count();
  return n < NCMP_MAX ? n : NCMP_MAX;
}

/* ---- the child: each selected launch once --------------------------------- */

/* The launches the parent asked for (--ncu-launches I,J,...; absent: every
 * selected one); want[i] set for each. */
static void child_wanted(const Lab *lab, unsigned char *want) {
  const char *p = lab->opt.ncu_launches;
  for (int i = 0; i < lab->cat.nlaunches; i++) want[i] = !p && lab->res[i].selected;
  while (p && *p) {
    char *end;
    long i = strtol(p, &end, 10);
    if (end == p) break;
    if (i >= 0 && i < lab->cat.nlaunches) want[i] = 1;
    p = *end == ',' ? end + 1 : end;
  }
}

/* A launch that fails is reported and the others still run (a fault that
 * leaves the context unusable fails the rest, each reported). */
int lab_ncu_child(Lab *lab) {
  Gpu *g = NULL;
  WmErr e = {0};
  if (gpu_open(lab->opt.device, &g, &e)) return wm_err_print(&e);
  unsigned char *want = wm_xcalloc((size_t)lab->cat.nlaunches + 1, 1);
  child_wanted(lab, want);
  int status = 0;
  for (int f = 0; f < lab->cat.nfiles; f++) {
    PtxModule *mod = NULL;
    GpuModule *gm = NULL;
    for (int i = 0; i < lab->cat.nlaunches; i++) {
      const LabLaunch *l = &lab->cat.launches[i];
      if (!want[i] || l->file != f) continue;
      if (!mod && (!(mod = ptx_load(lab->cat.files[f].ptx, arch_ptx_target(), &e)) || gpu_module_load(g, mod, &gm, &e))) {
        status = wm_err_print(&e);
        break;
      }
      const PtxKernel *k = ptx_find_kernel(mod, l->sim.name, &e);
      GpuLaunch *L = NULL;
      if (!k || gpu_launch_prepare(gm, k, &l->sim, lab->opt.sim.init, lab->opt.sim.seed, &L, &e) ||
          (l->carveout >= 0 && gpu_launch_set_carveout(L, l->carveout, &e)) || gpu_launch_run(L, &e))
        status = wm_err_print(&e);
      if (L) gpu_launch_free(L);
    }
    if (gm) gpu_module_free(gm);
    if (mod) ptx_module_free(mod);
  }
  free(want);
  gpu_close(g);
  return status;
}

/* ---- the profiler's CSV ------------------------------------------------------ */

/* A number as ncu prints it ("1,234,567" or "12.5"); -1 if none. */
static double ncu_number(const char *s) {
  char b[64];
  size_t k = 0;
  for (; *s && k + 1 < sizeof b; s++)
    if (*s != ',') b[k++] = *s;
  b[k] = '\0';
  char *end;
  double v = strtod(b, &end);
  return end == b ? -1 : v;
}

typedef struct NcuRow {
  char kernel[128];
  double v[NCMP_MAX];
} NcuRow;

/* Reads the raw page: a header line starting "ID", a units line, then one
 * line per profiled kernel.  Other lines (the profiler's ==PROF== notes,
 * the program's output) are skipped. */
static int parse_ncu(FILE *in, NcuRow **rows, int *nrows) {
  char *line = NULL;
  size_t cap = 0;
  int col_kernel = -1, col[NCMP_MAX], have_header = 0, nc = ncmp();
  char *f[1024];
  *rows = NULL;
  *nrows = 0;
  while (getline(&line, &cap, in) > 0) {
    line[strcspn(line, "\r\n")] = '\0';
    if (line[0] != '"') continue;
    char *p = line;
    int n = wm_csv_read(&p, f, 1024);
    if (n > 1024) n = 1024;
    if (!have_header) {
      if (n == 0 || strcmp(f[0], "ID")) continue;
      have_header = 1;
      for (int c = 0; c < nc; c++) col[c] = -1;
      for (int j = 0; j < n; j++) {
        if (!strcmp(f[j], "Kernel Name")) col_kernel = j;
        for (int c = 0; c < nc; c++)
          if (!strcmp(f[j], report_vs_ncu_metric(c))) col[c] = j;
      }
      continue;
    }
    if (n == 0 || ncu_number(f[0]) < 0 || col_kernel < 0 || col_kernel >= n) continue; /* the units line */
    *rows = wm_xrealloc(*rows, sizeof **rows * (size_t)(*nrows + 1));
    NcuRow *r = &(*rows)[(*nrows)++];
    snprintf(r->kernel, sizeof r->kernel, "%s", f[col_kernel]);
    for (int c = 0; c < nc; c++) r->v[c] = col[c] >= 0 && col[c] < n ? ncu_number(f[col[c]]) : -1;
  }
  free(line);
  return have_header ? 0 : -1;
}

/* ---- the parent --------------------------------------------------------------- */

static int on_path(const char *prog) {
  char buf[4096];
  return wm_find_program(prog, buf, sizeof buf) == 0;
}

/* The command line: ncu, its options, this program as the child.  Only the
 * compared counters are collected (fewer replay passes); kernel names stay
 * mangled, as the //@ lines name templates. */
/* ncu's time limit: $WARPMEM_NCU_TIMEOUT seconds (default 3600: it
 * replays every launch dozens of times), or -1 for a bad value. */
static double ncu_limit(void) {
  const char *v = getenv("WARPMEM_NCU_TIMEOUT");
  if (!v || !*v) return 3600;
  char *end;
  double t = strtod(v, &end);
  return end == v || *end || !(t > 0) || t > 86400 ? -1 : t;
}

static char *ncu_command(const Lab *lab, double limit) {
  size_t cap = 16384, n = 0;
  char *cmd = wm_xmalloc(cap);
  if (on_path("timeout")) /* coreutils: the process group killed past the limit */
    n += (size_t)snprintf(cmd + n, cap - n, "timeout -k 10 %g ", limit);
  n += (size_t)snprintf(cmd + n, cap - n,
                        "ncu --clock-control none --print-kernel-base mangled --csv --page raw --print-units base "
                        "--metrics ");
  for (int c = 0; c < ncmp(); c++) n += (size_t)snprintf(cmd + n, cap - n, "%s%s", c ? "," : "", report_vs_ncu_metric(c));
  char self[4096];
  ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
  self[k > 0 ? k : 0] = '\0';
  n += (size_t)snprintf(cmd + n, cap - n, " '%s' lab --ncu-child --dir '%s' --device %d --ncu-launches ",
                        k > 0 ? self : "warpmem", lab->opt.dir, lab->opt.device);
  int any = 0; /* the launches that simulated: the others have nothing to compare */
  for (int i = 0; i < lab->cat.nlaunches && n + 16 < cap; i++)
    if (lab->res[i].selected && lab->res[i].sim_status == REPORT_OK)
      n += (size_t)snprintf(cmd + n, cap - n, "%s%d", any++ ? "," : "", i);
  if (!any && n + 4 < cap) n += (size_t)snprintf(cmd + n, cap - n, "-1");
  if (n < cap) snprintf(cmd + n, cap - n, " 2>&1");
  return cmd;
}

/* The profiler's row of each selected launch (row[i], -1: not profiled):
 * rows come in launch order, so each launch takes the next row of its
 * kernel; a launch whose kernel has no row ahead (it failed on the GPU)
 * takes none and leaves the rows to the launches after it. */
static void match_rows(const Lab *lab, const NcuRow *rows, int nrows, int *row) {
  int r = 0;
  for (int i = 0; i < lab->cat.nlaunches; i++) {
    row[i] = -1;
    if (!lab->res[i].selected || lab->res[i].sim_status != REPORT_OK) continue;
    for (int j = r; j < nrows; j++)
      if (!strcmp(rows[j].kernel, lab->cat.launches[i].sim.name)) {
        row[i] = j;
        r = j + 1;
        break;
      }
  }
}

/* The document of the table: the shown launches, each beside its row of
 * the profiler's (meas NULL: not profiled; sim NULL: not simulated). */
static void ncu_doc(const Lab *lab, const NcuRow *rows, int nrows, LabDoc *ld, double *meas) {
  int *row = wm_xcalloc((size_t)lab->cat.nlaunches + 1, sizeof *row), n = 0;
  match_rows(lab, rows, nrows, row);
  lab_doc_build(lab, ld);
  ld->vs_rows = wm_xcalloc((size_t)ld->doc.nlaunches + 1, sizeof *ld->vs_rows);
  for (int i = 0; i < lab->cat.nlaunches; i++) {
    if (ld->shown_at[i] < 0) continue;
    ReportVsRow *v = &ld->vs_rows[n++];
    double *m = meas + (size_t)ld->shown_at[i] * WM_M_COUNT;
    for (int k = 0; k < WM_M_COUNT; k++) m[k] = -1;
    for (int c = 0; row[i] >= 0 && c < ncmp(); c++)
      for (int k = 0; k < WM_M_COUNT; k++)
        if (!strcmp(wm_metric_name[k], report_vs_ncu_metric(c))) m[k] = rows[row[i]].v[c];
    *v = (ReportVsRow){.label = lab->cat.launches[i].sim.label,
                       .sim = lab->res[i].sim_status == REPORT_OK ? lab->res[i].metric : NULL,
                       .meas = row[i] >= 0 ? m : NULL};
  }
  ld->vs = (ReportVs){.kind = REPORT_VS_NCU, .rows = ld->vs_rows, .nrows = n};
  ld->doc.vs = &ld->vs;
  free(row);
}

static void print_table(const Lab *lab, FILE *out, const NcuRow *rows, int nrows, int md, int ncu_md) {
  LabDoc ld;
  double *meas = wm_xcalloc((size_t)lab->cat.nlaunches * WM_M_COUNT + 1, sizeof *meas);
  ncu_doc(lab, rows, nrows, &ld, meas);
  if (ncu_md) report_vs_ncu_md(out, &ld.doc);
  else report_vs_write(out, &ld.doc, md ? REPORT_MARKDOWN : REPORT_TEXT);
  lab_doc_free(&ld);
  free(meas);
}

int lab_ncu_table(const Lab *lab, FILE *ncu_out, FILE *out, int md) {
  NcuRow *rows;
  int nrows;
  if (parse_ncu(ncu_out, &rows, &nrows) || nrows == 0) {
    free(rows);
    return -1;
  }
  print_table(lab, out, rows, nrows, md, 0);
  free(rows);
  return 0;
}

int lab_ncu(Lab *lab) {
  if (!lab->refs.have_gpu) {
    fprintf(stderr, "warpmem lab --ncu: no GPU (%s): nothing to profile\n", lab->refs.no_gpu_reason);
    return 0;
  }
  if (!on_path("ncu")) {
    fprintf(stderr, "warpmem lab --ncu: ncu (Nsight Compute) is not on PATH: nothing profiled\n");
    return 0;
  }
  double limit = ncu_limit();
  if (limit < 0) {
    fprintf(stderr, "warpmem lab --ncu: WARPMEM_NCU_TIMEOUT=%s: expected seconds, above 0 and at most 86400\n",
            getenv("WARPMEM_NCU_TIMEOUT"));
    return 2;
  }
  char *cmd = ncu_command(lab, limit);
  fprintf(stderr, "warpmem lab --ncu: %s\n", cmd);
  FILE *p = popen(cmd, "r");
  free(cmd);
  if (!p) {
    fprintf(stderr, "warpmem lab --ncu: cannot start ncu\n");
    return 1;
  }
  NcuRow *rows;
  int nrows;
  int parsed = parse_ncu(p, &rows, &nrows);
  int st = pclose(p);
  if (WIFEXITED(st) && WEXITSTATUS(st) == 124)
    fprintf(stderr, "warpmem lab --ncu: ncu did not finish within %g s and was stopped (WARPMEM_NCU_TIMEOUT)\n",
            limit);
  if (parsed || nrows == 0) {
    fprintf(stderr, "warpmem lab --ncu: ncu printed no counters (exit status %d); run the command above to see why\n", st);
    free(rows);
    return 1;
  }
  int md = lab->opt.format == LAB_MARKDOWN;
  print_table(lab, stdout, rows, nrows, md, 0);
  if (lab->opt.out_dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/ncu.md", lab->opt.out_dir);
    FILE *f = fopen(path, "w");
    if (f) {
      print_table(lab, f, rows, nrows, 1, 1);
      fclose(f);
      fprintf(stderr, "warpmem lab: wrote %s\n", path);
    }
  }
  free(rows);
  return 0;
}
