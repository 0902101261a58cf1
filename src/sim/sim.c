/* sim.c - one launch end to end: occupancy, binding, the emulator with the
 * memory model, then the caches and time (sim_model.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "emu/emu_approx.h"
#include "emu/emu_check.h"
#include "util/sys.h"

static SimRunner runner = emu_run;
static int runner_rank, runner_nranks = 1;

void sim_set_runner(SimRunner r, int rank, int nranks) {
  runner = r ? r : emu_run;
  runner_rank = rank;
  runner_nranks = nranks;
}

int sim_rank(void) { return runner_rank; }
int sim_nranks(void) { return runner_nranks; }

const Arch *sim_arch(const SimOptions *o) { return o->cfg.arch ? o->cfg.arch : arch_default(); }

/* Occupancy of the launch on the preset, into run->occ: registers from
 * --regs, else ptxas (PtxKernel.regs), else an assumed 32.  A block that
 * cannot run on the preset is not an error of the simulation: run->occ_note
 * says why and have_occ stays 0. */
#define SIM_ASSUMED_REGS 32

/* A kernel that runs setmaxnreg moves registers between its warpgroups: the
 * occupancy says so (blocks per SM stay those of its registers at launch,
 * ptxas's count, e.g. 168 for __launch_bounds__(384, 1)). */
static void note_setmaxnreg(const PtxKernel *k, SimRun *run) {
  int used = 0;
  for (int i = 0; i < k->ncode && !used; i++) used = k->code[i].op == PTX_OP_SETMAXNREG;
  if (!used) return;
  size_t n = strlen(run->occ_note);
  snprintf(run->occ_note + n, sizeof run->occ_note - n,
           "%ssetmaxnreg redistributes the block's %d registers a thread between its warpgroups; it does not "
           "change blocks per SM", n ? "; " : "", run->regs);
}
static void launch_occupancy(const PtxModule *mod, const PtxKernel *k, const LaunchSpec *ls, const SimOptions *o,
                             SimRun *run) {
  const Arch *a = sim_arch(o);
  if (o->regs > 0) {
    run->regs = o->regs;
    run->regs_from = "--regs";
  } else if (k->regs > 0) {
    run->regs = k->regs;
    run->regs_from = mod->regs_from[0] ? mod->regs_from : "ptxas";
    if (mod->regs_note[0]) snprintf(run->occ_note, sizeof run->occ_note, "%s", mod->regs_note);
  } else {
    run->regs = SIM_ASSUMED_REGS;
    run->regs_from = "assumed";
    snprintf(run->occ_note, sizeof run->occ_note, "registers unknown (%s): assuming %d; use --regs",
             mod->regs_note[0] ? mod->regs_note : "ptxas not run", SIM_ASSUMED_REGS);
  }
  uint64_t threads = (uint64_t)ls->block[0] * ls->block[1]; /* < 2^62; saturate before the third */
  if (threads <= 0x7fffffff) threads *= ls->block[2];
  OccInput in = {.threads = threads > 0x7fffffff ? 0x7fffffff : (int)threads, .regs = run->regs,
                 .smem = k->shared_static + ls->smem, .carveout_pct = o->carveout_pct};
  WmErr oe = {0};
  if (occ_compute(a, &in, &run->occ, &oe) == 0) {
    run->have_occ = 1;
    note_setmaxnreg(k, run);
    return;
  }
  size_t used = strlen(run->occ_note);
  snprintf(run->occ_note + used, sizeof run->occ_note - used, "%scannot launch on %s: %s", used ? "; " : "", a->name,
           oe.msg);
}

static const char *limiter_name(unsigned limiters) {
  static const char *const names[] = {
#define X(e, name) name,
    OCC_LIMITS(X)
#undef X
  };
  for (int i = 0; i < OCC_LIMIT_COUNT; i++)
    if (limiters >> i & 1) return names[i];
  return "the preset";
}

/* A cooperative launch needs all its blocks resident at once: CUDA refuses
 * a grid larger than the active blocks per SM (the occupancy calculator's)
 * times the SMs, as cudaLaunchCooperativeKernel does. */
static int check_cooperative(const LaunchSpec *ls, const SimOptions *o, const SimRun *run, WmErr *e) {
  if (!ls->cooperative || !run->have_occ) return 0; /* a block that cannot run: emu_run says why */
  const Arch *a = sim_arch(o);
  uint64_t blocks = (uint64_t)ls->grid[0] * ls->grid[1] * ls->grid[2];
  uint64_t fit = (uint64_t)run->occ.blocks_sm * (uint64_t)a->sms;
  if (blocks <= fit) return 0;
  return wm_err(e, WM_ELIMIT,
                "cooperative launch %s: grid (%u,%u,%u) has %llu blocks, but %s holds at most %llu at once "
                "(%d per SM, limited by %s, x %d SMs; blocks of %llu threads, %d registers per thread "
                "(%s), %u bytes of shared memory): cudaLaunchCooperativeKernel fails with "
                "cudaErrorCooperativeLaunchTooLarge",
                ls->label, ls->grid[0], ls->grid[1], ls->grid[2], (unsigned long long)blocks, a->name,
                (unsigned long long)fit, run->occ.blocks_sm, limiter_name(run->occ.limiters), a->sms,
                (unsigned long long)ls->block[0] * ls->block[1] * ls->block[2], run->regs, run->regs_from,
                run->occ.smem_block);
}

/* A cluster's blocks must all be resident at once on one GPC: refused, as
 * the driver refuses it, when the GPC with the most SMs cannot hold them at
 * the occupancy calculator's blocks per SM (cudaOccupancyMaxActiveClusters
 * is then 0).  The cluster: the launch's, else the kernel's. */
static int check_cluster(const PtxKernel *k, const LaunchSpec *ls, const SimOptions *o, const SimRun *run, WmErr *e) {
  const uint32_t *c = ls->cluster[0] ? ls->cluster : k->cluster_dims;
  if (!c[0] || !run->have_occ) return 0; /* the cluster's own rules: emu_cluster_resolve */
  const Arch *a = sim_arch(o);
  int largest, n = (int)(c[0] * c[1] * c[2]);
  if (occ_active_clusters(a, run->occ.blocks_sm, n, NULL) > 0) return 0;
  occ_active_clusters(a, 1, 1, &largest);
  return wm_err(e, WM_ELIMIT,
                "cluster launch %s: a cluster of %d blocks (%u,%u,%u) does not fit: its blocks must all be resident "
                "on one GPC, and %s's largest GPC has %d SMs holding %d such blocks each (limited by %s; blocks of "
                "%llu threads, %d registers per thread (%s), %u bytes of shared memory): "
                "cudaOccupancyMaxActiveClusters is 0 and the launch fails (cudaErrorInvalidClusterSize)",
                ls->label, n, c[0], c[1], c[2], a->name, largest, run->occ.blocks_sm, limiter_name(run->occ.limiters),
                (unsigned long long)ls->block[0] * ls->block[1] * ls->block[2], run->regs, run->regs_from,
                run->occ.smem_block);
}

void sim_run_free(SimRun *r) {
  free(r->approx);
  mem_free(&r->mm);
  if (r->have_gmem) gmem_free(&r->gmem);
  memset(r, 0, sizeof *r);
}

/* Prefixes e's message with the launch's label and line (a file of
 * launches may have many of one kernel). */
static void name_launch(const LaunchSpec *ls, WmErr *e) {
  if (!ls->line) return;
  char msg[sizeof e->msg];
  int head = snprintf(msg, sizeof msg, "launch %s (line %d): ", ls->label, ls->line);
  if (head <= 0 || (size_t)head >= sizeof msg) return;
  size_t room = sizeof msg - (size_t)head - 1, len = strlen(e->msg);
  memcpy(msg + head, e->msg, len < room ? len : room);
  msg[(size_t)head + (len < room ? len : room)] = '\0';
  memcpy(e->msg, msg, sizeof msg);
}

/* The checks before binding: the kernel, the thread limit, occupancy and
 * a cooperative grid's size.  The kernel, or NULL with a message. */
static const PtxKernel *launch_begin(const PtxModule *mod, const LaunchSpec *ls, const SimOptions *o, SimRun *run,
                                     WmErr *e) {
  memset(run, 0, sizeof *run);
  const PtxKernel *k = ptx_find_kernel(mod, ls->name, e);
  if (!k) return NULL;
  uint64_t threads = launch_threads(ls);
  if (threads > o->max_threads)
    return wm_err(e, WM_ELIMIT,
                  "launch %s has %llu threads, over the %llu this run allows: simulating it would take "
                  "hours; raise --max-threads to run it anyway",
                  ls->label, (unsigned long long)threads, (unsigned long long)o->max_threads), NULL;
  launch_occupancy(mod, k, ls, o, run);
  if (check_cooperative(ls, o, run, e) || check_cluster(k, ls, o, run, e)) return NULL;
  return k;
}

/* The common path of a bound launch: the memory model (unless b->functional),
 * the emulator, the caches and time.  run->mm is freed on an error. */
static int run_bound(const PtxModule *mod, const PtxKernel *k, const LaunchSpec *ls, const SimBound *b,
                     const uint8_t *global_init, const SimOptions *o, SimRun *run, WmErr *e) {
  if (!b->functional && mem_init(&run->mm, &o->cfg, k->ncode)) {
    char why[256] = "";
    MemGen gen;
    mem_gen(&o->cfg, &gen, why, sizeof why);
    return wm_err(e, WM_EUSAGE, "%s", why[0] ? why : "the memory model does not support this configuration");
  }
  EmuLaunch l = {.arch = sim_arch(o), .mod = mod, .kernel = k, .smem_dynamic = ls->smem, .params = b->params,
                 .gmem = b->gmem, .const_mem = b->const_mem, .global_init = global_init,
                 .global_base = b->global_base, .mm = b->functional ? NULL : &run->mm,
                 .stack_size = o->stack_size, .heap_size = o->heap_size, .cooperative = ls->cooperative,
                 .printf_out = o->printf_out, .check = o->check, .max_instrs = o->max_instrs, .timeout = o->timeout};
  memcpy(l.grid, ls->grid, sizeof l.grid);
  memcpy(l.block, ls->block, sizeof l.block);
  memcpy(l.cluster, ls->cluster, sizeof l.cluster);
  l.cluster_nonportable = ls->cluster_nonportable;
  l.regs = run->regs_from && strcmp(run->regs_from, "assumed") ? run->regs : 0; /* setmaxnreg's pool */
  SimModel cm;
  memset(&cm, 0, sizeof cm);
  if (!b->functional) sim_model_begin(o, k, ls, run, &cm, &l);
  double t0 = wm_now();
  if (runner(&l, e)) {
    sim_model_abort(&cm);
    mem_free(&run->mm);
    name_launch(ls, e);
    return -1;
  }
  if (b->functional) run->blocks_run = l.blocks_run;
  else sim_model_end(&cm, &l, run);
  run->seconds = wm_now() - t0;
  run->thread_instrs = l.thread_instrs;
  run->kernel = k;
  run->approx = emu_approx_notes(mod, k);
  return 0;
}

/* `warpmem check`: the buffers of ls bound in g whose spec names no init
 * (and no --init) are uninitialized for initcheck. */
static void check_uninit(const LaunchSpec *ls, const GlobalMem *g, const SimOptions *o) {
  emu_check_forget_all(o->check);
  for (int i = 0; i < g->n && !o->init_given; i++) {
    int argno;
    if (sscanf(g->buf[i].name, "arg%d", &argno) == 1 && argno >= 0 && argno < ls->nargs &&
        ls->args[argno].kind == ARG_BUF && ls->args[argno].init == INIT_DEFAULT)
      emu_check_uninit(o->check, g->buf[i].addr, g->buf[i].size);
  }
}

int sim_run_launch(const PtxModule *mod, const LaunchSpec *ls, const SimOptions *o, SimRun *run,
                   WmErr *e) {
  const PtxKernel *k = launch_begin(mod, ls, o, run, e);
  if (!k) return -1;
  GlobalMem g;
  gmem_init(&g, o->mem_limit);
  uint8_t *params = wm_xcalloc(k->param_size + 8, 1);
  uint8_t *cmem = wm_xcalloc(mod->const_size + 1, 1), *gvars = wm_xcalloc(mod->global_size + 1, 1);
  int rc = -1;
  if (launch_bind(k, ls, &g, params, o->init, o->seed, e)) goto out;
  if (o->check) check_uninit(ls, &g, o);
  if (mod->const_init) memcpy(cmem, mod->const_init, mod->const_size);
  if (mod->global_init) memcpy(gvars, mod->global_init, mod->global_size);
  for (int i = 0; i < o->nconsts; i++)
    if (launch_set_const(o->consts[i], mod, cmem, gvars, e)) goto out;
  SimBound b = {.gmem = &g, .params = params, .const_mem = cmem, .functional = o->functional};
  if (run_bound(mod, k, ls, &b, gvars, o, run, e)) goto out;
  rc = 0;
  if (o->dump_dir && launch_dump(o->dump_dir, ls, &g, e)) {
    mem_free(&run->mm);
    free(run->approx);
    run->approx = NULL;
    rc = -1;
  }
out:
  free(cmem);
  free(gvars);
  free(params);
  if (rc == 0 && o->keep_buffers) {
    run->gmem = g;
    run->have_gmem = 1;
  } else {
    gmem_free(&g);
  }
  return rc;
}

int sim_run_bound(const PtxModule *mod, const LaunchSpec *ls, const SimBound *b, const SimOptions *o, SimRun *run,
                  WmErr *e) {
  const PtxKernel *k = launch_begin(mod, ls, o, run, e);
  if (!k) return -1;
  if (mod->global_size && !b->global_base)
    return wm_err(e, WM_EUSAGE, "launch %s: the module has %llu bytes of __device__ variables but no segment for "
                  "them (make it once with gmem_module_segment and pass its address as global_base)", ls->label,
                  (unsigned long long)mod->global_size);
  return run_bound(mod, k, ls, b, NULL, o, run, e);
}

void sim_options_init(SimOptions *o) {
  memset(o, 0, sizeof *o);
  o->cfg.arch = arch_default();
  o->cfg.sm = o->cfg.arch->cc;
  o->cfg.caches = 1;
  o->sample = 1;
  o->carveout_pct = OCC_CARVEOUT_DEFAULT;
  o->init = INIT_RAND;
  o->seed = 1;
  o->mem_limit = GMEM_DEFAULT_LIMIT;
  o->max_threads = SIM_DEFAULT_MAX_THREADS;
}
