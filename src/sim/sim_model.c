/* sim_model.c - the levels beyond L1TEX for one launch: sets up the caches
 * before the emulator runs, and turns the counters into a predicted time
 * after. */
#include <string.h>

#include "sim/sim.h"

/* Resident blocks per SM from the thread, block and shared memory limits
 * (registers are not known here: occupancy.c refines this). */
static int resident_blocks(const Arch *a, uint32_t threads, uint32_t smem) {
  uint32_t warps = (threads + 31) / 32;
  int n = a->max_blocks_sm > 0 ? a->max_blocks_sm : 32;
  if (a->max_warps_sm > 0 && warps && (int)(a->max_warps_sm / warps) < n) n = (int)(a->max_warps_sm / warps);
  if (smem && a->smem_sm > 0) {
    int by_smem = (int)((uint32_t)a->smem_sm / (smem + (uint32_t)a->smem_reserved));
    if (by_smem < n) n = by_smem;
  }
  return n > 0 ? n : 1;
}

void sim_model_begin(const SimOptions *o, const PtxKernel *k, const LaunchSpec *ls, const SimRun *run,
                     SimModel *cm, EmuLaunch *l) {
  memset(cm, 0, sizeof *cm);
  cm->arch = o->cfg.arch ? o->cfg.arch : arch_default();
  uint32_t threads = ls->block[0] * ls->block[1] * ls->block[2];
  uint32_t smem = k->shared_static + ls->smem;
  cm->blocks_per_sm = run->have_occ ? run->occ.blocks_sm : resident_blocks(cm->arch, threads, smem);
  int sample = ls->cooperative ? 1 : o->sample; /* a cooperative grid is one wave: all of it runs */
  if (sample > 1) {
    l->sample_wave = (uint64_t)cm->arch->sms * (uint64_t)cm->blocks_per_sm;
    l->sample_every = (uint32_t)sample;
    const uint32_t *c = ls->cluster[0] ? ls->cluster : k->cluster_dims;
    uint64_t cs = c[0] ? (uint64_t)c[0] * c[1] * c[2] : 1; /* a sampled wave of whole clusters */
    l->sample_wave = l->sample_wave > cs ? l->sample_wave / cs * cs : cs;
  }
  if (!o->cfg.caches) return;
  CacheConfig cc;
  model_cache_config(cm->arch, cm->blocks_per_sm, threads, smem, k->local_size, &cc);
  if (run->have_occ) cc.l1_bytes = run->occ.l1_bytes; /* the carveout occupancy.c chose */
  model_spread_small_grid(&cc, (uint64_t)ls->grid[0] * ls->grid[1] * ls->grid[2]);
  const uint32_t *cd = ls->cluster[0] ? ls->cluster : k->cluster_dims;
  if (cd[0] > 1 && cd[1] == 1 && cd[2] == 1) cc.cluster_blocks = (int)cd[0]; /* a cluster on one GPC (1-D clusters) */
  if (sample > 1) {
    /* every sample-th wave runs: the L2 shrinks in proportion, so that the
     * data the sampled waves stream through it overflows it as often */
    cc.l2_bytes /= (uint64_t)sample;
    /* but not below what one wave leaves partly written at once (a
     * sector a thread): its SMs reach the L2 together (replay.c's
     * L2Wave), and the sectors their later stores complete must wait */
    uint64_t wave = (uint64_t)cc.sms * (uint64_t)cc.blocks_per_sm * threads, floor = cc.partial_sectors;
    if (wave < floor) floor = wave;
    if (cc.partial_sectors / (uint32_t)sample > floor) floor = cc.partial_sectors / (uint32_t)sample;
    cc.partial_sectors = (uint32_t)floor;
  }
  cache_init(&cm->cache, &cc);
  cm->on = 1;
  l->cache = &cm->cache;
}

static int has_barrier(const PtxKernel *k) {
  for (int i = 0; i < k->ncode; i++)
    if (k->code[i].op == PTX_OP_BAR || k->code[i].op == PTX_OP_BARRIER) return 1;
  return 0;
}

/* Sampling: scales what the blocks run counted up to the whole grid. */
static void scale_counts(MemModel *mm, double f) {
  for (int m = 0; m < WM_M_COUNT; m++) mm->metric[m] = model_scaled(mm->metric[m], f);
  for (int i = 0; i < mm->nline; i++) {
    LineStat *ls = &mm->line[i];
    ls->execs = model_scaled(ls->execs, f);
    ls->far_execs = model_scaled(ls->far_execs, f); /* the rounds count them */
    ls->requests = model_scaled(ls->requests, f);
    ls->units = model_scaled(ls->units, f);
    ls->ideal = model_scaled(ls->ideal, f);
  }
}

/* DRAM bytes a launch reads besides its data: the preset's measure, taken
 * with kernels of 512 bytes of code, and the rest of the kernel's code in
 * 256-byte pieces (H100 corpus: dram__bytes_read minus the data is the
 * .text size rounded up to 256, less 512, for all 10 kernels of 1.4 to
 * 8.7 KB of code: dyn_tile, tile_ops*, matrix_moves, softmax_half, ...). */
static uint64_t launch_dram_bytes(const Arch *a, const PtxKernel *k) {
  uint64_t b = (uint64_t)a->launch_dram_bytes, code = k ? ((uint64_t)k->code_bytes + 255) / 256 * 256 : 0;
  return b && code > 512 ? b + code - 512 : b;
}

void sim_model_end(SimModel *cm, const EmuLaunch *l, SimRun *run) {
  uint64_t grid = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
  run->blocks_run = l->blocks_run;
  if (cm->on) cache_add_metrics(&cm->cache, run->mm.metric);
  if (l->blocks_run && l->blocks_run < grid) scale_counts(&run->mm, (double)grid / (double)l->blocks_run);
  uint64_t rounds = 0;
  for (int i = 0; run->mm.round && i < run->mm.nline; i++)
    if (run->mm.round[i]) rounds += run->mm.line[i].far_execs / run->mm.round[i];
  run->mm.metric[WM_M_ROUNDS] = rounds;
  if (!cm->on) return;
  run->mm.metric[WM_M_DRAM_RD] += launch_dram_bytes(cm->arch, l->kernel);
  ModelLaunch ml = {.blocks = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2],
                    .threads = l->block[0] * l->block[1] * l->block[2],
                    .blocks_per_sm = cm->blocks_per_sm,
                    .warp_instrs = l->warp_instrs,
                    .hot_writes = run->mm.metric[WM_M_HOT],
                    .hot_atoms = run->mm.metric[WM_M_HOT_ATOM],
                    .barriers = has_barrier(l->kernel)};
  model_time(cm->arch, run->mm.metric, &ml, &run->time);
  run->model = ml;
  run->mm.metric[WM_M_TIME] = (uint64_t)(run->time.ns + 0.5);
  run->have_time = 1;
  cache_free(&cm->cache);
  cm->on = 0;
}

void sim_model_abort(SimModel *cm) {
  if (cm->on) cache_free(&cm->cache);
  cm->on = 0;
}
