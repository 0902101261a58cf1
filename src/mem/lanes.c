/* lanes.c - what several memory models ask of a warp's lane addresses:
 * sorted, and how many distinct.
 *
 * Notes:
 * - At most 32 lanes, or 32 x 5 words or bank units when each lane's access
 *   is split (smem.c, smem_legacy.c): small enough that an insertion sort
 *   (nearly free on the usual already-sorted input) and a quadratic
 *   distinct count beat anything cleverer.
 */
#include "mem/mem.h"

void mem_sort64(uint64_t *a, unsigned n)
{
  for (unsigned i = 1; i < n; i++) {
    uint64_t x = a[i];
    unsigned j = i;
    for (; j > 0 && a[j - 1] > x; j--)
      a[j] = a[j - 1];
    a[j] = x;
  }
}

unsigned mem_distinct(const uint64_t *addr, uint32_t mask)
{
  unsigned n = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctz(m), dup = 0;
    for (uint32_t e = mask & ((1u << l) - 1); e && !dup; e &= e - 1)
      dup = addr[__builtin_ctz(e)] == addr[l];
    n += !dup;
  }
  return n;
}
