/* lab.c - `warpmem lab`: the seed experiments, simulated, beside what an
 * H200 measured (lab/h200-seed-counters.csv, from Nsight Compute).
 *
 * This is the simulation half of the lab; running the same launches on a
 * GPU comes with the driver-API runner.
 */
#include <dlfcn.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

#ifndef WM_LAB_DIR
#define WM_LAB_DIR "lab"
#endif

static const char *usage_lab =
  "usage: warpmem lab [--only NAME] [--list] [--format text|markdown|json|csv] [--dir DIR]\n"
  "\n"
  "Simulates every experiment of the catalogue (DIR/seed_kernels.cu, the seed\n"
  "documents' kernels; buffers zero-filled as when they were measured) and puts\n"
  "the simulated counters beside the ones Nsight Compute measured on an H200\n"
  "(DIR/h200-seed-counters.csv).  Needs no GPU.\n"
  "\n"
  "  --only NAME   run the launches whose name or NAME#VARIANT label is NAME\n"
  "  --list        list the experiments and exit\n"
  "  --dir DIR     the catalogue (default: the lab/ folder of the source tree,\n"
  "                or $WARPMEM_LAB_DIR)\n";

/* The columns the lab compares: simulated vs measured. */
static const struct {
  WmMetric m;
  const char *head;
} cols[] = {
  {WM_M_GLD_REQ, "ld req"},   {WM_M_GLD_SEC, "ld sectors"}, {WM_M_GST_REQ, "st req"},
  {WM_M_GST_SEC, "st sectors"}, {WM_M_LLD_SEC, "local ld sect"}, {WM_M_LST_SEC, "local st sect"},
  {WM_M_SLD_WF, "smem ld wavefr"}, {WM_M_SST_WF, "smem st wavefr"},
};
#define NCOLS (int)(sizeof cols / sizeof *cols)

typedef struct Truth {
  char **names;  /* header */
  int ncols;
  char ***rows;  /* rows[i][j] */
  int nrows;
} Truth;

static char **split_csv_line(char *line, int *n) {
  int cap = 16;
  char **f = wm_xmalloc(sizeof(char *) * (size_t)cap);
  *n = 0;
  for (char *p = line;;) {
    char *c = strchr(p, ',');
    if (*n == cap) f = wm_xrealloc(f, sizeof(char *) * (size_t)(cap *= 2));
    f[(*n)++] = p;
    if (!c) break;
    *c = '\0';
    p = c + 1;
  }
  return f;
}

static int truth_load(Truth *t, const char *path, char **keep, WmErr *e) {
  memset(t, 0, sizeof *t);
  char *text = wm_read_file(path, NULL, e);
  if (!text) return -1;
  *keep = text;
  char *save = NULL;
  for (char *line = strtok_r(text, "\r\n", &save); line; line = strtok_r(NULL, "\r\n", &save)) {
    int n;
    char **f = split_csv_line(line, &n);
    if (!t->names) {
      t->names = f;
      t->ncols = n;
    } else {
      t->rows = wm_xrealloc(t->rows, sizeof(char **) * (size_t)(t->nrows + 1));
      t->rows[t->nrows++] = f;
    }
  }
  return 0;
}

static void truth_free(Truth *t) {
  for (int i = 0; i < t->nrows; i++) free(t->rows[i]);
  free(t->rows);
  free(t->names);
}

/* The measured value of metric `name` for `launch`, or -1. */
static long long truth_get(const Truth *t, const char *launch, const char *name) {
  int col = -1;
  for (int j = 0; j < t->ncols; j++)
    if (!strcmp(t->names[j], name)) col = j;
  if (col < 0) return -1;
  for (int i = 0; i < t->nrows; i++)
    if (!strcmp(t->rows[i][0], launch)) return col < t->ncols ? atoll(t->rows[i][col]) : -1;
  return -1;
}

static int driver_present(void) {
  void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (!h) return 0;
  dlclose(h);
  return 1;
}

static void cell(char *buf, size_t n, uint64_t sim, long long meas) {
  if (sim == 0 && meas <= 0) snprintf(buf, n, "-");
  else if (meas < 0) snprintf(buf, n, "%llu", (unsigned long long)sim);
  else if ((long long)sim == meas) snprintf(buf, n, "%llu =", (unsigned long long)sim);
  else snprintf(buf, n, "%llu/%lld %.0f%%", (unsigned long long)sim, meas,
                meas ? 100.0 * (double)sim / (double)meas : 0.0);
}

int cli_lab(int argc, char **argv) {
  CliOptions o;
  cli_options_init(&o);
  o.init = INIT_ZERO; /* as measured */
  const char *only = NULL, *dir = getenv("WARPMEM_LAB_DIR");
  int list = 0, markdown = 0;
  if (!dir) dir = WM_LAB_DIR;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--format") && i + 1 < argc && !strcmp(argv[i + 1], "markdown")) {
      markdown = 1;
      i++;
      continue;
    }
    int c = cli_common_option(argc, argv, &i, &o);
    if (c >= 2) return c - 2;
    if (c == 1) continue;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(usage_lab, stdout);
      return 0;
    }
    if (!strcmp(a, "--list")) list = 1;
    else if ((!strcmp(a, "--only") || !strcmp(a, "--dir")) && i + 1 < argc) {
      if (!strcmp(a, "--only")) only = argv[++i];
      else dir = argv[++i];
    } else {
      fprintf(stderr, "warpmem: lab: unknown option '%s' (see warpmem lab --help)\n", a);
      return 2;
    }
  }
  WmErr e = {0};
  char cu[4096], ptx[4096], csv[4096];
  snprintf(cu, sizeof cu, "%s/seed_kernels.cu", dir);
  snprintf(ptx, sizeof ptx, "%s/seed_kernels.ptx", dir);
  snprintf(csv, sizeof csv, "%s/h200-seed-counters.csv", dir);
  char *cutext = wm_read_file(cu, NULL, &e);
  if (!cutext) {
    fprintf(stderr, "warpmem: lab: %s\n", e.msg);
    return 1;
  }
  LaunchSpec *ls = NULL;
  int n = 0;
  if (launch_parse_file(cu, cutext, &ls, &n, &e)) {
    free(cutext);
    fprintf(stderr, "warpmem: %s\n", e.msg);
    return 1;
  }
  free(cutext);
  if (list) {
    for (int i = 0; i < n; i++)
      printf("%-24s grid=(%u,%u,%u) block=(%u,%u,%u)\n", ls[i].label, ls[i].grid[0], ls[i].grid[1],
             ls[i].grid[2], ls[i].block[0], ls[i].block[1], ls[i].block[2]);
    free(ls);
    return 0;
  }
  /* the PTX: compiled now when nvcc is here, else the copy shipped beside it */
  PtxModule *mod = ptx_load(cu, "sm_90", &e);
  if (!mod && e.code == WM_ETOOL) mod = ptx_load(ptx, "sm_90", &e);
  if (!mod) {
    fprintf(stderr, "warpmem: lab: %s\n", e.msg);
    free(ls);
    return 1;
  }
  Truth t;
  char *keep = NULL;
  int have_truth = truth_load(&t, csv, &keep, &e) == 0;
  int gpu = driver_present();
  int progress = isatty(2);
  fprintf(stderr, "warpmem lab: %s; simulating %s on sm_90 (H200 counters measured by Nsight Compute beside them)\n",
          gpu ? "a CUDA driver is present, but this version only simulates"
              : "no GPU found (no CUDA driver): simulation only",
          only ? only : "every experiment");

  json_t *arr = json_array();
  double t0 = cli_now();
  int status = 0, ran = 0;
  if (o.format == REPORT_TEXT && !markdown) {
    printf("%-22s", "experiment");
    for (int c = 0; c < NCOLS; c++) printf(" %-19s", cols[c].head);
    printf("\n");
  } else if (markdown) {
    printf("| experiment |");
    for (int c = 0; c < NCOLS; c++) printf(" %s |", cols[c].head);
    printf("\n|---|");
    for (int c = 0; c < NCOLS; c++) printf("---|");
    printf("\n");
  } else if (o.format == REPORT_CSV) {
    printf("launch");
    for (int c = 0; c < NCOLS; c++) printf(",sim:%s,h200:%s", wm_metric_name[cols[c].m], wm_metric_name[cols[c].m]);
    printf("\n");
  }
  for (int i = 0; i < n; i++) {
    if (only && strcmp(only, ls[i].label) && strcmp(only, ls[i].name)) continue;
    if (progress) fprintf(stderr, "\r[%d/%d] %-30s", i + 1, n, ls[i].label);
    CliRun run;
    if (cli_run_launch(mod, &ls[i], &o, &run, &e)) {
      if (progress) fputc('\n', stderr);
      fprintf(stderr, "warpmem: %s\n", e.msg);
      status = 1;
      break;
    }
    ran++;
    const uint64_t *mv = run.mm.metric;
    if (o.format == REPORT_JSON) {
      json_t *obj = json_object(), *sim = json_object(), *meas = json_object();
      json_object_set_new(obj, "launch", json_string(ls[i].label));
      for (int m = 0; m < WM_M_COUNT; m++) {
        json_object_set_new(sim, wm_metric_name[m], json_integer((json_int_t)mv[m]));
        long long v = have_truth ? truth_get(&t, ls[i].label, wm_metric_name[m]) : -1;
        if (v >= 0) json_object_set_new(meas, wm_metric_name[m], json_integer(v));
      }
      json_object_set_new(obj, "simulated", sim);
      json_object_set_new(obj, "h200_measured", meas);
      json_object_set_new(obj, "seconds", json_real(run.seconds));
      json_array_append_new(arr, obj);
    } else if (o.format == REPORT_CSV) {
      printf("%s", ls[i].label);
      for (int c = 0; c < NCOLS; c++)
        printf(",%llu,%lld", (unsigned long long)mv[cols[c].m],
               have_truth ? truth_get(&t, ls[i].label, wm_metric_name[cols[c].m]) : -1);
      printf("\n");
    } else {
      printf(markdown ? "| %s |" : "%-22s", ls[i].label);
      for (int c = 0; c < NCOLS; c++) {
        char b[64];
        cell(b, sizeof b, mv[cols[c].m], have_truth ? truth_get(&t, ls[i].label, wm_metric_name[cols[c].m]) : -1);
        printf(markdown ? " %s |" : " %-19s", b);
      }
      printf("\n");
    }
    fflush(stdout);
    cli_run_free(&run);
  }
  if (progress) fprintf(stderr, "\r%50s\r", "");
  if (o.format == REPORT_JSON) {
    json_dumpf(arr, stdout, JSON_INDENT(2));
    printf("\n");
  }
  json_decref(arr);
  if (status == 0 && o.format == REPORT_TEXT) {
    printf("\n%d experiments simulated in %.1f s.  'N =': equal to the H200's count; 'sim/h200 P%%' otherwise; '-': none.\n"
           "Shared-memory wavefronts measured on the GPU include up to +10%% from other L1 traffic.\n",
           ran, cli_now() - t0);
  }
  if (have_truth) truth_free(&t);
  free(keep);
  free(ls);
  ptx_module_free(mod);
  return status;
}
