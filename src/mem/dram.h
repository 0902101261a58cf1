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
  int shift[4];            /* their log2 if a power of two, else -1 */
  int pow2;                /* interleave, banks and units_per_row are powers
                              of two (every preset's): shifts and masks
                              around the channel's division */
  int row_shift;           /* then log2(banks * units_per_row), and */
  uint64_t ch_magic, ch_lim; /* floor(2^64 / channels) + 1: x / channels is
                              x * ch_magic / 2^64 for x <= ch_lim (channels
                              not a power of two) */
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

/* x / d, x % d for the divisors of the mapping, with d's shift when it is
 * a power of two, else a multiplication by its reciprocal corrected to be
 * exact (x below 2^52: addresses are): four 64-bit divisions per access
 * cost the replay a tenth of its time. */
static inline uint64_t divmod(uint64_t x, uint64_t d, int shift, double inv, uint64_t *rem) {
  if (shift >= 0) {
    *rem = x & (d - 1);
    return x >> shift;
  }
  uint64_t q = x < (1ull << 52) ? (uint64_t)((double)x * inv) : x / d;
  while (q * d > x) q--;
  while ((q + 1) * d <= x) q++;
  *rem = x - q * d;
  return q;
}

/* One access of `bytes` at byte address addr: a row hit if its bank has
 * that row open, else a miss that opens it.  (Inline: the L2 calls it for
 * every fill and write-back.) */
static inline void dram_access(Dram *d, uint64_t addr, unsigned bytes, int write) {
  uint64_t ch, bank, off;
  int64_t row;
  if (d->pow2) { /* the same mapping with shifts and masks around the channel's division */
    uint64_t unit = addr >> d->shift[0], q;
    if (d->shift[1] >= 0) q = unit >> d->shift[1];
#ifdef __SIZEOF_INT128__
    else if (unit <= d->ch_lim) q = (uint64_t)(((unsigned __int128)unit * d->ch_magic) >> 64);
#endif
    else q = unit / d->channels;
    ch = unit - q * d->channels;
    bank = q & (d->banks - 1);
    row = (int64_t)(q >> d->row_shift);
  } else {
    uint64_t unit = divmod(addr, d->interleave, d->shift[0], d->inv[0], &off);
    unit = divmod(unit, d->channels, d->shift[1], d->inv[1], &ch);
    unit = divmod(unit, d->banks, d->shift[2], d->inv[2], &bank);
    row = (int64_t)divmod(unit, d->units_per_row, d->shift[3], d->inv[3], &off);
  }
  int64_t *open = &d->open_row[ch * (uint64_t)d->banks + bank];
  if (*open == row) d->row_hits++;
  else d->row_misses++;
  *open = row;
  if (write) d->wr_bytes += bytes;
  else d->rd_bytes += bytes;
}

/* Adds the DRAM counters to m (indexed by WmMetric). */
void dram_add_metrics(const Dram *d, uint64_t *m);

#endif
