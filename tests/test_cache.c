/* test_cache.c - the L1 / L2 / DRAM model (src/mem/cache.c, dram.c, replay.c) from
 * first principles.
 *
 * Every test builds block traces by hand (a request is a run of records
 * whose first has first=1), replays them on a small configuration chosen so
 * that each counter can be derived on paper, and states the derivation next
 * to each expected number.
 *
 * Geometry used throughout: lines of 128 bytes = 4 sectors of 32 bytes, so
 * sector s lies in line s / 4 (s >> 2) at byte address 32 * s.  Where the
 * order of evictions matters the caches are given a single set (bytes =
 * 128 * ways), which makes them fully associative LRU whatever the set hash.
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "mem/cache.h"
#include "mem/cache_step.h" /* fill_order: which of two lines comes back last */
#include "util/spill.h"

#define ALL 0xffffffffu

/* ---- helpers ---------------------------------------------------------- */

/* The small configuration the brief suggests: one SM, one block of one warp,
 * L1 4 KiB (32 lines: 8 sets of 4 ways), L2 64 KiB (512 lines), DRAM of 2
 * channels x 2 banks, 1 KiB rows, 256-byte interleave. */
static CacheConfig small_cfg(int fetch_bytes)
{
  CacheConfig k = {
    .sms = 1, .blocks_per_sm = 1, .group = 1, .warps_per_block = 1,
    .local_bytes = 0,
    .l1_bytes = 4096, .l1_ways = 4,
    .l2_bytes = 64 * 1024, .l2_ways = 16,
    .fetch_bytes = fetch_bytes,
    .merge_sectors = 16, .merge_lines = 16,
    .partial_sectors = 0,
    .channels = 2, .banks = 2, .row_bytes = 1024, .interleave = 256,
  };
  return k;
}

/* Pushes one request of warp w: n sectors, the first with first=1 (and
 * the flags in `mark`). */
static void req_marked(MemTrace *t, unsigned w, unsigned kind, uint32_t bytes, int mark, const uint64_t *sec,
                       size_t n)
{
  for (size_t i = 0; i < n; i++)
    trace_push(t, sec[i], bytes, w, kind, i == 0 ? 1 | mark : 0);
}

static void req(MemTrace *t, unsigned w, unsigned kind, uint32_t bytes, const uint64_t *sec, size_t n)
{
  req_marked(t, w, kind, bytes, 0, sec, n);
}

#define SECS(...) (const uint64_t[]){__VA_ARGS__}, sizeof((const uint64_t[]){__VA_ARGS__}) / sizeof(uint64_t)
#define LD(t, w, ...) req(t, w, TR_LD, 0, SECS(__VA_ARGS__))
#define LDNC(t, w, ...) req(t, w, TR_LD_NC, 0, SECS(__VA_ARGS__))
#define ST(t, w, bytes, ...) req(t, w, TR_ST, bytes, SECS(__VA_ARGS__))
/* a store right after the warp's previous store (emu_mark_store_runs) */
#define STA(t, w, bytes, ...) req_marked(t, w, TR_ST, bytes, TR_AFTER_ST, SECS(__VA_ARGS__))
#define ATOM(t, w, ...) req(t, w, TR_ATOM, ALL, SECS(__VA_ARGS__))
#define LLD(t, w, ...) req(t, w, TR_LOCAL_LD, 0, SECS(__VA_ARGS__))
#define LST(t, w, bytes, ...) req(t, w, TR_LOCAL_ST, bytes, SECS(__VA_ARGS__))

/* Replays one block's trace as a group of its own, then empties the trace
 * for the next block. */
static void run1(CacheSys *c, uint64_t block, MemTrace *t)
{
  const MemTrace *p[1] = {t};
  replay_blocks(c, block, p, 1);
  trace_free(t);
}

/* The counters so far. */
static void counters(const CacheSys *c, uint64_t *m)
{
  memset(m, 0, WM_M_COUNT * sizeof *m);
  cache_add_metrics(c, m);
}

#define EQ(metric, v) assert_int_equal(m[WM_M_##metric], (v))

/* ---- 1. a line's four sectors: misses, then hits ----------------------- */

static void load_line_twice(int fetch, uint64_t *m)
{
  CacheSys c;
  CacheConfig k = small_cfg(fetch);
  cache_init(&c, &k);
  MemTrace t = {0};
  LD(&t, 0, 0, 1, 2, 3);  /* one request: sectors 0..3 = line 0 */
  run1(&c, 0, &t);
  counters(&c, m);
  /* cold caches: each of the 4 sectors misses L1 and is read from L2; the
   * request touches one line, so L1 sends L2 one read request */
  EQ(L1_MISS, 4);
  EQ(L1_HIT, 0);
  EQ(L2_RD, 4);
  EQ(L2_RDREQ, 1);
  EQ(L1_LINES, 1);
  /* all 4 sectors were asked for and DRAM read 4 x 32 bytes in either
   * fetch size: 4 fills of 32, or 2 fills of 64 */
  EQ(DRAM_RD, 128);
  EQ(DRAM_USED, 128);
  EQ(DRAM_WR, 0);
  /* the same request again: all 4 sectors are in L1 now */
  LD(&t, 0, 0, 1, 2, 3);
  run1(&c, 1, &t);
  counters(&c, m);
  EQ(L1_HIT, 4);
  EQ(L1_MISS, 4);  /* unchanged */
  EQ(L2_RD, 4);    /* no new L2 reads */
  EQ(L2_RDREQ, 1);
  EQ(L1_LINES, 2); /* one line per request */
  EQ(DRAM_RD, 128);
  cache_free(&c);
}

static void test_line_miss_then_hit(void **state)
{
  uint64_t m[WM_M_COUNT];
  /* fetch 32: each L2 miss fetches its own sector: 4 L2 misses, 4 DRAM
   * reads of 32 bytes, all from the same 256-byte interleave unit, so one
   * row opening (the first) and 3 row hits */
  load_line_twice(32, m);
  EQ(L2_MISS, 4);
  EQ(L2_HIT, 0);
  EQ(ROW_MISS, 1);
  EQ(ROW_HIT, 3);
  /* fetch 64: sector 0 misses and brings sector 1, sector 1 then hits;
   * sector 2 misses and brings 3: 2 misses, 2 hits, 2 DRAM reads of 64 */
  load_line_twice(64, m);
  EQ(L2_MISS, 2);
  EQ(L2_HIT, 2);
  EQ(ROW_MISS, 1);
  EQ(ROW_HIT, 1);
}

/* Sectors of two lines in one request: one L2 request per line; a request
 * whose sectors all hit sends none. */
static void test_l2_requests_per_line(void **state)
{
  CacheSys c;
  CacheConfig k = small_cfg(32);
  cache_init(&c, &k);
  MemTrace t = {0};
  LD(&t, 0, 0, 1, 4, 5);      /* lines 0 and 1: 2 L2 requests, 4 sectors */
  LD(&t, 0, 0, 1, 4, 5, 8);   /* only sector 8 (line 2) misses: 1 request */
  run1(&c, 0, &t);
  uint64_t m[WM_M_COUNT];
  counters(&c, m);
  EQ(L2_RDREQ, 2 + 1);
  EQ(L2_RD, 4 + 1);
  EQ(L1_HIT, 4);             /* the second request's 0, 1, 4, 5 */
  EQ(L1_MISS, 5);
  EQ(L1_LINES, 2 + 3);       /* lines touched: {0,1}, then {0,1,2} */
  cache_free(&c);
}

/* L1 replacement: an L1 of one set of 4 ways (512 bytes) holds 4 lines;
 * touching a fifth evicts the least recently used. */
static void test_l1_lru(void **state)
{
  CacheSys c;
  CacheConfig k = small_cfg(32);
  k.l1_bytes = 512;
  cache_init(&c, &k);
  MemTrace t = {0};
  LD(&t, 0, 0);   /* lines 0..3 fill the set */
  LD(&t, 0, 4);
  LD(&t, 0, 8);
  LD(&t, 0, 12);
  LD(&t, 0, 0);   /* hit: line 0 becomes the most recent, line 1 the LRU */
  LD(&t, 0, 16);  /* line 4: evicts line 1 */
  LD(&t, 0, 0);   /* hit */
  LD(&t, 0, 4);   /* miss: line 1 was evicted */
  run1(&c, 0, &t);
  uint64_t m[WM_M_COUNT];
  counters(&c, m);
  EQ(L1_HIT, 2);
  EQ(L1_MISS, 4 + 1 + 1);
  /* L2 (512 lines) evicted nothing: line 1's second read hits there */
  EQ(L2_HIT, 1);
  EQ(L2_MISS, 5);
  cache_free(&c);

  /* A store hit on a loaded line makes it the most recent too: y[i] +=
   * in a loop keeps y's line while the matrix streams past (public set
   * mvt_cols, gemver_x, atax_cols on the H200: every store sector hits,
   * 2,105,856 misses = the matrix's sectors alone). */
  cache_init(&c, &k);
  LD(&t, 0, 0);      /* lines 0..3 fill the set */
  LD(&t, 0, 4);
  LD(&t, 0, 8);
  LD(&t, 0, 12);
  ST(&t, 0, 4, 0);   /* a hit on line 0: now the most recent, line 1 the LRU */
  LD(&t, 0, 16);     /* line 4 evicts line 1, not line 0 */
  ST(&t, 0, 4, 0);   /* hit */
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L1_HIT, 2);
  EQ(L1_MISS, 5);
  cache_free(&c);
}

/* l1_bytes = 0: no L1 caching; loads that bypass L1 (ld.cg) never allocate. */
static void test_no_l1(void **state)
{
  uint64_t m[WM_M_COUNT];
  CacheSys c;
  CacheConfig k = small_cfg(32);
  k.l1_bytes = 0;
  cache_init(&c, &k);
  MemTrace t = {0};
  LD(&t, 0, 0);
  LD(&t, 0, 0);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L1_MISS, 2);  /* nothing is ever present */
  EQ(L1_HIT, 0);
  EQ(L2_MISS, 1);  /* the second read finds the sector in L2 */
  EQ(L2_HIT, 1);
  cache_free(&c);

  k = small_cfg(32);
  cache_init(&c, &k);
  LDNC(&t, 0, 0);
  LDNC(&t, 0, 0);
  LD(&t, 0, 0);    /* a caching load after them still misses L1 */
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L1_MISS, 3);
  EQ(L1_HIT, 0);
  EQ(L2_RD, 3);
  EQ(L2_HIT, 2);
  cache_free(&c);
}

/* ---- 2. fetch_bytes = 64: the pair partner ------------------------------ */

static void test_fetch_pair(void **state)
{
  uint64_t m[WM_M_COUNT];
  CacheSys c;
  CacheConfig k = small_cfg(64);
  cache_init(&c, &k);
  MemTrace t = {0};
  LD(&t, 0, 0);
  run1(&c, 0, &t);
  counters(&c, m);
  /* sector 0 misses: DRAM reads the aligned pair 0-1 (64 bytes), of which
   * 32 were asked for */
  EQ(L2_MISS, 1);
  EQ(DRAM_RD, 64);
  EQ(DRAM_USED, 32);
  LD(&t, 0, 1);
  run1(&c, 1, &t);
  counters(&c, m);
  /* sector 1 was never loaded into L1 (only sector 0 was): L1 miss; but
   * L2 has it from the pair fetch: L2 hit, no DRAM read, and the 32 bytes
   * now count as used */
  EQ(L1_MISS, 2);
  EQ(L2_HIT, 1);
  EQ(L2_MISS, 1);
  EQ(DRAM_RD, 64);
  EQ(DRAM_USED, 64);
  /* sector 3 misses: the pair is 2-3 (3 / 2 * 2 = 2), so sector 2 hits */
  LD(&t, 0, 3);
  LD(&t, 0, 2);
  run1(&c, 2, &t);
  counters(&c, m);
  EQ(L2_MISS, 2);
  EQ(L2_HIT, 2);
  EQ(DRAM_RD, 128);
  EQ(DRAM_USED, 128);
  /* a store to a fetched but unused sector also uses it: load 4 (pair
   * 4-5, 32 used of 64), store 5 (the other 32 used) */
  LD(&t, 0, 4);
  ST(&t, 0, ALL, 5);
  run1(&c, 3, &t);
  counters(&c, m);
  EQ(DRAM_RD, 192);
  EQ(DRAM_USED, 192);
  EQ(L2_HIT, 3);   /* the store to sector 5 found it present */
  cache_free(&c);

  /* fetch 128: a miss brings the whole line */
  k = small_cfg(128);
  cache_init(&c, &k);
  LD(&t, 0, 2);
  LD(&t, 0, 0, 1, 3);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L2_MISS, 1);
  EQ(L2_HIT, 3);
  EQ(DRAM_RD, 128);
  EQ(DRAM_USED, 128);
  cache_free(&c);
}

/* ---- 3. stores write through; L1 keeps what they wrote ------------------ */

static void test_store_write_through(void **state)
{
  uint64_t m[WM_M_COUNT];
  CacheSys c;
  CacheConfig k = small_cfg(32);
  cache_init(&c, &k);
  MemTrace t = {0};
  ST(&t, 0, ALL, 0, 1, 2, 3, 4, 5); /* 6 sectors over lines 0 and 1 */
  LD(&t, 0, 0);
  run1(&c, 0, &t);
  counters(&c, m);
  /* every store sector reaches L2, one write request per line */
  EQ(L2_WR, 6);
  EQ(L2_WRREQ, 2);
  /* each store sector is an L1 lookup (measured on an H100: copy_grid's
   * misses are its load sectors plus its store sectors), a miss here; the
   * whole-sector store left sector 0 in L1, so the load hits there */
  EQ(L1_MISS, 6);
  EQ(L1_HIT, 1);
  /* L2 allocates on write: the 6 write sectors missed; the load never
   * reached it */
  EQ(L2_MISS, 6);
  EQ(L2_HIT, 0);
  EQ(DRAM_RD, 0);
  EQ(L2_RD, 0);
  cache_free(&c);

  /* A warp's second store to a sector it stored hits L1 even when the
   * first wrote part of it (H200 st_gap#w4g4: 50,688 of 67,584 store
   * lookups hit, the first store to each sector misses), but a load of a
   * partly written sector misses and reads L2.  A line only stored never
   * evicts loaded data: in a set whose ways all hold loaded lines, the
   * store allocates nothing (PolyBench-style cov_product's stores keep
   * missing while its loads keep hitting). */
  cache_init(&c, &k);
  ST(&t, 0, 0xf, 8);
  ST(&t, 0, 0xf0, 8);
  LD(&t, 0, 8);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L1_MISS, 1 + 1);
  EQ(L1_HIT, 1);
  EQ(L2_RD, 1);
  cache_free(&c);
  /* L1 (4 KB, 4 ways: 32 lines) full of loaded lines, 4 sectors each: a
   * store to a new line finds no way without loaded data, allocates
   * nothing, and a second store to its sector misses again. */
  cache_init(&c, &k);
  for (uint64_t ln = 0; ln < 256; ln++) LD(&t, 0, 4 * ln, 4 * ln + 1, 4 * ln + 2, 4 * ln + 3);
  ST(&t, 0, ALL, 4 * 1000);
  ST(&t, 0, ALL, 4 * 1000);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L1_MISS, 256 * 4 + 2);
  EQ(L1_HIT, 0);
  cache_free(&c);

  /* A store updates a sector L1 already holds: a hit (st_loop#256 on the
   * H100: its store sectors to lines its loads brought hit), and the
   * sector stays present for the next load. */
  cache_init(&c, &k);
  LD(&t, 0, 8);
  ST(&t, 0, ALL, 8);
  LD(&t, 0, 8);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L1_MISS, 1);
  EQ(L1_HIT, 2);
  EQ(L2_WR, 1);
  cache_free(&c);
}

/* ---- 4. store merging -------------------------------------------------- */

static void test_store_merging(void **state)
{
  uint64_t m[WM_M_COUNT];
  CacheSys c;
  CacheConfig k = small_cfg(32);
  MemTrace t = {0};

  /* The same warp's next request to the same 4 sectors, right after it
   * (no instruction between), merges: L2 counts the 4 sectors (and its
   * one request) once. */
  cache_init(&c, &k);
  ST(&t, 0, ALL, 0, 1, 2, 3);
  STA(&t, 0, ALL, 0, 1, 2, 3);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L2_WR, 4);
  EQ(L2_WRREQ, 1);
  cache_free(&c);
  /* ...with other instructions between (H200 st_gap: a loop's branch or 4
   * FMAs), both reach L2: 8 sectors in 2 requests. */
  cache_init(&c, &k);
  ST(&t, 0, ALL, 0, 1, 2, 3);
  ST(&t, 0, ALL, 0, 1, 2, 3);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L2_WR, 8);
  EQ(L2_WRREQ, 2);
  cache_free(&c);

  /* 17 lines > merge_lines (16): the repeated request is not merged; each
   * request sends 17 sectors in 17 L2 requests. */
  cache_init(&c, &k);
  ST(&t, 0, ALL, 0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64);
  STA(&t, 0, ALL, 0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L2_WR, 2 * 17);
  EQ(L2_WRREQ, 2 * 17);
  EQ(L1_LINES, 2 * 17);
  cache_free(&c);

  /* 16 lines = merge_lines: still merged, the second request sends nothing. */
  cache_init(&c, &k);
  ST(&t, 0, ALL, 0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60);
  STA(&t, 0, ALL, 0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L2_WR, 16);
  EQ(L2_WRREQ, 16);
  cache_free(&c);

  /* Another warp's store to a sector in the SM's FIFO of the last
   * merge_sectors (16) store sectors merges too: warps 0 and 1 store
   * sector 0 (round-robin: warp 0 first); only the first reaches L2. */
  cache_init(&c, &k);
  ST(&t, 0, ALL, 0);
  ST(&t, 1, ALL, 0);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L2_WR, 1);
  EQ(L2_WRREQ, 1);
  cache_free(&c);

  /* The FIFO holds 16 sectors: after warp 0's sector 0, 16 other store
   * sectors push it out and warp 2's store of sector 0 reaches L2 again
   * (1 + 16 + 1); after only 15 others it is still there and merges
   * (1 + 15).  A warp's own earlier stores are not merged through the
   * FIFO: warp 0 storing sector 0 again, 15 sectors later, sends it. */
  cache_init(&c, &k);
  ST(&t, 0, ALL, 0);
  ST(&t, 1, ALL, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64);
  ST(&t, 2, ALL, 0);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L2_WR, 1 + 16 + 1);
  cache_free(&c);
  cache_init(&c, &k);
  ST(&t, 0, ALL, 0);
  ST(&t, 1, ALL, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60);
  ST(&t, 2, ALL, 0);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L2_WR, 1 + 15);
  cache_free(&c);
  cache_init(&c, &k);
  ST(&t, 0, ALL, 0);
  ST(&t, 1, ALL, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60);
  ST(&t, 0, ALL, 0);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L2_WR, 1 + 15 + 1);
  cache_free(&c);

  /* Requests of more than half the FIFO (here 9 sectors) merge in pairs:
   * four warps storing the same 9 sectors send 2 x 9 (H200 madd_nc and
   * st_share#p4d1: 16-sector stores of 4 warps, 51-52% reach L2); four
   * warps storing one sector send it once (H100 st_warps). */
  cache_init(&c, &k);
  for (unsigned w = 0; w < 4; w++) ST(&t, w, ALL, 0, 4, 8, 12, 16, 20, 24, 28, 32);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L2_WR, 2 * 9);
  cache_free(&c);
  cache_init(&c, &k);
  for (unsigned w = 0; w < 4; w++) ST(&t, w, ALL, 0);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L2_WR, 1);
  cache_free(&c);

  /* A load between two stores of a warp to the same sector ends their
   * merging, in the FIFO too (H200: every iteration of y[i] += A[i][j]
   * x[j] reaches L2): warp 0's second store of sector 0 reaches L2 (2);
   * warp 1's store of sector 0 (it loaded nothing) still merges with warp
   * 0's in the FIFO, whichever comes first: still 2. */
  cache_init(&c, &k);
  ST(&t, 0, ALL, 0);
  LD(&t, 0, 100);
  ST(&t, 0, ALL, 0);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L2_WR, 2);
  cache_free(&c);
  cache_init(&c, &k);
  ST(&t, 0, ALL, 0);
  LD(&t, 0, 100);
  ST(&t, 0, ALL, 0);
  ST(&t, 1, ALL, 0);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L2_WR, 2);
  cache_free(&c);

  /* merge_sectors = 0 turns the FIFO off; the warp's own last request
   * still merges.  Warp 1's store of sector 0 then is not merged. */
  k.merge_sectors = 0;
  cache_init(&c, &k);
  ST(&t, 0, ALL, 0);
  ST(&t, 1, ALL, 0);
  STA(&t, 1, ALL, 0); /* warp 1's own repeat, right after: merged */
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L2_WR, 2);
  cache_free(&c);

  /* Local stores are never merged (local_heap): two local stores of the
   * same sector both reach L2. */
  k = small_cfg(32);
  k.local_bytes = 16;
  cache_init(&c, &k);
  LST(&t, 0, ALL, 0);
  LST(&t, 0, ALL, 0);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L2_WR, 2);
  cache_free(&c);
}

/* Stores of two warps to one sector (after a barrier if `barrier`), after
 * warp 0 loaded the sectors a[0..na) and warp 1 b[0..nb) (each sector its
 * own request, in one round; NULL, 0: none): the L2 write sectors. */
static uint64_t two_warps_store(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, int barrier)
{
  uint64_t m[WM_M_COUNT];
  CacheSys c;
  CacheConfig k = small_cfg(32);
  MemTrace t = {0};
  cache_init(&c, &k);
  for (size_t i = 0; i < na || i < nb; i++) { /* replayed round-robin: w0's i-th, then w1's */
    if (i < na) LD(&t, 0, a[i]);
    if (i < nb) LD(&t, 1, b[i]);
  }
  req_marked(&t, 0, TR_ST, ALL, barrier ? TR_AFTER_BAR : 0, SECS(1000));
  req_marked(&t, 1, TR_ST, ALL, barrier ? TR_AFTER_BAR : 0, SECS(1000));
  run1(&c, 0, &t);
  counters(&c, m);
  cache_free(&c);
  return m[WM_M_L2_WR];
}

/* Three lines x, s, y (as sectors, 4 a line) with s's fill coming back
 * after x's and y's (s_last) or before one of them. */
static void pick_lines(int s_last, uint64_t *x, uint64_t *s, uint64_t *y)
{
  for (uint64_t l = 10;; l += 3) {
    uint32_t ox = fill_order(l), os = fill_order(l + 1), oy = fill_order(l + 2);
    if ((os > ox && os > oy) == s_last) {
      *x = l * 4, *s = (l + 1) * 4, *y = (l + 2) * 4;
      return;
    }
  }
}

/* Which warps are in step (cache_step.h): a warp resumes with the last
 * fill it waited for, and its stores merge with another warp's only while
 * both resumed with the same fill (the 16-sector FIFO of test_store_merging
 * otherwise merges them). */
static void test_store_steps(void **state)
{
  (void)state;
  uint64_t x, s, y;
  /* As launched: in step, one sector reaches L2. */
  assert_int_equal(two_warps_store(NULL, 0, NULL, 0, 0), 1);
  /* Each waited for a line of its own: out of step, both reach L2
   * (merge_kernels.cu's st_drift after one round trip). */
  assert_int_equal(two_warps_store(SECS(400), SECS(800), 0), 2);
  /* Both waited for one fill (warp 1 for the one warp 0's miss started):
   * in step (fill_kernels.cu's st_pairfill#k0). */
  assert_int_equal(two_warps_store(SECS(400), SECS(400), 0), 1);
  /* ...also when warp 1 misses other sectors of the line: they come back
   * with the fill already on its way. */
  assert_int_equal(two_warps_store(SECS(401), SECS(400, 401, 402, 403), 0), 1);
  /* Neighbours that share line s (offset_copy#1, st_lastfill): warp 0
   * waits for x and s, warp 1 for s and y.  In step when s's fill is the
   * last of both, else not. */
  pick_lines(1, &x, &s, &y);
  assert_int_equal(two_warps_store(SECS(x, s), SECS(s, y), 0), 1);
  pick_lines(0, &x, &s, &y);
  assert_int_equal(two_warps_store(SECS(x, s), SECS(s, y), 0), 2);
  /* A barrier brings them back into step (merge_kernels.cu's st_rejoin). */
  assert_int_equal(two_warps_store(SECS(400), SECS(800), 1), 1);
}

/* ---- 5. L2 write-back ---------------------------------------------------- */

/* An L2 of one set of 4 ways (512 bytes): fully associative, 4 lines. */
static CacheConfig tiny_l2(int fetch)
{
  CacheConfig k = small_cfg(fetch);
  k.l2_bytes = 512;
  k.l2_ways = 4;
  return k;
}

static void test_l2_write_back(void **state)
{
  uint64_t m[WM_M_COUNT];
  CacheSys c;
  CacheConfig k = tiny_l2(32);
  MemTrace t = {0};

  /* Whole-sector stores to 6 lines (24 sectors): lines 0 and 1 are evicted
   * with 4 dirty sectors each: 2 x 4 x 32 = 256 bytes written; the 4 lines
   * still resident are not written back at the end.  Whole sectors need no
   * fill: no DRAM reads. */
  cache_init(&c, &k);
  for (uint64_t ln = 0; ln < 6; ln++)
    req(&t, 0, TR_ST, ALL, (const uint64_t[]){4 * ln, 4 * ln + 1, 4 * ln + 2, 4 * ln + 3}, 4);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L2_WR, 24);
  EQ(DRAM_WR, 256);
  EQ(DRAM_RD, 0);
  /* 8 DRAM writes of 32 bytes: lines 0 and 1 are bytes 0..255, one
   * interleave unit (channel 0, bank 0, row 0): 1 row opening, 7 hits */
  EQ(ROW_MISS, 1);
  EQ(ROW_HIT, 7);
  cache_free(&c);

  /* LRU: lines 0..3 stored; a load of line 0 makes it recent; storing line
   * 4 then evicts line 1 (128 bytes written); a load of line 0's sector 1
   * hits L2; a load of line 1 misses (fetch 32), evicting the LRU line 2
   * (another 128 bytes). */
  cache_init(&c, &k);
  for (uint64_t ln = 0; ln < 4; ln++)
    req(&t, 0, TR_ST, ALL, (const uint64_t[]){4 * ln, 4 * ln + 1, 4 * ln + 2, 4 * ln + 3}, 4);
  LDNC(&t, 0, 0); /* uncached loads: L1 keeps the stored sectors, and this is about L2 */
  ST(&t, 0, ALL, 16, 17, 18, 19);
  LDNC(&t, 0, 1);
  LDNC(&t, 0, 4);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(DRAM_WR, 256);
  EQ(DRAM_RD, 32);
  EQ(L2_HIT, 2);        /* sectors 0 and 1 */
  EQ(L2_MISS, 20 + 1);  /* 20 first writes of sectors, then sector 4 */
  cache_free(&c);

  /* A clean line (only read) is evicted without a write. */
  cache_init(&c, &k);
  LD(&t, 0, 0, 4, 8, 12, 16); /* 5 lines, one sector each */
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(DRAM_RD, 5 * 32);
  EQ(DRAM_WR, 0);
  cache_free(&c);

  /* A big L2 keeps everything: nothing is written back at the end. */
  k = small_cfg(32);
  cache_init(&c, &k);
  ST(&t, 0, ALL, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L2_WR, 16);
  EQ(DRAM_WR, 0);
  EQ(DRAM_RD, 0);
  assert_int_equal(m[WM_M_ROW_MISS] + m[WM_M_ROW_HIT], 0); /* no DRAM access at all */
  cache_free(&c);
}

/* ---- 6. partial writes ------------------------------------------------- */

static void test_partial_writes(void **state)
{
  uint64_t m[WM_M_COUNT];
  CacheSys c;
  MemTrace t = {0};

  /* 4 bytes of sector 0 (mask 0xf), then lines 1..4 evict line 0: the
   * sector is completed from DRAM (read 32, even though a read miss would
   * fetch 64) and written back (32). */
  CacheConfig k = tiny_l2(64);
  cache_init(&c, &k);
  ST(&t, 0, 0xfu, 0);
  ST(&t, 0, ALL, 4, 8, 12, 16);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(DRAM_RD, 32);
  EQ(DRAM_WR, 32);
  EQ(DRAM_USED, 32);
  cache_free(&c);

  /* Two halves (0x0000ffff then 0xffff0000) complete the sector: no fill
   * on eviction, only the 32-byte write. */
  cache_init(&c, &k);
  ST(&t, 0, 0x0000ffffu, 0);
  ST(&t, 0, 0xffff0000u, 0);
  ST(&t, 0, ALL, 4, 8, 12, 16);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(DRAM_RD, 0);
  EQ(DRAM_WR, 32);
  cache_free(&c);

  /* A read of a partly written sector fills just that sector (32 bytes,
   * not the 64-byte pair) and misses L2. */
  cache_init(&c, &k);
  ST(&t, 0, 0xfu, 0);
  LD(&t, 0, 0);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L2_MISS, 2);  /* the write and the read */
  EQ(DRAM_RD, 32);
  EQ(DRAM_USED, 32);
  EQ(DRAM_WR, 0);
  cache_free(&c);

  /* partial_sectors = 2: the third partly written sector completes the
   * oldest (sector 0) at once, without any eviction (the L2 is 64 KiB);
   * the fourth completes sector 1. */
  k = small_cfg(32);
  k.partial_sectors = 2;
  cache_init(&c, &k);
  ST(&t, 0, 0xfu, 0);
  ST(&t, 0, 0xfu, 1);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(DRAM_RD, 0);   /* 2 partial sectors: within the limit */
  ST(&t, 0, 0xfu, 2);
  run1(&c, 1, &t);
  counters(&c, m);
  EQ(DRAM_RD, 32);  /* 3 > 2: sector 0 filled */
  ST(&t, 0, 0xfu, 3);
  run1(&c, 2, &t);
  counters(&c, m);
  EQ(DRAM_RD, 64);  /* sector 1 filled */
  EQ(DRAM_USED, 64);
  EQ(DRAM_WR, 0);   /* nothing evicted, nothing written back at the end */
  /* sector 0 is present now: a load of it hits L2 and reads no DRAM */
  LD(&t, 0, 0);
  run1(&c, 3, &t);
  counters(&c, m);
  EQ(L2_HIT, 1);
  EQ(DRAM_RD, 64);
  cache_free(&c);

  /* A sector written partly twice takes one place in the ring: sectors
   * 0 (twice), 1 are 2 entries, no fill; sector 2 fills sector 0. */
  cache_init(&c, &k);
  ST(&t, 0, 0xfu, 0);
  ST(&t, 1, 0xf0u, 0);
  ST(&t, 0, 0xfu, 1);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(DRAM_RD, 0);
  ST(&t, 0, 0xfu, 2);
  run1(&c, 1, &t);
  counters(&c, m);
  EQ(DRAM_RD, 32);
  cache_free(&c);
}

/* ---- 7. local memory --------------------------------------------------- */

static void test_local(void **state)
{
  uint64_t m[WM_M_COUNT];
  CacheSys c;
  CacheConfig k = small_cfg(32);
  k.warps_per_block = 2;
  k.local_bytes = 16;  /* window per warp: 16 x 32 = 512 bytes */
  MemTrace t = {0};

  /* Round 1: warp 0 stores its local sector 0 (an L1 lookup that misses,
   * then allocates; it writes through), warp 1 loads its own local sector
   * 0: another window, so it misses L1 (and L2: never written).  Round 2:
   * warp 0 loads its local sector 0: hit. */
  cache_init(&c, &k);
  LST(&t, 0, ALL, 0);
  LLD(&t, 1, 0);
  LLD(&t, 0, 0);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L1_HIT, 1);
  EQ(L1_MISS, 1 + 1);
  EQ(L2_WR, 1);     /* the local store wrote through */
  EQ(L2_RD, 1);     /* warp 1's miss */
  EQ(L2_MISS, 2);   /* the store's first write and warp 1's read */
  EQ(L2_HIT, 0);
  EQ(DRAM_RD, 32);
  cache_free(&c);

  /* Each warp's local memory lies far from global addresses: a global
   * load of sector 0 does not hit warp 0's local sector 0. */
  cache_init(&c, &k);
  LST(&t, 0, ALL, 0);
  LD(&t, 0, 0);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L1_MISS, 1 + 1); /* the store's lookup, and the load's */
  EQ(L2_MISS, 2);
  cache_free(&c);

  /* The window belongs to the warp slot: the next block on the same slot
   * (one SM, one resident block) finds block 0's local line in L1. */
  cache_init(&c, &k);
  LST(&t, 0, ALL, 0);
  run1(&c, 0, &t);
  LLD(&t, 0, 0);
  run1(&c, 1, &t);
  counters(&c, m);
  EQ(L1_HIT, 1);
  EQ(L1_MISS, 1); /* block 0's store */
  cache_free(&c);

  /* Windows are local_bytes * 32 apart: with 4 bytes per thread (128-byte
   * windows), warp 1's local sector 0 is 128 bytes after warp 0's, i.e.
   * warp 0's local sector 4; warp 0 storing its sector 4 lets warp 1's
   * sector 0 hit in L1. */
  k.local_bytes = 4;
  cache_init(&c, &k);
  LST(&t, 0, ALL, 4);  /* round 1: warp 0 first, then warp 1 */
  LLD(&t, 1, 0);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L1_HIT, 1);
  EQ(L1_MISS, 1); /* the store's lookup */
  cache_free(&c);
}

/* ---- 8. placement of blocks on SMs -------------------------------------- */

static void test_placement(void **state)
{
  uint64_t m[WM_M_COUNT];
  CacheSys c;
  MemTrace t0 = {0}, t1 = {0};

  /* sms = 2, group = 1: block 0 on SM 0, block 1 on SM 1.  Block 1's load
   * of the sector block 0 loaded misses its own L1, hits the shared L2. */
  CacheConfig k = small_cfg(32);
  k.sms = 2;
  cache_init(&c, &k);
  assert_int_equal(replay_group(&c), 1);
  LD(&t0, 0, 0);
  run1(&c, 0, &t0);
  LD(&t1, 0, 0);
  run1(&c, 1, &t1);
  counters(&c, m);
  EQ(L1_MISS, 2);
  EQ(L1_HIT, 0);
  EQ(L2_HIT, 1);
  assert_int_equal(c.blocks, 2);
  cache_free(&c);

  /* sms = 2, blocks_per_sm = 2, group = 2: blocks 0 and 1 share SM 0 and
   * are replayed together; block 1's load hits what block 0's loaded. */
  k.blocks_per_sm = 2;
  k.group = 2;
  cache_init(&c, &k);
  assert_int_equal(replay_group(&c), 2);
  LD(&t0, 0, 0);
  LD(&t1, 0, 0);
  const MemTrace *p[2] = {&t0, &t1};
  replay_blocks(&c, 0, p, 2);
  trace_free(&t0);
  trace_free(&t1);
  counters(&c, m);
  EQ(L1_MISS, 1);
  EQ(L1_HIT, 1);
  /* blocks 2 and 3 go to SM 1: its L1 is cold */
  LD(&t0, 0, 0);
  LD(&t1, 0, 0);
  replay_blocks(&c, 2, p, 2);
  trace_free(&t0);
  trace_free(&t1);
  counters(&c, m);
  EQ(L1_MISS, 2);
  EQ(L1_HIT, 2);
  /* block 4 begins the second wave (2 SMs x 2 blocks) on SM 0: hit */
  LD(&t0, 0, 0);
  run1(&c, 4, &t0);
  counters(&c, m);
  EQ(L1_HIT, 3);
  cache_free(&c);

  /* blocks_per_sm = 2, group = 1: round-robin, block 0 on SM 0, block 1 on
   * SM 1, block 2 on SM 0 again: block 2 hits block 0's line. */
  k.group = 1;
  cache_init(&c, &k);
  LD(&t0, 0, 0);
  run1(&c, 0, &t0);
  LD(&t0, 0, 0);
  run1(&c, 1, &t0);
  LD(&t0, 0, 0);
  run1(&c, 2, &t0);
  counters(&c, m);
  EQ(L1_MISS, 2);
  EQ(L1_HIT, 1);
  cache_free(&c);

  /* A group that does not divide blocks_per_sm falls back to 1; zero SMs,
   * channels or banks become 1. */
  k.blocks_per_sm = 3;
  k.group = 2;
  k.sms = 0;
  k.channels = 0;
  k.banks = 0;
  cache_init(&c, &k);
  assert_int_equal(replay_group(&c), 1);
  assert_int_equal(c.cfg.sms, 1);
  LD(&t0, 0, 0);
  LD(&t0, 0, 8);  /* byte 256: with 2 channels another channel (a miss);
                     with one channel and one bank, row 256 / 1024 = 0 again */
  run1(&c, 0, &t0);
  counters(&c, m);
  EQ(ROW_MISS, 1);
  EQ(ROW_HIT, 1);
  cache_free(&c);
}

/* ---- 9. DRAM rows ------------------------------------------------------- */

/* Address a -> unit u = a / 256; channel u % 2; bank (u / 2) % 2; row
 * u / 4 / (1024 / 256) = a / 4096.  So bytes 0, 1024, 2048 lie in channel
 * 0, bank 0, row 0; 4096 in row 1 of that bank; 256 and 2304 in channel 1,
 * bank 0, row 0; 512 in channel 0, bank 1. */
static void test_dram_rows(void **state)
{
  uint64_t m[WM_M_COUNT];
  CacheSys c;
  CacheConfig k = small_cfg(32);
  cache_init(&c, &k);
  MemTrace t = {0};
  LD(&t, 0, 0);          /* byte 0: (0,0) row 0 opens: miss */
  LD(&t, 0, 1024 / 32);  /* byte 1024: same row: hit */
  LD(&t, 0, 4096 / 32);  /* byte 4096: row 1 of the same bank: miss */
  LD(&t, 0, 256 / 32);   /* byte 256: channel 1's bank 0 was closed: miss */
  LD(&t, 0, 2048 / 32);  /* byte 2048: (0,0) row 0, but row 1 is open: miss */
  LD(&t, 0, 2304 / 32);  /* byte 2304: (1,0) row 0 still open: hit */
  LD(&t, 0, 512 / 32);   /* byte 512: (0,1) was closed: miss */
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(ROW_MISS, 5);
  EQ(ROW_HIT, 2);
  EQ(DRAM_RD, 7 * 32);
  cache_free(&c);

  /* row_bytes = 2048: 8 interleave units per row, rows of a bank are
   * 8 KiB of addresses apart: byte 4096 is then in row 0 too. */
  k.row_bytes = 2048;
  cache_init(&c, &k);
  LD(&t, 0, 0);
  LD(&t, 0, 4096 / 32);
  LD(&t, 0, 8192 / 32);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(ROW_MISS, 2);  /* bytes 0 and 8192 */
  EQ(ROW_HIT, 1);   /* byte 4096 */
  cache_free(&c);
}

/* ---- 10. loads after another warp's store ------------------------------- */

/* The rounds in which a load misses L1 (warpmem__l1_missed_rounds): a
 * request marked TR_ROUND starts a round; the round counts once however
 * many of its loads miss.  Warp 0: round 1 loads sectors 0 (miss) and 4
 * (miss); round 2 loads 0 and 4 again (hits); round 3 loads 8 (miss), then
 * 0 (hit).  3 rounds, 2 of them missed. */
static void round_ld(MemTrace *t, unsigned w, uint64_t sector, int starts)
{
  LD(t, w, sector);
  if (starts)
    t->r[t->n - 1].first |= TR_ROUND;
}

static void test_missed_rounds(void **state)
{
  (void)state;
  uint64_t m[WM_M_COUNT];
  CacheSys c;
  CacheConfig k = small_cfg(32);
  MemTrace t = {0};
  cache_init(&c, &k);
  round_ld(&t, 0, 0, 1);
  round_ld(&t, 0, 4, 0);
  round_ld(&t, 0, 0, 1);
  round_ld(&t, 0, 4, 0);
  round_ld(&t, 0, 8, 1);
  round_ld(&t, 0, 0, 0);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(ROUND_REQ, 3);
  EQ(MISS_ROUNDS, 2);
  EQ(MISS_REQ, 3);
  cache_free(&c);

  /* Warps 0 and 1 load sector 0 in their first round (warps take turns):
   * warp 0 misses, warp 1 hits a sector still on its way from L2 and
   * waits as long -- 2 missed rounds, 1 L1 hit.  In their second round
   * both hit sector 0, filled a round before: no wait. */
  cache_init(&c, &k);
  round_ld(&t, 0, 0, 1);
  round_ld(&t, 1, 0, 1);
  round_ld(&t, 0, 0, 1);
  round_ld(&t, 1, 0, 1);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(ROUND_REQ, 4);
  EQ(MISS_ROUNDS, 2);
  EQ(L1_HIT, 3);
  EQ(L1_MISS, 1);
  cache_free(&c);
}

/* ---- the crossbar: reads of several SMs merged ------------------------- */

/* One block of one warp on each of 8 SMs (blocks_per_sm 1: blocks 0-7 are
 * the first wave, block b runs on SM b % 8), crossbar groups of 4, blocks
 * dealt one SM a TPC (xbar_paired 0): SMs 0-3 are group 0, 4-7 group 1.
 * Each block reads sectors 0-3 (one line) in its first round and 4-7 (or
 * 64-67) in its second. */
static void xbar_block(CacheSys *c, uint64_t block, int second_round_far)
{
  MemTrace t = {0};
  LD(&t, 0, 0, 1, 2, 3);
  t.r[t.n - 4].first |= TR_ROUND;
  LD(&t, 0, second_round_far ? 64 : 4, second_round_far ? 65 : 5, second_round_far ? 66 : 6,
     second_round_far ? 67 : 7);
  t.r[t.n - 4].first |= TR_ROUND;
  run1(c, block, &t);
}

/* Block 0 reads as xbar_block(.., 0); then warp `warp` of block 1 reads
 * sectors first..first+3 in one round and second..second+3 in the next.
 * Returns the reads the crossbar merged (the L2 reads 16 less that). */
static uint64_t xbar_unmerged(const CacheConfig *k, unsigned warp, uint64_t first, uint64_t second)
{
  uint64_t m[WM_M_COUNT];
  CacheSys c;
  cache_init(&c, k);
  xbar_block(&c, 0, 0);
  MemTrace t = {0};
  req(&t, warp, TR_LD, 0, (const uint64_t[]){first, first + 1, first + 2, first + 3}, 4);
  t.r[t.n - 4].first |= TR_ROUND;
  req(&t, warp, TR_LD, 0, (const uint64_t[]){second, second + 1, second + 2, second + 3}, 4);
  t.r[t.n - 4].first |= TR_ROUND;
  run1(&c, 1, &t);
  counters(&c, m);
  assert_int_equal(m[WM_M_L2_RD] + m[WM_M_XBAR], 16);
  cache_free(&c);
  return m[WM_M_XBAR];
}

static void test_xbar(void **state)
{
  (void)state;
  uint64_t m[WM_M_COUNT];
  CacheSys c;
  CacheConfig k = small_cfg(32);
  k.sms = 8;
  k.xbar_sms = 4;
  cache_init(&c, &k);
  /* blocks 0-3 (group 0): the first reads 8 sectors from L2 (2 requests);
   * blocks 1-3 miss their own L1s on the same sectors in the same rounds:
   * 24 reads merged, 6 requests with them */
  for (uint64_t b = 0; b < 4; b++) xbar_block(&c, b, 0);
  counters(&c, m);
  EQ(L1_MISS, 32);
  EQ(L2_RD, 8);
  EQ(L2_RDREQ, 2);
  EQ(XBAR, 24);
  EQ(L2_MISS, 8); /* the merged reads looked nothing up */
  EQ(L2_HIT, 0);
  /* block 4 is in group 1: its reads reach the L2 (and hit); block 5, in
   * group 1 too, reads sectors 64-67 in its second round: the first round
   * merges, the second is read */
  xbar_block(&c, 4, 0);
  xbar_block(&c, 5, 1);
  counters(&c, m);
  EQ(L2_RD, 8 + 8 + 4);
  EQ(L2_RDREQ, 2 + 2 + 1);
  EQ(XBAR, 24 + 4);
  EQ(L2_HIT, 8);
  /* block 14 is SM 6's second block (a later wave; SM 6's L1 is empty):
   * it reads what block 4 of its group read in the same rounds, but
   * nothing merges */
  xbar_block(&c, 14, 0);
  counters(&c, m);
  EQ(L2_RD, 20 + 8);
  EQ(XBAR, 28);
  cache_free(&c);

  /* the same rounds in different orders: block 1 reads sectors 4-7 in its
   * first round and 0-3 in its second, so nothing is read in the same round
   * as block 0 read it */
  assert_int_equal(xbar_unmerged(&k, 0, 4, 0), 0);
  /* the same sectors in the same rounds, but read by warp 1 of block 1
   * where warp 0 of block 0 read them: the warps of blocks in step issue
   * together, not two different warps (so random gathers seldom merge) */
  assert_int_equal(xbar_unmerged(&k, 1, 0, 4), 0);
  assert_int_equal(xbar_unmerged(&k, 0, 0, 4), 8); /* warp 0 again: both rounds merge */

  /* the groups (+ 1): blocks dealt to both SMs of a TPC in runs of 8, the
   * even SMs of a run one group, the odd another (SMs 0 16 32 48 of the
   * H200 take blocks 8, 10, 12, 14); or one SM a TPC, 4 in a row */
  uint8_t *g = xbar_groups(16, 4, 1);
  static const uint8_t paired[16] = {1, 2, 1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4, 3, 4};
  assert_memory_equal(g, paired, 16);
  free(g);
  g = xbar_groups(16, 4, 0);
  static const uint8_t single[16] = {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4};
  assert_memory_equal(g, single, 16);
  free(g);
  assert_null(xbar_groups(1024, 4, 0)); /* 256 groups: more than a tag's 7 bits */
  assert_null(xbar_groups(16, 1, 0));   /* a group of one SM merges nothing */

  /* xbar_sms 0: no merging at all */
  k.xbar_sms = 0;
  cache_init(&c, &k);
  for (uint64_t b = 0; b < 4; b++) xbar_block(&c, b, 0);
  counters(&c, m);
  EQ(L2_RD, 32);
  EQ(XBAR, 0);
  cache_free(&c);
}

/* Blocks placed as the H200 deals them (arch/deal.h, mem/place.h): 132
 * SMs, 8 blocks an SM of `warps` warps each; warp 0 of blocks 8 and 9
 * (SMs 0 and 1, one TPC, both in slot 0) each read sectors 0..n-1, one a
 * request, in one round.  Returns the reads the crossbar merged. */
static uint64_t dealt_pair_merged(int warps, int inflight, uint64_t n)
{
  CacheConfig k = small_cfg(32);
  k.sms = 132, k.blocks_per_sm = 8, k.sm_blocks = 8, k.warps_per_block = warps;
  k.layout = &arch_gh100_132, k.xbar_sms = 4, k.warp_inflight = inflight;
  k.l2_bytes = 1 << 20;
  CacheSys c;
  cache_init(&c, &k);
  for (uint64_t b = 8; b <= 9; b++) {
    MemTrace t = {0};
    for (uint64_t s = 0; s < n; s++) req(&t, 0, TR_LD, 0, (const uint64_t[]){s}, 1);
    t.r[0].first |= TR_ROUND;
    run1(&c, b, &t);
  }
  uint64_t m[WM_M_COUNT];
  counters(&c, m);
  cache_free(&c);
  return m[WM_M_XBAR];
}

static void test_xbar_dealt(void **state)
{
  (void)state;
  CacheConfig k = small_cfg(32);
  k.sms = 132, k.blocks_per_sm = 8, k.sm_blocks = 8, k.warps_per_block = 8;
  k.layout = &arch_gh100_132, k.xbar_sms = 4;
  CacheSys c;
  cache_init(&c, &k);
  assert_non_null(c.place.sm);
  /* the H200's mm_s: blocks 0-7 on SMs 124-131, 8-15 on 0 1 16 17 32 33 48 49 */
  static const int first[16] = {124, 125, 126, 127, 128, 129, 130, 131, 0, 1, 16, 17, 32, 33, 48, 49};
  for (int b = 0; b < 16; b++) assert_int_equal(replay_sm(&c, (uint64_t)b), first[b]);
  /* a later wave's block runs where the same block of the first did */
  assert_int_equal(replay_sm(&c, 1056 + 9), 1);
  int held[132] = {0};
  for (uint64_t b = 0; b < 1056; b++) held[replay_sm(&c, b)]++;
  for (int s = 0; s < 132; s++) assert_int_equal(held[s], 8);
  /* 64 warps an SM: the two SMs of a TPC are a group */
  assert_int_equal(c.xbar_of[0], c.xbar_of[1]);
  assert_int_not_equal(c.xbar_of[0], c.xbar_of[16]);
  cache_free(&c);
  /* 32 warps an SM: SM i of the four GPCs of a path */
  k.warps_per_block = 4;
  cache_init(&c, &k);
  assert_int_equal(c.xbar_of[0], c.xbar_of[16]);
  assert_int_equal(c.xbar_of[0], c.xbar_of[48]);
  assert_int_not_equal(c.xbar_of[0], c.xbar_of[1]);
  assert_int_equal(c.xbar_of[64], c.xbar_of[106]);
  assert_int_not_equal(c.xbar_of[0], c.xbar_of[64]);
  assert_int_equal(c.xbar_of[124], c.xbar_of[130]);
  assert_int_equal(c.xbar_of[120], c.xbar_of[122]);
  cache_free(&c);
  /* a grid of 528 blocks (4 an SM of the 8 it could hold): spread evenly */
  k.sm_blocks = 4;
  cache_init(&c, &k);
  memset(held, 0, sizeof held);
  for (uint64_t b = 0; b < 528; b++) held[replay_sm(&c, b)]++;
  for (int s = 0; s < 132; s++) assert_int_equal(held[s], 4);
  cache_free(&c);

  /* The queue: 64 warps an SM with 1 load each in flight (64 queued, at
   * most XBAR_QUEUE): block 9's reads all meet block 8's.  With 2 *
   * XBAR_QUEUE queued, a quarter of them: (1/2)^2; by the hash, of 4000
   * requests 800 to 1200. */
  assert_int_equal(dealt_pair_merged(8, 1, 400), 400);
  uint64_t q = dealt_pair_merged(8, (int)(2 * XBAR_QUEUE / 64), 4000);
  assert_in_range(q, 800, 1200);
}

/* ---- an SM's co-resident blocks, replayed together ----------------------- */

/* One warp streaming lines 0..63 (256 sectors, twice the 4 KB L1), one
 * request a line. */
static void stream_block(MemTrace *t)
{
  for (uint64_t ln = 0; ln < 64; ln++) LD(t, 0, 4 * ln, 4 * ln + 1, 4 * ln + 2, 4 * ln + 3);
}

/* The L1 misses of a grid of `blocks` such blocks on 2 SMs of 2 blocks
 * each (blocks 0 and 2 on SM 0, 1 and 3 on SM 1), put through a hold of
 * `budget` bytes; *replayed_early: whether any set was replayed before
 * its SM's last block of the wave. */
static uint64_t hold_misses(uint64_t blocks, size_t budget, int *replayed_early)
{
  CacheSys c;
  CacheConfig k = small_cfg(32);
  k.sms = 2;
  k.blocks_per_sm = 2;
  cache_init(&c, &k);
  ReplayHold h;
  assert_int_equal(replay_hold_init(&h, &c, blocks, budget), 1);
  ReplayWorker w = {0};
  L2Ops ops = {0};
  MemTrace t = {0};
  *replayed_early = 0;
  for (uint64_t b = 0; b < blocks; b++) {
    stream_block(&t);
    replay_hold_put(&c, &h, &w, b, &t, &ops);
    assert_int_equal(t.n, 0);
    /* block 0 waits for block 2; block 1 for block 3 if there is one */
    if (b == 0 || (b == 1 && blocks > 3)) *replayed_early |= ops.n != 0;
  }
  assert_int_equal(h.held, 0);
  replay_worker_add(&c, &w);
  cache_l2(&c, ops.op, ops.n);
  uint64_t m[WM_M_COUNT];
  counters(&c, m);
  trace_free(&t);
  replay_worker_free(&w);
  l2ops_free(&ops);
  replay_hold_free(&h);
  cache_free(&c);
  return m[WM_M_L1_MISS];
}

static void test_hold(void **state)
{
  (void)state;
  int early;
  /* Interleaved, request by request, block 2 asks for each line just after
   * block 0 filled it: 64 lines x 4 sectors miss once an SM.  One after the
   * other, the LRU L1 (32 lines) has dropped line 0 by the time block 2
   * starts, and every line misses twice: 1024. */
  assert_int_equal(hold_misses(4, SIZE_MAX, &early), 2 * 256);
  assert_false(early);
  uint64_t m[WM_M_COUNT];
  CacheSys c;
  CacheConfig k = small_cfg(32);
  k.sms = 2;
  k.blocks_per_sm = 2;
  cache_init(&c, &k);
  for (uint64_t b = 0; b < 4; b++) {
    MemTrace t = {0};
    stream_block(&t);
    run1(&c, b, &t);
  }
  counters(&c, m);
  EQ(L1_MISS, 4 * 256);
  cache_free(&c);
  /* held past the budget (copied to the store): the same */
  assert_int_equal(hold_misses(4, 0, &early), 2 * 256);
  /* a short last wave: SM 1 has block 1 only, replayed as it comes */
  assert_int_equal(hold_misses(3, SIZE_MAX, &early), 256 + 256);
  assert_false(early);
  /* nothing to hold: one block an SM, or a grid of at most one wave of one */
  ReplayHold h;
  cache_init(&c, &k);
  assert_int_equal(replay_hold_init(&h, &c, 2, SIZE_MAX), 0);
  cache_free(&c);
  k.blocks_per_sm = 1;
  cache_init(&c, &k);
  assert_int_equal(replay_hold_init(&h, &c, 8, SIZE_MAX), 0);
  cache_free(&c);
}

static void test_raw(void **state)
{
  uint64_t m[WM_M_COUNT];
  CacheSys c;
  CacheConfig k = small_cfg(32);
  k.warps_per_block = 2;
  MemTrace t0 = {0}, t1 = {0};

  /* Warp 0 stores sector 0; warp 1 loads it (RAW); warp 0 loads its own
   * sector 0 (not RAW). */
  cache_init(&c, &k);
  ST(&t0, 0, ALL, 0);
  LD(&t0, 1, 0);
  LD(&t0, 0, 0);
  run1(&c, 0, &t0);
  counters(&c, m);
  EQ(RAW, 1);
  cache_free(&c);

  /* Only a warp's own stores: none. */
  cache_init(&c, &k);
  ST(&t0, 0, ALL, 0);
  LD(&t0, 0, 0);
  LD(&t0, 1, 4);
  run1(&c, 0, &t0);
  counters(&c, m);
  EQ(RAW, 0);
  cache_free(&c);

  /* Co-resident blocks replayed as one group: block 1's warp 0 is not
   * block 0's warp 0, so its load of block 0's stored sector counts. */
  k.blocks_per_sm = 2;
  k.group = 2;
  cache_init(&c, &k);
  ST(&t0, 0, ALL, 8);
  LD(&t1, 0, 8);
  const MemTrace *p[2] = {&t0, &t1};
  replay_blocks(&c, 0, p, 2);
  trace_free(&t0);
  trace_free(&t1);
  counters(&c, m);
  EQ(RAW, 1);
  cache_free(&c);

  /* A store in an earlier group does not count: the stores are the
   * group's own. */
  k.blocks_per_sm = 1;
  k.group = 1;
  cache_init(&c, &k);
  ST(&t0, 0, ALL, 8);
  run1(&c, 0, &t0);
  LD(&t0, 1, 8);
  run1(&c, 1, &t0);
  counters(&c, m);
  EQ(RAW, 0);
  cache_free(&c);
}

/* ---- 11. the most-written line ------------------------------------------ */

static void test_hot(void **state)
{
  uint64_t m[WM_M_COUNT];
  CacheSys c;
  CacheConfig k = small_cfg(32);
  k.warps_per_block = 4;
  cache_init(&c, &k);
  MemTrace t = {0};
  /* Warps 0..3 each store 4 bytes of sector 0 (a[0]) and warp 0 then
   * sector 1: line 0 is sent 5 store sectors.  Line 1 gets 2. */
  for (unsigned w = 0; w < 4; w++)
    ST(&t, w, 0xfu, 0);
  ST(&t, 0, 0xfu, 1);
  ST(&t, 1, ALL, 4);
  ST(&t, 2, ALL, 5);
  run1(&c, 0, &t);
  assert_int_equal(c.hot_writes, 5);
  counters(&c, m);
  EQ(HOT, 5);
  /* warps 1..3's sector 0 merged with warp 0's (the SM's FIFO): L2 counts
   * sector 0 once, sector 1, sectors 4 and 5: 4 writes, though HOT counts
   * the merged ones */
  EQ(L2_WR, 4);
  /* cache_add_metrics keeps the largest, it does not add */
  m[WM_M_HOT] = 100;
  cache_add_metrics(&c, m);
  EQ(HOT, 100);
  m[WM_M_HOT] = 2;
  cache_add_metrics(&c, m);
  EQ(HOT, 5);
  /* atomics count as writes too: 3 atomics on line 1 make it 2 + 3 = 5,
   * a fourth makes it 6, the new maximum */
  ATOM(&t, 0, 4);
  ATOM(&t, 0, 4);
  ATOM(&t, 0, 6);
  ATOM(&t, 0, 7);
  run1(&c, 1, &t);
  assert_int_equal(c.hot_writes, 6);
  cache_free(&c);
}

/* ---- 12. atomics --------------------------------------------------------- */

static void test_atomics(void **state)
{
  uint64_t m[WM_M_COUNT];
  CacheSys c;
  CacheConfig k = small_cfg(32);
  cache_init(&c, &k);
  MemTrace t = {0};
  LD(&t, 0, 0, 1);  /* L1 and L2 miss, both allocate sectors 0 and 1 */
  ATOM(&t, 0, 0);   /* at L2 (present: hit); drops sector 0 from L1 */
  LD(&t, 0, 0);     /* L1 miss, L2 hit */
  LD(&t, 0, 1);     /* sector 1 stayed in L1: hit */
  ATOM(&t, 0, 8);   /* never seen: L2 miss, filled from DRAM */
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L2_ATOM, 2);
  EQ(L1_MISS, 2 + 1 + 2); /* the loads', and each atomic's lookup */
  EQ(L1_HIT, 1);
  EQ(L2_RD, 3);     /* atomics are not reads */
  EQ(L2_WR, 0);     /* nor writes */
  EQ(L2_HIT, 1 + 1);
  EQ(L2_MISS, 2 + 1);
  EQ(DRAM_RD, 3 * 32);
  cache_free(&c);

  /* An atomic leaves its sector dirty: evicted from a 4-line L2, it is
   * written back (32 bytes); its fill was read (32). */
  k = tiny_l2(32);
  cache_init(&c, &k);
  ATOM(&t, 0, 0);
  LD(&t, 0, 4, 8, 12, 16);
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(DRAM_WR, 32);
  EQ(DRAM_RD, 5 * 32);
  cache_free(&c);
}

/* ---- 15b. the two stages: L1 per SM in any order, then L2 in order ----- */

/* Block b's trace: warp 0 loads sectors b*8 .. b*8+3 (one line), then the
 * line every block shares (sector 1000), then stores 2 bytes of sector
 * 2000 + b. */
static void stage_trace(MemTrace *t, uint64_t b)
{
  LD(t, 0, b * 8, b * 8 + 1, b * 8 + 2, b * 8 + 3);
  LD(t, 0, 1000);
  ST(t, 0, 3, 2000 + b);
}

/* Four blocks on two SMs (group 1: blocks 0, 2 on SM 0 and 1, 3 on SM 1).
 * The host threads run the L1 stage of different SMs' groups in any order
 * (here SM 1's before SM 0's) and the L2 stage in launch order: every
 * counter equals replay_blocks() block after block.  By hand: 4 blocks x 5
 * sectors read = 20 L1 sectors, of which the shared sector 1000 hits in
 * the L1 of an SM for its second block (2 hits, 18 misses), and 4 store
 * sectors, each a lookup that misses (22 misses); of the 18 L2
 * reads, sector 1000 hits for the second SM's first block (1 hit; the
 * stores go to new lines: misses). */
static void test_two_stages(void **state)
{
  (void)state;
  CacheConfig k = small_cfg(32);
  k.sms = 2;
  k.blocks_per_sm = 2;
  uint64_t ref[WM_M_COUNT], got[WM_M_COUNT];
  CacheSys c;
  MemTrace t = {0};

  cache_init(&c, &k);
  for (uint64_t b = 0; b < 4; b++) {
    stage_trace(&t, b);
    run1(&c, b, &t);
  }
  counters(&c, ref);
  cache_free(&c);
  assert_int_equal(ref[WM_M_L1_HIT], 2);
  assert_int_equal(ref[WM_M_L1_MISS], 18 + 4);
  assert_int_equal(ref[WM_M_L2_HIT], 1);

  cache_init(&c, &k);
  ReplayWorker w[2];
  memset(w, 0, sizeof w);
  L2Ops ops[4];
  memset(ops, 0, sizeof ops);
  static const uint64_t order[4] = {1, 3, 0, 2}; /* SM 1's groups first */
  for (int i = 0; i < 4; i++) {
    uint64_t b = order[i];
    assert_int_equal(replay_sm(&c, b), (int)(b % 2));
    stage_trace(&t, b);
    const MemTrace *p[1] = {&t};
    replay_l1(&c, &w[b % 2], b, p, 1, &ops[b]);
    trace_free(&t);
  }
  for (uint64_t b = 0; b < 4; b++) {
    cache_l2(&c, ops[b].op, ops[b].n);
    l2ops_free(&ops[b]);
  }
  for (int i = 0; i < 2; i++) {
    replay_worker_add(&c, &w[i]);
    replay_worker_free(&w[i]);
  }
  counters(&c, got);
  for (int m = 0; m < WM_M_COUNT; m++)
    assert_int_equal(got[m], ref[m]);
  cache_free(&c);
}

/* ---- 16. a trace larger than WM_SPILL_BYTES moves to a temporary file ------ */

/* Records past WM_SPILL_BYTES bytes (16 bytes each) live in a file mapped in
 * memory, not on the heap; every record stays as written across the move
 * and the growth after it, and replays as a heap trace does. */
static void test_trace_spill(void **state)
{
  (void)state;
  MemTrace t = {0};
  size_t n = WM_SPILL_BYTES / sizeof(TraceRec) + 1000; /* just past the limit */
  for (size_t i = 0; i < n; i++)
    trace_push(&t, i, (uint32_t)i, (unsigned)(i & 1), TR_LD, 1);
  assert_int_not_equal(t.file, 0);
  assert_int_equal(t.n, n);
  for (size_t i = 0; i < n; i += n / 97)
    assert_true(t.r[i].sector == i && t.r[i].bytes == (uint32_t)i && t.r[i].warp == (i & 1));
  assert_true(t.r[n - 1].sector == n - 1);
  trace_free(&t);
  assert_int_equal(t.file, 0);
  assert_null(t.r);
}

/* ---- the L2's two partitions ------------------------------------------- */

/* An L2 of two partitions of one 16-way set each (4 KB, l2_parts 2), on 4
 * SMs (SMs 0 and 1 near partition 0, SMs 2 and 3 near partition 1); or,
 * parts 1, one fully associative set of 32 ways. */
static CacheConfig parts_cfg(int parts)
{
  CacheConfig k = small_cfg(32);
  k.sms = 4;
  k.l2_bytes = 32 * 128;
  k.l2_ways = parts == 2 ? 16 : 32;
  k.l2_parts = parts;
  return k;
}

/* The first sector of the i-th line the partition tests use: one line a
 * 4 KB page (the GPU homes 4 KB at a time; the model a line), so that
 * their homes differ. */
static uint64_t page_line(uint64_t i) { return 4 * 32 * i; }

/* Block `block` (on SM block % 4) reads one sector of each of lines
 * first .. first + n - 1 (page_line), bypassing L1. */
static void read_lines(CacheSys *c, uint64_t block, uint64_t first, int n)
{
  MemTrace t = {0};
  for (int i = 0; i < n; i++) req(&t, 0, TR_LD_NC, 0, (const uint64_t[]){page_line(first + (uint64_t)i)}, 1);
  run1(c, block, &t);
}

/* DRAM bytes read when block reads n lines twice, on an L2 of `parts`
 * partitions (parts_cfg). */
static uint64_t twice_dram(int parts, uint64_t block, int n)
{
  CacheSys c;
  CacheConfig k = parts_cfg(parts);
  cache_init(&c, &k);
  read_lines(&c, block, 0, n);
  read_lines(&c, block, 0, n);
  uint64_t m[WM_M_COUNT];
  counters(&c, m);
  cache_free(&c);
  return m[WM_M_DRAM_RD];
}

static void test_l2_partitions(void **state)
{
  (void)state;
  /* One SM reads n lines twice.  Its partition keeps every line it reads
   * (at home, or as a copy of a line whose home is the other): 16 lines
   * fit, 16 x 32 bytes read once; 20 cycle through its 16 ways (LRU), so
   * the second pass misses again there -- the lines homed on the far side
   * hit there, those homed near come from DRAM again.  One partition of
   * 32 ways keeps all 20. */
  assert_int_equal(twice_dram(2, 0, 16), 16 * 32);
  assert_int_equal(twice_dram(2, 2, 16), 16 * 32); /* the other side alike */
  uint64_t spill = twice_dram(2, 0, 20);
  assert_true(spill > 20 * 32 && spill < 2 * 20 * 32);
  assert_int_equal(twice_dram(1, 0, 20), 20 * 32);
  /* SMs on both sides read the same 16 lines: each partition holds them
   * all (16 ways each), so DRAM reads each once, and a third pass by
   * either side hits; 17 lines spill on both sides. */
  CacheSys c;
  CacheConfig k = parts_cfg(2);
  for (int n = 16; n <= 17; n++) {
    cache_init(&c, &k);
    read_lines(&c, 0, 0, n); /* SM 0, partition 0 */
    read_lines(&c, 2, 0, n); /* SM 2, partition 1 */
    read_lines(&c, 0, 0, n);
    read_lines(&c, 2, 0, n);
    uint64_t m[WM_M_COUNT];
    counters(&c, m);
    if (n == 16) EQ(DRAM_RD, 16 * 32);
    else assert_true(m[WM_M_DRAM_RD] > 17 * 32);
    EQ(L2_RD, 4 * (uint64_t)n); /* the L2 counts every read from L1, near or far */
    cache_free(&c);
  }
  /* A store from the far side drops its own side's copy; one from the
   * home's side leaves the other side's.  SM 0 reads 16 lines (its copies
   * of those homed on side 1 cross the fabric: h1 sectors), SM 2 the same
   * (copies of those homed on side 0: h0 = 16 - h1).  SM 0 then stores a
   * sector of each: its h1 stores to side 1 cross and drop its copies of
   * those lines, its h0 stores stay home and leave side 1's copies.  So
   * SM 2's next pass crosses nothing, SM 0's crosses h1 again, and no
   * line is read from DRAM twice. */
  cache_init(&c, &k);
  uint64_t m[WM_M_COUNT];
  read_lines(&c, 0, 0, 16);
  counters(&c, m);
  uint64_t h1 = m[WM_M_L2_FABRIC];
  read_lines(&c, 2, 0, 16);
  counters(&c, m);
  uint64_t h0 = m[WM_M_L2_FABRIC] - h1;
  assert_int_equal(h0 + h1, 16);
  assert_true(h0 > 0 && h1 > 0); /* the homes lie on both sides */
  read_lines(&c, 2, 0, 16);      /* copies kept: nothing crosses */
  counters(&c, m);
  EQ(L2_FABRIC, 16);
  MemTrace t = {0};
  for (uint64_t i = 0; i < 16; i++) ST(&t, 0, ALL, page_line(i));
  run1(&c, 0, &t);
  counters(&c, m);
  EQ(L2_FABRIC, 16 + h1);
  read_lines(&c, 2, 0, 16);
  counters(&c, m);
  EQ(L2_FABRIC, 16 + h1);
  read_lines(&c, 0, 0, 16);
  counters(&c, m);
  EQ(L2_FABRIC, 16 + 2 * h1);
  EQ(DRAM_RD, 16 * 32);
  EQ(L2_WR, 16);
  cache_free(&c);
}

/* ---- a wave's SMs together at the L2 -------------------------------------- */

/* Two SMs each read 12 lines of their own twice (one sector each,
 * bypassing L1) through an L2 of one fully associative set of 16 ways.
 * Group after group (replay_blocks), each SM's 12 lines fit: 24 lines
 * read from DRAM once.  Through an L2Wave of 2 SMs the L2 gets A1, B1, A2,
 * B2, ...: 24 lines cycle through 16 ways, so LRU misses every one again
 * in the second pass: 48. */
static void test_l2_wave(void **state)
{
  (void)state;
  CacheConfig k = small_cfg(32);
  k.sms = 2;
  k.l2_bytes = 16 * 128;
  k.l2_ways = 16;
  for (int wave = 0; wave <= 1; wave++) {
    CacheSys c;
    cache_init(&c, &k);
    MemTrace t[2] = {{0}};
    for (int b = 0; b < 2; b++)
      for (int pass = 0; pass < 2; pass++)
        for (uint64_t i = 0; i < 12; i++) req(&t[b], 0, TR_LD_NC, 0, (const uint64_t[]){4 * (100 * (uint64_t)b + i)}, 1);
    if (!wave) {
      for (int b = 0; b < 2; b++) {
        const MemTrace *p[1] = {&t[b]};
        replay_blocks(&c, (uint64_t)b, p, 1);
      }
    } else {
      ReplayWorker w = {0};
      L2Ops ops = {0};
      L2Wave lw = {.sms = 2};
      for (int b = 0; b < 2; b++) {
        const MemTrace *p[1] = {&t[b]};
        replay_l1(&c, &w, (uint64_t)b, p, 1, &ops); /* blocks 0 and 1: SMs 0 and 1 */
      }
      assert_int_equal(ops.nend, 2);
      l2wave_put(&c, &lw, &ops); /* a full wave: replayed at once */
      assert_int_equal(lw.held.nend, 0);
      l2wave_flush(&c, &lw);
      replay_worker_add(&c, &w);
      replay_worker_free(&w);
      l2wave_free(&lw);
      l2ops_free(&ops);
    }
    uint64_t m[WM_M_COUNT];
    counters(&c, m);
    EQ(L2_RD, 48);
    EQ(DRAM_RD, (wave ? 48 : 24) * 32);
    trace_free(&t[0]);
    trace_free(&t[1]);
    cache_free(&c);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_line_miss_then_hit),
    cmocka_unit_test(test_l2_requests_per_line),
    cmocka_unit_test(test_l1_lru),
    cmocka_unit_test(test_no_l1),
    cmocka_unit_test(test_fetch_pair),
    cmocka_unit_test(test_store_write_through),
    cmocka_unit_test(test_store_merging),
    cmocka_unit_test(test_store_steps),
    cmocka_unit_test(test_l2_write_back),
    cmocka_unit_test(test_partial_writes),
    cmocka_unit_test(test_local),
    cmocka_unit_test(test_placement),
    cmocka_unit_test(test_dram_rows),
    cmocka_unit_test(test_raw),
    cmocka_unit_test(test_missed_rounds),
    cmocka_unit_test(test_xbar),
    cmocka_unit_test(test_xbar_dealt),
    cmocka_unit_test(test_hold),
    cmocka_unit_test(test_hot),
    cmocka_unit_test(test_atomics),
    cmocka_unit_test(test_two_stages),
    cmocka_unit_test(test_trace_spill),
    cmocka_unit_test(test_l2_partitions),
    cmocka_unit_test(test_l2_wave),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
