/* test_replay_clock.c - the replay's clock (mem/replay_clock.c):
 * warpmem__replay_clocks, the clocks of the SM slot whose blocks took
 * longest, each request issued at its warp's clock and waiting for its
 * loads' data.
 *
 * Golden numbers: the H200's, measured by groundtruth/memlat_kernels.cu
 * (docs/results/h200-2026-12-03-memlat: Nsight Compute's duration less the
 * empty launch's, over the chain's steps, at 1.98 GHz), which the clock's
 * constants (REPLAY_CLOCK_CONSTANTS) come from, and by
 * groundtruth/memq_kernels.cu (docs/results/h200-2026-12-04-memq) for
 * several misses at once.  First principles for the rest: a warp that
 * waits at bar.sync for another's chain of loads goes on only when that
 * chain's data is back; a warp's 17th load waits for its first's data; a
 * block's slot takes the block's own clocks, not its group's.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mem/cache.h"
#include "mem/replay_clock.h"

/* One chain's clocks a step, as the H200 measured them. */
static const struct {
  const char *launch;
  int steps;
  double clocks; /* a step, measured */
} chains[] = {
  {"memlat_ca#hit", 4096, 53},     /* an L1 hit */
  {"memlat_cg#hit", 4096, 291},    /* an L2 hit, one line */
  {"memlat_cg#fit", 8192, 321},    /* L2 hits over 512 lines, a pass from DRAM first */
  {"memlat_cg#dram_far", 2000, 701}, /* DRAM, each step a new row */
  {"memlat_ca#dram_next", 2048, 700}, /* DRAM, each step the next line */
};

static void test_chains(void **state) {
  (void)state;
  char args[1024], *out = NULL;
  snprintf(args, sizeof args, "sim '%s' --arch h200 --format csv --kernel memlat_ca", tu_truth("ptx/memlat_kernels.ptx"));
  assert_int_equal(tu_run_cli(args, &out, NULL), 0);
  char *cg = NULL;
  snprintf(args, sizeof args, "sim '%s' --arch h200 --format csv --kernel memlat_cg", tu_truth("ptx/memlat_kernels.ptx"));
  assert_int_equal(tu_run_cli(args, &cg, NULL), 0);
  for (size_t i = 0; i < sizeof chains / sizeof chains[0]; i++) {
    const char *csv = strncmp(chains[i].launch, "memlat_ca", 9) ? cg : out;
    double step = tu_csv_value(csv, chains[i].launch, "warpmem__replay_clocks") / chains[i].steps;
    if (step < 0.97 * chains[i].clocks || step > 1.03 * chains[i].clocks)
      fail_msg("%s: %.1f clocks a step, the H200 %.0f", chains[i].launch, step, chains[i].clocks);
  }
  free(out);
  free(cg);
}

/* Warp 0 runs a chain of four dependent ld.global.cg of one word (the
 * first from DRAM, the others L2 hits) and puts the last value in shared
 * memory; warp 1 waits at the barrier, reads it and stores it.  The block
 * ends when that store reaches L2: after DRAM, three L2 round trips and
 * the store's own trip, 675 + 3 * 269 + 269 clocks at least (plus the
 * chain's few instructions).  Without the barrier's wait warp 1's store
 * would be at L2 some 300 clocks after launch, and the block would end
 * with warp 0's chain, ~1500. */
static const char *barrier_ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    "//@ bar2 grid=1 block=64 args=buf:u32:64:zero\n"
    ".visible .entry bar2(.param .u64 p) {\n"
    "  .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .pred %p<2>;\n"
    "  .shared .u32 s;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.ge.u32 %p1, %r1, 32;\n"
    "  @%p1 bra AFTER;\n"
    "  ld.global.cg.u32 %r2, [%rd1];\n"
    "  mul.wide.u32 %rd2, %r2, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.cg.u32 %r3, [%rd3];\n"
    "  mul.wide.u32 %rd2, %r3, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.cg.u32 %r4, [%rd3];\n"
    "  mul.wide.u32 %rd2, %r4, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.cg.u32 %r5, [%rd3];\n"
    "  st.shared.u32 [s], %r5;\n"
    "AFTER:\n"
    "  bar.sync 0;\n"
    "  @!%p1 bra END;\n"
    "  ld.shared.u32 %r6, [s];\n"
    "  st.global.u32 [%rd1+128], %r6;\n"
    "END:\n"
    "  ret;\n"
    "}\n";

/* Several misses of one warp at once (groundtruth/memq_kernels.cu,
 * docs/results/h200-2026-12-04-memq): N lines of one 4 KB place in one
 * request (#cN), N places (#sN), four one-line requests (memq_chains).
 * The clock takes a place's lines one at a time (CLOCK_DRAM_LINE) and
 * draws each place's delay (CLOCK_DRAM_SPREAD, mean 130): 5%, since a
 * launch's 400-1000 steps draw that many delays.  #c32 and #s4 gave the
 * two constants; the others were not fitted. */
static const struct {
  const char *launch;
  int steps;
  double clocks; /* a step, measured, less the empty launch's */
} misses[] = {
  {"memq_lanes#c1", 1000, 703},   {"memq_lanes#c2", 1000, 722},   {"memq_lanes#c4", 1000, 752},
  {"memq_lanes#c8", 1000, 792},   {"memq_lanes#c16", 1000, 845},  {"memq_lanes#c32", 1000, 905},
  {"memq_lanes#s4", 400, 849},    {"memq_lanes#s16", 400, 1054},  {"memq_chains#far", 500, 879},
  {"memq_chains#mid", 500, 860},  {"memq_chains#near", 500, 867},
};

static void test_misses_at_once(void **state) {
  (void)state;
  char args[1024], *out = NULL;
  snprintf(args, sizeof args, "sim '%s' --arch h200 --format csv", tu_truth("ptx/memq_kernels.ptx"));
  assert_int_equal(tu_run_cli(args, &out, NULL), 0);
  double empty = tu_csv_value(out, "memq_empty", "warpmem__replay_clocks");
  for (size_t i = 0; i < sizeof misses / sizeof misses[0]; i++) {
    double step = (tu_csv_value(out, misses[i].launch, "warpmem__replay_clocks") - empty) / misses[i].steps;
    if (step < 0.95 * misses[i].clocks || step > 1.05 * misses[i].clocks)
      fail_msg("%s: %.1f clocks a step, the H200 %.0f", misses[i].launch, step, misses[i].clocks);
  }
  free(out);
}

static void test_barrier_waits_for_the_chain(void **state) {
  (void)state;
  char *path = tu_temp_file(".ptx", barrier_ptx), args[512], *out = NULL;
  snprintf(args, sizeof args, "sim '%s' --arch h200 --format csv", path);
  assert_int_equal(tu_run_cli(args, &out, NULL), 0);
  double clocks = tu_csv_value(out, "bar2", "warpmem__replay_clocks");
  double least = CLOCK_DRAM + 3.0 * CLOCK_L2_HIT + CLOCK_L2_HIT;
  if (clocks < least || clocks > least + 200) fail_msg("bar2: %.0f clocks, want %.0f to %.0f", clocks, least, least + 200);
  unlink(path);
  free(path);
  free(out);
}

/* One warp's straight line of n independent ld.global.cg, each a line of
 * one 4 KB place, then their sum: the 17th load waits for the first's data
 * (CLOCK_LOADS_INFLIGHT), so 32 loads take a second DRAM round trip after
 * 16 (without the window: 16 more lines through the pipe and the place's
 * queue, about 10 clocks each, 1071 against 1215 clocks). */
static void window_kernel(char *buf, size_t cap, const char *name, int n) {
  size_t k = (size_t)snprintf(buf, cap,
                              "//@ %s grid=1 block=32 args=buf:u32:65536:zero,buf:u32:32:zero\n"
                              ".visible .entry %s(.param .u64 a, .param .u64 o) {\n"
                              "  .reg .b32 %%r<40>; .reg .b64 %%rd<4>;\n"
                              "  ld.param.u64 %%rd1, [a];\n  cvta.to.global.u64 %%rd1, %%rd1;\n"
                              "  ld.param.u64 %%rd2, [o];\n  cvta.to.global.u64 %%rd2, %%rd2;\n", name, name);
  for (int i = 0; i < n; i++) k += (size_t)snprintf(buf + k, cap - k, "  ld.global.cg.u32 %%r%d, [%%rd1+%d];\n", i + 1, i * 128);
  for (int i = 1; i < n; i++) k += (size_t)snprintf(buf + k, cap - k, "  add.u32 %%r1, %%r1, %%r%d;\n", i + 1);
  snprintf(buf + k, cap - k, "  st.global.u32 [%%rd2], %%r1;\n  ret;\n}\n");
}

static void test_sixteen_loads_in_flight(void **state) {
  (void)state;
  static char ptx[16384];
  size_t k = (size_t)snprintf(ptx, sizeof ptx, ".version 8.0\n.target sm_90\n.address_size 64\n");
  window_kernel(ptx + k, sizeof ptx - k, "loads16", 16);
  k = strlen(ptx);
  window_kernel(ptx + k, sizeof ptx - k, "loads32", 32);
  char *path = tu_temp_file(".ptx", ptx), args[512], *out = NULL;
  snprintf(args, sizeof args, "sim '%s' --arch h200 --format csv", path);
  assert_int_equal(tu_run_cli(args, &out, NULL), 0);
  double c16 = tu_csv_value(out, "loads16", "warpmem__replay_clocks");
  double c32 = tu_csv_value(out, "loads32", "warpmem__replay_clocks");
  double floor = CLOCK_DRAM - CLOCK_DRAM_SPREAD; /* the fastest DRAM answer */
  if (c32 - c16 < floor) fail_msg("32 loads %.0f clocks, 16 loads %.0f: want %.0f more at least", c32, c16, floor);
  unlink(path);
  free(path);
  free(out);
}

/* Two blocks replayed as one group: block 0's warp a chain of four
 * dependent misses, block 1's one miss.  Each block's own clocks go to its
 * SM slot (a block that ends early frees its slot for the next, as the
 * GPU's block scheduler does), so block 1's are one round trip, not the
 * group's four. */
static void test_each_block_its_own_end(void **state) {
  (void)state;
  CacheConfig k = {.sms = 1, .blocks_per_sm = 2, .group = 2, .warps_per_block = 1, .l1_bytes = 4096, .l1_ways = 4,
                   .l2_bytes = 64 * 1024, .l2_ways = 16, .fetch_bytes = 64, .channels = 2, .banks = 2,
                   .row_bytes = 1024, .interleave = 256, .lat_l1 = CLOCK_L1_HIT, .lat_l2 = CLOCK_L2_HIT,
                   .lat_dram = CLOCK_DRAM};
  CacheSys c;
  cache_init(&c, &k);
  TraceRec chain[4], one[1];
  uint8_t wait[4] = {RW_MISS, RW_MISS, RW_MISS, RW_MISS};
  for (int i = 0; i < 4; i++)
    chain[i] = (TraceRec){.sector = (uint64_t)i * 4096, .now = (uint32_t)(10 * i), .kind = TR_LD_NC,
                          .first = 1 | TR_ROUND};
  one[0] = (TraceRec){.sector = 1 << 20, .kind = TR_LD_NC, .first = 1 | TR_ROUND};
  struct ReplayClock *scratch = NULL;
  ClockWarp *w = replay_clock_warps(&scratch, 2);
  w[0] = (ClockWarp){chain, wait, 4, 0};
  w[1] = (ClockWarp){one, wait, 1, 1};
  uint64_t group = replay_clock_group(&c, &scratch, w, 2, 2);
  uint64_t b0 = replay_clock_block(scratch, 0), b1 = replay_clock_block(scratch, 1);
  double floor = CLOCK_DRAM - CLOCK_DRAM_SPREAD;
  if (b0 != group || b0 < 4 * floor) fail_msg("block 0: %llu clocks (group %llu), want 4 x %.0f at least",
                                             (unsigned long long)b0, (unsigned long long)group, floor);
  if (b1 > CLOCK_DRAM + 8 * CLOCK_DRAM_SPREAD + 20) fail_msg("block 1: %llu clocks, one round trip", (unsigned long long)b1);
  replay_clock_free(scratch);
  cache_free(&c);
}

/* A preset without the clock's constants reports no clock (nor does any,
 * not asked for: the default build's time model has none yet). */
static void test_no_constants_no_clock(void **state) {
  (void)state;
  char *path = tu_temp_file(".ptx", barrier_ptx), args[512], *out = NULL;
  snprintf(args, sizeof args, "sim '%s' --arch ampere --format csv", path);
  assert_int_equal(tu_run_cli(args, &out, NULL), 0);
  assert_true(tu_csv_value(out, "bar2", "warpmem__replay_clocks") == 0);
  free(out);
  unsetenv("WARPMEM_CLOCK");
  snprintf(args, sizeof args, "sim '%s' --arch h200 --format csv", path);
  assert_int_equal(tu_run_cli(args, &out, NULL), 0);
  assert_true(tu_csv_value(out, "bar2", "warpmem__replay_clocks") == 0);
  setenv("WARPMEM_CLOCK", "1", 1);
  unlink(path);
  free(path);
  free(out);
}

int main(void) {
  setenv("WARPMEM_CLOCK", "1", 1); /* the clock runs when asked for */
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_chains),
    cmocka_unit_test(test_misses_at_once),
    cmocka_unit_test(test_sixteen_loads_in_flight),
    cmocka_unit_test(test_each_block_its_own_end),
    cmocka_unit_test(test_barrier_waits_for_the_chain),
    cmocka_unit_test(test_no_constants_no_clock),
  };
  return cmocka_run_group_tests_name("replay_clock", tests, NULL, NULL);
}
