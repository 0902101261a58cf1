/* test_model.c - the time model and the cache configuration (src/model)
 * from first principles.
 *
 * model_time() gets a hand-made Arch (only the fields model.c reads) and
 * hand-made counters; each bound must equal its formula (model.h, model.c)
 * worked out by hand next to the assertion, the limiter must be the largest
 * bound, and the total the 6-norm of the bounds plus the launch overhead:
 * between max + launch (one bound alone) and 7^(1/6) max + launch (all seven
 * equal).  model_cache_config() is checked on the h200 preset.
 */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "arch/arch.h"
#include "model/model.h"

#define KIB 1024u
#define MIB (1024u * 1024u)

static void assert_near(double got, double want)
{
  double tol = 1e-9 * (fabs(want) > 1 ? fabs(want) : 1);
  if (fabs(got - want) > tol)
    fail_msg("got %.12g, want %.12g", got, want);
}

static int starts_with(const char *s, const char *prefix)
{
  return !strncmp(s, prefix, strlen(prefix));
}

/* ---- every bound on one launch ------------------------------------------ */

static const Arch arch_a = {
  .name = "test-a",
  .sms = 4, .clock_ghz = 2.0,
  .dram_gbs = 1000, .dram_eff = 0.8,   /* 800 bytes per ns */
  .l2_reqs_ns = 20, .schedulers = 4,
  .block_ns = 250, .hot_write_ns = 3,
  .dram_latency_ns = 500, .raw_wait_ns = 40, .barrier_lat = 1.5,
  .launch_ns = 3000,
};

static void launch_a(uint64_t *m, ModelLaunch *l)
{
  memset(m, 0, WM_M_COUNT * sizeof *m);
  m[WM_M_DRAM_RD] = 3200000;
  m[WM_M_DRAM_WR] = 800000;
  m[WM_M_L2_RDREQ] = 20000;
  m[WM_M_L2_WR] = 30000;
  m[WM_M_L2_ATOM] = 6000;
  m[WM_M_L2_RD] = 80000;
  m[WM_M_L2_WRREQ] = 25000;   /* not part of any bound */
  m[WM_M_SLD_WF] = 10000;
  m[WM_M_SST_WF] = 6000;
  m[WM_M_SATOM_WF] = 4000;
  m[WM_M_L1_LINES] = 24000;
  m[WM_M_RAW] = 800;
  m[WM_M_GLD_REQ] = 123456;   /* requests: not part of any bound */
  *l = (ModelLaunch){.blocks = 50, .threads = 256, .blocks_per_sm = 2,
                     .warp_instrs = 400000, .hot_writes = 1000, .barriers = 1};
}

static void test_bounds(void **state)
{
  uint64_t m[WM_M_COUNT];
  ModelLaunch l;
  ModelTime t;
  launch_a(m, &l);
  model_time(&arch_a, m, &l, &t);
  /* DRAM: (3.2e6 + 0.8e6) bytes / (1000 GB/s x 0.8 = 800 B/ns) = 5000 ns */
  assert_near(t.bound_ns[MODEL_DRAM], 5000);
  /* L2: (RDREQ 20000 + WR 30000 + ATOM 6000) / 20 per ns = 2800 ns */
  assert_near(t.bound_ns[MODEL_L2], 2800);
  /* L1: wavefronts 10000 + 6000 + 4000, tag lookups 24000, sectors from
   * L2 80000: 124000 clocks / 4 SMs / 2 GHz = 15500 ns */
  assert_near(t.bound_ns[MODEL_L1], 15500);
  /* issue: 400000 warp instructions / (4 SMs x 4 schedulers x 2 GHz) */
  assert_near(t.bound_ns[MODEL_ISSUE], 12500);
  /* blocks: ceil(50 / 4) = 13 per SM x 250 ns */
  assert_near(t.bound_ns[MODEL_BLOCKS], 3250);
  /* same address: 1000 writes x 3 ns */
  assert_near(t.bound_ns[MODEL_HOT], 3000);
  /* latency: 50 / (2 resident x 4 SMs) = 6.25 waves, each: memory 500 ns x
   * 1.5 (barrier) = 750, loads behind stores 800 RAW / (50 x 8 warps) = 2
   * per warp x 40 ns = 80, shared 2 blocks x 20000 / 50 wavefronts per
   * block / 2 GHz = 400: 6.25 x 1230 = 7687.5 ns */
  assert_near(t.bound_ns[MODEL_LATENCY], 7687.5);
  /* the largest is L1 */
  assert_int_equal(t.limiter, MODEL_L1);
  assert_true(starts_with(t.why, "L1/shared-bound: 15.5 us of "));
  /* total: the 6-norm of the seven bounds plus 3000 ns of launch */
  double b[] = {5000, 2800, 15500, 12500, 3250, 3000, 7687.5}, s = 0;
  for (int i = 0; i < 7; i++)
    s += pow(b[i], 6);
  assert_near(t.ns, pow(s, 1.0 / 6) + 3000);
  assert_near(t.launch_ns, 3000);
  assert_true(t.ns >= 15500 + 3000);
  assert_true(t.ns <= pow(7, 1.0 / 6) * 15500 + 3000);
  /* achieved: DRAM 4e6 bytes, L2 (80000 + 30000) x 32 bytes, over ns */
  assert_near(t.dram_gbs, 4e6 / t.ns);
  assert_near(t.l2_gbs, 110000.0 * 32 / t.ns);

  /* Without a barrier a wave's memory phase is one DRAM latency:
   * 6.25 x (500 + 80 + 400) = 6125 ns. */
  l.barriers = 0;
  model_time(&arch_a, m, &l, &t);
  assert_near(t.bound_ns[MODEL_LATENCY], 6125);
  /* Without L2 reads no wave waits for memory (and L1 loses 80000 clocks:
   * 44000 / 8 = 5500 ns): 6.25 x (80 + 400) = 3000 ns. */
  m[WM_M_L2_RD] = 0;
  model_time(&arch_a, m, &l, &t);
  assert_near(t.bound_ns[MODEL_LATENCY], 3000);
  assert_near(t.bound_ns[MODEL_L1], 5500);
  /* now the issue bound (12500) is the largest */
  assert_int_equal(t.limiter, MODEL_ISSUE);
  assert_true(starts_with(t.why, "issue-bound: 12.5 us of "));
}

/* ---- dependent rounds, a grid smaller than the GPU, hot atomics ---------- */

static const Arch arch_r = {
  .name = "test-r",
  .sms = 4, .clock_ghz = 1.0, .schedulers = 1, .fetch_bytes = 64,
  .l1_round_ns = 20, .l2_round_ns = 100, .dram_round_ns = 300,
  .hot_write_ns = 1, .atom_update_ns = 2,
};

/* The latency bound model_time gives. */
static double latency_ns(const Arch *a, const uint64_t *m, const ModelLaunch *l) {
  ModelTime t;
  model_time(a, m, l, &t);
  return t.bound_ns[MODEL_LATENCY];
}

static void test_rounds_bound(void **state)
{
  (void)state;
  uint64_t m[WM_M_COUNT] = {0};
  ModelTime t;
  /* one block of 8 warps, 100 rounds each; 1000 load requests, half of
   * them missing L1; 250 DRAM fetches of 64 bytes for 500 missed
   * requests: half of those wait for DRAM.  A round: 0.5 x 20 (L1) +
   * 0.5 x (100 + 0.5 x (300 - 100)) = 10 + 100 = 110 ns; one block is a
   * whole wave however many SMs stay idle: 100 x 110 = 11000 ns, plus the
   * warp's own L1 look-ups (4000 tag lookups below / 8 warps at 1 per ns:
   * 500 ns): 11500 ns. */
  m[WM_M_ROUNDS] = 800;
  m[WM_M_GLD_REQ] = 1000;
  m[WM_M_MISS_REQ] = 500;
  m[WM_M_L2_RDREQ] = 700;
  m[WM_M_DRAM_RD] = 250 * 64;
  /* the L1 of the one busy SM: 4000 tag lookups at 1 per ns = 4000 ns
   * (not 4000 / 4 SMs); issue: 6000 warp instructions on 1 scheduler of
   * the one SM = 6000 ns */
  m[WM_M_L1_LINES] = 4000;
  ModelLaunch l = {.blocks = 1, .threads = 256, .blocks_per_sm = 2, .warp_instrs = 6000,
                   .hot_writes = 10, .hot_atoms = 1500};
  model_time(&arch_r, m, &l, &t);
  assert_near(t.bound_ns[MODEL_LATENCY], 11500);
  assert_near(t.bound_ns[MODEL_L1], 4000);
  assert_near(t.bound_ns[MODEL_ISSUE], 6000);
  /* 1500 updates of one line x 2 ns beat 10 stores x 1 ns */
  assert_near(t.bound_ns[MODEL_HOT], 3000);
  assert_int_equal(t.limiter, MODEL_LATENCY);
  /* a warp also issues its 6000 / 8 = 750 instructions, at best 2 clocks
   * apart: 11500 + 750 x 2 / 1 GHz = 13000 ns */
  Arch issuing = arch_r;
  issuing.warp_cpi = 2;
  model_time(&issuing, m, &l, &t);
  assert_near(t.bound_ns[MODEL_LATENCY], 13000);
  /* Where the cache traced the rounds, their share counts instead of the
   * requests': all 100 traced rounds missed L1, and 250 fetches for 100
   * missed rounds put each at DRAM: 300 ns a round, 100 x 300 + 500 =
   * 30500 */
  m[WM_M_ROUND_REQ] = 100;
  m[WM_M_MISS_ROUNDS] = 100;
  model_time(&arch_r, m, &l, &t);
  assert_near(t.bound_ns[MODEL_LATENCY], 30500);
  m[WM_M_ROUND_REQ] = m[WM_M_MISS_ROUNDS] = 0;
  /* The block alone on its SM waits at barriers: each warp waits for the
   * whole block's L1 work (4000 ns, not its 500), which overlaps the warps'
   * arithmetic (750 x 2 = 1500 ns) but not their rounds: 11000 + 4000 */
  l.barriers = 1;
  model_time(&issuing, m, &l, &t);
  assert_near(t.bound_ns[MODEL_LATENCY], 15000);
  l.barriers = 0;
  /* with 16 blocks (2 waves of 2 x 4) the rounds repeat per wave, and the
   * 4000 lookups are 4000 / 128 warps = 31.25 ns a warp: 2 x 11031.25 */
  l.blocks = 16;
  m[WM_M_ROUNDS] = 16 * 8 * 100;
  model_time(&arch_r, m, &l, &t);
  assert_near(t.bound_ns[MODEL_LATENCY], 22062.5);
  /* blocks of later waves start out of step: barriers change nothing */
  l.barriers = 1;
  assert_near(latency_ns(&arch_r, m, &l), 22062.5);
  /* One wave of 8 blocks, two an SM, in step at barriers: each warp waits
   * for its SM's whole L1 work, 4000 lookups / 4 SMs = 1000 ns, not its
   * 4000 / 64 warps = 62.5: 11000 + 1000 (11062.5 without barriers) */
  l.blocks = 8;
  m[WM_M_ROUNDS] = 8 * 8 * 100;
  assert_near(latency_ns(&arch_r, m, &l), 12000);
  l.barriers = 0;
  assert_near(latency_ns(&arch_r, m, &l), 11062.5);
}

/* ---- each bound as the limiter ------------------------------------------ */

/* block_ns = 0 and raw_wait_ns drive nothing unless a case sets them, so
 * each case below has exactly one nonzero bound of 2000 ns: the total is
 * then exactly 2000 + launch (1000). */
static const Arch arch_b = {
  .name = "test-b",
  .sms = 2, .clock_ghz = 1.0,
  .dram_gbs = 100, .dram_eff = 0.5,   /* 50 bytes per ns */
  .l2_reqs_ns = 4, .schedulers = 2,
  .block_ns = 0, .hot_write_ns = 10,
  .dram_latency_ns = 100, .raw_wait_ns = 50, .barrier_lat = 2,
  .launch_ns = 1000,
};

static void one_bound(const Arch *a, const uint64_t *m, const ModelLaunch *l, int bound,
                      const char *limit, ModelTime *t)
{
  model_time(a, m, l, t);
  for (int b = 0; b < MODEL_NBOUNDS; b++)
    assert_near(t->bound_ns[b], b == bound ? 2000 : 0);
  assert_int_equal(t->limiter, bound);
  assert_string_equal(model_bound_limit[bound], limit);
  assert_true(starts_with(t->why, limit));
  assert_true(t->why[strlen(limit)] == ':');
  assert_near(t->ns, 2000 + 1000);
}

static void test_limiters(void **state)
{
  uint64_t m[WM_M_COUNT];
  ModelLaunch l = {.blocks = 40, .threads = 64, .blocks_per_sm = 1};
  ModelTime t;

  /* DRAM: 100000 bytes / 50 per ns = 2000 ns; achieved 100000 B / 3000 ns
   * = 33.3 GB/s = 0.03 TB/s of 0.10 */
  memset(m, 0, sizeof m);
  m[WM_M_DRAM_RD] = 60000;
  m[WM_M_DRAM_WR] = 40000;
  one_bound(&arch_b, m, &l, MODEL_DRAM, "DRAM-bound", &t);
  assert_string_equal(t.why, "DRAM-bound: 0.03 TB/s of DRAM's 0.10");
  /* or the rows it opens, one after another in each channel: 1000 row
   * misses x 8 ns / 4 channels = 2000 ns for 20000 bytes (0.01 TB/s); with
   * 100000 bytes the bytes' 2000 ns are no shorter: the same 2000 */
  Arch rows = arch_b;
  rows.channels = 4, rows.dram_act_ns = 8;
  m[WM_M_ROW_MISS] = 1000;
  one_bound(&rows, m, &l, MODEL_DRAM, "DRAM-bound", &t);
  m[WM_M_DRAM_RD] = 12000;
  m[WM_M_DRAM_WR] = 8000;
  one_bound(&rows, m, &l, MODEL_DRAM, "DRAM-bound", &t);
  assert_string_equal(t.why, "DRAM-bound: 0.01 TB/s of DRAM's 0.10, opening a row for each few bytes it moves");
  m[WM_M_ROW_MISS] = 0;
  m[WM_M_DRAM_RD] = 60000;
  m[WM_M_DRAM_WR] = 40000;

  /* L2: 5000 read requests + 2000 write sectors + 1000 atomics = 8000
   * units / 4 per ns; "0.0 M" requests (8000 / 1e6 to one decimal) */
  memset(m, 0, sizeof m);
  m[WM_M_L2_RDREQ] = 5000;
  m[WM_M_L2_WR] = 2000;
  m[WM_M_L2_ATOM] = 1000;
  one_bound(&arch_b, m, &l, MODEL_L2, "L2-bound", &t);
  assert_string_equal(t.why, "L2-bound: 0.0 M L2 requests (reads per line, writes per sector) at 4 per ns");

  /* L1: 4000 tag lookups / 2 SMs / 1 GHz */
  memset(m, 0, sizeof m);
  m[WM_M_L1_LINES] = 4000;
  one_bound(&arch_b, m, &l, MODEL_L1, "L1/shared-bound", &t);
  assert_string_equal(t.why, "L1/shared-bound: 2.0 us of 3.0 us");

  /* issue: 8000 / (2 SMs x 2 schedulers x 1 GHz) */
  memset(m, 0, sizeof m);
  l.warp_instrs = 8000;
  one_bound(&arch_b, m, &l, MODEL_ISSUE, "issue-bound", &t);
  assert_string_equal(t.why, "issue-bound: 2.0 us of 3.0 us");
  l.warp_instrs = 0;

  /* block launch: ceil(40 / 2) = 20 blocks per SM x 100 ns */
  Arch ab = arch_b;
  ab.block_ns = 100;
  one_bound(&ab, m, &l, MODEL_BLOCKS, "block-launch-bound", &t);
  /* 41 blocks: ceil(41 / 2) = 21 x 100 = 2100 ns, not 2050 */
  l.blocks = 41;
  model_time(&ab, m, &l, &t);
  assert_near(t.bound_ns[MODEL_BLOCKS], 2100);
  l.blocks = 40;

  /* same address: 200 writes x 10 ns */
  l.hot_writes = 200;
  one_bound(&arch_b, m, &l, MODEL_HOT, "same-address-bound", &t);
  l.hot_writes = 0;

  /* latency: 40 / (1 x 2) = 20 waves; 160 RAW over 40 x 2 warps = 2 per
   * warp x 50 ns = 100 ns a wave: 2000 ns */
  m[WM_M_RAW] = 160;
  one_bound(&arch_b, m, &l, MODEL_LATENCY, "latency-bound", &t);
  assert_string_equal(t.why, "latency-bound: 20 waves of 1 blocks/SM, each 100 ns (memory 0, loads "
                             "behind stores 100, shared 0); DRAM at 0.00 TB/s of 0.10");
  m[WM_M_RAW] = 0;

  /* tensor: wgmma and mma.sync each at their own rate, on the 2 SMs at 1
   * GHz: 6 M bf16 wgmma multiply-adds (12 M ops) at 2000 per SM per clock
   * (1500 ns) and 1 M f16 mma.sync ones at 1000 (500 ns) */
  Arch at = arch_b;
  at.tensor_fma[ARCH_TC_GMMA_F16] = 2000;
  at.tensor_fma[ARCH_TC_MMA_F16] = 1000;
  m[WM_M_OPS_HGMMA_BF16] = 12000000;
  m[WM_M_OPS_HMMA_F16_F32] = 2000000;
  one_bound(&at, m, &l, MODEL_TENSOR, "tensor-bound", &t);
  assert_string_equal(t.why, "tensor-bound: 0.01 G multiply-adds, most of wgmma f16 and bf16 at 2000 per SM per "
                             "clock, on 2 SMs");
  /* a path without a rate (tf32 here) adds nothing */
  m[WM_M_OPS_HGMMA_TF32] = 1000000;
  one_bound(&at, m, &l, MODEL_TENSOR, "tensor-bound", &t);
}

/* Two equal bounds B: (2 B^6)^(1/6) = 2^(1/6) B; all eight equal: 8^(1/6) B,
 * the most the overlap can add. */
static void test_norm(void **state)
{
  uint64_t m[WM_M_COUNT];
  ModelTime t;
  memset(m, 0, sizeof m);
  ModelLaunch l = {.blocks = 40, .threads = 64, .blocks_per_sm = 1};
  m[WM_M_DRAM_RD] = 100000;  /* 2000 ns, as in test_limiters */
  m[WM_M_L2_RDREQ] = 8000;   /* 2000 ns */
  model_time(&arch_b, m, &l, &t);
  assert_near(t.ns, pow(2, 1.0 / 6) * 2000 + 1000);
  assert_true(t.limiter == MODEL_DRAM || t.limiter == MODEL_L2);

  /* 1 SM, 1 GHz: every bound 1000 ns. */
  Arch a = {
    .name = "test-c", .sms = 1, .clock_ghz = 1, .dram_gbs = 1, .dram_eff = 1,
    .l2_reqs_ns = 1, .schedulers = 1, .block_ns = 100, .hot_write_ns = 10,
    .dram_latency_ns = 700, .raw_wait_ns = 100, .barrier_lat = 1, .launch_ns = 500,
  };
  memset(m, 0, sizeof m);
  m[WM_M_DRAM_RD] = 1000;     /* DRAM: 1000 bytes at 1 per ns */
  m[WM_M_L2_RDREQ] = 1000;    /* L2: 1000 requests at 1 per ns */
  m[WM_M_L1_LINES] = 1000;    /* L1: 1000 clocks (no L2_RD: no memory wait) */
  l = (ModelLaunch){.blocks = 10, .threads = 32, .blocks_per_sm = 1,
                    .warp_instrs = 1000,  /* issue: 1000 clocks */
                    .hot_writes = 100};   /* hot: 100 x 10 ns */
  /* blocks: 10 per SM x 100 ns; latency: 10 waves x (10 RAW / 10 warps x
   * 100 ns) = 1000 */
  m[WM_M_RAW] = 10;
  /* tensor: 1000 f16 wgmma multiply-adds (2000 ops) at 1 per clock */
  a.tensor_fma[ARCH_TC_GMMA_F16] = 1;
  m[WM_M_OPS_HGMMA_F16] = 2000;
  model_time(&a, m, &l, &t);
  for (int b = 0; b < MODEL_NBOUNDS; b++)
    assert_near(t.bound_ns[b], 1000);
  assert_near(t.ns, pow(8, 1.0 / 6) * 1000 + 500);
}

/* A level without a throughput gives no bound; a clock of 0 means 1 GHz. */
static void test_degenerate(void **state)
{
  uint64_t m[WM_M_COUNT];
  ModelTime t;
  memset(m, 0, sizeof m);
  m[WM_M_L2_RDREQ] = 1000000;
  m[WM_M_DRAM_RD] = 1000000;
  m[WM_M_L1_LINES] = 3000;
  Arch a = arch_b;
  a.l2_reqs_ns = 0;  /* fermi: no L2 bound */
  a.dram_gbs = 0;
  a.clock_ghz = 0;
  ModelLaunch l = {.blocks = 40, .threads = 64, .blocks_per_sm = 1};
  model_time(&a, m, &l, &t);
  assert_near(t.bound_ns[MODEL_L2], 0);
  assert_near(t.bound_ns[MODEL_DRAM], 0);
  /* 3000 lookups / 2 SMs / 1 GHz */
  assert_near(t.bound_ns[MODEL_L1], 1500);
  assert_int_equal(t.limiter, MODEL_L1);
  assert_near(t.ns, 1500 + 1000);
  /* no counters at all: every bound 0, the launch overhead only */
  memset(m, 0, sizeof m);
  model_time(&arch_b, m, &l, &t);
  assert_near(t.ns, 1000);
}

/* ---- model_cache_config -------------------------------------------------- */

static void test_cache_config(void **state)
{
  const Arch *a = arch_find("h200");
  assert_non_null(a);
  CacheConfig k;

  /* 8 blocks of 256 threads with 2 KiB of shared memory each: 8 x (2 + 1
   * reserved) = 24 KiB; the smallest carveout holding it is 32 KiB (8, 16,
   * 32, ...), leaving 256 - 32 = 224 KiB of L1. */
  model_cache_config(a, 8, 256, 2 * KIB, 0, &k);
  assert_int_equal(k.l1_bytes, 224 * KIB);
  assert_int_equal(k.group, 1);            /* consecutive blocks share no L1 (arch.c) */
  assert_int_equal(k.blocks_per_sm, 8);
  assert_int_equal(k.warps_per_block, 8);  /* 256 / 32 */
  assert_int_equal(k.sms, a->sms);
  assert_int_equal(k.l1_ways, 8);         /* measured: groundtruth/policy_kernels.cu (arch.c) */
  /* the whole 60 MiB, in two partitions that keep a far line twice
   * (l2cap_kernels.cu: every SM's data spills at half of it) */
  assert_int_equal(k.l2_bytes, 60 * MIB);
  assert_int_equal(k.l2_parts, 2);
  assert_int_equal(k.fetch_bytes, 64);     /* Hopper: a sector pair */
  assert_int_equal(k.merge_sectors, 16);
  assert_int_equal(k.merge_lines, 16);
  assert_int_equal(k.partial_sectors, 7 * MIB / 32);
  assert_int_equal(k.channels, a->channels);
  assert_int_equal(k.banks, a->dram_banks);
  assert_int_equal(k.row_bytes, (uint32_t)a->row_bytes);
  assert_int_equal(k.interleave, 256);
  /* the order the H200 deals blocks in, for grids of more blocks than SMs
   * (arch/deal.c); an SM holds its share of a smaller grid than a wave */
  assert_ptr_equal(k.layout, &arch_gh100_132);
  model_spread_small_grid(&k, 528);
  assert_ptr_equal(k.layout, &arch_gh100_132);
  assert_int_equal(k.sm_blocks, 4);
  model_spread_small_grid(&k, 4096);
  assert_int_equal(k.sm_blocks, 8);
  model_spread_small_grid(&k, 132); /* one block an SM: each on its own, not the full grids' order */
  assert_null(k.layout);
  assert_int_equal(k.sm_blocks, 1);

  /* 24 KiB + 1 byte of need: still 32 KiB; 32 KiB + 1: 64 KiB -> 192 KiB */
  model_cache_config(a, 1, 32, 23 * KIB + 1, 0, &k);
  assert_int_equal(k.l1_bytes, 224 * KIB);
  model_cache_config(a, 1, 32, 31 * KIB + 1, 0, &k);
  assert_int_equal(k.l1_bytes, 192 * KIB);
  /* exactly 8 KiB (7 + 1 reserved): the 8 KiB carveout, 248 KiB */
  model_cache_config(a, 1, 32, 7 * KIB, 0, &k);
  assert_int_equal(k.l1_bytes, 248 * KIB);
  /* more than the largest carveout (2 x 121 KiB > 228): the largest, 28 KiB
   * of L1 left */
  model_cache_config(a, 2, 32, 120 * KIB, 0, &k);
  assert_int_equal(k.l1_bytes, 28 * KIB);

  /* a preset placing 4 consecutive blocks on an SM: the group is 4 for 8
   * resident blocks, 2 for 2 (and 6), 1 for 1 or 3 (as many as divide) */
  Arch a4 = *a;
  a4.block_group = 4;
  int bps[] = {8, 4, 2, 6, 1, 3, 0};
  int group[] = {4, 4, 2, 2, 1, 1, 1};
  for (int i = 0; i < 7; i++) {
    model_cache_config(&a4, bps[i], 128, 0, 0, &k);
    assert_int_equal(k.group, group[i]);
    assert_int_equal(k.blocks_per_sm, bps[i] ? bps[i] : 1);
  }
  /* 33 threads: 2 warps; local memory passes through */
  model_cache_config(a, 1, 33, 0, 48, &k);
  assert_int_equal(k.warps_per_block, 2);
  assert_int_equal(k.local_bytes, 48);

  /* GT200 caches no global loads and merges nothing */
  const Arch *g = arch_find("gt200");
  assert_non_null(g);
  model_cache_config(g, 1, 32, 0, 0, &k);
  assert_int_equal(k.l1_bytes, 0);
  assert_int_equal(k.merge_sectors, 0);
  assert_int_equal(k.partial_sectors, 0);
  assert_int_equal(k.fetch_bytes, 32);
}

/* Without shared memory the driver gives it nothing: sm_70+ allow a 0 KiB
 * carveout (arch.h; occupancy.c's config_at_least picks it), so L1 is the
 * whole 256 KiB array. */
static void test_cache_config_no_smem(void **state)
{
  const Arch *a = arch_find("h200");
  assert_non_null(a);
  CacheConfig k;
  model_cache_config(a, 8, 256, 0, 0, &k);
  assert_int_equal(k.l1_bytes, 256 * KIB);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_bounds),
    cmocka_unit_test(test_rounds_bound),
    cmocka_unit_test(test_limiters),
    cmocka_unit_test(test_norm),
    cmocka_unit_test(test_degenerate),
    cmocka_unit_test(test_cache_config),
    cmocka_unit_test(test_cache_config_no_smem),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
