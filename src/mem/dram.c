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
  const uint32_t div[4] = {d->interleave, d->channels, d->banks, d->units_per_row};
  for (int i = 0; i < 4; i++) {
    d->inv[i] = 1.0 / div[i];
    d->shift[i] = div[i] & (div[i] - 1) ? -1 : __builtin_ctz(div[i]);
  }
  d->pow2 = d->shift[0] >= 0 && d->shift[2] >= 0 && d->shift[3] >= 0;
  d->row_shift = d->pow2 ? d->shift[2] + d->shift[3] : 0;
  /* exact: with x = q * channels + r, x * ch_magic / 2^64 = x / channels +
   * x * e / 2^64 for some e in (0, 1), below q + 1 while x < 2^64 / channels */
  d->ch_magic = UINT64_MAX / d->channels + 1;
  d->ch_lim = UINT64_MAX / d->channels;
  size_t nb = (size_t)d->channels * (size_t)d->banks;
  d->open_row = wm_xmalloc(nb * sizeof *d->open_row);
  for (size_t i = 0; i < nb; i++) d->open_row[i] = -1;
  d->rd_bytes = d->wr_bytes = d->row_hits = d->row_misses = 0;
}

void dram_free(Dram *d) {
  free(d->open_row);
  d->open_row = NULL;
}

void dram_add_metrics(const Dram *d, uint64_t *m) {
  m[WM_M_DRAM_RD] += d->rd_bytes;
  m[WM_M_DRAM_WR] += d->wr_bytes;
  m[WM_M_ROW_HIT] += d->row_hits;
  m[WM_M_ROW_MISS] += d->row_misses;
}
