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
 * - Hot path: a full warp of lanes side by side (or all on one address) is
 *   recognised with one pass and counted in closed form.  Otherwise the
 *   active lanes' addresses are taken in lane order, which for most warps
 *   is already sorted (ascending, or descending and reversed), else
 *   insertion-sorted (mem_sort64, lanes.c: at most 32 values, a few hundred
 *   steps for a warp in random order, the rare case).  One pass over sorted addresses
 *   then counts sectors (each lane covers one or two consecutive sectors, and
 *   both ends only grow) and distinct addresses (for the ideal).
 */
#include "mem/mem.h"

unsigned mem_coalesce(const uint64_t *addr, uint32_t mask, unsigned size,
                      unsigned *ndistinct)
{
  uint64_t buf[32];
  const uint64_t *a = buf;
  unsigned n = 0;

  if (size == 0)
    size = 1;
  if (mask == 0xffffffffu) {
    /* The common warps first: lanes side by side, or all on one address. */
    uint64_t a0 = addr[0], side = 0, same = 0;
    for (unsigned l = 1; l < 32; l++) {
      side |= addr[l] ^ (a0 + (uint64_t)l * size);
      same |= addr[l] ^ a0;
    }
    if (!side || !same) {
      uint64_t end = a0 + (side ? size : 32u * size) - 1;
      if (ndistinct)
        *ndistinct = side ? 1 : 32;
      return (unsigned)((end >> 5) - (a0 >> 5) + 1);
    }
    unsigned up = 1, down = 1;
    for (unsigned l = 1; l < 32; l++) {
      up &= addr[l] >= addr[l - 1];
      down &= addr[l] <= addr[l - 1];
    }
    n = 32;
    if (up) {
      a = addr;
    } else if (down) {
      for (unsigned l = 0; l < 32; l++)
        buf[l] = addr[31 - l];
    } else {
      for (unsigned l = 0; l < 32; l++)
        buf[l] = addr[l];
      mem_sort64(buf, n);
    }
  } else {
    unsigned sorted = 1;
    for (uint32_t m = mask; m; m &= m - 1) {
      uint64_t x = addr[__builtin_ctz(m)];
      if (n && x < buf[n - 1])
        sorted = 0;
      buf[n++] = x;
    }
    if (!sorted)
      mem_sort64(buf, n);
  }
  if (!n) {
    if (ndistinct)
      *ndistinct = 0;
    return 0;
  }

  /* Sorted, so both ends of a lane's sector range only grow: a lane adds the
   * sectors of its range at or above `next`, the first one not yet counted. */
  unsigned sectors = 0, distinct = 0;
  uint64_t next = a[0] >> 5, prev = ~a[0];
  for (unsigned i = 0; i < n; i++) {
    uint64_t x = a[i], s0 = x >> 5, s1 = (x + size - 1) >> 5;
    uint64_t lo = s0 > next ? s0 : next;
    sectors += s1 >= lo ? (unsigned)(s1 - lo + 1) : 0;
    next = s1 + 1;
    distinct += x != prev;
    prev = x;
  }
  if (ndistinct)
    *ndistinct = distinct;
  return sectors;
}

unsigned mem_sectors(const uint64_t *addr, uint32_t mask, unsigned size)
{
  return mem_coalesce(addr, mask, size, 0);
}

/* Global atomics and reductions: lanes that update the same address are
 * served one after another, each pass touching the sectors of its lanes, so
 * a sector costs as many passes as its most-updated word has lanes.
 * Measured on an H200 (tools/probe, docs/results/h200-probe-2026-11-22):
 * 32 lanes on one word cost 32 sectors, 32 lanes on consecutive words 4,
 * lanes 32 bytes apart 32. */
unsigned mem_atomic_ops(const uint64_t *addr, uint32_t mask, unsigned size, uint64_t *sec, uint32_t *bytes,
                        uint8_t *ops)
{
  uint64_t a[32];
  unsigned n = 0, k = 0;
  uint32_t lane_bytes = (1u << size) - 1; /* atomics are 4 or 8 bytes, aligned: one sector per lane */
  for (uint32_t m = mask; m; m &= m - 1)
    a[n++] = addr[__builtin_ctz(m)];
  mem_sort64(a, n);
  unsigned run = 0;
  for (unsigned i = 0; i < n; i++) {
    run = i && a[i] == a[i - 1] ? run + 1 : 1;
    if (!i || a[i] >> 5 != a[i - 1] >> 5) {
      sec[k] = a[i] >> 5;
      bytes[k] = 0;
      ops[k++] = 0;
    }
    bytes[k - 1] |= lane_bytes << (a[i] & 31);
    if (run > ops[k - 1])
      ops[k - 1] = (uint8_t)run;
  }
  return k;
}

unsigned mem_atomic_sectors(const uint64_t *addr, uint32_t mask, unsigned size)
{
  uint64_t sec[32];
  uint32_t bytes[32];
  uint8_t ops[32];
  unsigned n = mem_atomic_ops(addr, mask, size, sec, bytes, ops), sectors = 0;
  for (unsigned i = 0; i < n; i++)
    sectors += ops[i];
  return sectors;
}
