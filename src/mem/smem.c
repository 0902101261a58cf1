/* smem.c - shared-memory banks: wavefronts per warp request (sm_70+).
 *
 * Notes:
 * - 32 banks of 4 bytes: word w = addr / 4 lies in bank w % 32.  The lanes of
 *   a request are served in groups; a group costs as many wavefronts as its
 *   busiest bank has DISTINCT words (lanes reading the same word get it by
 *   broadcast).  l1tex__data_bank_conflicts_* is wavefronts minus the number
 *   of groups with an active lane.
 * - Group size: one wavefront returns at most 128 bytes (one 4-byte register
 *   for 32 lanes), so accesses of up to 4 bytes are one group of 32 lanes,
 *   8-byte accesses two halves of 16 lanes, 16-byte ones four quarters of 8.
 * - Packed uniform loads: a load of 8 or 16 bytes whose active lanes pair up
 *   with equal addresses (lane n and n^1 for every active pair, or n and n^2)
 *   is served in groups twice as large (16-byte: halves, 8-byte: whole warp).
 *   Evidence: mm_s in groundtruth/h200-seed-counters.csv, whose As[ty][k..k+3]
 *   reads ptxas fuses into LDS.128 (20 shared loads per tile: 4 of those and
 *   16 broadcast Bs[k][tx]); lanes 0-15 share one address, lanes 16-31
 *   another; measured 6295295 wavefronts / 262144 tiles = 24.01 = 16 * 1 +
 *   4 * 2, and ~0 bank conflicts, so those LDS.128 take 2 wavefronts, not the
 *   4 of a quarter-warp rule.  An NVIDIA forum answer (thread "Unexpected
 *   shared memory bank conflict", 77228) gives the same pairing rule for
 *   CC 7.x: shared memory returns 128 bytes (one register for the warp) per
 *   cycle, and when paired lanes share addresses their registers are packed,
 *   halving an LDS.128 from 4 passes to 2.  SASS opcode notes tie this to
 *   LDS's .U (uniform) hint, which ptxas sets when it can prove the pairing;
 *   we decide from the addresses, so a pattern ptxas cannot prove uniform is
 *   counted optimistically.  The 8-byte case is by analogy (no measurement).
 * - Atomics (atom/red.shared): lanes on the same word serialize, so a bank
 *   costs one wavefront per lane touching it, not per distinct word (same
 *   group rule, no packing).  Basis: the hardware updates a word once per
 *   pass; there is no shared atomic in the measured seeds to check it, and
 *   real hardware may combine same-address updates in a warp.
 * - Stores: groups as for loads, no packing; several lanes storing to one
 *   word cost one pass.
 * - Ignores extra wavefronts that other L1 traffic adds to the counter (up to
 *   +10% in the measured kernels; see groundtruth/README.md).
 */
#include "mem/mem.h"

/* Every active lane n has the same address as lane n ^ x, where that lane
 * is active. */
static int pairs_uniform(const uint64_t *addr, uint32_t mask, unsigned x)
{
  for (uint32_t m = mask; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctz(m), p = l ^ x;
    if ((mask >> p & 1) && addr[p] != addr[l])
      return 0;
  }
  return 1;
}

/* The busiest bank's cost for the lanes in gm: distinct words, or for
 * atomics, lane-word touches. */
static unsigned group_cost(const uint64_t *addr, uint32_t gm, unsigned size,
                           int atomic)
{
  /* Fast path: no bank touched twice (conflict-free and not a broadcast). */
  uint32_t seen = 0, clash = 0;
  for (uint32_t m = gm; m; m &= m - 1) {
    uint64_t a = addr[__builtin_ctz(m)];
    unsigned b = (unsigned)(a >> 2) & 31;
    unsigned nw = (unsigned)(((a + size - 1) >> 2) - (a >> 2)) + 1; /* 1..5 */
    uint32_t bits = (1u << nw) - 1;
    bits = (bits << b) | (bits >> ((32 - b) & 31));
    clash |= seen & bits;
    seen |= bits;
  }
  if (!clash)
    return 1;

  uint8_t cnt[32] = {0};
  unsigned worst = 0;
  if (atomic) { /* every touch of a bank is a pass: no need to sort */
    for (uint32_t m = gm; m; m &= m - 1) {
      uint64_t a = addr[__builtin_ctz(m)];
      for (uint64_t x = a >> 2; x <= (a + size - 1) >> 2; x++) {
        unsigned c = ++cnt[x & 31];
        worst = c > worst ? c : worst;
      }
    }
    return worst;
  }

  uint64_t w[32 * 5]; /* a lane covers at most 5 words (16 bytes misaligned) */
  unsigned n = 0, sorted = 1;
  for (uint32_t m = gm; m; m &= m - 1) {
    uint64_t a = addr[__builtin_ctz(m)];
    uint32_t w0 = (uint32_t)(a >> 2), w1 = (uint32_t)((a + size - 1) >> 2);
    if (n && w0 < w[n - 1])
      sorted = 0;
    w[n++] = w0;
    for (uint32_t x = w0 + 1; x <= w1; x++)
      w[n++] = x;
  }
  if (!sorted)
    mem_sort64(w, n);
  for (unsigned i = 0; i < n; i++) {
    if (i && w[i] == w[i - 1])
      continue;
    unsigned c = ++cnt[w[i] & 31];
    worst = c > worst ? c : worst;
  }
  return worst;
}

unsigned mem_smem_group_lanes(const uint64_t *addr, uint32_t mask,
                              unsigned size, unsigned op)
{
  unsigned lanes = size <= 4 ? 32 : size <= 8 ? 16 : 8;
  if (op == MEM_LD && lanes < 32 &&
      (pairs_uniform(addr, mask, 1) || pairs_uniform(addr, mask, 2)))
    lanes *= 2;
  return lanes;
}

unsigned mem_smem_cost(const uint64_t *addr, uint32_t mask, unsigned size,
                       unsigned op, unsigned *ideal)
{
  int atomic = op == MEM_ATOM || op == MEM_RED;
  if (size == 0)
    size = 1;
  if (size > 16) /* no PTX access is wider; keeps group_cost's arrays safe */
    size = 16;

  /* The common warps first: 32 words side by side, or one word for all. */
  if (mask == 0xffffffffu && size <= 4 && !atomic) {
    uint64_t a0 = addr[0], side = 0, same = 0;
    for (unsigned l = 1; l < 32; l++) {
      side |= (addr[l] >> 2) ^ ((a0 >> 2) + l);
      same |= (addr[l] >> 2) ^ (a0 >> 2);
    }
    if ((!side || !same) && (a0 & 3) + size <= 4) {
      if (ideal)
        *ideal = 1;
      return 1;
    }
  }

  unsigned lanes = mem_smem_group_lanes(addr, mask, size, op);

  unsigned total = 0, groups = 0;
  uint32_t gbits = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
  for (unsigned g = 0; g < 32; g += lanes) {
    uint32_t gm = mask & (gbits << g);
    if (!gm)
      continue;
    groups++;
    total += group_cost(addr, gm, size, atomic);
  }
  if (ideal)
    *ideal = groups;
  return total;
}

unsigned mem_smem_wavefronts(const uint64_t *addr, uint32_t mask, unsigned size)
{
  return mem_smem_cost(addr, mask, size, MEM_LD, 0);
}

/* ldmatrix and stmatrix (sm_75+).  Each 8x8 matrix of b16 is 8 rows of 16
 * bytes, row r of matrix i at the address lane 8i + r gives.  A wavefront
 * moves 128 bytes through the 32 banks, so one matrix (8 rows x 16 bytes)
 * fits in one wavefront exactly when its rows cover all 32 banks: a
 * 16-byte-aligned row occupies the 4 banks of bank group (addr / 16) % 8,
 * and the matrix costs as many wavefronts as its busiest bank group has
 * distinct rows (rows at the same address are read once).  Matrices are
 * served one after the other, so the ideal is one wavefront per matrix and
 * l1tex__data_bank_conflicts_..._op_ldsm is the excess.  Example: a
 * row-major tile of 64 halves per row puts the 8 rows of a matrix 128 bytes
 * apart, all in one bank group: 8 wavefronts per matrix, 7 conflicts; a
 * padded (72 halves) or XOR-swizzled tile spreads them over the 8 groups: 1.
 * Basis: the PTX ISA's fragment definition and the 128-byte shared-memory
 * return path above; the Nsight Compute measurements are in
 * docs/results/ when taken. */
unsigned mem_smem_matrix_cost(const uint64_t *addr, uint32_t mask, unsigned *ideal)
{
  unsigned total = 0, mats = 0;
  for (unsigned i = 0; i < 4; i++) {
    uint32_t gm = mask & (0xffu << (8 * i));
    if (!gm)
      continue;
    mats++;
    uint64_t row[8];
    unsigned n = 0, cnt[8] = {0}, worst = 0;
    for (uint32_t m = gm; m; m &= m - 1) {
      uint64_t a = addr[__builtin_ctz(m)] >> 4, k = 0;
      while (k < n && row[k] != a)
        k++;
      if (k < n)
        continue; /* the same row twice: read once */
      row[n++] = a;
      unsigned c = ++cnt[a & 7];
      worst = c > worst ? c : worst;
    }
    total += worst;
  }
  if (ideal)
    *ideal = mats;
  return total;
}

/* ---- which wavefront serves each lane (the HTML report's pictures) ------- */

/* Ranks, within one group of lanes gm, each lane's words among the distinct
 * words of their banks (for atomics: among the lanes touching the bank, in
 * lane order): a bank serves one word per wavefront, so a lane is served in
 * the wavefront of its highest-ranked word.  Returns the group's wavefronts,
 * group_cost()'s number. */
static unsigned group_lane_waves(const uint64_t *addr, uint32_t gm, unsigned size, int atomic,
                                 unsigned base, uint16_t *wave)
{
  uint64_t seen[32][32]; /* per bank, its distinct words so far (a lane
                            puts at most one word in a bank) */
  uint8_t nseen[32] = {0};
  unsigned most = 0;
  for (uint32_t m = gm; m; m &= m - 1) {
    unsigned l = (unsigned)__builtin_ctz(m), lane_rank = 0;
    uint64_t a = addr[l];
    for (uint64_t x = a >> 2; x <= (a + size - 1) >> 2; x++) {
      unsigned b = (unsigned)(x & 31), k = 0;
      while (!atomic && k < nseen[b] && seen[b][k] != x)
        k++;
      if (atomic || k == nseen[b]) { /* a new word (atomics: every touch) */
        k = nseen[b];
        seen[b][nseen[b]++ & 31] = x;
      }
      lane_rank = k > lane_rank ? k : lane_rank;
    }
    wave[l] = (uint16_t)(base + lane_rank);
    most = lane_rank + 1 > most ? lane_rank + 1 : most;
  }
  return most;
}

unsigned mem_smem_lane_waves(const uint64_t *addr, uint32_t mask, unsigned size, unsigned op,
                             uint16_t wave[32])
{
  int atomic = op == MEM_ATOM || op == MEM_RED;
  if (size == 0)
    size = 1;
  if (size > 16)
    size = 16;
  for (unsigned l = 0; l < 32; l++)
    wave[l] = 0;
  unsigned lanes = mem_smem_group_lanes(addr, mask, size, op), total = 0;
  uint32_t gbits = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
  for (unsigned g = 0; g < 32; g += lanes) {
    uint32_t gm = mask & (gbits << g);
    if (gm)
      total += group_lane_waves(addr, gm, size, atomic, total, wave);
  }
  return total;
}

unsigned mem_smem_matrix_lane_waves(const uint64_t *addr, uint32_t mask, uint16_t wave[32])
{
  unsigned total = 0;
  for (unsigned l = 0; l < 32; l++)
    wave[l] = 0;
  for (unsigned i = 0; i < 4; i++) {
    uint32_t gm = mask & (0xffu << (8 * i));
    uint64_t row[8];
    unsigned n = 0, cnt[8] = {0}, rank[8] = {0}, worst = 0;
    for (uint32_t m = gm; m; m &= m - 1) {
      unsigned l = (unsigned)__builtin_ctz(m), k = 0;
      uint64_t a = addr[l] >> 4;
      while (k < n && row[k] != a)
        k++;
      if (k == n) { /* a new row: the next pass of its bank group */
        row[n] = a;
        rank[n++] = cnt[a & 7]++;
        worst = cnt[a & 7] > worst ? cnt[a & 7] : worst;
      }
      wave[l] = (uint16_t)(total + rank[k]);
    }
    total += worst;
  }
  return total;
}
