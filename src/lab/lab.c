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

#include "lab/lab.h"
#include "arch/arch.h"
#include "util/sys.h"
#include "emu/emu.h"

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

/* The predicted time at the GPU size: the time model run again on the
 * simulated launch's counters scaled by the ratio of work, and on the
 * GPU-size grid (its gpu: line's, else the simulated one's grown by that
 * ratio).  Not the simulated time scaled: a grid of one block an SM is
 * latency-bound where the GPU-size one, many blocks an SM, hides the
 * latency of each; a grid-stride kernel keeps its grid and loops longer. */
static double scaled_prediction(const Lab *lab, const LabLaunch *l, const LabResult *r) {
  double t = lab_time_metric(r->metric);
  if (t <= 0 || r->scale == 1 || r->model.blocks == 0) return t;
  uint64_t blocks = model_scaled(r->model.blocks, r->scale);
  uint32_t threads = r->model.threads;
  if (l->has_gpu_spec) {
    blocks = (uint64_t)l->gpu.grid[0] * l->gpu.grid[1] * l->gpu.grid[2];
    threads = l->gpu.block[0] * l->gpu.block[1] * l->gpu.block[2];
  }
  ModelTime mt;
  model_time_scaled(sim_arch(&lab->opt.sim), r->metric, &r->model, r->scale, blocks, threads, &mt);
  return mt.ns;
}

static void progress(const Lab *lab, int done, const LabLaunch *l, const char *what) {
  if (!lab->opt.progress) return;
  if (isatty(2)) fprintf(stderr, "\r\033[K[%d/%d] %s: %s", done, lab->nselected, l->sim.label, what);
  else fprintf(stderr, "[%d/%d] %s: %s\n", done, lab->nselected, l->sim.label, what);
}

static int simulate(Lab *lab, const PtxModule *mod, int i, SimRun *run, WmErr *e) {
  const LabLaunch *l = &lab->cat.launches[i];
  LabResult *r = &lab->res[i];
  SimOptions o = lab->opt.sim;
  o.keep_buffers = lab->refs.have_gpu;
  if (l->carveout >= 0) o.carveout_pct = l->carveout;
  if (sim_run_launch(mod, &l->sim, &o, run, e)) return -1;
  memcpy(r->metric, run->mm.metric, sizeof r->metric);
  if (lab->opt.format == LAB_HTML || lab->opt.out_dir) lab_keep_accesses(lab, i, run, mod);
  r->simulated = 1;
  r->sim_seconds = run->seconds;
  r->thread_instrs = run->thread_instrs;
  r->regs = run->have_occ ? run->regs : 0;
  r->blocks_per_sm = run->have_occ ? run->occ.blocks_sm : 0;
  r->model = run->model;
  return 0;
}

/* Loads the PTX of each catalogue file that has a selected launch, and the
 * registers ptxas gives its kernels (for occupancy; assumed without ptxas). */
static int load_modules(Lab *lab, PtxModule **mods, WmErr *e) {
  const Arch *a = sim_arch(&lab->opt.sim);
  for (int f = 0; f < lab->cat.nfiles; f++) {
    int used = 0;
    for (int i = 0; i < lab->cat.nlaunches; i++)
      if (lab->res[i].selected && lab->cat.launches[i].file == f) used = 1;
    if (!used) continue;
    mods[f] = ptx_load(lab->cat.files[f].ptx, arch_ptx_target(), e);
    if (!mods[f]) return -1;
    ptx_registers(mods[f], a->cc, NULL, 0);
    ptx_contractions(mods[f], a->cc);
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
    status = wm_err_print(&e);
    goto out;
  }
  double t0 = wm_now();
  for (int i = 0; i < c->nlaunches && !status; i++) {
    LabResult *r = &lab->res[i];
    const LabLaunch *l = &c->launches[i];
    if (!r->selected) continue;
    r->scale = l->scale;
    progress(lab, ++done, l, "simulating");
    SimRun run;
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
      r->model = t->model;
    } else if (simulate(lab, mods[l->file], i, &run, &e)) {
      if (lab->opt.progress && isatty(2)) fputc('\n', stderr);
      if (e.code == WM_EUSAGE || e.code == WM_EIO) { /* the options', not this launch's */
        status = wm_err_print(&e);
        sim_run_free(&run);
        break;
      }
      /* reported in its place; the other launches run on */
      fprintf(stderr, "warpmem: lab: %s: %s\n", l->sim.label, e.msg);
      r->sim_status = report_status_of(e.code);
      snprintf(r->sim_error, sizeof r->sim_error, "%s", e.msg);
      lab->not_run++;
      sim_run_free(&run);
      continue;
    }
    r->pred_ns = scaled_prediction(lab, l, r);
    if (g) {
      if (!gms[l->file] && gpu_module_load(g, mods[l->file], &gms[l->file], &e)) {
        snprintf(r->gpu_error, sizeof r->gpu_error, "%s", e.msg);
      } else {
        progress(lab, done, l, "on the GPU");
        lab_gpu_launch(lab, g, gms[l->file], mods[l->file], i, run.have_gmem ? &run.gmem : NULL);
      }
    }
    sim_run_free(&run);
  }
  lab->sim_seconds = wm_now() - t0;
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

int lab_run(const LabOptions *o) {
  Lab lab;
  memset(&lab, 0, sizeof lab);
  lab.opt = *o;
  if (lab.opt.groundtruth) return lab_groundtruth(&lab.opt);
  /* device printf (tests/corpus/printf.cu) must not break a JSON or CSV report */
  if (lab.opt.format == LAB_JSON || lab.opt.format == LAB_CSV || lab.opt.format == LAB_HTML)
    lab.opt.sim.printf_out = stderr;
  WmErr e = {0};
  if (lab_catalogue_load(&lab.cat, lab.opt.dir, &e)) return wm_err_print(&e);
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
  if (lab.opt.ncu_child) {
    status = lab_ncu_child(&lab);
    goto out;
  }
  if (!lab.opt.no_gpu) lab_gpu_open(&lab, &g);
  else snprintf(lab.refs.no_gpu_reason, sizeof lab.refs.no_gpu_reason, "--no-gpu");
  if (lab.opt.format == LAB_TEXT || lab.opt.format == LAB_MARKDOWN) {
    LabDoc ld;
    lab_doc_build(&lab, &ld);
    report_lab_start(stdout, &ld.doc);
    lab_doc_free(&ld);
    fflush(stdout);
  } else if (!g) {
    fprintf(stderr, "warpmem lab: no GPU found (%s): showing simulation only\n", lab.refs.no_gpu_reason);
  }
  if (g && !lab.opt.no_time) lab_gpu_refs(&lab, g); /* the references are timings */
  status = run_catalogue(&lab, g);
  if (status == 0 && lab_report(&lab, stdout, lab.opt.format)) status = 1;
  if (status == 0 && lab.opt.out_dir && lab_write_results(&lab, lab.opt.out_dir)) status = 1;
  if (status == 0 && lab.opt.ncu) {
    if (g) gpu_close(g), g = NULL; /* the profiler runs its own process */
    status = lab_ncu(&lab);
  }
  if (status == 0 && lab.not_run) {
    fprintf(stderr, "warpmem: lab: %d of %d launches were not simulated (refused or failed; reported in place)\n",
            lab.not_run, lab.nselected);
    status = LAB_EXIT_SOME_NOT_RUN;
  }
out:
  if (g) gpu_close(g);
  lab_free_accesses(&lab);
  free(lab.res);
  lab_catalogue_free(&lab.cat);
  return status;
}
