/* lab_truth.c - `warpmem lab --groundtruth`: the seed kernels the H200 ground
 * truth measured (groundtruth/seed_kernels.cu, its PTX in groundtruth/ptx/),
 * simulated, beside the counters Nsight Compute read on the H200
 * (groundtruth/h200-seed-counters.csv; groundtruth/README.md).  Buffers are
 * zero-filled, as when they were measured.  docs/accuracy.md is this table
 * in markdown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/lab.h"
#include "arch/arch.h"
#include "util/csv.h"
#include "util/sys.h"

/* The ground-truth folder of the source tree; $WARPMEM_GROUNDTRUTH_DIR
 * overrides it (as $WARPMEM_LAB_DIR does the catalogue's). */
#ifndef WM_GROUNDTRUTH_DIR
#define WM_GROUNDTRUTH_DIR "groundtruth"
#endif

/* The measured CSV: a header of metric names, one row per launch. */
typedef struct Truth {
  char *text;    /* owns the strings below */
  char **names;  /* header */
  int ncols;
  char ***rows;  /* rows[i][j] */
  int nrows;
} Truth;

/* At most this many columns (the tables have 35). */
#define TRUTH_MAX_COLS 256

static void truth_free(Truth *t) {
  for (int i = 0; i < t->nrows; i++) free(t->rows[i]);
  free(t->rows);
  free(t->names);
  free(t->text);
}

/* Reads the table at `path` into t; -1 (t freed) when it cannot be read or
 * a row's columns are not the header's. */
static int truth_load(Truth *t, const char *path, WmErr *e) {
  memset(t, 0, sizeof *t);
  t->text = wm_read_file(path, NULL, e);
  if (!t->text) return -1;
  char *f[TRUTH_MAX_COLS];
  int n;
  for (char *p = t->text; (n = wm_csv_read(&p, f, TRUTH_MAX_COLS)) > 0;) {
    if (n == 1 && !f[0][0]) continue; /* a blank line */
    if (n > TRUTH_MAX_COLS || (t->names && n != t->ncols)) {
      wm_err(e, WM_EIO, "%s: a row of %d columns (the header has %d, at most %d)", path, n,
             t->names ? t->ncols : n, TRUTH_MAX_COLS);
      truth_free(t);
      return -1;
    }
    char **row = wm_xmalloc(sizeof *row * (size_t)n);
    memcpy(row, f, sizeof *row * (size_t)n);
    if (!t->names) {
      t->names = row;
      t->ncols = n;
    } else {
      t->rows = wm_xrealloc(t->rows, sizeof(char **) * (size_t)(t->nrows + 1));
      t->rows[t->nrows++] = row;
    }
  }
  return 0;
}

/* The measured value of metric `name` for `launch`, or -1. */
static long long truth_get(const Truth *t, const char *launch, const char *name) {
  if (!t) return -1;
  int col = -1;
  for (int j = 0; j < t->ncols; j++)
    if (!strcmp(t->names[j], name)) col = j;
  if (col < 0) return -1;
  for (int i = 0; i < t->nrows; i++)
    if (!strcmp(t->rows[i][0], launch)) return atoll(t->rows[i][col]);
  return -1;
}

static int wanted(const LabOptions *o, const LaunchSpec *l) {
  if (o->nonly == 0) return 1;
  for (int k = 0; k < o->nonly; k++)
    if (!strcmp(o->only[k], l->label) || !strcmp(o->only[k], l->name)) return 1;
  return 0;
}

/* Launch l's row: its simulated counters beside the measured ones (meas,
 * [WM_M_COUNT], filled here; NULL without a table). */
static void row(ReportVsOut *v, const LaunchSpec *l, const uint64_t *mv, const Truth *t, double seconds, double *meas) {
  for (int m = 0; m < WM_M_COUNT; m++) meas[m] = (double)truth_get(t, l->label, wm_metric_name[m]);
  ReportVsRow r = {.label = l->label, .sim = mv, .meas = t ? meas : NULL, .seconds = seconds};
  report_vs_row(v, &r);
}

int lab_groundtruth(const LabOptions *lo) {
  SimOptions o = lo->sim;
  o.init = INIT_ZERO; /* as measured */
  WmErr e = {0};
  char cu[4096], ptx[4096], csv[4096];
  const char *dir = getenv("WARPMEM_GROUNDTRUTH_DIR");
  if (!dir || !*dir) dir = WM_GROUNDTRUTH_DIR;
  snprintf(cu, sizeof cu, "%s/seed_kernels.cu", dir);
  snprintf(ptx, sizeof ptx, "%s/ptx/seed_kernels.ptx", dir);
  snprintf(csv, sizeof csv, "%s/h200-seed-counters.csv", dir);
  LaunchSpec *ls = NULL;
  int n = 0;
  if (launch_read_file(cu, &ls, &n, &e)) return wm_err_print(&e);
  if (lo->list) {
    for (int i = 0; i < n; i++)
      if (wanted(lo, &ls[i]))
        report_vs_list_line(stdout, &ls[i]);
    free(ls);
    return 0;
  }
  /* the committed PTX: the lab runs without nvcc, and fast */
  PtxModule *mod = ptx_load(ptx, arch_ptx_target(), &e);
  if (!mod) {
    free(ls);
    return wm_err_print(&e);
  }
  ptx_registers(mod, sim_arch(&o)->cc, NULL, 0);
  ptx_contractions(mod, sim_arch(&o)->cc);
  Truth t;
  int have_truth = truth_load(&t, csv, &e) == 0;
  fprintf(stderr, "warpmem lab --groundtruth: simulating %s of %s beside the H200's counters (Nsight Compute)\n",
          lo->nonly ? "the chosen launches" : "every launch", cu);
  double t0 = wm_now(), meas[WM_M_COUNT];
  int status = 0, ran = 0, not_run = 0;
  ReportVsOut *v = report_vs_begin(stdout, lo->format);
  for (int i = 0; i < n; i++) {
    if (!wanted(lo, &ls[i])) continue;
    if (lo->progress) fprintf(stderr, isatty(2) ? "\r\033[K[%d/%d] %s" : "[%d/%d] %s\n", i + 1, n, ls[i].label);
    SimRun run;
    if (sim_run_launch(mod, &ls[i], &o, &run, &e)) { /* said on stderr; the others run on */
      if (lo->progress && isatty(2)) fputc('\n', stderr);
      fprintf(stderr, "warpmem: lab --groundtruth: %s did not run: %s\n", ls[i].label, e.msg);
      not_run++;
      continue;
    }
    ran++;
    row(v, &ls[i], run.mm.metric, have_truth ? &t : NULL, run.seconds, meas);
    sim_run_free(&run);
  }
  if (lo->progress && isatty(2)) fprintf(stderr, "\r\033[K");
  if (status == 0 && ran == 0 && not_run == 0) {
    fprintf(stderr, "warpmem: lab --groundtruth: no launch of %s matches --only\n", cu);
    status = 2;
  }
  report_vs_end(v, status == 0, wm_now() - t0);
  if (status == 0 && not_run) status = LAB_EXIT_SOME_NOT_RUN;
  if (have_truth) truth_free(&t);
  free(ls);
  ptx_module_free(mod);
  return status;
}
