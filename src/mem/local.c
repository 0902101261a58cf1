/* local.c - where a thread's local memory really lies.
 *
 * Notes:
 * - Models the interleaving the hardware (and the driver's local-memory
 *   window) applies on sm_20 and later: 4-byte word k of lane l lies at
 *   (k * 32 + l) * 4, so consecutive words of one thread are 128 bytes apart
 *   and the same word of the 32 lanes of a warp fills one 128-byte line.
 *   That is why the same offset in every lane coalesces (4 sectors) and a
 *   dynamically indexed array whose lanes pick different slots does not
 *   (up to 32 sectors).  Checked against the measured local_heap counters
 *   (tests/test_mem.c, test_local_heap).
 * - Ignores the per-warp base of the local window: every warp has its own
 *   128-byte-aligned region, so sector counts do not depend on it.
 */
#include "mem/mem.h"

uint64_t mem_local_address(uint64_t off, unsigned lane)
{
  return ((off >> 2) * 32 + (lane & 31)) * 4 + (off & 3);
}
