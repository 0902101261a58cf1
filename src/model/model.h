/* model.h - from a preset and a launch to the cache configuration, and from
 * the counters to a predicted kernel time with the level that limits it.
 *
 * The time model is a bound model: each level of the machine (DRAM, L2,
 * L1/shared memory, instruction issue, block launch, same-address
 * serialization, the latency the resident warps can hide — Little's
 * law — and the tensor cores' math) gives the time it alone needs; the kernel takes the longest of them
 * plus the launch overhead.  Its constants are the preset's, fitted to the
 * H200 ground truth (docs/accuracy.md shows the comparison).
 */
#ifndef WM_MODEL_H
#define WM_MODEL_H

#include <stdint.h>

#include "arch/arch.h"
#include "mem/cache.h"
#include "mem/metrics.h"

/* What the time model needs to know about a launch besides its counters. */
typedef struct ModelLaunch {
  uint64_t blocks;          /* blocks in the grid */
  uint32_t threads;         /* threads per block */
  int blocks_per_sm;        /* resident blocks per SM (occupancy) */
  uint64_t warp_instrs;     /* warp-level instructions executed */
  uint64_t hot_writes;      /* store sectors the most-written L2 line was
                               sent (CacheSys.hot_writes) */
  uint64_t hot_atoms;       /* atomic updates the most-updated L2 line
                               performed (CacheSys.hot_atoms) */
  int barriers;             /* the kernel has bar.sync */
} ModelLaunch;

typedef enum {
#define MODEL_BOUNDS(X)                                                                     \
  X(DRAM, "DRAM", "DRAM-bound")                                                             \
  X(L2, "L2", "L2-bound")                                                                   \
  X(L1, "L1/shared", "L1/shared-bound")                                                     \
  X(ISSUE, "issue", "issue-bound")                                                          \
  X(BLOCKS, "block launch", "block-launch-bound")                                           \
  X(HOT, "same address", "same-address-bound")                                              \
  X(LATENCY, "latency", "latency-bound")                                                    \
  X(TENSOR, "tensor", "tensor-bound")
#define X(e, s, l) MODEL_##e,
  MODEL_BOUNDS(X)
#undef X
  MODEL_NBOUNDS
} ModelBound;

extern const char *const model_bound_name[MODEL_NBOUNDS];  /* "DRAM" */
extern const char *const model_bound_limit[MODEL_NBOUNDS]; /* "DRAM-bound" */

typedef struct ModelTime {
  double ns;                    /* predicted gpu__time_duration.sum */
  double launch_ns;             /* overhead included in ns */
  double bound_ns[MODEL_NBOUNDS];
  int limiter;                  /* ModelBound */
  double dram_gbs, l2_gbs;      /* achieved at the predicted time */
  char why[256];                /* "DRAM-bound: 2.9 TB/s of 4.8" */
} ModelTime;

/* The cache configuration for a launch on preset a with `blocks_per_sm`
 * resident blocks of `threads` threads using `smem` bytes of shared memory
 * each and `local_bytes` of local memory per thread. */
void model_cache_config(const Arch *a, int blocks_per_sm, uint32_t threads, uint32_t smem,
                        uint32_t local_bytes, CacheConfig *out);

/* A grid of fewer than sms * group blocks has its blocks spread one an
 * SM first (measured on an H100: colsum's 132 one-warp blocks each find
 * the whole L1 of an SM; st_blocks' neighbours share no SM): the group
 * shrinks (halving, so that it still divides blocks_per_sm) to at most
 * the blocks each SM gets.  It also says how blocks are dealt to the
 * crossbar's groups (xbar_paired). */
void model_spread_small_grid(CacheConfig *k, uint64_t blocks);

/* Predicts the time of a launch from its counters (metrics.h). */
void model_time(const Arch *a, const uint64_t *metric, const ModelLaunch *l, ModelTime *t);

/* A count times f, rounded to the nearest whole one (counters scaled to a
 * larger grid: sampling, the lab's GPU sizes). */
static inline uint64_t model_scaled(uint64_t v, double f) { return (uint64_t)((double)v * f + 0.5); }

/* The time of the same kernel on more work: its counters (and instruction
 * count, hot-line traffic) times `scale`, on a grid of `blocks` blocks of
 * `threads` (the lab's GPU-size launches, simulated smaller: a grid of one
 * block an SM is latency-bound where the larger one hides the latency). */
void model_time_scaled(const Arch *a, const uint64_t *m, const ModelLaunch *l, double scale, uint64_t blocks,
                       uint32_t threads, ModelTime *t);

#endif
