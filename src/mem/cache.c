/* cache.c - the set-associative arrays: an L1 data cache per SM and the L2
 * all SMs share, and what a warp's request does to them (cache_request).
 * replay.c decides which requests come, in which order and on which SM;
 * misses and write-backs go to DRAM (dram.c).
 *
 * Notes (the rules were fitted to the H200 counters of the ground truth;
 * docs/accuracy.md shows how well):
 * - Lines of 128 bytes, four 32-byte sectors, LRU within a set; sets are
 *   picked by a hash of the line address.  A miss fetches only the sectors
 *   asked for.
 * - L1 (sm_70+): global loads allocate (unless they bypass L1); global
 *   stores write through to L2 and keep what they wrote in L1 (a line's
 *   "stored" sectors: a later store hits; a whole sector written is valid
 *   for loads too) where that evicts no loaded data; local loads and stores
 *   allocate (local stores also write through: the measured L2 writes of
 *   local_heap equal its local store sectors); atomics go to L2 and drop
 *   the sector from L1.  The L1s are not kept coherent with each other.
 * - L1 sends L2 one request per 128-byte line a request misses in (with
 *   a mask of its sectors): the L2 request counters.
 * - Store merging: L1 combines a store sector with one it sent moments
 *   before (f3_plain's three stores to the same 12 sectors reach L2 once;
 *   inc_case#2's a[0] stores of successive warps mostly merge), but not
 *   for requests spread over many lines (tr_naive's warps writing the same
 *   32 sectors 4 bytes each all reach L2), nor between warps out of step
 *   (a round trip to L2 of their own since launch or a barrier).  Modelled
 *   as a FIFO of the last merge_sectors store sectors, used by requests of
 *   at most merge_lines lines, and of the warp's own last store request.
 * - L2: write-back, allocates on writes; a sector only partly written is
 *   kept as dirty bytes, and read from DRAM (32 bytes) when it is evicted
 *   or read: strided copies read DRAM for the sectors they half write.  A
 *   read miss fetches fetch_bytes (64 on Hopper: the aligned sector pair;
 *   measured: stride_copy#16 reads 3x the bytes it asks for, 2x for the
 *   loads plus 1x for the fills).  Nothing is written back at kernel end:
 *   Nsight Compute's dram__bytes_write covers the kernel only.
 * - Outstanding misses, for the time model only: a load that hits a
 *   sector another warp missed in the same round waits for the same fill
 *   (CacheSys.pend); it counts as a hit, as Nsight Compute counts it.
 * - L2 partitions (CacheConfig.l2_parts 2, Hopper): a line kept at home
 *   and copied near a reader on the other side (below, "the L2's two
 *   partitions").
 * - Ignored: timing (hits and misses are counted, not delayed), MSHRs,
 *   the L2's slices, prefetching beyond fetch_bytes, and the real
 *   replacement policies (LRU stands in).
 */
#include "mem/cache.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"
#include "util/spill.h"
#include "mem/cache_scan.h"
#include "mem/cache_step.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
/* The two stages' entry points compiled twice, for AVX2 hosts and others
 * (the loader picks one), each with every call inside inlined: the AVX2
 * copy takes the set scans in line instead of a call each.  gcc only:
 * clang's clones, in the fuzzers' build (libFuzzer, ASan), left the
 * entry points undefined at link time. */
#define WM_CACHE_CLONES __attribute__((target_clones("avx2", "default"), flatten))
#else
#define WM_CACHE_CLONES
#endif

/* ---- one set-associative array ------------------------------------------ */

/* The L2's per-line write state, apart from the words a look-up scans,
 * together in one record: a write touches its count and written bytes,
 * and replacing a written line clears them, one host line (two at most)
 * instead of one in each of three arrays (the interleaved SMs' writes
 * miss the host's caches). */
typedef struct LineWrites {
  uint32_t count;      /* writes the line received */
  uint32_t atoms;      /* atomic updates it performed */
  uint32_t written[4]; /* bytes written of each sector not present */
} LineWrites;

/* The shape of a level of `bytes` in lines of 128 bytes, `ways` a set. */
static void level_shape(CacheLevel *lv, uint64_t bytes, int ways) {
  uint64_t lines = bytes / 128;
  if (ways < 1) ways = 1;
  if (ways > CL_MAX_WAYS) ways = CL_MAX_WAYS;
  if (lines < (uint64_t)ways) lines = (uint64_t)ways;
  lv->ways = (uint32_t)ways;
  lv->sets = (uint32_t)(lines / (uint64_t)ways);
}

static size_t level_lines(const CacheLevel *lv) { return (size_t)lv->sets * lv->ways; }

/* Sets up a level shaped by level_shape, empty, on the table `way` (of
 * level_lines words); an L2 also gets its write state (cache_pool.c's
 * tables, cleared). */
static void level_init(CacheLevel *lv, uint64_t *way, int l2) {
  size_t n = level_lines(lv);
  lv->way = way;
  lv->scan = 0;
#ifdef WM_SCAN_AVX2
  lv->scan = (lv->ways == 4 || lv->ways == 8 || lv->ways == 16) && __builtin_cpu_supports("avx2");
#endif
  for (uint32_t w = 0; w < lv->ways; w++) way[w] = (uint64_t)w << CL_RANK; /* empty, ranked */
  for (size_t done = lv->ways; done < n; done *= 2) /* the first set copied over the rest */
    memcpy(way + done, way, (done < n - done ? done : n - done) * sizeof *way);
  lv->writes = NULL;
  if (l2) lv->writes = cache_table_take(n * sizeof *lv->writes); /* cleared way by way: level_fill */
}

/* Gives a level's write state back to the pool (its ways are the
 * caller's). */
static void level_free(CacheLevel *lv) {
  size_t n = level_lines(lv);
  if (lv->writes) cache_table_give(lv->writes, n * sizeof *lv->writes);
  lv->writes = NULL;
}

/* The set of line ln: hashed, as real caches do, so that power-of-two
 * strides (a matrix column) spread over all sets instead of a few. */
static uint64_t line_hash(uint64_t ln) { return (ln ^ (ln >> 11) ^ (ln >> 23)) * 0x9E3779B97F4A7C15ull; }

static size_t set_index(const CacheLevel *lv, uint64_t ln) {
  return (size_t)(((line_hash(ln) >> 32) * lv->sets) >> 32); /* scaled to [0, sets): no division */
}

/* The first way of line ln's set. */
static size_t set_of(const CacheLevel *lv, uint64_t ln) { return set_index(lv, ln) * lv->ways; }

/* ---- the L2's two partitions -----------------------------------------------
 * Hopper's L2 is two partitions (the hopper and h200 presets), each near half the SMs.  A
 * line has a home partition (here a bit of its hash); an SM reads through
 * its own, so a line whose home is the other one is kept twice: at home
 * and as a copy near the reader.  Measured (groundtruth/l2cap_kernels.cu,
 * docs/results/h200-2026-11-26-l2cap): data every SM reads stays in the
 * L2 up to half its size (each line twice), data each SM reads alone up to
 * about two thirds (half its lines twice).  Writes and atomics go to the
 * home partition; a far one drops its side's copy (cache_l2).  With CacheConfig.l2_parts 2
 * the sets are split in two halves, one a partition; a copy sits in the
 * same set of the other half. */

/* Line ln's set in the L2 (its home's, with partitions), and in *far
 * whether it is the other partition than `part`'s, the reader's. */
static size_t l2_set_index(const CacheSys *c, uint64_t ln, unsigned part, unsigned *far) {
  if (c->cfg.l2_parts < 2) {
    *far = 0;
    return set_index(&c->l2, ln);
  }
  /* the home: a hash bit of the line.  The GPU homes 4 KB at a time
   * (tools/gpu/side_probe.cu: 32 lines answer from one side, then the
   * next 32 from the other), by a hash not known beyond that; a line's
   * own bit gives each small buffer the even split the GPU's hash gives
   * on average (with 4 KB pages, mvt_rows#4096's 16 KB vector fell on the
   * wrong sides: 0.67 of the H200's fabric sectors, with lines 0.89) */
  uint64_t h = line_hash(ln);
  unsigned home = (unsigned)(h >> 31) & 1; /* a bit below the set's */
  size_t half = c->l2.sets / 2;
  *far = home != part;
  return home * half + (size_t)(((h >> 32) * half) >> 32);
}

/* The first way of line ln's home set. */
static size_t l2_home_set(const CacheSys *c, uint64_t ln) {
  unsigned far;
  return l2_set_index(c, ln, 0, &far) * c->l2.ways;
}

/* The first way of the same set in the other partition: where a home set's
 * lines are copied. */
static size_t l2_copy_set(const CacheSys *c, size_t at) {
  size_t half = (size_t)(c->l2.sets / 2) * c->l2.ways;
  return at < half ? at + half : at - half;
}

/* The partition SM sm reads through: the preset's measured map
 * (CacheConfig.l2_side), else the two SMs of a TPC on one side and the
 * next TPC's on the other. */
static unsigned sm_part(const CacheSys *c, int sm) {
  const uint64_t *m = c->cfg.l2_side;
  if ((m[0] | m[1] | m[2]) && sm >= 0 && sm < 192) return (unsigned)(m[sm / 64] >> (sm % 64)) & 1;
  return (unsigned)(sm >> 1) & 1;
}

/* Way index of line ln in the set starting at `at`, or SIZE_MAX; the LRU
 * order is left alone. */
static size_t level_find_at(const CacheLevel *lv, size_t at, uint64_t ln) {
#ifdef WM_SCAN_AVX2
  if (lv->scan) {
    SetScan s = scan_avx2(&lv->way[at], lv->ways, ln);
    return s.hit ? at + (size_t)__builtin_ctzll(s.hit) : SIZE_MAX;
  }
#endif
  for (size_t w = at; w < at + lv->ways; w++)
    if (cl_tag(lv->way[w]) == ln + 1) return w;
  return SIZE_MAX;
}

static size_t level_find(const CacheLevel *lv, uint64_t ln) { return level_find_at(lv, set_of(lv, ln), ln); }

/* The way line ln is in, or else the one it would take; the LRU order is
 * left alone. */
static size_t level_way(const CacheLevel *lv, size_t at, uint64_t ln) {
#ifdef WM_SCAN_AVX2
  if (lv->scan) return at + way_avx2(&lv->way[at], lv->ways, ln);
#endif
  size_t v = at;
  for (size_t w = at; w < at + lv->ways; w++) {
    uint64_t t = cl_tag(lv->way[w]);
    if (t == ln + 1 || !t) return w;
    if ((lv->way[w] >> CL_RANK) > (lv->way[v] >> CL_RANK)) v = w;
  }
  return v;
}

/* Makes way w of the set starting at `at` the most recently used. */
static void level_touch(CacheLevel *lv, size_t at, size_t w) {
#ifdef WM_SCAN_AVX2
  if (lv->scan) {
    touch_avx2(&lv->way[at], lv->ways, (uint32_t)(w - at));
    return;
  }
#endif
  uint64_t *set = &lv->way[at], r = lv->way[w] >> CL_RANK;
  if (r == 0) return; /* already the most recent */
  for (uint32_t i = 0; i < lv->ways; i++) set[i] += (uint64_t)((set[i] >> CL_RANK) < r) << CL_RANK;
  lv->way[w] &= ~(63ull << CL_RANK);
}

/* Line ln's way (its set starts at `at`, set_of()), made the most recent;
 * *hit says whether it was there.  On
 * a miss the way is the set's victim (an empty way, else the least
 * recently used), given to the caller with its old state to write back,
 * not yet refilled. */
static inline size_t level_lookup(CacheLevel *lv, size_t at, uint64_t ln, int *hit) {
#ifdef WM_SCAN_AVX2
  if (lv->scan) return at + lookup_avx2(&lv->way[at], lv->ways, ln, hit);
#endif
  SetScan s = scan_loop(&lv->way[at], lv->ways, ln);
  *hit = s.hit != 0;
  size_t v = at + (size_t)__builtin_ctzll(s.hit ? s.hit : s.empty ? s.empty : s.lru);
  level_touch(lv, at, v);
  return v;
}

/* Makes way w hold line ln (its sectors and write state cleared), keeping
 * its rank. */
static void level_fill(CacheLevel *lv, size_t w, uint64_t ln) {
  uint64_t old = lv->way[w];
  lv->way[w] = (old & ~((1ull << CL_RANK) - 1)) | (ln + 1);
  /* Only a write or an atomic changes the write state, and each marks a
   * sector dirty, which stays until the line is replaced: a line without
   * dirty sectors has none to clear (nor its record, a host cache miss, to
   * be touched).  A way's first line clears what the table held before
   * (level_init leaves it: a launch touches a fraction of a 60 MB L2's
   * 12 MB of records). */
  if (lv->writes && ((old >> CL_DIRTY & 15) || !cl_tag(old))) memset(&lv->writes[w], 0, sizeof lv->writes[w]);
}

/* ---- setup ---------------------------------------------------------------- */

/* The warps an SM holds at once in this launch. */
static int sm_warps(const CacheSys *c) { return c->cfg.sm_blocks * c->cfg.warps_per_block; }

/* xbar_cut: all reads may meet, unless an SM holds several blocks (placed
 * as the GPU deals them) whose warps queue Q > XBAR_QUEUE loads at once;
 * then a share (XBAR_QUEUE / Q)^2 (each of the two reads must be that near
 * the head of its SM's queue), of the 2^32 values of a hash. */
static void set_xbar_cut(CacheSys *c) {
  double q = (double)sm_warps(c) * (double)c->cfg.warp_inflight;
  c->xbar_cut = (uint64_t)1 << 32;
  if (c->place.sm && q > XBAR_QUEUE) c->xbar_cut = (uint64_t)ceil(XBAR_QUEUE / q * (XBAR_QUEUE / q) * 4294967296.0);
}

void cache_set_inflight(CacheSys *c, int loads) {
  c->cfg.warp_inflight = loads;
  set_xbar_cut(c);
}

void cache_init(CacheSys *c, const CacheConfig *cfg) {
  memset(c, 0, sizeof *c);
  c->cfg = *cfg;
  if (c->cfg.sms < 1) c->cfg.sms = 1;
  if (c->cfg.blocks_per_sm < 1) c->cfg.blocks_per_sm = 1;
  if (c->cfg.group < 1 || c->cfg.blocks_per_sm % c->cfg.group) c->cfg.group = 1;
  if (c->cfg.fetch_bytes < 32) c->cfg.fetch_bytes = 32;
  c->l1 = wm_xcalloc((size_t)c->cfg.sms, sizeof *c->l1);
  c->l2_last_ln[0] = c->l2_last_ln[1] = UINT64_MAX;
  if (c->cfg.l1_bytes) { /* every SM's L1 in one table */
    for (int s = 0; s < c->cfg.sms; s++) level_shape(&c->l1[s], c->cfg.l1_bytes, c->cfg.l1_ways);
    size_t lines = level_lines(&c->l1[0]);
    uint64_t *way = cache_table_take((size_t)c->cfg.sms * lines * sizeof *way);
    for (int s = 0; s < c->cfg.sms; s++) level_init(&c->l1[s], way + (size_t)s * lines, 0);
  }
  level_shape(&c->l2, c->cfg.l2_bytes ? c->cfg.l2_bytes : 128, c->cfg.l2_ways);
  if (c->cfg.l2_parts == 2 && c->l2.sets >= 2) c->l2.sets &= ~1u; /* two halves alike */
  else c->cfg.l2_parts = 1;
  level_init(&c->l2, cache_table_take(level_lines(&c->l2) * sizeof *c->l2.way), 1);
  if (c->cfg.merge_sectors > 0) {
    size_t n = (size_t)c->cfg.merge_sectors, bytes = n * (sizeof(uint64_t) + 3 * sizeof(uint32_t)) + sizeof(uint32_t);
    c->merge_stride = (bytes + 63) / 64 * 64;
    c->merge = wm_xaligned(64, (size_t)c->cfg.sms * c->merge_stride);
#ifdef WM_SCAN_AVX2
    c->merge_scan = n == 16 && __builtin_cpu_supports("avx2");
#endif
    memset(c->merge, 0, (size_t)c->cfg.sms * c->merge_stride);
  }
  if (c->cfg.partial_sectors)
    c->partial = wm_xmalloc((size_t)c->cfg.partial_sectors * sizeof *c->partial);
  if (c->cfg.sm_blocks < 1 || c->cfg.sm_blocks > c->cfg.blocks_per_sm) c->cfg.sm_blocks = c->cfg.blocks_per_sm;
  if (c->cfg.layout && c->cfg.group == 1 && c->cfg.cluster_blocks > 1)
    place_init_clusters(&c->place, c->cfg.layout, c->cfg.sms, c->cfg.blocks_per_sm, c->cfg.cluster_blocks);
  else if (c->cfg.layout && c->cfg.group == 1 && c->cfg.blocks_per_sm >= 2)
    place_init(&c->place, c->cfg.layout, c->cfg.sms, c->cfg.blocks_per_sm, c->cfg.sm_blocks);
  c->xbar_of = c->place.sm ? xbar_dealt_groups(c->cfg.layout, c->cfg.sms, c->cfg.xbar_sms, sm_warps(c))
                           : xbar_groups(c->cfg.sms, c->cfg.xbar_sms, c->cfg.xbar_paired);
  if (c->xbar_of) xbar_init(&c->xbar);
  set_xbar_cut(c);
  c->pend = wm_xaligned(64, (size_t)c->cfg.sms * CACHE_PEND * 2 * sizeof *c->pend);
  memset(c->pend, 0, (size_t)c->cfg.sms * CACHE_PEND * 2 * sizeof *c->pend);
  dram_init(&c->dram, c->cfg.channels, c->cfg.banks, c->cfg.row_bytes, c->cfg.interleave);
  if (c->cfg.lat_l2) {
    c->slot_clock = wm_xcalloc((size_t)c->cfg.sms * (size_t)c->cfg.blocks_per_sm, sizeof *c->slot_clock);
    c->seen = wm_xcalloc(CLOCK_SEEN, sizeof *c->seen);
  }
}

void cache_free(CacheSys *c) {
  if (c->l1 && c->l1[0].way)
    cache_table_give(c->l1[0].way, (size_t)c->cfg.sms * level_lines(&c->l1[0]) * sizeof *c->l1[0].way);
  free(c->l1);
  level_free(&c->l2);
  cache_table_give(c->l2.way, level_lines(&c->l2) * sizeof *c->l2.way);
  free(c->merge);
  free(c->pend);
  free(c->partial);
  free(c->xbar_of);
  free(c->slot_clock);
  free(c->seen);
  place_free(&c->place);
  xbar_free(&c->xbar);
  dram_free(&c->dram);
  memset(c, 0, sizeof *c);
}

void cache_add_metrics(const CacheSys *c, uint64_t *m) {
  static const int keep[] = {WM_M_L1_HIT, WM_M_L1_MISS, WM_M_L2_RD,  WM_M_L2_WR,    WM_M_L2_ATOM, WM_M_L2_RED, WM_M_MISS_REQ, WM_M_ROUND_REQ, WM_M_MISS_ROUNDS, WM_M_L2_RDREQ, WM_M_L2_WRREQ, WM_M_RAW, WM_M_L1_LINES,
                             WM_M_L2_HIT, WM_M_L2_MISS, WM_M_L2_FABRIC, WM_M_DRAM_USED, WM_M_TEX_HIT, WM_M_TEX_MISS,
                             WM_M_SULD_HIT, WM_M_SULD_MISS, WM_M_LDGSTS_HIT,
                             WM_M_LDGSTS_MISS, WM_M_TMA_L2_RD};
  for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++) m[keep[i]] += c->metric[keep[i]];
  m[WM_M_L2_RD] -= c->xbar.merged; /* the workers counted them, the crossbar merged them */
  m[WM_M_L2_RDREQ] -= c->xbar.merged_req;
  m[WM_M_XBAR] += c->xbar.merged;
  dram_add_metrics(&c->dram, m);
  if (c->hot_writes > m[WM_M_HOT]) m[WM_M_HOT] = c->hot_writes;
  if (c->hot_atoms > m[WM_M_HOT_ATOM]) m[WM_M_HOT_ATOM] = c->hot_atoms;
  for (size_t i = 0; c->slot_clock && i < (size_t)c->cfg.sms * (size_t)c->cfg.blocks_per_sm; i++)
    if (c->slot_clock[i] > m[WM_M_REPLAY_CLOCKS]) m[WM_M_REPLAY_CLOCKS] = c->slot_clock[i];
}

/* ---- L2 ----------------------------------------------------------------- */

/* Writes back what way w holds (its dirty sectors, a partly written one
 * completed from DRAM first) before it takes another line. */
static void l2_evict(CacheSys *c, size_t w) {
  uint64_t m = c->l2.way[w];
  if (!cl_tag(m)) return;
  uint64_t base = (cl_tag(m) - 1) * 128;
  for (unsigned s = 0; s < 4; s++) {
    if (!cl_has(m, CL_DIRTY, s)) continue;
    if (!cl_has(m, CL_VALID, s)) { /* fill a partial write first */
      dram_access(&c->dram, base + 32 * s, 32, 0);
      c->metric[WM_M_DRAM_USED] += 32;
    }
    dram_access(&c->dram, base + 32 * s, 32, 1);
  }
}

/* The way holding line ln, brought in (empty of sectors) on a miss. */
static size_t l2_line(CacheSys *c, uint64_t ln, size_t at) {
  /* the line of the previous look-up (a request's sectors come in line
   * order) is still in its way, and already the most recent: no look-up;
   * nor the one before, where another set's came between (a far read's
   * copy, then its home) */
  if (ln == c->l2_last_ln[0] && at == c->l2_last_at[0]) return c->l2_last_way[0];
  size_t w;
  if (ln == c->l2_last_ln[1] && at == c->l2_last_at[1] && at != c->l2_last_at[0]) {
    w = c->l2_last_way[1];
  } else {
    int hit;
    w = level_lookup(&c->l2, at, ln, &hit);
    if (!hit) {
      l2_evict(c, w);
      level_fill(&c->l2, w, ln);
    }
  }
  c->l2_last_ln[1] = c->l2_last_ln[0], c->l2_last_at[1] = c->l2_last_at[0], c->l2_last_way[1] = c->l2_last_way[0];
  c->l2_last_ln[0] = ln, c->l2_last_at[0] = at, c->l2_last_way[0] = w;
  return w;
}

/* Makes sector s of way w present, fetching from DRAM: a read miss brings
 * fetch_bytes (the aligned group of sectors around s), a sector that was
 * only partly written just its own 32 bytes. */
static void l2_fill(CacheSys *c, size_t w, unsigned s) {
  uint64_t *m = &c->l2.way[w], base = (cl_tag(*m) - 1) * 128;
  if (cl_has(*m, CL_DIRTY, s)) { /* merge the written bytes into the sector */
    dram_access(&c->dram, base + 32 * s, 32, 0);
    c->metric[WM_M_DRAM_USED] += 32;
    cl_set(m, CL_VALID, s);
    c->l2.writes[w].written[s] = 0;
    return;
  }
  unsigned n = (unsigned)c->cfg.fetch_bytes / 32;
  if (n > 4) n = 4;
  unsigned first = s / n * n;
  dram_access(&c->dram, base + 32 * first, 32 * n, 0);
  for (unsigned i = first; i < first + n; i++)
    if (!cl_has(*m, CL_DIRTY, i) && !cl_has(*m, CL_VALID, i) && i != s) {
      cl_set(m, CL_VALID, i);
      cl_set(m, CL_UNUSED, i);
    }
  cl_set(m, CL_VALID, s);
  c->metric[WM_M_DRAM_USED] += 32;
}

/* A sector fetched along with another counts as used when first touched. */
static void note_use(CacheSys *c, uint64_t *m, unsigned s) {
  if (cl_has(*m, CL_UNUSED, s)) {
    cl_clear(m, CL_UNUSED, s);
    c->metric[WM_M_DRAM_USED] += 32;
  }
}

static void l2_read(CacheSys *c, uint64_t sector, size_t at) {
  size_t w = l2_line(c, sector >> 2, at);
  unsigned s = sector & 3;
  if (cl_has(c->l2.way[w], CL_VALID, s)) {
    c->metric[WM_M_L2_HIT]++;
    note_use(c, &c->l2.way[w], s);
    return;
  }
  c->metric[WM_M_L2_MISS]++;
  l2_fill(c, w, s);
}

/* A read through the partition that is not the sector's home (at: the
 * home set): served by the copy there, else by the home over the fabric
 * between them, which fills the copy.  Each look-up counts (Nsight
 * Compute's lookup hits and misses take both partitions'; l2cap's l2_own
 * misses each sector once from L1, its copies crossing once: 482 K
 * fabric sectors of 938 K). */
static void l2_read_far(CacheSys *c, uint64_t sector, size_t at) {
  size_t w = l2_line(c, sector >> 2, l2_copy_set(c, at));
  unsigned s = sector & 3;
  if (cl_has(c->l2.way[w], CL_VALID, s)) {
    c->metric[WM_M_L2_HIT]++;
    return;
  }
  c->metric[WM_M_L2_MISS]++;
  c->metric[WM_M_L2_FABRIC]++;
  l2_read(c, sector, at);
  c->l2.way[c->l2_last_way[0]] |= 1ull << CL_COPIED; /* the home line (l2_line) */
  cl_set(&c->l2.way[w], CL_VALID, s); /* the copy, still in way w: the home's set is another */
}

/* A far write or atomic drops the copy of its line on its side, when the
 * home line (the last one l2_line gave) says there may be one.  (A copy
 * that outlived its home line's eviction is missed.) */
static void l2_drop_copy(CacheSys *c, uint64_t sector, size_t at) {
  uint64_t *home = &c->l2.way[c->l2_last_way[0]];
  if (!(*home >> CL_COPIED & 1)) return;
  *home &= ~(1ull << CL_COPIED);
  size_t w = level_find_at(&c->l2, l2_copy_set(c, at), sector >> 2);
  if (w != SIZE_MAX) c->l2.way[w] &= ~(15ull << CL_VALID);
}

/* Notes that `sector` became partly written; past the L2's limit on such
 * sectors, the oldest one still partial is completed from DRAM.  (Measured:
 * strided copies that half-write every sector leave about 7 MB unfilled at
 * the end, whatever their size.) */
#define PARTIAL_AHEAD 16

static void partial_push(CacheSys *c, uint64_t sector) {
  size_t cap = c->cfg.partial_sectors;
  if (!cap) return;
  if (c->partial_n == cap) {
    /* the sector completed PARTIAL_AHEAD pushes from now: its L2 set,
     * asked for now (strided stores push one a store, each a host cache
     * miss in a 30 MB table otherwise) */
    size_t ahead = c->partial_pos + PARTIAL_AHEAD;
    if (cap > PARTIAL_AHEAD) { /* both host lines of a 16-way set */
      size_t at = l2_home_set(c, c->partial[ahead < cap ? ahead : ahead - cap] >> 2);
      __builtin_prefetch(&c->l2.way[at]);
      __builtin_prefetch(&c->l2.way[at + c->l2.ways - 1]);
    }
    uint64_t old = c->partial[c->partial_pos];
    size_t w = level_find_at(&c->l2, l2_home_set(c, old >> 2), old >> 2);
    unsigned s = old & 3;
    if (w != SIZE_MAX && cl_has(c->l2.way[w], CL_DIRTY, s) && !cl_has(c->l2.way[w], CL_VALID, s)) {
      uint64_t base = (cl_tag(c->l2.way[w]) - 1) * 128;
      dram_access(&c->dram, base + 32 * s, 32, 0);
      c->metric[WM_M_DRAM_USED] += 32;
      cl_set(&c->l2.way[w], CL_VALID, s);
      c->l2.writes[w].written[s] = 0;
    }
  } else {
    c->partial_n++;
  }
  c->partial[c->partial_pos] = sector;
  if (++c->partial_pos == cap) c->partial_pos = 0; /* not a division a store */
}

/* Counts one more write to way w's line: a line every warp writes (a[0])
 * serializes the warps at its L2 slice (CacheSys.hot_writes). */
static void count_write(CacheSys *c, size_t w) {
  uint32_t *n = &c->l2.writes[w].count;
  if (++*n > c->hot_writes) c->hot_writes = *n;
}

/* Writes `bytes` of a sector; `merged`: L1 combined them with a write it
 * sent before, so L2 counts no new access. */
static void l2_write(CacheSys *c, uint64_t sector, size_t at, uint32_t bytes, int merged) {
  size_t w = l2_line(c, sector >> 2, at);
  uint64_t *m = &c->l2.way[w];
  unsigned s = sector & 3;
  count_write(c, w); /* merged or not: see cache.h */
  if (!merged) c->metric[cl_has(*m, CL_VALID, s) ? WM_M_L2_HIT : WM_M_L2_MISS]++;
  note_use(c, m, s);
  cl_set(m, CL_DIRTY, s);
  if (cl_has(*m, CL_VALID, s)) return;
  uint32_t *written = &c->l2.writes[w].written[s];
  if (bytes == 0xffffffffu) { /* whole: what was written before does not matter (a store, no load to wait for) */
    cl_set(m, CL_VALID, s);
    *written = 0;
    return;
  }
  int was_partial = *written != 0;
  *written |= bytes;
  if (*written == 0xffffffffu) {
    cl_set(m, CL_VALID, s);
    *written = 0;
  } else if (!was_partial) {
    partial_push(c, sector);
  }
}

/* `ops` updates of a sector, one after another in its slice (lanes on one
 * word each count: atom_hot#132x1's 540,672 take 398 us on an H100). */
static void l2_atomic(CacheSys *c, uint64_t sector, size_t at, uint32_t ops) {
  size_t w = l2_line(c, sector >> 2, at);
  unsigned s = sector & 3;
  if (!cl_has(c->l2.way[w], CL_VALID, s)) {
    c->metric[WM_M_L2_MISS]++;
    l2_fill(c, w, s);
  } else {
    c->metric[WM_M_L2_HIT]++;
    note_use(c, &c->l2.way[w], s);
  }
  count_write(c, w);
  uint32_t *n = &c->l2.writes[w].atoms;
  *n += ops;
  if (*n > c->hot_atoms) c->hot_atoms = *n;
  cl_set(&c->l2.way[w], CL_DIRTY, s);
}

/* ---- L1 ----------------------------------------------------------------- */

/* The L1 line a request touched last: the request's next sector in the
 * same line needs no look-up (the line is still there, and already the
 * most recent).  Good for one request only: other requests may evict it. */
typedef struct L1Last {
  uint64_t ln;
  size_t way;
} L1Last;

/* A load of `sector` through this L1: 1 on a hit; on a miss the sector is
 * allocated (the caller fetches it from L2).  Either way the line becomes
 * the most recent. */
static int l1_load(CacheLevel *lv, uint64_t sector, L1Last *last) {
  if (!lv->way) return 0;
  uint64_t ln = sector >> 2;
  unsigned s = sector & 3;
  size_t w = last->way;
  if (ln != last->ln) {
    int hit;
    w = level_lookup(lv, set_of(lv, ln), ln, &hit);
    if (!hit) level_fill(lv, w, ln); /* no sector valid: the test below misses */
    *last = (L1Last){ln, w};
  }
  if (cl_has(lv->way[w], CL_VALID, s)) return 1;
  cl_set(&lv->way[w], CL_VALID, s);
  return 0;
}

/* A global store looks its sector up (Nsight Compute counts the lookup: a
 * hit when the sector is valid or a store wrote it before) and leaves it
 * written in L1: a line it allocates takes a way without loaded data, and
 * keeps its LRU rank (a line only stored goes first); a line with loaded
 * data becomes the most recent (the public set's in-place mvt_cols,
 * gemver_x, corr_std on the H200: y[i] += A[j][i] y[j] keeps y's line, all
 * its store sectors hit; 195% of the misses when stores left LRU alone).
 * 1 on a hit.
 * Measured on an H100 (docs/results/h100-2026-11-25-hierarchy): st_loop#256's
 * 2.16 M store sectors to lines its loads brought hit; copy_grid's miss.  On
 * the H200 (docs/results/h200-2026-11-26-merge): st_gap's stores miss once a
 * sector, then hit (L1 lookups equal for 7 of the 15 merge probes, 0
 * before); PolyBench-style cov_product's loads keep hitting under its
 * stores. */
static int l1_store_lookup(CacheLevel *lv, uint64_t sector, uint32_t bytes, L1Last *last) {
  if (!lv->way) return 0;
  uint64_t ln = sector >> 2;
  unsigned s = sector & 3;
  size_t w = last->way;
  if (ln != last->ln) {
    size_t at = set_of(lv, ln);
    w = level_way(lv, at, ln); /* the LRU order left alone: a line only stored goes first */
    if (cl_tag(lv->way[w]) != ln + 1) {
      if (lv->way[w] >> CL_VALID & 0xf) return 0; /* it would evict loaded data: not allocated */
      level_fill(lv, w, ln);
    } else if (lv->way[w] >> CL_VALID & 0xf) {
      level_touch(lv, at, w); /* a line with loaded data: the store makes it recent */
    }
    *last = (L1Last){ln, w};
  }
  int hit = cl_has(lv->way[w], CL_VALID, s) | cl_has(lv->way[w], CL_DIRTY, s);
  cl_set(&lv->way[w], CL_DIRTY, s);                      /* L1: stored, so a later store hits */
  if (bytes == UINT32_MAX) cl_set(&lv->way[w], CL_VALID, s); /* and loads hit a whole sector */
  return hit;
}

static void l1_drop(CacheLevel *lv, uint64_t sector) {
  if (!lv->way) return;
  size_t w = level_find(lv, sector >> 2);
  if (w != SIZE_MAX) cl_clear(&lv->way[w], CL_VALID, sector & 3);
}

/* A store merged with FIFO entry i: 1.  A wide one leaves the entry sent
 * (a third warp's store goes on its own). */
static inline int merge_found(uint64_t *fifo, int i, int wide) {
  if (wide) fifo[i] = 0;
  return 1;
}

/* 1 if a recent store of the same block on SM sm wrote this sector (then
 * it is merged).  Stores of different blocks do not merge (H100 probe
 * st_blocks: 8435 of 8448 one-float stores of neighbouring blocks reach
 * L2); another warp's of the block do (st_warps: 1642 of 8448), in pairs
 * when the request is `wide` (merge_found), if the two warps are in step
 * (`step`: see "In step" in cache_step.h). */
static int merged_store(CacheSys *c, int sm, uint64_t sector, uint64_t block, unsigned warp, uint32_t step,
                        int wide) {
  int n = c->cfg.merge_sectors;
  if (n <= 0) return 0;
  uint8_t *at = c->merge + (size_t)sm * c->merge_stride;
  uint64_t *fifo = (uint64_t *)(void *)at;
  uint32_t *blk = (uint32_t *)(void *)(at + (size_t)n * sizeof *fifo), b = (uint32_t)block;
  uint32_t *who = blk + n;
  uint32_t *stp = who + n;
  uint32_t *pos = stp + n;
  /* another warp's store (the warp's own merge only with its previous
   * store, when adjacent: cache_request) */
#ifdef WM_SCAN_AVX2
  if (c->merge_scan) /* 16 entries: the sector's matches in four compares, the rest checked for those */
    for (uint64_t m = fifo_avx2(fifo, sector + 1); m; m &= m - 1) {
      int i = __builtin_ctzll(m);
      if (blk[i] == b && who[i] != warp && stp[i] == step) return merge_found(fifo, i, wide);
    }
  else
#endif
    for (int i = 0; i < n; i++)
      if (fifo[i] == sector + 1 && blk[i] == b && who[i] != warp && stp[i] == step)
        return merge_found(fifo, i, wide);
  fifo[*pos] = sector + 1;
  blk[*pos] = b;
  who[*pos] = warp;
  stp[*pos] = step;
  if (++*pos == (uint32_t)n) *pos = 0;
  return 0;
}

/* ---- one request ---------------------------------------------------------- */

/* Lines touched by the request starting at r[0] (records up to the next
 * `first`); *end gets the index after it. */
static unsigned request_lines(const TraceRec *r, size_t n, size_t i, size_t *end) {
  uint64_t seen[32], hi = 0;
  unsigned nl = 0;
  size_t j = i;
  do {
    uint64_t ln = r[j].sector >> 2;
    unsigned k = 0;
    if (nl && ln == seen[nl - 1]) k = nl - 1; /* the line last seen: sectors come sorted */
    else if (nl && ln > hi) k = nl; /* above every line so far: new, no search */
    else
      while (k < nl && seen[k] != ln) k++;
    if (ln > hi) hi = ln;
    if (k == nl && nl < 32) seen[nl++] = ln;
    j++;
  } while (j < n && !r[j].first);
  *end = j;
  return nl;
}

/* L1 sends L2 one request per 128-byte line (with a mask of its sectors):
 * a request's sectors come sorted by lane, so a new line starts a new L2
 * request unless it equals the previous one. */
/* Counts an L2 request when sector starts a new line; 1 if it did. */
static int count_request(uint64_t *metric, int which, uint64_t sector, uint64_t *last_line) {
  int fresh = sector >> 2 != *last_line;
  metric[which] += (uint64_t)fresh;
  *last_line = sector >> 2;
  return fresh;
}

static int in_last_store(const CacheLastStore *ls, uint64_t sector) {
  for (int i = 0; i < ls->n; i++)
    if (ls->sec[i] == sector) return 1;
  return 0;
}

/* Room for one more operation (rarely needed: the buffers are reused). */
static __attribute__((noinline, cold)) void grow_ops(L2Ops *out) { l2ops_reserve(out, out->n + 1); }

/* The L2 set of the line a request sent last (its next sector is likely
 * in the same line: no second hash). */
typedef struct SentSet {
  uint64_t ln;
  uint32_t set;  /* its home set << 1 | far (l2_set_index) */
  unsigned part; /* the SM's partition */
} SentSet;

/* Queues an operation for the L2 with its set (hashed here, in the L1
 * stage the host threads share, not in the one serial L2 stage). */
static inline void send_line(const CacheSys *c, L2Ops *out, uint64_t sector, uint32_t bytes, unsigned kind,
                             SentSet *last) {
  if (__builtin_expect(out->n == out->cap, 0)) grow_ops(out);
  if (sector >> 2 != last->ln) {
    unsigned far;
    size_t set = l2_set_index(c, sector >> 2, last->part, &far);
    *last = (SentSet){sector >> 2, (uint32_t)(set << 1 | far), last->part};
  }
  out->op[out->n++] = (L2Op){sector, bytes, last->set << 2 | kind};
}

/* Queues a read for the L2, counting its request; tagged for the
 * crossbar (xbar_tag), marked where it starts a request. */
static inline void send_read(const CacheSys *c, L2Ops *out, uint64_t sector, uint64_t *metric, uint64_t *last_rd,
                             uint32_t tag, SentSet *sent) {
  int fresh = count_request(metric, WM_M_L2_RDREQ, sector, last_rd);
  send_line(c, out, sector, tag && fresh ? tag | XBAR_NEWREQ : tag, L2_READ, sent);
}

/* Asks the host for the set of an L1 that sector maps to. */
static void prefetch_set(const CacheLevel *l1, uint64_t sector) {
  if (l1->way) __builtin_prefetch(&l1->way[set_of(l1, sector >> 2)]);
}

/* Asks for the L1 sets of the request's sectors before any is looked up:
 * one host cache miss at a time would bound the replay. */
static void prefetch_l1(const CacheLevel *l1, const TraceRec *r, size_t n, uint64_t local) {
  uint64_t add = r[0].kind == TR_LOCAL_LD || r[0].kind == TR_LOCAL_ST ? local : 0, ln = UINT64_MAX;
  for (size_t i = 0; i < n; i++) /* a request is of one kind; its sectors come sorted: a line once */
    if ((r[i].sector + add) >> 2 != ln) {
      ln = (r[i].sector + add) >> 2;
      prefetch_set(l1, r[i].sector + add);
    }
}

void cache_prefetch_l1(const CacheSys *c, int sm, uint64_t sector) { prefetch_set(&c->l1[sm], sector); }

void cache_warm_l1(const CacheSys *c, int sm) {
  const CacheLevel *l1 = &c->l1[sm];
  if (!l1->way) return;
  const char *p = (const char *)l1->way, *end = p + level_lines(l1) * sizeof *l1->way;
  for (; p < end; p += 64) __builtin_prefetch(p);
}

/* The warp's last store request becomes `now` if this one (of `kind`) is
 * a store.  Only back-to-back stores merge: a warp that loads (or runs an
 * atomic) between two stores to the same sectors sends both to L2 (H100
 * probes st_loop#256, matvec_alias, chain#same: every iteration's store
 * reaches L2). */
static void keep_last_store(CacheLastStore *last, const CacheLastStore *now, unsigned kind) {
  if (kind == TR_ST || kind == TR_LOCAL_ST) {
    last->n = now->n;
    memcpy(last->sec, now->sec, (size_t)now->n * sizeof now->sec[0]);
  } else {
    last->n = 0;
  }
}

/* Whether a read tagged `tag` (its slot, warp and round; not its SM's
 * group) may meet its group's: when a hash of what the group's reads have
 * in common (so they meet or not together) falls below xbar_cut. */
static int xbar_meets(const CacheSys *c, uint64_t sector, uint32_t tag) {
  if (c->xbar_cut > UINT32_MAX) return 1;
  uint64_t h = (sector ^ (uint64_t)(tag & 0xffffff) << 40) * 0x9E3779B97F4A7C15ull;
  return (h >> 32) < c->xbar_cut;
}

/* A TMA store's or reduction's sector: to L2 past L1 (a copy there is
 * stale), a write or a reduction performed there as red's. */
static void bulk_write(CacheSys *c, CacheLevel *l1, const TraceRec *x, uint64_t *metric, uint64_t *last_wr,
                       SentSet *sent, L2Ops *out) {
  l1_drop(l1, x->sector);
  if (x->kind == TR_BULK_RED) {
    metric[WM_M_L2_RED]++;
    send_line(c, out, x->sector, x->ops, L2_ATOM, sent);
    return;
  }
  count_request(metric, WM_M_L2_WRREQ, x->sector, last_wr);
  metric[WM_M_L2_WR]++;
  send_line(c, out, x->sector, x->bytes, L2_WRITE, sent);
}

/* A request that starts a round of loads (TR_ROUND) starts one for the
 * crossbar too; so does each of the TMA's reads, a round of its own: an
 * SM's later copy of the same sectors reads L2 again (tma_chain_box#1k: 256
 * loads of one box, 8192 sectors at the H200's L2), other SMs' copies of
 * the same round still meet it at the crossbar. */
static void start_round(const TraceRec *r, CacheLastStore *last, uint64_t *metric) {
  if (r[0].first & TR_ROUND) last->round++, last->round_missed = 0, last->round_last = 0, metric[WM_M_ROUND_REQ]++;
  if (r[0].kind == TR_BULK) last->round++;
}

/* Long because it is the one switch over what each kind of record does to
 * L1 and sends to L2, a few lines a kind. */
WM_CACHE_CLONES void cache_request(CacheSys *c, int sm, uint64_t block, uint32_t xbar, const TraceRec *r, size_t n,
                                   uint64_t local, CacheLastStore *last, uint64_t *metric, L2Ops *out, uint8_t *wait) {
  CacheLevel *l1 = &c->l1[sm];
  size_t end;
  prefetch_l1(l1, r, n, local);
  unsigned lines = request_lines(r, n, 0, &end);
  int merge_ok = r[0].kind == TR_ST && lines <= (unsigned)c->cfg.merge_lines; /* local stores: local_heap shows none merged */
  int wide = 2 * n > (size_t)c->cfg.merge_sectors; /* two such requests fill the merge buffer */
  if (r[0].kind < TR_BULK) metric[WM_M_L1_LINES] += lines; /* the TMA looks up no L1 tag */
  uint64_t last_rd = UINT64_MAX, last_wr = UINT64_MAX; /* line of the last L2 request */
  CacheLastStore now; /* not zeroed whole: 32 sectors, of which n are used */
  now.n = 0;
  L1Last l1_last = {UINT64_MAX, 0};
  SentSet sent = {UINT64_MAX, 0, sm_part(c, sm)};
  uint64_t reads_before = metric[WM_M_L2_RDREQ];
  if (r[0].first & TR_AFTER_BAR) /* the block's warps left the barrier together */
    last->step = 0, last->round_last = 0;
  start_round(r, last, metric);
  uint32_t tag = xbar_at_round(xbar, r[0].warp, last->round);
  if (tag && !xbar_meets(c, r[0].sector, tag)) tag = 0;
  int pending = 0; /* a hit on a sector still on its way (pend_fill) */
  LineFill lf = {UINT64_MAX, 0, 0};
  memset(wait, RW_NONE, n);
  for (size_t i = 0; i < n; i++) {
    const TraceRec *x = &r[i];
    uint64_t sec = x->sector;
    /* cp.async reads as a load does, and is counted apart as well */
    int ldgsts = x->kind == TR_LDGSTS || x->kind == TR_LDGSTS_NC;
    unsigned kind = !ldgsts ? x->kind : x->kind == TR_LDGSTS ? TR_LD : TR_LD_NC;
    switch (kind) {
    case TR_LOCAL_LD:
      sec += local;
      /* fall through */
    case TR_LD:
    case TR_TEX:
    case TR_SULD: {
      static const uint16_t hit[] = {[TR_TEX] = WM_M_TEX_HIT, [TR_SULD] = WM_M_SULD_HIT},
                          miss[] = {[TR_TEX] = WM_M_TEX_MISS, [TR_SULD] = WM_M_SULD_MISS};
      int tex = x->kind == TR_TEX || x->kind == TR_SULD;
      if (l1_load(l1, sec, &l1_last)) {
        metric[WM_M_L1_HIT]++, wait[i] = RW_HIT;
        pending |= load_waits(c, sm, sec, 1, block, r[0].warp, last, &lf) & !last->round_missed;
        if (tex) metric[hit[x->kind]]++;
        metric[WM_M_LDGSTS_HIT] += (uint64_t)ldgsts;
        break;
      }
      metric[WM_M_L1_MISS]++, wait[i] = RW_MISS;
      load_waits(c, sm, sec, 0, block, r[0].warp, last, &lf);
      if (tex) metric[miss[x->kind]]++;
      metric[WM_M_LDGSTS_MISS] += (uint64_t)ldgsts;
      metric[WM_M_L2_RD]++;
      send_read(c, out, sec, metric, &last_rd, tag, &sent);
      break;
    }
    case TR_BULK: /* the TMA's read: L2 only, no L1 lookup */
    case TR_LD_NC:
      own_fill_waits(last, sec, block, r[0].warp), wait[i] = kind == TR_LD_NC ? RW_MISS : RW_NONE; /* TMA: emu_clock.c */
      metric[WM_M_L1_MISS] += kind == TR_LD_NC;
      metric[WM_M_TMA_L2_RD] += kind == TR_BULK;
      metric[WM_M_L2_RD]++;
      send_read(c, out, sec, metric, &last_rd, tag, &sent);
      break;
    case TR_LOCAL_ST: /* allocates its sector (it also writes through) */
      sec += local;
      metric[l1_load(l1, sec, &l1_last) ? WM_M_L1_HIT : WM_M_L1_MISS]++;
      /* fall through */
    case TR_ST: {
      if (kind == TR_ST && (r[0].first & TR_STRONG)) /* past L1, and any copy there is stale */
        metric[WM_M_L1_MISS]++, l1_drop(l1, sec);
      else if (kind == TR_ST)
        metric[l1_store_lookup(l1, sec, x->bytes, &l1_last) ? WM_M_L1_HIT : WM_M_L1_MISS]++;
      int merged = merge_ok && (((r[0].first & TR_AFTER_ST) && in_last_store(last, sec)) | merged_store(c, sm, sec, block, x->warp, last->step, wide));
      if (!merged) {
        count_request(metric, WM_M_L2_WRREQ, sec, &last_wr);
        metric[WM_M_L2_WR]++;
      }
      send_line(c, out, sec, x->bytes, merged ? L2_WRITE_MERGED : L2_WRITE, &sent), wait[i] = RW_STORE;
      if (now.n < 32) now.sec[now.n++] = sec;
      break;
    }
    case TR_BULK_ST:
    case TR_BULK_RED: bulk_write(c, l1, x, metric, &last_wr, &sent, out); break;
    case TR_ATOM: /* looked up (a miss: atomics run in L2) and dropped from L1;
                     each update a lookup (atom_hot#132x1: 540,672 misses) */
    case TR_RED:
      metric[WM_M_L1_MISS] += x->ops;
      l1_drop(l1, sec);
      metric[kind == TR_ATOM ? WM_M_L2_ATOM : WM_M_L2_RED]++;
      if (kind == TR_ATOM) own_fill_waits(last, sec, block, r[0].warp); /* the warp waits for its result */
      wait[i] = kind == TR_ATOM ? RW_MISS : RW_STORE;
      send_line(c, out, sec, x->ops, L2_ATOM, &sent); /* L2Op.bytes: the updates */
      break;
    }
  }
  int missed = metric[WM_M_L2_RDREQ] != reads_before; /* a load that waits for L2 */
  metric[WM_M_MISS_REQ] += missed;
  /* the rounds (emu_rounds.c) in which a load waits for L2: counted at the
   * round's first miss (or hit on a pending sector) */
  if ((missed || pending) && !last->round_missed) last->round_missed = 1, metric[WM_M_MISS_ROUNDS]++;
  keep_last_store(last, &now, r[0].kind);
}

/* How far ahead cache_l2() asks for the sets it will look up. */
#define L2_AHEAD 24
#define L2_NEAR 12

/* The first way of an operation's set. */
static size_t op_set(const CacheSys *c, const L2Op *op) { return (size_t)(op->kind >> 3) * c->l2.ways; }

/* 1 if the operation's SM is near the other partition than its line's home. */
static int op_far(const L2Op *op) { return (int)(op->kind >> 2 & 1); }

WM_CACHE_CLONES void cache_l2(CacheSys *c, const L2Op *ops, size_t n) {
  for (size_t i = 0; i < n && i < L2_AHEAD; i++) __builtin_prefetch(&c->l2.way[op_set(c, &ops[i])]);
  for (size_t i = 0; i < n; i++) {
    if (i + L2_AHEAD < n) {
      const L2Op *p = &ops[i + L2_AHEAD];
      size_t at = op_set(c, p);
      if (op_far(p)) { /* a far read looks its copy up first, a far write drops it */
        size_t copy = l2_copy_set(c, at);
        __builtin_prefetch(&c->l2.way[copy]);
        __builtin_prefetch(&c->l2.way[copy + c->l2.ways - 1]);
      }
      __builtin_prefetch(&c->l2.way[at]);
      __builtin_prefetch(&c->l2.way[at + c->l2.ways - 1]);
      if ((p->kind & 3) == L2_READ && p->bytes) xbar_prefetch(&c->xbar, p->sector, p->bytes);
    }
    if (i + L2_NEAR < n && (ops[i + L2_NEAR].kind & 3) != L2_READ) {
      /* its set is in by now: its write state too */
      const L2Op *p = &ops[i + L2_NEAR];
      const LineWrites *lw = &c->l2.writes[level_way(&c->l2, op_set(c, p), p->sector >> 2)];
      __builtin_prefetch(lw, 1);
      __builtin_prefetch((const char *)(lw + 1) - 1, 1);
    }
    const L2Op *x = &ops[i];
    size_t at = op_set(c, x);
    switch (x->kind & 3) {
    case L2_READ:
      if (x->bytes && xbar_merges(&c->xbar, x->sector, x->bytes)) break; /* bytes: xbar_tag */
      if (op_far(x)) l2_read_far(c, x->sector, at);
      else l2_read(c, x->sector, at);
      break;
    case L2_WRITE: /* from the far side, over the fabric to its home */
      c->metric[WM_M_L2_FABRIC] += (uint64_t)op_far(x);
      l2_write(c, x->sector, at, x->bytes, 0);
      break;
    case L2_WRITE_MERGED: l2_write(c, x->sector, at, x->bytes, 1); break;
    case L2_ATOM: /* each update crosses (atom_hot#132x1: 270,685 of 540,672) */
      c->metric[WM_M_L2_FABRIC] += op_far(x) ? x->bytes : 0;
      l2_atomic(c, x->sector, at, x->bytes);
      break;
    }
    /* a write from the far side drops its side's copy on the way to the
     * home (the H200's in-place matrix-vector kernels: every re-read of
     * y[i] by a far SM crosses the fabric again, 2.36 M sectors for 2.1 M
     * reads and 2.1 M writes); one from the home's side leaves the other
     * side's copy (side_probe.cu: after one SM's stores, the SMs of the
     * other side still answer its side's lines from near) */
    if ((x->kind & 3) != L2_READ && op_far(x)) l2_drop_copy(c, x->sector, at);
  }
  if (c->xbar_of) xbar_end(&c->xbar);
}
