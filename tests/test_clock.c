/* test_clock.c - the warps' clock of kernels with mbarriers or wgmma
 * (emu/emu_clock.c), on groundtruth/tma_size_kernels.cu and
 * tensor_kernels.cu: one thread's chain of TMA loads, each waited for.
 *
 * Golden numbers from the clock's constants (measured on the H200,
 * docs/results/h200-2026-12-02-clock): a load of B bytes whose lines are
 * in L2 ends ceil(B / 104) clocks (the TMA's bytes into the SM) and 317
 * (L2's round trip) after it starts; a line read first from DRAM arrives
 * 520 clocks later still, plus the copy's DRAM bytes so far at 76 a
 * clock; the line's 128 bytes leave the TMA unit at 104 a clock.  So with
 * W = block clocks - dependent clocks (what the one warp waited):
 * - 256 loads of one box of 16 KiB against one of 4 KiB: 255 x (158 - 40)
 *   more, and the first (cold) load's last line (16384/104 + 16384/76 =
 *   157 + 215 against 39 + 53) 280 more: 30370;
 * - 256 loads of 16 KiB walking the tensor (every line fresh) against the
 *   same box: each but the first waits DRAM, 157 + 317 + 520 + 215 = 1209
 *   against 158 + 317 = 475: 255 x 734 = 187170;
 * - two 16 KiB loads a step on two mbarriers: the second waits for the
 *   first's bytes to leave the TMA unit, 158 clocks a step more (less the
 *   few the warp spends issuing the second).
 * - 1024 mbarrier arrivals at cluster scope: 363 clocks each more than at
 *   CTA scope (the release is a memory barrier);
 * And a wgmma's multiply-adds at the SM's rate (1840 bf16 a clock): one
 * block of tc_bf16, 2 warpgroups x 256 groups x 4 m64n256k16, takes
 * 536870912 / 1840 = 291777 clocks of tensor work, which its clock holds.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/metrics.h"
#include "sim/sim.h"

static PtxModule *sizes;

static const PtxModule *size_set(void) {
  if (!sizes) sizes = tu_load(WM_SOURCE_DIR "/groundtruth/ptx/tma_size_kernels.ptx");
  return sizes;
}

/* What the one warp of `name` waited (block clocks less its own). */
static int64_t waited(const char *name, const char *box, int bytes, int walk) {
  SimRun run;
  char map[64], b[16], w[16];
  snprintf(map, sizeof map, "tmap:f32:1024x1024:box=%s", box);
  snprintf(b, sizeof b, "i32:%d", bytes);
  snprintf(w, sizeof w, "i32:%d", walk);
  if (walk < 0)
    tu_launch(&run, size_set(), name, "1", "32", 33920, map, "buf:f32:32", "i32:256", b, (const char *)NULL);
  else
    tu_launch(&run, size_set(), name, "1", "32", 33920, map, "buf:f32:32", "i32:256", b, w, (const char *)NULL);
  int64_t blk = (int64_t)run.mm.metric[WM_M_BLOCK_CLOCKS], dep = (int64_t)run.mm.metric[WM_M_DEP_CLOCKS];
  if (blk <= dep) fail_msg("%s: block clocks %lld not beyond its dependent clocks %lld", name, (long long)blk, (long long)dep);
  sim_run_free(&run);
  return blk - dep;
}

static void test_box_bytes(void **state) {
  (void)state;
  int64_t w4 = waited("tma_chain_box", "32x32", 4096, 0), w16 = waited("tma_chain_box", "64x64", 16384, 0);
  assert_int_equal(w16 - w4, 255 * (158 - 40) + 280);
}

static void test_dram_lines(void **state) {
  (void)state;
  int64_t same = waited("tma_chain_box", "64x64", 16384, 0), walk = waited("tma_chain_box", "64x64", 16384, 1);
  assert_int_equal(walk - same, 255 * (1209 - 475));
}

static void test_pair_waits_port(void **state) {
  (void)state;
  int64_t one = waited("tma_chain_box", "64x64", 16384, 0), two = waited("tma_pair_box", "64x64", 16384, -1);
  double per = (double)(two - one) / 256;
  if (per < 140 || per > 158) fail_msg("the second copy of a step waited %.1f clocks more, expected 140-158", per);
}

/* 1024 mbarrier arrivals at cluster scope against CTA scope
 * (cluster_arrive_kernels.cu): each a memory barrier of 363 clocks
 * (CLK_RELEASE_CLUSTER, the H200's 183 ns), on the own barrier or the
 * peer's alike.  Both blocks end with rank 0's chain (rank 1's warp waits
 * for it at the cluster barrier): block clocks 2 x (rank 0's dependent
 * clocks + its waits), so block - 2 x dependent clocks changes by twice
 * the waits (rank 1's dependent clocks are the same in every mode). */
static int64_t arrivals(const char *mode) {
  PtxModule *m = tu_load(WM_SOURCE_DIR "/groundtruth/ptx/cluster_arrive_kernels.ptx");
  SimRun run;
  tu_launch(&run, m, "arrive_chain", "2", "32", 0, "buf:u32:2", "i32:1024", mode, (const char *)NULL);
  int64_t w = (int64_t)run.mm.metric[WM_M_BLOCK_CLOCKS] - 2 * (int64_t)run.mm.metric[WM_M_DEP_CLOCKS];
  sim_run_free(&run);
  ptx_module_free(m);
  return w;
}

static void test_cluster_release(void **state) {
  (void)state;
  int64_t cta = arrivals("i32:0");
  assert_int_equal(arrivals("i32:1") - cta, 2 * 1024 * 363);
  assert_int_equal(arrivals("i32:2") - cta, 2 * 1024 * 363);
}

/* dsm_chain (hopper_kernels.cu): rank 0's one thread follows 1024
 * dependent ld.shared::cluster through a peer's memory or its own; the
 * peer's costs each load LAT_DSM_PEER - LAT_DSM = 147 clocks more
 * (emu_latency.c, the H200's 98.0 against 22.3 us), and rank 1's warp,
 * waiting at the cluster barrier, ends with it. */
static uint64_t dsm_chain(const char *peer, uint64_t *dep) {
  PtxModule *m = tu_load(WM_SOURCE_DIR "/groundtruth/ptx/hopper_kernels.ptx");
  SimRun run;
  tu_launch(&run, m, "dsm_chain", "2", "32", 0, "buf:u32:2:zero", "i32:1024", peer, (const char *)NULL);
  uint64_t clocks = run.mm.metric[WM_M_BLOCK_CLOCKS];
  *dep = run.mm.metric[WM_M_DEP_CLOCKS];
  sim_run_free(&run);
  ptx_module_free(m);
  return clocks;
}

static void test_dsm_chain(void **state) {
  (void)state;
  uint64_t dep_own, dep_peer, own = dsm_chain("i32:0", &dep_own), peer = dsm_chain("i32:1", &dep_peer);
  /* the chain's loads, and the few clocks of the peer's mapa */
  int64_t more = (int64_t)(dep_peer - dep_own) - 1024 * 147;
  if (more < 0 || more > 16) fail_msg("the peer's chain took %lld dependent clocks beyond 1024 x 147", (long long)more);
  /* both blocks end with the chain: rank 1's warp waits at the cluster barrier */
  assert_int_equal(peer - own, 2 * (dep_peer - dep_own));
}

/* A peer's memory is not global memory: cluster_dsm.cu's dsm_atom_peer
 * (atom.shared::cluster, its result used) and dsm_generic_peer (a generic
 * load through map_shared_rank's pointer), 16 a warp, 4 warps in each of 8
 * blocks, start no load round (the H200 took them as long as dsm_ld_peer's
 * loads, not an L2 trip each), and each waits the peer's trip,
 * LAT_DSM_PEER - LAT_DSM = 147 clocks at least beyond its own memory's. */
static void test_peer_not_global(void **state) {
  (void)state;
  PtxModule *m = tu_load(WM_SOURCE_DIR "/tests/corpus/ptx/cluster_dsm.ptx");
  const char *kernels[] = {"dsm_atom_peer", "dsm_generic_peer"};
  for (int k = 0; k < 2; k++) {
    SimRun run;
    tu_launch_cluster(&run, m, kernels[k], "8", "128", 2, "buf:f32:1024:zero", (const char *)NULL);
    assert_int_equal(run.mm.metric[WM_M_ROUNDS], 0);
    if (run.mm.metric[WM_M_DEP_CLOCKS] < 8 * 4 * 16 * 147)
      fail_msg("%s: %llu dependent clocks, less than its 512 peer trips", kernels[k],
               (unsigned long long)run.mm.metric[WM_M_DEP_CLOCKS]);
    sim_run_free(&run);
  }
  ptx_module_free(m);
}

/* dsm_atom_kernels.cu: rank 0's warp does 64 atomics of a pattern on the
 * cluster's memory; the other 3 blocks wait at the cluster barrier, so
 * each block ends with rank 0's warp (block clocks = 4 x its end). */
static void dsm_atoms(const char *pattern, const char *form, uint64_t *end, uint64_t *dep) {
  PtxModule *m = tu_load(WM_SOURCE_DIR "/groundtruth/ptx/dsm_atom_kernels.ptx");
  SimRun run;
  tu_launch(&run, m, "dsm_atom", "4", "32", 0, "buf:u32:257:zero", pattern, form, "i32:64", (const char *)NULL);
  assert_int_equal(run.mm.metric[WM_M_BLOCK_CLOCKS] % 4, 0);
  *end = run.mm.metric[WM_M_BLOCK_CLOCKS] / 4;
  *dep = run.mm.metric[WM_M_DEP_CLOCKS];
  sim_run_free(&run);
  ptx_module_free(m);
}

/* 32 lanes on one word of a peer send 32 packets an atomic (its sectors
 * times its busiest word's lanes), 1.5 clocks each at the SM's port
 * (CLK_DSM_PACKET_X2): 64 of them keep the warp at least 64 x 48 clocks,
 * and at most that plus the loop's own clocks (pattern 0's 32 distinct
 * words, 4 packets, the port never the limit).  An atom whose result is
 * used waits its packets and the peer's trip: 64 x 147 dependent clocks
 * more than in the block's own memory (pattern 8), and it ends 64 x (147 +
 * 48) later, to a few clocks of the patterns' own set-up. */
static void test_dsm_atom_port(void **state) {
  (void)state;
  uint64_t same, distinct, own, dep_same, dep_distinct, dep_own;
  dsm_atoms("i32:1", "i32:0", &same, &dep_same);
  dsm_atoms("i32:0", "i32:0", &distinct, &dep_distinct);
  if (same < 64 * 48 || same > 64 * 48 + distinct)
    fail_msg("64 atomics of 32 packets ended at %llu clocks (4 packets: %llu)", (unsigned long long)same,
             (unsigned long long)distinct);
  /* red.shared::cluster in dsm_atom's branchy loop: ptxas reads the shared
   * window's base (S2R) before each, LAT_WINDOW = 55 clocks the warp waits
   * (the generic atomicAdd of form 0 has its 64-bit address already) */
  uint64_t red, dep_red;
  dsm_atoms("i32:0", "i32:1", &red, &dep_red);
  if (red < distinct + 64 * 55 || red > distinct + 64 * (55 + 8))
    fail_msg("64 red.shared::cluster ended at %llu clocks, 64 generic atomics at %llu", (unsigned long long)red,
             (unsigned long long)distinct);
  dsm_atoms("i32:1", "i32:2", &same, &dep_same);
  dsm_atoms("i32:8", "i32:2", &own, &dep_own);
  int64_t more = (int64_t)(dep_same - dep_own) - 64 * 147;
  if (more < -16 || more > 16) fail_msg("the peer's atoms took %lld dependent clocks beyond 64 x 147", (long long)more);
  if (same + 16 < own + 64 * (147 + 48)) fail_msg("the peer's atoms ended at %llu, its own at %llu", (unsigned long long)same,
                                             (unsigned long long)own);
}

/* A kernel without mbarriers or wgmma keeps no clock: its time is as
 * before (the counter stays 0). */
static void test_unclocked(void **state) {
  (void)state;
  PtxModule *m = tu_load(WM_SOURCE_DIR "/groundtruth/ptx/seed_kernels.ptx");
  SimRun run;
  tu_launch(&run, m, "copy_k", "4", "256", 0, "buf:f32:1024", "buf:f32:1024", "i32:1024", (const char *)NULL);
  assert_int_equal(run.mm.metric[WM_M_BLOCK_CLOCKS], 0);
  sim_run_free(&run);
  ptx_module_free(m);
}

static void test_wgmma_rate(void **state) {
  (void)state;
  PtxModule *m = tu_load(WM_SOURCE_DIR "/groundtruth/ptx/tensor_kernels.ptx");
  SimRun run;
  tu_launch(&run, m, "tc_bf16", "1", "256", 0, "buf:u32:10240", "buf:f32:256", "i32:256", (const char *)NULL);
  double per_warp = (double)run.mm.metric[WM_M_BLOCK_CLOCKS] / 8, tensor = 536870912.0 / 1840;
  if (per_warp < tensor || per_warp > 1.05 * tensor)
    fail_msg("tc_bf16's block took %.0f clocks, its tensor work %.0f", per_warp, tensor);
  sim_run_free(&run);
  ptx_module_free(m);
}

static int teardown(void **state) {
  (void)state;
  ptx_module_free(sizes);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_box_bytes),  cmocka_unit_test(test_dram_lines), cmocka_unit_test(test_pair_waits_port),
      cmocka_unit_test(test_unclocked),  cmocka_unit_test(test_wgmma_rate), cmocka_unit_test(test_cluster_release),
      cmocka_unit_test(test_dsm_chain),  cmocka_unit_test(test_peer_not_global), cmocka_unit_test(test_dsm_atom_port),
  };
  return cmocka_run_group_tests(tests, NULL, teardown);
}
