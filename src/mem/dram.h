/* dram.h - DRAM behind the L2: channels, banks and their open rows (dram.c).
 *
 * Configuration, derived state and statistics kept apart, as in the caches
 * (cache.h); the L2 calls dram_access() for every fill and write-back.
 */
#ifndef WM_DRAM_H
#define WM_DRAM_H

#include <stdint.h>

typedef struct Dram {
  /* configuration (dram_init makes it valid) */
  uint32_t channels;       /* independent channels */
  uint32_t banks;          /* banks per channel */
  uint32_t row_bytes;      /* a row (page) of one bank */
  uint32_t interleave;     /* bytes mapped to one channel before the next */
  /* derived state */
  uint32_t units_per_row;  /* interleave units in a row (at least 1) */
  double inv[4];           /* 1 / interleave, channels, banks, units_per_row */
  int64_t *open_row;       /* [channels * banks]: the row each bank holds
                              open; -1: none yet */
  /* statistics (WM_M_DRAM_RD, _WR, WM_M_ROW_HIT, _MISS: dram_add_metrics) */
  uint64_t rd_bytes, wr_bytes;
  uint64_t row_hits, row_misses;
} Dram;

/* Sets d up for the given geometry: 0 channels or banks become 1, a 0
 * interleave 256 bytes, 0 row_bytes 1024.  Every row starts closed.  Frees
 * with dram_free(). */
void dram_init(Dram *d, int channels, int banks, uint32_t row_bytes, uint32_t interleave);
void dram_free(Dram *d);

/* One access of `bytes` at byte address addr: a row hit if its bank has
 * that row open, else a miss that opens it. */
void dram_access(Dram *d, uint64_t addr, unsigned bytes, int write);

/* Adds the DRAM counters to m (indexed by WmMetric). */
void dram_add_metrics(const Dram *d, uint64_t *m);

#endif
