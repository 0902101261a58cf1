/* dram.c - DRAM: which channel, bank and row an address falls in, and
 * whether that row is already open.
 *
 * Notes:
 * - Mapping: `interleave` bytes go to one channel, the next `interleave`
 *   bytes to the next channel, and so on; consecutive units of one channel
 *   go to its banks in turn, and a bank's units form rows of `row_bytes`.
 *   No address hashing (real controllers XOR address bits so that strides
 *   spread over banks).
 * - Open-page policy: each bank keeps the last row it opened; an access to
 *   it is a row hit, any other a row miss that opens the new row.  Accesses
 *   are served in the order the L2 makes them: no scheduler reordering
 *   (FR-FCFS), no refresh, bank groups, read/write turnaround or timing.
 * - Bytes count what the L2 moves (fills of 32 or fetch_bytes, 32-byte
 *   write-backs); row hits and misses are reported (WM_M_ROW_*), the time
 *   model uses bytes only.
 */
#include "mem/dram.h"

#include <stdlib.h>

#include "mem/metrics.h"
#include "util/diag.h"

void dram_init(Dram *d, int channels, int banks, uint32_t row_bytes, uint32_t interleave) {
  d->channels = channels < 1 ? 1u : (uint32_t)channels;
  d->banks = banks < 1 ? 1u : (uint32_t)banks;
  d->interleave = interleave ? interleave : 256;
  d->row_bytes = row_bytes ? row_bytes : 1024;
  d->units_per_row = d->row_bytes / d->interleave ? d->row_bytes / d->interleave : 1;
  d->inv[0] = 1.0 / d->interleave;
  d->inv[1] = 1.0 / d->channels;
  d->inv[2] = 1.0 / d->banks;
  d->inv[3] = 1.0 / d->units_per_row;
  size_t nb = (size_t)d->channels * (size_t)d->banks;
  d->open_row = wm_xmalloc(nb * sizeof *d->open_row);
  for (size_t i = 0; i < nb; i++) d->open_row[i] = -1;
  d->rd_bytes = d->wr_bytes = d->row_hits = d->row_misses = 0;
}

void dram_free(Dram *d) {
  free(d->open_row);
  d->open_row = NULL;
}

/* x / d, x % d for the small divisors of the mapping: a multiplication by
 * the reciprocal, corrected to be exact (x below 2^52: addresses are), as
 * three 64-bit divisions per access cost the replay a tenth of its time. */
static inline uint64_t divmod(uint64_t x, uint64_t d, double inv, uint64_t *rem) {
  uint64_t q = x < (1ull << 52) ? (uint64_t)((double)x * inv) : x / d;
  while (q * d > x) q--;
  while ((q + 1) * d <= x) q++;
  *rem = x - q * d;
  return q;
}

void dram_access(Dram *d, uint64_t addr, unsigned bytes, int write) {
  uint64_t ch, bank, off;
  uint64_t unit = divmod(addr, d->interleave, d->inv[0], &off);
  unit = divmod(unit, d->channels, d->inv[1], &ch);
  unit = divmod(unit, d->banks, d->inv[2], &bank);
  int64_t row = (int64_t)divmod(unit, d->units_per_row, d->inv[3], &off);
  int64_t *open = &d->open_row[ch * (uint64_t)d->banks + bank];
  if (*open == row) d->row_hits++;
  else d->row_misses++;
  *open = row;
  if (write) d->wr_bytes += bytes;
  else d->rd_bytes += bytes;
}

void dram_add_metrics(const Dram *d, uint64_t *m) {
  m[WM_M_DRAM_RD] += d->rd_bytes;
  m[WM_M_DRAM_WR] += d->wr_bytes;
  m[WM_M_ROW_HIT] += d->row_hits;
  m[WM_M_ROW_MISS] += d->row_misses;
}
