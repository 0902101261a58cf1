/* coalesce_legacy.c - global transactions before sector-based L1: the
 * half-warp segments of compute capability 1.2/1.3 and Fermi's lines.
 *
 * Notes:
 * - 1.2/1.3 (COAL_CC12).  CUDA C Programming Guide 4.2, F.3.2: "A global
 *   memory request for a warp is split into two memory requests, one for
 *   each half-warp, that are issued independently" (seed 004: "Prior to
 *   Fermi, memory issues were per half-warp").  F.3.2.2, the protocol for
 *   one half-warp:
 *     1. find the segment holding the address of the lowest-numbered active
 *        thread; the segment is 32 bytes for 1-byte words, 64 for 2-byte
 *        words, 128 for 4-, 8- and 16-byte words;
 *     2. take every other active thread whose address lies in it;
 *     3. reduce: a 128-byte transaction of which only the lower or upper
 *        half is used becomes 64 bytes; a 64-byte one (originally or after
 *        the first reduction) of which only one half is used, 32 bytes;
 *     4. issue it, mark those threads serviced, repeat until none is left.
 *   The word size is the lane's whole access (a .v2.f32 is an 8-byte word).
 * - 2.x (COAL_FERMI).  Guide F.4.2: loads cached in L1 and L2 (the default,
 *   -Xptxas -dlcm=ca, or ld.ca) "are serviced with 128-byte memory
 *   transactions", loads cached in L2 only (-dlcm=cg, ld.cg) "with 32-byte
 *   memory transactions"; words wider than 4 bytes first split the warp's
 *   request into one per half-warp (8 bytes) or quarter-warp (16 bytes),
 *   each broken down into line requests.  Seed 004: "Load granularity is
 *   128-bytes" (caching) and "32-bytes" (non-caching); "Stores: Invalidate
 *   L1, write-back for L2", so stores and atomics, which L1 does not keep,
 *   move 32-byte segments.
 * - 3.0 and later (COAL_SECTOR): a transaction is a 32-byte sector
 *   (coalesce.c), counted by mem.c without coming here.
 * - Counts what the addresses need, as if every transaction missed: hits in
 *   L1 or L2 are the cache model's business (seed 004 states bus utilization
 *   "on a miss").
 * - Not the hot path of the default preset: sm_90 never calls it, so it
 *   favours plain loops over the closed forms of coalesce.c.
 */
#include "mem/mem.h"

static unsigned ceil_div(unsigned a, unsigned b) { return (a + b - 1) / b; }

/* One transaction of the 1.2/1.3 protocol: the segment of the lowest
 * remaining lane, reduced; clears the lanes it serves from *left and
 * returns its size in bytes. */
static unsigned cc12_transaction(const uint64_t *addr, uint32_t *left, unsigned size,
                                 unsigned seg)
{
  uint64_t base = addr[__builtin_ctz(*left)] & ~(uint64_t)(seg - 1);
  unsigned lo = seg, hi = 0;
  for (uint32_t m = *left; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctz(m);
    if ((addr[l] & ~(uint64_t)(seg - 1)) != base)
      continue;
    unsigned off = (unsigned)(addr[l] - base), end = off + size;
    if (end > seg) /* misaligned: the rest lies in the next segment */
      end = seg;
    lo = off < lo ? off : lo;
    hi = end > hi ? end : hi;
    *left &= ~(1u << l);
  }
  /* reduce while the used bytes lie in one half */
  unsigned tx = seg, start = 0;
  while (tx > 32) {
    unsigned half = tx / 2;
    if (hi <= start + half) {
      tx = half;
    } else if (lo >= start + half) {
      start += half;
      tx = half;
    } else {
      break;
    }
  }
  return tx;
}

void mem_coalesce_cc12(const uint64_t *addr, uint32_t mask, unsigned size, MemTrans *t)
{
  unsigned seg = size <= 1 ? 32 : size == 2 ? 64 : 128;
  if (size == 0)
    size = 1;
  *t = (MemTrans){0};
  for (unsigned h = 0; h < 32; h += 16) {
    uint32_t left = mask & (0xffffu << h);
    if (!left)
      continue;
    t->ideal += ceil_div(mem_distinct(addr, left) * size, seg);
    while (left) {
      unsigned tx = cc12_transaction(addr, &left, size, seg);
      t->n++;
      t->moved += tx;
      t->by_size[tx == 32 ? 0 : tx == 64 ? 1 : 2]++;
    }
  }
}

/* Distinct values in v[0..n) (n <= 64). */
static unsigned distinct_sorted_count(uint64_t *v, unsigned n)
{
  mem_sort64(v, n);
  unsigned d = 0;
  for (unsigned i = 0; i < n; i++)
    d += i == 0 || v[i] != v[i - 1];
  return d;
}

void mem_coalesce_lines(const uint64_t *addr, uint32_t mask, unsigned size, unsigned line,
                        MemTrans *t)
{
  if (size == 0)
    size = 1;
  unsigned lanes = size <= 4 ? 32 : size == 8 ? 16 : 8; /* 128-byte requests */
  uint32_t gbits = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
  *t = (MemTrans){0};
  for (unsigned g = 0; g < 32; g += lanes) {
    uint64_t v[64];
    unsigned n = 0;
    for (uint32_t m = mask & (gbits << g); m; m &= m - 1) {
      uint64_t a = addr[__builtin_ctz(m)];
      v[n++] = a / line;
      if ((a + size - 1) / line != a / line) /* misaligned: straddles */
        v[n++] = (a + size - 1) / line;
    }
    t->n += distinct_sorted_count(v, n);
  }
  t->moved = t->n * line;
  t->ideal = ceil_div(mem_distinct(addr, mask) * size, line);
}

int mem_load_cached(const MemGen *g, const MemReq *r)
{
  if (r->op != MEM_LD)
    return 0;
  if (r->cache != MEM_LOADS_DEFAULT)
    return r->cache == MEM_LOADS_CA;
  return g->loads != MEM_LOADS_CG;
}

void mem_transactions(const MemGen *g, const MemReq *r, MemTrans *t)
{
  switch (g->coal) {
  case COAL_CC12:
    mem_coalesce_cc12(r->addr, r->mask, r->size, t);
    break;
  case COAL_FERMI:
    mem_coalesce_lines(r->addr, r->mask, r->size, mem_load_cached(g, r) ? 128 : 32, t);
    break;
  default: {
    unsigned distinct, size = r->size ? r->size : 1;
    *t = (MemTrans){0};
    t->n = mem_coalesce(r->addr, r->mask, size, &distinct);
    t->moved = 32 * t->n;
    t->ideal = ceil_div(distinct * size, 32);
    break;
  }
  }
}
