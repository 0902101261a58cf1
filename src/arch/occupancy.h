/* occupancy.h - how many blocks of a kernel fit on one SM, and why no more.
 *
 * Computed the way the CUDA occupancy calculator does (cuda_occupancy.h,
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor): each resource -- warp
 * slots, block slots, registers, shared memory -- allows some number of
 * blocks; the SM holds the smallest of them.  Registers are allocated per
 * warp in units of the preset's reg_unit (per block, warps in pairs, on 1.x),
 * shared memory in units of smem_unit plus the 1 KiB the driver reserves per
 * block on sm_80+.
 *
 * Also returns the shared-memory carveout of the unified L1/shared array and
 * the L1 left for caching, which the cache model uses.
 */
#ifndef WM_OCCUPANCY_H
#define WM_OCCUPANCY_H

#include <stddef.h>
#include <stdint.h>

#include "arch/arch.h"
#include "util/diag.h"

/* The resources that limit resident blocks: X(ENUM, "name").  The bit of
 * limit l in OccResult.limiters is 1u << l. */
#define OCC_LIMITS(X)             \
  X(WARPS, "warps")               \
  X(REGS, "registers")            \
  X(SMEM, "shared memory")        \
  X(BLOCKS, "blocks")

typedef enum {
#define X(e, name) OCC_LIMIT_##e,
  OCC_LIMITS(X)
#undef X
  OCC_LIMIT_COUNT
} OccLimit;

#define OCC_UNLIMITED 0x7fffffff  /* a resource the kernel does not use */
#define OCC_CARVEOUT_DEFAULT (-1) /* let the driver choose */

typedef struct OccInput {
  int threads;          /* threads per block */
  int regs;             /* registers per thread (ptxas -v) */
  uint32_t smem;        /* shared memory per block: static + dynamic, bytes */
  int carveout_pct;     /* OCC_CARVEOUT_DEFAULT, or the preferred shared
                           memory carveout in percent of the most shared
                           memory per SM (cudaFuncAttributePreferredShared-
                           MemoryCarveout; on Fermi/Kepler it picks the
                           cache configuration) */
} OccInput;

typedef struct OccResult {
  int blocks_sm;                      /* active blocks per SM */
  int warps_sm;                       /* active warps per SM */
  int max_warps_sm;                   /* the preset's limit */
  double occupancy_pct;               /* 100 * warps_sm / max_warps_sm */
  int warps_block;                    /* warps of one block */
  int limit[OCC_LIMIT_COUNT];         /* blocks each resource alone allows
                                         (OCC_UNLIMITED: not used) */
  unsigned limiters;                  /* bits (1u << OccLimit) of the
                                         resources whose limit equals
                                         blocks_sm */
  int regs_warp;                      /* registers allocated per warp (0 on
                                         1.x, which allocates per block) */
  int regs_block;                     /* registers allocated per block */
  uint32_t smem_block;                /* shared memory allocated per block:
                                         rounded up, reserved part included */
  uint32_t smem_sm;                   /* shared memory per SM the limit was
                                         computed with (the configuration) */
  uint32_t carveout;                  /* bytes of the unified array the
                                         driver gives to shared memory */
  uint32_t l1_bytes;                  /* L1 data cache left for caching */
  int optin;                          /* the block needs more than smem_block
                                         bytes: the kernel must opt in
                                         (cudaFuncAttributeMaxDynamicShared-
                                         MemorySize) */
} OccResult;

/* Fills *out for blocks of in->threads threads on preset a.  Returns 0, or
 * -1 with WM_ELIMIT in e when the block cannot run on that GPU at all (too
 * many threads, registers per thread or per block, or shared memory per
 * block) and WM_EUSAGE for a malformed input (no threads, negative values,
 * a carveout outside 0..100); *out is then zeroed. */
int occ_compute(const Arch *a, const OccInput *in, OccResult *out, WmErr *e);

/* Thread block clusters of cluster_blocks blocks that can be resident at
 * once (cudaOccupancyMaxActiveClusters): a cluster's blocks all on one
 * GPC (arch_cluster_gpcs), blocks_sm a SM (occ_compute's), so each GPC of
 * S SMs holds S * blocks_sm / cluster_blocks of them.  *largest (may be
 * NULL) gets the SMs of the largest GPC. */
int occ_active_clusters(const Arch *a, int blocks_sm, int cluster_blocks, int *largest);

/* "registers", ... */
const char *occ_limit_name(OccLimit l);

/* The names of the limiters in `bits`, joined with " and " ("warps and
 * blocks"), into buf. */
void occ_limiters_text(unsigned bits, char *buf, size_t n);

#endif
