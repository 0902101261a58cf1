/* explain.c - one line, as a teacher would say it, on why a request cost
 * what it did.
 *
 * Notes:
 * - Runs only when a line's costliest request changes (rare), so it may
 *   take its time: it re-derives the pattern (one stride? one address?) and,
 *   for shared memory, the busiest bank, from the request's addresses.
 * - Describes the request it is given, not the line's history.
 * - Speaks the generation's words: sectors and wavefronts on sm_70+;
 *   segments (1.x), 128-byte lines or 32-byte segments (Fermi) with the
 *   bytes used of the bytes moved; bank transactions before sm_50, with
 *   the half-warp (1.x) or the bank mode (Kepler).
 */
#include <inttypes.h>
#include <stdio.h>

#include "mem/mem.h"
#include "ptx/ptx.h"

typedef struct Pattern {
  unsigned n;      /* active lanes */
  int same;        /* all at one address */
  int constant;    /* in lane order, one stride between lanes */
  int64_t stride;  /* bytes from one lane to the next, when constant */
  uint64_t lo;     /* lowest address */
} Pattern;

static void pattern(const uint64_t *addr, uint32_t mask, Pattern *p)
{
  int prev = -1, have_stride = 0;
  p->n = 0;
  p->same = 1;
  p->constant = 1;
  p->stride = 0;
  p->lo = UINT64_MAX;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    uint64_t a = addr[l];
    p->n++;
    if (a < p->lo)
      p->lo = a;
    if (prev >= 0) {
      int64_t d = (int64_t)(a - addr[prev]), dl = l - prev;
      if (a != addr[prev])
        p->same = 0;
      if (!have_stride) {
        have_stride = 1;
        if (d % dl)
          p->constant = 0;
        else
          p->stride = d / dl;
      } else if (d != p->stride * dl) {
        p->constant = 0;
      }
    }
    prev = l;
  }
}

static const char *fmt_bytes(char *b, size_t n, uint64_t v)
{
  if (v >= (1u << 20) && v % (1u << 20) == 0)
    snprintf(b, n, "%" PRIu64 " MiB", v >> 20);
  else if (v >= 1024 && v % 1024 == 0)
    snprintf(b, n, "%" PRIu64 " KiB", v >> 10);
  else
    snprintf(b, n, "%" PRIu64 " B", v);
  return b;
}

static const char *verb(unsigned op, unsigned n)
{
  static const char *const plural[4] = {"read", "write", "update", "update"};
  static const char *const single[4] = {"reads", "writes", "updates", "updates"};
  return n == 1 ? single[op & 3] : plural[op & 3];
}

static uint64_t uabs64(int64_t v)
{
  return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

static void explain_sectors(char *buf, size_t n, const MemReq *r,
                            unsigned units, unsigned ideal)
{
  Pattern p;
  char head[80], wd[24];
  unsigned size = r->size ? r->size : 1;

  pattern(r->addr, r->mask, &p);
  if ((r->op == MEM_ATOM || r->op == MEM_RED) && units > mem_sectors(r->addr, r->mask, size)) {
    if (p.same)
      snprintf(buf, n, "%u sectors: all %u lanes update the same word, and updates of one address are "
               "served one lane at a time", units, p.n);
    else
      snprintf(buf, n, "%u sectors where %u would do: lanes that update the same word are served one "
               "after another", units, mem_sectors(r->addr, r->mask, size));
    return;
  }
  if (r->space != PTX_S_LOCAL && p.same && p.n > 1 && units == 1) {
    snprintf(buf, n, "1 sector: all lanes %s the same word (broadcast)", verb(r->op, 2));
    return;
  }
  int len = snprintf(head, sizeof head, "%u lane%s %s %u sector%s", p.n,
                     p.n == 1 ? "" : "s", verb(r->op, p.n), units, units == 1 ? "" : "s");
  if (units > ideal && len > 0 && (size_t)len < sizeof head)
    snprintf(head + len, sizeof head - (size_t)len, " where %u would do", ideal);

  if (r->space == PTX_S_LOCAL) {
    /* a vector's 4-byte words lie 128 bytes apart: one request each */
    const char *split = r->size > 4 ? " per 4-byte word" : "";
    if (p.same)
      snprintf(buf, n, "%s%s: the same local offset in every lane; the per-lane "
               "interleaving puts those words side by side", head, split);
    else
      snprintf(buf, n, "%s%s: lanes use different offsets in their local arrays "
               "(indexed array), so the interleaving scatters them", head, split);
    return;
  }
  if (p.n == 1) {
    snprintf(buf, n, "%s: %s", head, units > ideal ? "the access straddles a sector boundary"
                                                   : "only one lane is active");
    return;
  }
  if (p.same) {
    snprintf(buf, n, "%s: all lanes %s the same address, which straddles a sector "
             "boundary", head, verb(r->op, 2));
    return;
  }
  if (p.constant) {
    uint64_t s = uabs64(p.stride);
    const char *desc = p.stride < 0 ? " (descending)" : "";
    if (s == size) {
      if (units <= ideal)
        snprintf(buf, n, "%s: consecutive %u-byte words%s, coalesced", head, size, desc);
      else
        snprintf(buf, n, "%s: the warp's %u bytes start %u bytes past a sector boundary",
                 head, p.n * size, (unsigned)(p.lo % 32));
    } else if (s < size) {
      snprintf(buf, n, "%s: lanes overlap, %s apart%s", head,
               fmt_bytes(wd, sizeof wd, s), desc);
    } else if (s < 32) {
      snprintf(buf, n, "%s: lanes are %s apart%s, %u of every %u bytes fetched are used",
               head, fmt_bytes(wd, sizeof wd, s), desc, size, (unsigned)s);
    } else {
      snprintf(buf, n, "%s: lanes are %s apart%s, one sector each", head,
               fmt_bytes(wd, sizeof wd, s), desc);
    }
    return;
  }
  if (units <= ideal)
    snprintf(buf, n, "%s: lanes permuted within the same sectors, coalesced", head);
  else
    snprintf(buf, n, "%s: scattered addresses", head);
}

static void explain_wavefronts(char *buf, size_t n, const MemReq *r,
                               unsigned units, unsigned ideal)
{
  Pattern p;
  char wd[24];
  unsigned size = r->size ? r->size : 1;
  int atomic = r->op == MEM_ATOM || r->op == MEM_RED;
  unsigned lanes = mem_smem_group_lanes(r->addr, r->mask, size, r->op);
  const char *unit = units == 1 ? "wavefront" : "wavefronts";

  pattern(r->addr, r->mask, &p);
  if (p.same && p.n > 1 && size <= 4) {
    if (atomic && units > 1)
      snprintf(buf, n, "%u %s: all %u lanes update the same word (atomics serialize)",
               units, unit, p.n);
    else
      snprintf(buf, n, "%u %s: all lanes %s the same word (broadcast)", units, unit,
               verb(r->op, 2));
    return;
  }
  if (units <= ideal) {
    if (ideal == 1)
      snprintf(buf, n, "1 wavefront: conflict-free");
    else
      snprintf(buf, n, "%u wavefronts: conflict-free; %u-byte accesses are served %u "
               "lanes at a time%s", units, size, lanes,
               lanes * size > 128 ? " (lane pairs share addresses)" : "");
    return;
  }

  /* The busiest bank of the costliest group. */
  unsigned way = 0, bank = 0, same_word = 0;
  uint32_t gbits = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1;
  for (unsigned g = 0; g < 32; g += lanes) {
    uint32_t gm = r->mask & (gbits << g);
    unsigned cnt[32] = {0}, touch[32] = {0};
    uint32_t seen[160];
    unsigned ns = 0;
    for (uint32_t m = gm; m; m &= m - 1) {
      uint64_t a = r->addr[__builtin_ctz(m)];
      for (uint64_t w = a >> 2; w <= (a + size - 1) >> 2; w++) {
        unsigned b = (unsigned)(w & 31), dup = 0;
        for (unsigned i = 0; i < ns; i++)
          dup |= seen[i] == (uint32_t)w;
        touch[b]++;
        if (!dup) {
          cnt[b]++;
          if (ns < 160)
            seen[ns++] = (uint32_t)w;
        }
      }
    }
    for (unsigned b = 0; b < 32; b++) {
      unsigned c = atomic ? touch[b] : cnt[b];
      if (c > way) {
        way = c;
        bank = b;
        same_word = atomic && cnt[b] == 1;
      }
    }
  }
  const char *part = lanes == 16 ? " within a half-warp" : lanes == 8 ? " within a quarter-warp" : "";
  if (same_word) {
    snprintf(buf, n, "%u wavefronts: %u lanes update the same word in bank %u "
             "(atomics serialize)", units, way, bank);
  } else if (size <= 4 && p.constant && p.stride % 4 == 0 && p.stride != 0) {
    uint64_t s = uabs64(p.stride);
    if ((s / 4) % 32 == 0)
      snprintf(buf, n, "%u wavefronts: %u-way bank conflict, lanes %s apart all hit bank %u",
               units, way, fmt_bytes(wd, sizeof wd, s), bank);
    else
      snprintf(buf, n, "%u wavefronts: %u-way bank conflict (stride %u words)",
               units, way, (unsigned)(s / 4));
  } else {
    snprintf(buf, n, "%u wavefronts where %u would do: %u-way bank conflict, %u "
             "different words in bank %u%s", units, ideal, way, way, bank, part);
  }
}

/* ---- generations before sm_70 --------------------------------------------- */

/* "1x128 + 2x32 B": the sizes of 1.x transactions. */
static void cc12_sizes(char *b, size_t n, const MemTrans *t)
{
  static const unsigned bytes[3] = {128, 64, 32};
  static const int idx[3] = {2, 1, 0};
  size_t len = 0;
  b[0] = '\0';
  for (int i = 0; i < 3; i++) {
    unsigned c = t->by_size[idx[i]];
    if (!c || len >= n)
      continue;
    int k = snprintf(b + len, n - len, "%s%ux%u", len ? " + " : "", c, bytes[i]);
    len += k > 0 ? (size_t)k : 0;
  }
  if (len < n)
    snprintf(b + len, n - len, " B");
}

/* Global on 1.x and 2.x: transactions, bytes used of bytes moved, and the
 * cause, in the generation's words. */
static void explain_transactions(char *buf, size_t n, const MemGen *g, const MemReq *r,
                                 unsigned units, unsigned ideal)
{
  Pattern p;
  MemTrans t;
  char what[64], cause[96] = "", wd[24];
  unsigned size = r->size ? r->size : 1, distinct;
  int cached = g->coal == COAL_FERMI && mem_load_cached(g, r);
  unsigned tx = cached ? 128 : g->coal == COAL_FERMI ? 32 : size == 1 ? 32 : size == 2 ? 64 : 128;

  pattern(r->addr, r->mask, &p);
  mem_transactions(g, r, &t);
  mem_coalesce(r->addr, r->mask, size, &distinct);
  unsigned used = distinct * size;
  if (g->coal == COAL_CC12) {
    char sizes[48];
    cc12_sizes(sizes, sizeof sizes, &t);
    snprintf(what, sizeof what, "segment%s (%s)", units == 1 ? "" : "s", sizes);
  } else {
    snprintf(what, sizeof what, "%s%s of %u B", cached ? "line" : "segment", units == 1 ? "" : "s",
             tx);
  }
  if (p.same && p.n > 1)
    snprintf(cause, sizeof cause, "; all lanes %s the same word", verb(r->op, 2));
  else if (p.constant && uabs64(p.stride) == size && p.lo % tx)
    snprintf(cause, sizeof cause, "; words start %u bytes past a %u-byte boundary",
             (unsigned)(p.lo % tx), tx);
  else if (p.constant && uabs64(p.stride) == size)
    snprintf(cause, sizeof cause, "; consecutive %u-byte words", size);
  else if (p.constant && p.n > 1)
    snprintf(cause, sizeof cause, "; lanes are %s apart", fmt_bytes(wd, sizeof wd, uabs64(p.stride)));
  else if (p.n > 1)
    snprintf(cause, sizeof cause, units <= ideal ? "; lanes permuted within the same %ss"
                                                 : "; scattered addresses",
             cached ? "line" : "segment");
  int len = snprintf(buf, n, "%u lane%s %s %u %s", p.n, p.n == 1 ? "" : "s", verb(r->op, p.n),
                     units, what);
  if (units > ideal && len > 0 && (size_t)len < n)
    len += snprintf(buf + len, n - (size_t)len, " where %u would do", ideal);
  if (len > 0 && (size_t)len < n && t.moved)
    snprintf(buf + len, n - (size_t)len, ": %u of %u bytes used (%.4g%%)%s", used, t.moved,
             100.0 * used / t.moved, cause);
}

/* Shared memory on 1.x, 2.x and 3.x: bank transactions. */
static void explain_banks(char *buf, size_t n, const MemGen *g, const MemReq *r,
                          unsigned units, unsigned ideal)
{
  Pattern p;
  char where[48] = "", wd[24];
  unsigned size = r->size ? r->size : 1, bank;
  int atomic = r->op == MEM_ATOM || r->op == MEM_RED;
  const char *unit = units == 1 ? "transaction" : "transactions";
  unsigned way = mem_smem_worst_bank(g, r->addr, r->mask, size, r->op, &bank);

  pattern(r->addr, r->mask, &p);
  if (g->banks == MEM_BANKS_CC1)
    snprintf(where, sizeof where, " within a half-warp (16 banks)");
  else if (g->banks == MEM_BANKS_KEPLER)
    snprintf(where, sizeof where, " in %u-byte mode", g->bank_bytes);
  else if (size > 4)
    snprintf(where, sizeof where, " within a %s-warp", size > 8 ? "quarter" : "half");

  if (p.same && p.n > 1 && size <= 4) {
    if (atomic && units > ideal)
      snprintf(buf, n, "%u %s: all %u lanes update the same word (atomics serialize)", units,
               unit, p.n);
    else
      snprintf(buf, n, "%u %s: all lanes %s the same word (broadcast%s)", units, unit,
               verb(r->op, 2), g->banks == MEM_BANKS_CC1 && units > 1 ? ", one per half-warp" : "");
    return;
  }
  if (units <= ideal) {
    if (units == 1)
      snprintf(buf, n, "1 transaction: conflict-free");
    else if (g->banks == MEM_BANKS_CC1)
      snprintf(buf, n, "%u transactions: conflict-free; 16 banks serve a half-warp and 4 bytes "
               "at a time", units);
    else if (g->banks == MEM_BANKS_KEPLER)
      snprintf(buf, n, "%u transactions: conflict-free; 32 banks of 8 bytes serve 256 bytes a "
               "pass", units);
    else
      snprintf(buf, n, "%u transactions: conflict-free; %u-byte accesses are served a %s-warp "
               "at a time", units, size, size > 8 ? "quarter" : "half");
    return;
  }
  int len = snprintf(buf, n, "%u %s where %u would do: %u-way bank conflict on bank %u%s", units,
                     unit, ideal, way, bank, where);
  if (len > 0 && (size_t)len < n && p.constant && p.stride)
    snprintf(buf + len, n - (size_t)len, " (lanes %s apart)",
             fmt_bytes(wd, sizeof wd, uabs64(p.stride)));
}

/* ldmatrix/stmatrix: how many matrices, and the worst matrix's busiest
 * bank group (16-byte rows in the same (addr / 16) % 8 conflict). */
static void explain_matrices(char *buf, size_t n, const MemReq *r, unsigned units, unsigned ideal)
{
  unsigned worst = 0, stride = 0;
  for (unsigned i = 0; i < 4; i++) {
    uint32_t gm = r->mask & (0xffu << (8 * i));
    if (!gm)
      continue;
    unsigned c = mem_smem_matrix_cost(r->addr, gm, NULL);
    if (c > worst) {
      worst = c;
      unsigned l0 = (unsigned)__builtin_ctz(gm), l1 = l0 + 1;
      stride = (gm >> l1 & 1) ? (unsigned)(r->addr[l1] - r->addr[l0]) : 0;
    }
  }
  const char *what = r->op == MEM_STSM ? "stmatrix" : "ldmatrix";
  if (units <= ideal)
    snprintf(buf, n, "%s of %u matri%s: conflict-free, one wavefront per 8x8 matrix", what, ideal,
             ideal == 1 ? "x" : "ces");
  else if (stride)
    snprintf(buf, n, "%s of %u matri%s: %u wavefronts where %u would do: rows %u B apart share a bank group "
             "(%u-way; pad or swizzle the rows)", what, ideal, ideal == 1 ? "x" : "ces", units, ideal, stride, worst);
  else
    snprintf(buf, n, "%s of %u matri%s: %u wavefronts where %u would do: %u rows of a matrix in one bank group",
             what, ideal, ideal == 1 ? "x" : "ces", units, ideal, worst);
}

void mem_explain(char *buf, size_t n, const MemGen *g, const MemReq *r, unsigned units,
                 unsigned ideal)
{
  if (!n)
    return;
  if (r->op == MEM_LDSM || r->op == MEM_STSM) {
    explain_matrices(buf, n, r, units, ideal);
    return;
  }
  switch (r->space) {
  case PTX_S_GLOBAL:
    if (g && g->coal != COAL_SECTOR)
      explain_transactions(buf, n, g, r, units, ideal);
    else
      explain_sectors(buf, n, r, units, ideal);
    break;
  case PTX_S_LOCAL:
  case PTX_S_CLUSTER: /* a peer's shared memory: sectors over the crossbar */
    explain_sectors(buf, n, r, units, ideal);
    break;
  case PTX_S_SHARED:
    if (g && g->banks != MEM_BANKS_SM70)
      explain_banks(buf, n, g, r, units, ideal);
    else
      explain_wavefronts(buf, n, r, units, ideal);
    break;
  case PTX_S_PARAM:
    snprintf(buf, n, "kernel parameter: served by the constant cache, not counted in L1");
    break;
  default:
    snprintf(buf, n, "constant memory: served by the constant cache, not counted in L1");
    break;
  }
}
