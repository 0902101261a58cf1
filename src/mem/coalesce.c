/* coalesce.c - global and local requests: distinct 32-byte sectors.
 *
 * Notes:
 * - Models what L1TEX counts per warp request on sm_70 and later
 *   (l1tex__t_sectors_pipe_lsu_mem_*): the distinct 32-byte sectors holding
 *   the bytes [addr, addr + size) of the active lanes.  A misaligned lane may
 *   straddle two sectors; the emulator faults those, but they are counted
 *   right anyway.
 * - Ignores 128-byte cache-line tags, hits and misses, the L2 and address
 *   translation: the request and sector counters do not depend on them.
 * - Hot path: the active lanes' addresses are copied in lane order, which for
 *   the usual warp (ascending addresses) is already sorted; otherwise an
 *   insertion sort of at most 32 values.  One pass over sorted addresses
 *   then counts sectors (each lane covers one or two consecutive sectors, and
 *   both ends only grow) and distinct addresses (for the ideal).
 */
#include "mem/mem.h"

unsigned mem_coalesce(const uint64_t *addr, uint32_t mask, unsigned size,
                      unsigned *ndistinct)
{
  uint64_t a[32];
  unsigned n = 0, sorted = 1;

  if (size == 0)
    size = 1;
  for (uint32_t m = mask; m; m &= m - 1) {
    uint64_t x = addr[__builtin_ctz(m)];
    if (n && x < a[n - 1])
      sorted = 0;
    a[n++] = x;
  }
  if (!sorted) {
    for (unsigned i = 1; i < n; i++) {
      uint64_t x = a[i];
      unsigned j = i;
      for (; j > 0 && a[j - 1] > x; j--)
        a[j] = a[j - 1];
      a[j] = x;
    }
  }

  unsigned sectors = 0, distinct = 0;
  uint64_t next = 0; /* the first sector above those counted */
  for (unsigned i = 0; i < n; i++) {
    uint64_t s0 = a[i] >> 5, s1 = (a[i] + size - 1) >> 5;
    if (i == 0 || a[i] != a[i - 1])
      distinct++;
    if (i == 0) {
      sectors = (unsigned)(s1 - s0 + 1);
      next = s1 + 1;
    } else if (s1 >= next) {
      sectors += (unsigned)(s1 - (s0 > next ? s0 : next) + 1);
      next = s1 + 1;
    }
  }
  if (ndistinct)
    *ndistinct = distinct;
  return sectors;
}

unsigned mem_sectors(const uint64_t *addr, uint32_t mask, unsigned size)
{
  return mem_coalesce(addr, mask, size, 0);
}
