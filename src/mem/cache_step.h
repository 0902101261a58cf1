/* cache_step.h - which warps of a block are in step, for cache.c's store
 * merging: the fills each warp waits for, and the table of an SM's pending
 * sectors that tells a warp whose fill it waits for.  Included by cache.c
 * alone: its functions are static, so they inline in the request loop. */
#ifndef WM_CACHE_STEP_H
#define WM_CACHE_STEP_H

#include "mem/cache.h"

#include <stdint.h>

/* In step: warps launched together issue together, and a store of one
 * can merge with another's (merged_store) until one of them waits for a
 * round trip to L2: the fills of different lines come back hundreds of
 * clocks apart.  A warp resumes when the last fill it waits for is in, so
 * two warps are in step while the last fill each resumed with is the same
 * one: a warp's `step` is that fill (fill_id).  Fills of different lines
 * come back in an order no warp controls (fill_order, a hash of the line);
 * a fill of a line another warp's miss already started (the pending table)
 * is that warp's fill, whichever of the line's sectors it brings.  Measured
 * on the H200 (merge_kernels.cu's st_drift, docs/results/h200-2026-11-26-drift):
 * after one round trip to lines of their own, 8 warps' one-float stores
 * to one sector reach L2 as 6.4 sectors (1.5 with none), after four 7.6,
 * and the offset copy's shared sectors merge 3% of the time (66% with
 * none); policy_kernels.cu's cycle8 (a block's 8 warps run hundreds of
 * round trips, then store a float each to one sector): 8 sectors a block,
 * none merged.  offset_copy#1's warps w and w + 1 both wait for line
 * w + 1 (the seed launches): in step when its fill is the later of w's two
 * and of w + 1's two, a third of the pairs (the H200 merges 42-45%).  A
 * barrier brings the block's warps back into step (st_rejoin: 8 warps'
 * one-float stores reach L2 as 1.04 sectors after four round trips and a
 * barrier).  Not modelled: the merges left after round trips (up to a
 * fifth after one; more where the warps' fills are neighbouring lines,
 * near_kernels.cu). */
static inline uint32_t mix32(uint64_t h) {
  h *= 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  return (uint32_t)(h ^ h >> 32);
}
static inline uint32_t fill_order(uint64_t line) { return mix32(line) | 1; }
static inline uint32_t fill_id(uint64_t line, uint64_t block, unsigned warp, uint32_t round) {
  return mix32(line ^ (block << 24 ^ (uint64_t)warp << 18 ^ round) * 0xD6E8FEB86659FD93ull) | 1; /* 0: as launched */
}

/* The warp waits for `fill` of `line` too: the step it resumes with is
 * that of the round's last fill. */
static inline void wait_for(CacheLastStore *last, uint32_t order, uint32_t fill) {
  if (order > last->round_last) last->round_last = order, last->step = fill;
}

/* An SM's pending-sector slot for sector: [0] the sector + 1, [1] the
 * round it was missed in, and above bit 32 its fill (fill_id). */
static inline uint64_t *pend_slot(const CacheSys *c, int sm, uint64_t sector) {
  return c->pend + ((size_t)sm * CACHE_PEND + (size_t)((sector ^ sector >> 6) & (CACHE_PEND - 1))) * 2;
}

static inline void pend_note(const CacheSys *c, int sm, uint64_t sector, uint32_t round, uint32_t fill) {
  uint64_t *p = pend_slot(c, sm, sector);
  p[0] = sector + 1;
  p[1] = (uint64_t)fill << 32 | round;
}

/* The fill that brings `sector` if a miss of another warp started it in
 * round `round` or later (a load that hits it in L1 waits for it), else 0. */
static inline uint32_t pend_fill(const CacheSys *c, int sm, uint64_t sector, uint32_t round) {
  const uint64_t *p = pend_slot(c, sm, sector);
  if (p[0] != sector + 1 || (uint32_t)p[1] < round) return 0;
  return (uint32_t)(p[1] >> 32);
}

/* The fill that brings a sector of line this warp missed: one another
 * warp's miss started for the line's other sectors comes back with them
 * (offset_copy#1's warps w and w + 1 share line w + 1), else its own. */
static inline uint32_t miss_fill(const CacheSys *c, int sm, uint64_t sector, uint64_t block, unsigned warp, uint32_t round) {
  uint64_t line = sector >> 2;
  for (uint64_t s = line << 2; s < (line + 1) << 2; s++) {
    uint32_t f = s != sector ? pend_fill(c, sm, s, round) : 0;
    if (f) return f;
  }
  return fill_id(line, block, warp, round);
}

/* The fill of the line a request's load sectors last touched. */
typedef struct LineFill {
  uint64_t line;
  uint32_t fill, order; /* fill_id (0: none yet), fill_order */
} LineFill;

/* A load of sector `sec` hit L1 (`hit`) or missed: the fill it waits for
 * is the line's (a miss starts one, miss_fill; a hit waits only for a
 * pending one), and the warp's step follows (wait_for).  1 if it waits. */
static inline int load_waits(const CacheSys *c, int sm, uint64_t sec, int hit, uint64_t block, unsigned warp,
                             CacheLastStore *last, LineFill *lf) {
  if (sec >> 2 != lf->line) lf->line = sec >> 2, lf->fill = 0, lf->order = fill_order(lf->line);
  if (hit) {
    uint32_t f = pend_fill(c, sm, sec, last->round);
    if (!f) return 0;
    if (!lf->fill) lf->fill = f;
  } else {
    if (!lf->fill) lf->fill = miss_fill(c, sm, sec, block, warp, last->round);
    pend_note(c, sm, sec, last->round, lf->fill);
  }
  wait_for(last, lf->order, lf->fill);
  return 1;
}

/* A read no other warp waits for (L1 bypassed, an atomic's result). */
static inline void own_fill_waits(CacheLastStore *last, uint64_t sec, uint64_t block, unsigned warp) {
  wait_for(last, fill_order(sec >> 2), fill_id(sec >> 2, block, warp, last->round));
}

#endif
