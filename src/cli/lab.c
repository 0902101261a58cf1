/* lab.c - `warpmem lab`: every experiment of the seeds (the catalogue in
 * lab/, docs/lab.md), simulated and, where a GPU is present, measured with
 * the outputs checked against the emulator's.
 *
 * The flow: read the catalogue; simulate each selected launch at its //@
 * size (a launch whose spec equals an earlier one's reuses its simulation);
 * on a GPU, run the same launch and compare the outputs, then time the
 * launch at its gpu: size; print one table per group.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/lab.h"
#include "emu/emu.h"

#ifndef WM_LAB_DIR
#define WM_LAB_DIR "lab"
#endif

static const char *usage_lab =
  "usage: warpmem lab [--only NAME[,NAME...]]... [--list] [--format text|markdown|json|csv]\n"
  "                   [--out DIR] [--ncu] [--no-gpu] [--progress] [--budget S]\n"
  "                   [--device N] [--dir DIR] [--groundtruth]\n"
  "\n"
  "Runs the catalogue: every experiment of the seed documents as CUDA kernels\n"
  "(lab/*.cu, their PTX beside them; docs/lab.md).  Each launch is simulated at\n"
  "its simulation size (the //@ line) and, when a GPU is present, run there too:\n"
  "outputs compared with the emulator's at the simulation size, time measured at\n"
  "the GPU size (the //! gpu: line, sized to leave the L2).  One table per group:\n"
  "simulated counters per request, predicted time, the seed's speedup and, on a\n"
  "GPU, measured time, bandwidth, % of the copy bandwidth or of cuBLAS, speedup\n"
  "over the experiment's first launch, and whether the outputs match.\n"
  "\n"
  "  --only NAME     a group, experiment, launch label or kernel name; repeatable\n"
  "  --list          list the catalogue and exit\n"
  "  --format FMT    text (default), markdown, json or csv\n"
  "  --out DIR       also write DIR/results.json and DIR/results.md\n"
  "  --ncu           with a GPU and ncu on PATH: profile the simulated launches with\n"
  "                  Nsight Compute and print simulated vs measured counters\n"
  "  --no-gpu        simulate only, even if a GPU is present\n"
  "  --progress      progress on stderr even when it is not a terminal\n"
  "  --budget S      seconds per timing series, cold or hot (default 0.5)\n"
  "  --device N      the GPU (default 0)\n"
  "  --dir DIR       the catalogue (default: lab/ of the source tree, or\n"
  "                  $WARPMEM_LAB_DIR)\n"
  "  --groundtruth   the simulator against the H200's Nsight Compute counters for\n"
  "                  DIR/seed_kernels.cu instead (DIR/h200-seed-counters.csv);\n"
  "                  takes --only, --list and --format\n"
  "  --arch NAME     the preset simulated (default h200)\n";

/* ---- options ---------------------------------------------------------------- */

static int parse_format(const char *s, LabFormat *f) {
  if (!strcmp(s, "text")) *f = LAB_TEXT;
  else if (!strcmp(s, "markdown") || !strcmp(s, "md")) *f = LAB_MARKDOWN;
  else if (!strcmp(s, "json")) *f = LAB_JSON;
  else if (!strcmp(s, "csv")) *f = LAB_CSV;
  else return -1;
  return 0;
}

/* --only A,B,C: each name kept (pointers into argv, commas cut). */
static int add_only(LabOptions *o, char *list) {
  for (char *save = NULL, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (o->nonly == (int)(sizeof o->only / sizeof *o->only)) return -1;
    o->only[o->nonly++] = t;
  }
  return 0;
}

static void record_command(LabOptions *o, int argc, char **argv) {
  size_t n = 0;
  n += (size_t)snprintf(o->command, sizeof o->command, "warpmem");
  for (int i = 1; i < argc && n < sizeof o->command; i++)
    n += (size_t)snprintf(o->command + n, sizeof o->command - n, " %s", argv[i]);
}

/* Returns -1 to go on, else an exit status. */
static int parse_options(int argc, char **argv, LabOptions *o, int *child) {
  memset(o, 0, sizeof *o);
  cli_options_init(&o->sim);
  gpu_measure_defaults(&o->mc);
  o->dir = getenv("WARPMEM_LAB_DIR");
  if (!o->dir) o->dir = WM_LAB_DIR;
  o->format = LAB_TEXT;
  record_command(o, argc, argv);
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(usage_lab, stdout);
      return 0;
    }
    if (!strcmp(a, "--format")) {
      if (!v || parse_format(v, &o->format))
        return cli_usage_error("lab --format takes text, markdown, json or csv, not '%s'", v ? v : "");
      i++;
    } else if (!strcmp(a, "--only")) {
      if (!v) return cli_usage_error("%s needs a name", a);
      if (add_only(o, argv[++i])) return cli_usage_error("too many --only names (at most %s)", "64");
    } else if (!strcmp(a, "--out") || !strcmp(a, "--dir")) {
      if (!v) return cli_usage_error("%s needs a folder", a);
      *(!strcmp(a, "--out") ? &o->out_dir : &o->dir) = argv[++i];
    } else if (!strcmp(a, "--budget")) {
      char *end;
      double b = v ? strtod(v, &end) : 0;
      if (!v || end == v || *end || b <= 0 || b > 600)
        return cli_usage_error("--budget takes seconds per series, such as 0.5, not '%s'", v ? v : "");
      o->mc.budget_s = b;
      i++;
    } else if (!strcmp(a, "--device")) {
      char *end;
      long d = v ? strtol(v, &end, 10) : -1;
      if (!v || end == v || *end || d < 0 || d > 64) return cli_usage_error("--device takes a GPU number, not '%s'", v ? v : "");
      o->device = (int)d;
      i++;
    } else if (!strcmp(a, "--list")) {
      o->list = 1;
    } else if (!strcmp(a, "--groundtruth")) {
      o->groundtruth = 1;
    } else if (!strcmp(a, "--ncu")) {
      o->ncu = 1;
    } else if (!strcmp(a, "--ncu-child")) {
      *child = 1;
    } else if (!strcmp(a, "--no-gpu")) {
      o->no_gpu = 1;
    } else if (!strcmp(a, "--progress")) {
      o->progress = 1;
    } else {
      int c = cli_common_option(argc, argv, &i, &o->sim);
      if (c >= 2) return c - 2;
      if (c == 0) {
        fprintf(stderr, "warpmem: lab: unknown option '%s' (see warpmem lab --help)\n", a);
        return 2;
      }
    }
  }
  if (!o->progress) o->progress = isatty(2);
  return -1;
}

/* ---- simulation ------------------------------------------------------------- */

double lab_time_metric(const uint64_t *metric) {
  static int idx = -2;
  if (idx == -2) {
    idx = -1;
    for (int m = 0; m < WM_M_COUNT; m++)
      if (!strcmp(wm_metric_name[m], "gpu__time_duration.sum")) idx = m;
  }
  return idx >= 0 ? (double)metric[idx] : 0;
}

/* Two launches simulate the same thing when kernel, sizes, arguments and
 * carveout are equal (the label does not matter). */
static int same_simulation(const LabLaunch *a, const LabLaunch *b) {
  if (a->file != b->file || a->carveout != b->carveout || strcmp(a->sim.name, b->sim.name) ||
      memcmp(a->sim.grid, b->sim.grid, sizeof a->sim.grid) || memcmp(a->sim.block, b->sim.block, sizeof a->sim.block) ||
      a->sim.smem != b->sim.smem || a->sim.nargs != b->sim.nargs)
    return 0;
  for (int i = 0; i < a->sim.nargs; i++)
    if (strcmp(a->sim.args[i].text, b->sim.args[i].text)) return 0;
  return 1;
}

/* The predicted time at the GPU size: the simulated launch's prediction
 * beyond the launch overhead, scaled by the ratio of threads (the work
 * grows with them in every catalogue kernel). */
static double scaled_prediction(const Lab *lab, const LabResult *r) {
  double t = lab_time_metric(r->metric);
  if (t <= 0) return 0;
  double launch = cli_arch(&lab->opt.sim)->launch_ns;
  if (r->scale == 1 || t <= launch) return t;
  return launch + (t - launch) * r->scale;
}

static void progress(const Lab *lab, int done, const LabLaunch *l, const char *what) {
  if (!lab->opt.progress) return;
  if (isatty(2)) fprintf(stderr, "\r\033[K[%d/%d] %s: %s", done, lab->nselected, l->sim.label, what);
  else fprintf(stderr, "[%d/%d] %s: %s\n", done, lab->nselected, l->sim.label, what);
}

static int simulate(Lab *lab, const PtxModule *mod, int i, CliRun *run, WmErr *e) {
  const LabLaunch *l = &lab->cat.launches[i];
  LabResult *r = &lab->res[i];
  CliOptions o = lab->opt.sim;
  o.keep_buffers = lab->refs.have_gpu;
  if (l->carveout >= 0) o.carveout_pct = l->carveout;
  if (cli_run_launch(mod, &l->sim, &o, run, e)) return -1;
  memcpy(r->metric, run->mm.metric, sizeof r->metric);
  r->simulated = 1;
  r->sim_seconds = run->seconds;
  r->thread_instrs = run->thread_instrs;
  r->regs = run->have_occ ? run->regs : 0;
  r->blocks_per_sm = run->have_occ ? run->occ.blocks_sm : 0;
  return 0;
}

/* Loads the PTX of each catalogue file that has a selected launch, and the
 * registers ptxas gives its kernels (for occupancy; assumed without ptxas). */
static int load_modules(Lab *lab, PtxModule **mods, WmErr *e) {
  const Arch *a = cli_arch(&lab->opt.sim);
  for (int f = 0; f < lab->cat.nfiles; f++) {
    int used = 0;
    for (int i = 0; i < lab->cat.nlaunches; i++)
      if (lab->res[i].selected && lab->cat.launches[i].file == f) used = 1;
    if (!used) continue;
    mods[f] = ptx_load(lab->cat.files[f].ptx, "sm_90", e);
    if (!mods[f]) return -1;
    ptx_registers(mods[f], a->cc, NULL, 0);
  }
  return 0;
}

static int run_catalogue(Lab *lab, Gpu *g) {
  WmErr e = {0};
  LabCatalogue *c = &lab->cat;
  PtxModule **mods = wm_xcalloc((size_t)c->nfiles, sizeof *mods);
  GpuModule **gms = wm_xcalloc((size_t)c->nfiles, sizeof *gms);
  int status = 0, done = 0;
  if (load_modules(lab, mods, &e)) {
    status = cli_fail(&e);
    goto out;
  }
  double t0 = cli_now();
  for (int i = 0; i < c->nlaunches && !status; i++) {
    LabResult *r = &lab->res[i];
    const LabLaunch *l = &c->launches[i];
    if (!r->selected) continue;
    r->scale = l->scale;
    progress(lab, ++done, l, "simulating");
    CliRun run;
    memset(&run, 0, sizeof run);
    r->twin = -1;
    for (int j = 0; j < i && r->twin < 0; j++)
      if (lab->res[j].simulated && same_simulation(&c->launches[j], l)) r->twin = j;
    if (r->twin >= 0) {
      const LabResult *t = &lab->res[r->twin];
      memcpy(r->metric, t->metric, sizeof r->metric);
      r->simulated = 1;
      r->thread_instrs = t->thread_instrs;
      r->regs = t->regs;
      r->blocks_per_sm = t->blocks_per_sm;
    } else if (simulate(lab, mods[l->file], i, &run, &e)) {
      if (lab->opt.progress && isatty(2)) fputc('\n', stderr);
      status = cli_fail(&e);
      break;
    }
    r->pred_ns = scaled_prediction(lab, r);
    if (g) {
      if (!gms[l->file] && gpu_module_load(g, mods[l->file], &gms[l->file], &e)) {
        snprintf(r->gpu_error, sizeof r->gpu_error, "%s", e.msg);
      } else {
        progress(lab, done, l, "on the GPU");
        lab_gpu_launch(lab, g, gms[l->file], mods[l->file], i, run.have_gmem ? &run.gmem : NULL);
      }
    }
    cli_run_free(&run);
  }
  lab->sim_seconds = cli_now() - t0;
  if (lab->opt.progress && isatty(2)) fprintf(stderr, "\r\033[K");
  if (g) lab_gpu_derive(lab);
out:
  for (int f = 0; f < c->nfiles; f++) {
    if (gms[f]) gpu_module_free(gms[f]);
    if (mods[f]) ptx_module_free(mods[f]);
  }
  free(gms);
  free(mods);
  return status;
}

/* ---- the command ------------------------------------------------------------- */

static int select_launches(Lab *lab) {
  LabCatalogue *c = &lab->cat;
  unsigned char *sel = wm_xcalloc((size_t)c->nlaunches + 1, 1);
  for (int k = 0; k < lab->opt.nonly; k++)
    if (lab_catalogue_select(c, lab->opt.only[k], sel) == 0) {
      fprintf(stderr,
              "warpmem: lab --only %s: no group, experiment, launch or kernel of that name "
              "(warpmem lab --list shows them)\n",
              lab->opt.only[k]);
      free(sel);
      return 2;
    }
  for (int i = 0; i < c->nlaunches; i++) {
    lab->res[i].selected = lab->opt.nonly == 0 || sel[i];
    lab->nselected += lab->res[i].selected;
  }
  free(sel);
  return -1;
}

static void today(char *buf, size_t n) {
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(buf, n, "%Y-%m-%d", &tm);
}

int cli_lab(int argc, char **argv) {
  Lab lab;
  memset(&lab, 0, sizeof lab);
  int child = 0;
  int st = parse_options(argc, argv, &lab.opt, &child);
  if (st >= 0) return st;
  if (lab.opt.groundtruth) return lab_groundtruth(&lab.opt);
  WmErr e = {0};
  if (lab_catalogue_load(&lab.cat, lab.opt.dir, &e)) return cli_fail(&e);
  lab.res = wm_xcalloc((size_t)lab.cat.nlaunches + 1, sizeof *lab.res);
  today(lab.date, sizeof lab.date);
  Gpu *g = NULL;
  int status = select_launches(&lab);
  if (status >= 0) goto out;
  status = 0;
  if (lab.opt.list) {
    lab_list(&lab, stdout);
    goto out;
  }
  if (child) {
    status = lab_ncu_child(&lab);
    goto out;
  }
  if (!lab.opt.no_gpu) lab_gpu_open(&lab, &g);
  else snprintf(lab.refs.no_gpu_reason, sizeof lab.refs.no_gpu_reason, "--no-gpu");
  if (lab.opt.format == LAB_TEXT || lab.opt.format == LAB_MARKDOWN) {
    if (g) printf("GPU: %s, %d SMs: simulating and measuring %d launches\n", lab.refs.info.name, lab.refs.info.sms,
                  lab.nselected);
    else printf("no GPU found (%s): showing simulation only\n", lab.refs.no_gpu_reason);
    fflush(stdout);
  } else if (!g) {
    fprintf(stderr, "warpmem lab: no GPU found (%s): showing simulation only\n", lab.refs.no_gpu_reason);
  }
  if (g) lab_gpu_refs(&lab, g);
  status = run_catalogue(&lab, g);
  if (status == 0 && lab_report(&lab, stdout, lab.opt.format)) status = 1;
  if (status == 0 && lab.opt.out_dir && lab_write_results(&lab, lab.opt.out_dir)) status = 1;
  if (status == 0 && lab.opt.ncu) {
    if (g) gpu_close(g), g = NULL; /* the profiler runs its own process */
    status = lab_ncu(&lab);
  }
out:
  if (g) gpu_close(g);
  free(lab.res);
  lab_catalogue_free(&lab.cat);
  return status;
}
