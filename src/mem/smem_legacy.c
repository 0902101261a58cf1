/* smem_legacy.c - shared-memory banks before sm_50: compute capability 1.x,
 * Fermi (2.x) and Kepler (3.x).  The cost of a request is its bank
 * transactions (nvprof's shared_load/store_transactions); the ideal is the
 * same request without bank conflicts.
 *
 * Notes (rules from the CUDA C Programming Guide 4.2, Appendix F, and the
 * seeds; the citations are by section):
 * - 1.x (F.3.3): 16 banks of 4 bytes, "a shared memory request for a warp
 *   is split into two memory requests, one for each half-warp", so lanes of
 *   different halves never conflict.  Reads (F.3.3.2): each pass serves
 *   every address within ONE broadcast word plus one address for each other
 *   bank; "which word is selected as the broadcast word and which address
 *   is picked up for each bank at each cycle are unspecified": we pick the
 *   word of the lowest-numbered remaining lane and, per bank, the
 *   lowest-numbered remaining lane.  So a half-warp reading one word costs
 *   1, two groups of lanes reading two words of different banks cost 2
 *   (the guide's Figure F-3, right: "2-way bank conflicts for devices of
 *   compute capability 1.x"), and char[tid] costs 4 (F.3.3.3: shared[0..3]
 *   "belong to the same bank").  Writes: a bank writes one address per
 *   pass; lanes writing the same address count once ("only one thread per
 *   half-warp performs a write").  Accesses wider than 4 bytes "are split
 *   into 32-bit accesses" (F.3.3.4), each a request of its own: double[tid]
 *   is two stride-2 requests, 2-way each.
 * - 2.x (F.4.3): 32 banks of 4 bytes; lanes accessing any address within
 *   one 32-bit word never conflict ("multiple words can be broadcast in a
 *   single transaction"), so a request costs its busiest bank's distinct
 *   words, as on sm_70.  64-bit accesses: "a bank conflict only occurs if
 *   two threads in either of the half-warps access different addresses
 *   belonging to the same bank" - one transaction per half-warp; 128-bit:
 *   quarter-warps, which gives the guide's "majority of 128-bit accesses
 *   will cause 2-way bank conflicts" per half-warp.
 * - 3.x (F.5.3): 32 banks, each 64 bits wide ("a bandwidth of 64 bits per
 *   clock cycle"; seed 000: "Each bank has a bandwidth of 64 bits per clock
 *   cycle" on the GTX 680).  8-byte mode: successive 64-bit words map to
 *   successive banks, lanes within one 64-bit word never conflict.  4-byte
 *   mode: successive 32-bit words map to successive banks, and lanes never
 *   conflict within one 32-bit word "or within two 32-bit words whose
 *   indices i and j are in the same 64-word aligned segment ... and such
 *   that j=i+32": a bank row is 8 bytes in both modes, so a 256-byte row of
 *   the array is served in one pass.  The cost is the busiest bank's
 *   distinct 256-byte rows, the whole warp at once.
 * - Atomics (all three): lanes on one bank serialize, one pass per lane
 *   (as smem.c assumes for sm_70; no measurement).
 */
#include "mem/mem.h"

/* How addresses map to banks. */
typedef struct BankMap {
  unsigned nbanks;     /* 16 or 32 */
  unsigned unit_shift; /* log2 of the bytes that map to one bank (4 or 8) */
  unsigned key_shift;  /* log2 of the bytes one pass of a bank serves:
                          2 (a 4-byte word) or 8 (Kepler's 256-byte row) */
} BankMap;


/* Passes the busiest bank needs for the lanes in gm: its distinct keys, or
 * for atomics (`touches`) every lane's touch; its number in *bank. */
static unsigned bank_max(const uint64_t *addr, uint32_t gm, unsigned size, const BankMap *bm,
                         int touches, unsigned *bank)
{
  uint64_t v[32 * 5]; /* a lane touches at most 5 bank units (16 bytes, misaligned) */
  unsigned n = 0;
  for (uint32_t m = gm; m; m &= m - 1) {
    uint64_t a = addr[__builtin_ctz(m)];
    for (uint64_t u = a >> bm->unit_shift; u <= (a + size - 1) >> bm->unit_shift && n < 160; u++) {
      uint64_t b = u % bm->nbanks, key = (u << bm->unit_shift) >> bm->key_shift;
      v[n++] = b << 56 | (key & ((1ull << 56) - 1));
    }
  }
  mem_sort64(v, n);
  unsigned worst = 0, run = 0;
  for (unsigned i = 0; i < n; i++) {
    int same_bank = i && v[i] >> 56 == v[i - 1] >> 56;
    run = same_bank ? run + (touches || v[i] != v[i - 1]) : 1;
    if (run > worst) {
      worst = run;
      if (bank)
        *bank = (unsigned)(v[i] >> 56);
    }
  }
  return worst;
}

/* ---- 1.x ------------------------------------------------------------------ */

/* The passes of one 32-bit read of a half-warp (the broadcast procedure);
 * addr[l] + off is lane l's address. */
static unsigned cc1_read_passes(const uint64_t *addr, uint32_t left, unsigned off)
{
  unsigned passes = 0;
  while (left) {
    passes++;
    uint64_t bw = (addr[__builtin_ctz(left)] + off) >> 2;
    uint32_t served = 0, banks = 1u << (bw & 15);
    for (uint32_t m = left; m; m &= m - 1) {
      unsigned l = (unsigned)__builtin_ctz(m);
      uint64_t w = (addr[l] + off) >> 2;
      if (w == bw) {
        served |= 1u << l;
      } else if (!(banks >> (w & 15) & 1)) { /* one address per other bank */
        banks |= 1u << (w & 15);
        served |= 1u << l;
      }
    }
    left &= ~served;
  }
  return passes;
}

/* The passes of one 32-bit write (or atomic) of a half-warp: a bank's
 * distinct addresses (atomics: lanes). */
static unsigned cc1_write_passes(const uint64_t *addr, uint32_t gm, unsigned off, int atomic,
                                 unsigned *bank)
{
  unsigned cnt[16] = {0}, worst = 0;
  for (uint32_t m = gm; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctz(m), dup = 0;
    for (uint32_t e = gm & ((1u << l) - 1); e && !dup && !atomic; e &= e - 1)
      dup = addr[__builtin_ctz(e)] == addr[l];
    if (dup)
      continue;
    unsigned b = (unsigned)((addr[l] + off) >> 2) & 15;
    if (++cnt[b] > worst) {
      worst = cnt[b];
      if (bank)
        *bank = b;
    }
  }
  return worst;
}

/* 1.x: per half-warp, per 32-bit piece of the access. */
static unsigned cc1_cost(const uint64_t *addr, uint32_t mask, unsigned size, unsigned op,
                         unsigned *ideal, unsigned *worst, unsigned *wbank)
{
  unsigned pieces = size > 4 ? size / 4 : 1, total = 0, groups = 0;
  for (unsigned h = 0; h < 32; h += 16) {
    uint32_t gm = mask & (0xffffu << h);
    if (!gm)
      continue;
    groups += pieces;
    for (unsigned p = 0; p < pieces; p++) {
      unsigned bank = 0, c;
      if (op == MEM_LD) {
        c = cc1_read_passes(addr, gm, 4 * p);
        /* for the explanation: the bank with the most distinct words */
        BankMap bm = {16, 2, 2};
        uint64_t shifted[32];
        for (uint32_t m = gm; m; m &= m - 1)
          shifted[__builtin_ctz(m)] = addr[__builtin_ctz(m)] + 4 * p;
        bank_max(shifted, gm, 1, &bm, 0, &bank);
      } else {
        c = cc1_write_passes(addr, gm, 4 * p, op != MEM_ST, &bank);
      }
      total += c;
      if (c > *worst) {
        *worst = c;
        *wbank = bank;
      }
    }
  }
  *ideal = groups;
  return total;
}

/* ---- 2.x and 3.x ---------------------------------------------------------- */

static unsigned fermi_cost(const uint64_t *addr, uint32_t mask, unsigned size, unsigned op,
                           unsigned *ideal, unsigned *worst, unsigned *wbank)
{
  static const BankMap bm = {32, 2, 2};
  unsigned lanes = size <= 4 ? 32 : size <= 8 ? 16 : 8, total = 0, groups = 0;
  uint32_t gbits = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
  for (unsigned g = 0; g < 32; g += lanes) {
    uint32_t gm = mask & (gbits << g);
    if (!gm)
      continue;
    unsigned bank = 0, c = bank_max(addr, gm, size, &bm, op == MEM_ATOM || op == MEM_RED, &bank);
    groups++;
    total += c;
    if (c > *worst) {
      *worst = c;
      *wbank = bank;
    }
  }
  *ideal = groups;
  return total;
}

static unsigned kepler_cost(const uint64_t *addr, uint32_t mask, unsigned size, unsigned op,
                            unsigned bank_bytes, unsigned *ideal, unsigned *worst, unsigned *wbank)
{
  BankMap bm = {32, bank_bytes == 8 ? 3 : 2, 8};
  unsigned c = bank_max(addr, mask, size, &bm, op == MEM_ATOM || op == MEM_RED, wbank);
  /* no conflicts: 256 bytes (32 banks x 8) per pass */
  unsigned need = (mem_distinct(addr, mask) * size + 255) / 256;
  *ideal = need < 1 ? 1 : need > c ? c : need;
  *worst = c;
  return c;
}

/* ---- dispatch -------------------------------------------------------------- */

static unsigned legacy_cost(const MemGen *g, const uint64_t *addr, uint32_t mask, unsigned size,
                            unsigned op, unsigned *ideal, unsigned *worst, unsigned *bank)
{
  unsigned id = 0;
  *worst = 0;
  *bank = 0;
  if (size == 0)
    size = 1;
  if (size > 16)
    size = 16;
  if (!mask) {
    if (ideal)
      *ideal = 0;
    return 0;
  }
  unsigned c;
  switch (g->banks) {
  case MEM_BANKS_CC1:
    c = cc1_cost(addr, mask, size, op, &id, worst, bank);
    break;
  case MEM_BANKS_FERMI:
    c = fermi_cost(addr, mask, size, op, &id, worst, bank);
    break;
  default:
    c = kepler_cost(addr, mask, size, op, g->bank_bytes, &id, worst, bank);
    break;
  }
  if (ideal)
    *ideal = id;
  return c;
}

unsigned mem_smem_cost_gen(const MemGen *g, const uint64_t *addr, uint32_t mask, unsigned size,
                           unsigned op, unsigned *ideal)
{
  if (g->banks == MEM_BANKS_SM70)
    return mem_smem_cost(addr, mask, size, op, ideal);
  unsigned worst, bank;
  return legacy_cost(g, addr, mask, size, op, ideal, &worst, &bank);
}

unsigned mem_smem_worst_bank(const MemGen *g, const uint64_t *addr, uint32_t mask, unsigned size,
                             unsigned op, unsigned *bank)
{
  unsigned worst, b, ideal;
  if (g->banks == MEM_BANKS_SM70) {
    *bank = 0;
    return mem_smem_cost(addr, mask, size, op, &ideal);
  }
  legacy_cost(g, addr, mask, size, op, &ideal, &worst, &b);
  *bank = b;
  return worst;
}

/* ---- which pass serves each lane (the HTML report's pictures) ------------ */

/* Within the lanes gm: each lane's pass is the highest rank of its bank
 * units' keys among the distinct keys of their banks (touches: every lane
 * its own pass), the rule bank_max() counts; returns the group's passes. */
static unsigned bank_lane_waves(const uint64_t *addr, uint32_t gm, unsigned size, const BankMap *bm,
                                int touches, unsigned base, uint16_t *wave)
{
  uint64_t seen[32][32]; /* per bank, its distinct keys (a lane adds one per bank) */
  uint8_t nseen[32] = {0};
  unsigned most = 0;
  for (uint32_t m = gm; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctz(m), rank = 0;
    uint64_t a = addr[l];
    for (uint64_t u = a >> bm->unit_shift; u <= (a + size - 1) >> bm->unit_shift; u++) {
      unsigned b = (unsigned)(u % bm->nbanks), k = 0;
      uint64_t key = (u << bm->unit_shift) >> bm->key_shift;
      while (!touches && k < nseen[b] && seen[b][k] != key)
        k++;
      if (touches || k == nseen[b]) {
        k = nseen[b];
        seen[b][nseen[b]++ & 31] = key;
      }
      rank = k > rank ? k : rank;
    }
    wave[l] = (uint16_t)(base + rank);
    most = rank + 1 > most ? rank + 1 : most;
  }
  return most;
}

/* 1.x, one half-warp's first 32-bit piece: reads by the broadcast
 * procedure of cc1_read_passes (the pass that serves the lane), writes a
 * bank's distinct addresses one per pass (atomics: its lanes). */
static unsigned cc1_lane_waves(const uint64_t *addr, uint32_t gm, unsigned op, unsigned base, uint16_t *wave)
{
  unsigned pass = 0;
  if (op == MEM_LD) {
    for (uint32_t left = gm; left; pass++) {
      uint64_t bw = addr[__builtin_ctz(left)] >> 2;
      uint32_t served = 0, banks = 1u << (bw & 15);
      for (uint32_t m = left; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t w = addr[l] >> 2;
        if (w == bw || !(banks >> (w & 15) & 1)) {
          banks |= 1u << (w & 15);
          served |= 1u << l;
          wave[l] = (uint16_t)(base + pass);
        }
      }
      left &= ~served;
    }
    return pass;
  }
  unsigned cnt[16] = {0};
  for (uint32_t m = gm; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctz(m), dup = 32;
    for (uint32_t e = gm & ((1u << l) - 1); e && dup == 32 && op == MEM_ST; e &= e - 1)
      if (addr[__builtin_ctz(e)] == addr[l])
        dup = (unsigned)__builtin_ctz(e);
    if (dup < 32) {
      wave[l] = wave[dup];
      continue;
    }
    unsigned b = (unsigned)(addr[l] >> 2) & 15;
    wave[l] = (uint16_t)(base + cnt[b]++);
    pass = cnt[b] > pass ? cnt[b] : pass;
  }
  return pass;
}

/* The lanes' passes before sm_70; the groups as legacy_cost() forms them. */
static void legacy_lane_waves(const MemGen *g, const uint64_t *addr, uint32_t mask, unsigned size,
                              unsigned op, uint16_t *wave)
{
  int touches = op == MEM_ATOM || op == MEM_RED;
  unsigned base = 0;
  if (g->banks == MEM_BANKS_KEPLER) {
    BankMap bm = {32, g->bank_bytes == 8 ? 3 : 2, 8};
    bank_lane_waves(addr, mask, size, &bm, touches, 0, wave);
    return;
  }
  unsigned lanes = g->banks == MEM_BANKS_CC1 ? 16 : size <= 4 ? 32 : size <= 8 ? 16 : 8;
  uint32_t gbits = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
  for (unsigned k = 0; k < 32; k += lanes) {
    uint32_t gm = mask & (gbits << k);
    if (!gm)
      continue;
    if (g->banks == MEM_BANKS_CC1) {
      unsigned pieces = size > 4 ? size / 4 : 1;
      unsigned first = cc1_lane_waves(addr, gm, op, base, wave);
      /* the other pieces follow the first: count them as the model does */
      unsigned all = first;
      if (pieces > 1) {
        unsigned ideal, worst, bank;
        all = legacy_cost(g, addr, gm, size, op, &ideal, &worst, &bank);
      }
      base += all;
    } else {
      static const BankMap bm = {32, 2, 2};
      base += bank_lane_waves(addr, gm, size, &bm, touches, base, wave);
    }
  }
}

unsigned mem_smem_lane_map(const MemGen *g, const uint64_t *addr, uint32_t mask, unsigned size,
                           unsigned op, uint8_t bank[32], uint16_t wave[32])
{
  unsigned nbanks = g->banks == MEM_BANKS_CC1 ? 16 : 32;
  unsigned shift = g->banks == MEM_BANKS_KEPLER && g->bank_bytes == 8 ? 3 : 2;
  for (unsigned l = 0; l < 32; l++) {
    bank[l] = mask >> l & 1 ? (uint8_t)((addr[l] >> shift) % nbanks) : 0;
    wave[l] = 0;
  }
  if (op == MEM_LDSM || op == MEM_STSM || op == MEM_GMMA)
    return mem_smem_matrix_lane_waves(addr, mask, wave);
  if (g->banks == MEM_BANKS_SM70)
    return mem_smem_lane_waves(addr, mask, size, op, wave);
  if (size == 0)
    size = 1;
  if (size > 16)
    size = 16;
  legacy_lane_waves(g, addr, mask, size, op, wave);
  unsigned ideal;
  return mem_smem_cost_gen(g, addr, mask, size, op, &ideal);
}
