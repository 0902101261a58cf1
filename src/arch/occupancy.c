/* occupancy.c - the CUDA occupancy calculator's rules, per preset.
 *
 * Notes (what it models and what it leaves out):
 * - Limits per resource as cuda_occupancy.h computes them (CUDA 13.0 for
 *   sm_30+, CUDA 7.0 for sm_1x/sm_2x): warp slots, block slots, registers
 *   (per warp in sub-partitions on sm_20+, per block with warps in pairs on
 *   1.x), shared memory (allocation unit, 1 KiB reserved per block on
 *   sm_80+, the shared-memory configuration the carveout selects).
 * - Registers: a warp's registers are regs * 32 rounded up to reg_unit and
 *   must fit in one of reg_partitions sub-partitions of the register file;
 *   the hardware also checks a block's registers as if its warps filled
 *   every sub-partition evenly.
 * - The carveout with no preference: the calculator assumes the most shared
 *   memory; the driver "automatically configures the shared memory capacity
 *   for each kernel to avoid shared memory occupancy bottlenecks" (CUDA
 *   Programming Guide, 7.x).  How it picks is not published: we take the
 *   smallest supported configuration that holds every resident block, which
 *   leaves the occupancy unchanged and the most L1 for caching.
 * - Not modelled: barriers per SM (never the limit for one barrier per
 *   block), partitioned global caching (sm_52/sm_6x only), clusters.
 */
#include "arch/occupancy.h"

#include <stdio.h>
#include <string.h>

static const char *const limit_names[OCC_LIMIT_COUNT] = {
#define X(e, name) name,
  OCC_LIMITS(X)
#undef X
};

const char *occ_limit_name(OccLimit l) { return l >= 0 && l < OCC_LIMIT_COUNT ? limit_names[l] : "?"; }

void occ_limiters_text(unsigned bits, char *buf, size_t n) {
  size_t used = 0;
  if (n) buf[0] = '\0';
  for (int l = 0; l < OCC_LIMIT_COUNT && used < n; l++) {
    if (!(bits & (1u << l))) continue;
    int w = snprintf(buf + used, n - used, "%s%s", used ? " and " : "", limit_names[l]);
    if (w < 0) break;
    used += (size_t)w;
  }
}

static int round_up(int x, int unit) { return unit > 1 ? (x + unit - 1) / unit * unit : x; }
static int div_up(int x, int y) { return (x + y - 1) / y; }

/* Register allocation unit.  Fermi allocates 128 registers at a time for a
 * few per-thread counts (cuda_occupancy.h of CUDA 7.0: 21, 22, 29, 30, 37,
 * 38, 45 and 46), 64 otherwise. */
static int reg_unit(const Arch *a, int regs) {
  if (a->cc / 10 == 2) {
    switch (regs) {
    case 21: case 22: case 29: case 30: case 37: case 38: case 45: case 46: return 128;
    default: return a->reg_unit;
    }
  }
  return a->reg_unit;
}

/* Blocks the register file allows; fills regs_warp/regs_block.  -1 if one
 * block needs more than a block may have. */
static int regs_limit(const Arch *a, int regs, int warps_alloc, OccResult *r) {
  if (!a->reg_per_warp) {
    /* 1.x: per block, regs * 32 * (warps rounded up to pairs), rounded up */
    r->regs_block = round_up(regs * a->warp_size * warps_alloc, a->reg_unit);
    if (r->regs_block > a->regs_block) return -1;
    return r->regs_block ? a->regs_sm / r->regs_block : OCC_UNLIMITED;
  }
  r->regs_warp = round_up(regs * a->warp_size, reg_unit(a, regs));
  r->regs_block = r->regs_warp * warps_alloc;
  int parts = a->reg_partitions > 0 ? a->reg_partitions : 1;
  /* the launch check assumes the block's warps spread over all partitions */
  int assumed = r->regs_warp * round_up(warps_alloc, parts);
  if (r->regs_block > a->regs_block || assumed > a->regs_block) return -1;
  if (r->regs_warp == 0) return OCC_UNLIMITED;
  int warps_per_part = a->regs_sm / parts / r->regs_warp;
  return warps_per_part * parts / warps_alloc;
}

/* The smallest supported shared-memory configuration of at least `bytes`
 * (the largest if none is that big): 0 KiB on sm_70+, then the preset's
 * list. */
static uint32_t config_at_least(const Arch *a, uint32_t bytes) {
  if (!a->carveouts) return (uint32_t)a->smem_sm;
  if (bytes == 0 && a->cc >= 70) return 0;
  uint32_t best = 0;
  for (const int *c = a->carveouts; *c; c++) {
    best = (uint32_t)*c * 1024u;
    if (best >= bytes) return best;
  }
  return best;
}

/* Shared memory per SM the limit is computed with (cuda_occupancy.h's
 * cudaOccSMemPerMultiprocessor and its use in the shared-memory limit). */
static uint32_t smem_config(const Arch *a, int pct, uint32_t smem_block) {
  if (!a->carveouts) return (uint32_t)a->smem_sm; /* 1.x: fixed */
  uint32_t pref = pct < 0 ? (uint32_t)a->smem_sm
                          : config_at_least(a, (uint32_t)((uint64_t)pct * (uint64_t)a->smem_sm / 100));
  if (pref > (uint32_t)a->smem_sm) pref = (uint32_t)a->smem_sm;
  if (pref >= smem_block) return pref;
  /* a preference too small for one block is overridden: Volta+ takes the
   * smallest configuration that holds it, Fermi/Kepler the most shared */
  return a->cc >= 70 ? config_at_least(a, smem_block) : (uint32_t)a->smem_sm;
}

static int check_input(const Arch *a, const OccInput *in, WmErr *e) {
  if (in->threads < 1) return wm_err(e, WM_EUSAGE, "a block needs at least one thread (got %d)", in->threads);
  if (in->regs < 0) return wm_err(e, WM_EUSAGE, "registers per thread cannot be negative (got %d)", in->regs);
  if (in->carveout_pct < OCC_CARVEOUT_DEFAULT || in->carveout_pct > 100)
    return wm_err(e, WM_EUSAGE, "the carveout is a percentage of shared memory, 0 to 100 (got %d)", in->carveout_pct);
  if (in->threads > a->max_threads_block)
    return wm_err(e, WM_ELIMIT, "a block of %d threads is over the %d threads per block of %s (%s)", in->threads,
                  a->max_threads_block, a->name, a->gpu);
  if (in->regs > a->regs_thread)
    return wm_err(e, WM_ELIMIT, "%d registers per thread is over the %d a thread may have on %s (%s)", in->regs,
                  a->regs_thread, a->name, a->gpu);
  return 0;
}

int occ_compute(const Arch *a, const OccInput *in, OccResult *out, WmErr *e) {
  memset(out, 0, sizeof *out);
  if (check_input(a, in, e)) return -1;
  OccResult r = {0};
  r.max_warps_sm = a->max_warps_sm;
  r.warps_block = div_up(in->threads, a->warp_size);
  int warps_alloc = round_up(r.warps_block, a->warp_alloc_unit);

  r.limit[OCC_LIMIT_WARPS] = a->max_warps_sm / warps_alloc;
  r.limit[OCC_LIMIT_BLOCKS] = a->max_blocks_sm;
  r.limit[OCC_LIMIT_REGS] = regs_limit(a, in->regs, warps_alloc, &r);
  if (r.limit[OCC_LIMIT_REGS] < 0)
    return wm_err(e, WM_ELIMIT,
                  "a block of %d threads with %d registers each needs %d registers, over the %d a block may have "
                  "on %s (%s)",
                  in->threads, in->regs, r.regs_block, a->regs_block, a->name, a->gpu);

  uint64_t smem = (uint64_t)in->smem + (uint64_t)a->smem_reserved;
  uint64_t block_max = (uint64_t)a->smem_block_optin + (uint64_t)a->smem_reserved;
  if (smem > block_max)
    return wm_err(e, WM_ELIMIT, "%u bytes of shared memory per block is over the %d a block may have on %s (%s)",
                  in->smem, a->smem_block_optin, a->name, a->gpu);
  r.smem_block = (uint32_t)round_up((int)smem, a->smem_unit);
  r.optin = in->smem > (uint32_t)a->smem_block;
  r.smem_sm = smem_config(a, in->carveout_pct, r.smem_block);
  r.limit[OCC_LIMIT_SMEM] = r.smem_block ? (int)(r.smem_sm / r.smem_block) : OCC_UNLIMITED;

  r.blocks_sm = OCC_UNLIMITED;
  for (int l = 0; l < OCC_LIMIT_COUNT; l++)
    if (r.limit[l] < r.blocks_sm) r.blocks_sm = r.limit[l];
  for (int l = 0; l < OCC_LIMIT_COUNT; l++)
    if (r.limit[l] == r.blocks_sm) r.limiters |= (1u << l);
  r.warps_sm = r.blocks_sm * r.warps_block;
  r.occupancy_pct = 100.0 * r.warps_sm / a->max_warps_sm;

  /* the carveout: fixed on 1.x, the configuration on Fermi/Kepler and when
   * the kernel states a preference, else the driver's choice (see Notes) */
  if (!a->carveouts) r.carveout = (uint32_t)a->smem_sm;
  else if (a->cc < 70 || in->carveout_pct != OCC_CARVEOUT_DEFAULT) r.carveout = r.smem_sm;
  else r.carveout = config_at_least(a, (uint32_t)r.blocks_sm * r.smem_block);
  r.l1_bytes = a->l1_smem_bytes ? (uint32_t)a->l1_smem_bytes - r.carveout : (uint32_t)a->l1_bytes;
  *out = r;
  return 0;
}

int occ_active_clusters(const Arch *a, int blocks_sm, int cluster_blocks, int *largest) {
  int sms[ARCH_GPCS_MAX], n = arch_cluster_gpcs(a->layout, a->sms, sms, ARCH_GPCS_MAX), total = 0, big = 0;
  for (int g = 0; g < n; g++) {
    if (cluster_blocks > 0) total += sms[g] * blocks_sm / cluster_blocks;
    if (sms[g] > big) big = sms[g];
  }
  if (largest) *largest = big;
  return total;
}
