/* test_corpus_cluster.c - tests/corpus/cluster_dsm.cu: thread block
 * clusters and distributed shared memory as Hopper code writes them: the
 * outputs of the cluster reductions, the histogram, the ring and the
 * special registers against the host, the DSM counters against first
 * principles (the hypothesis of docs/clusters.md), the located errors of
 * the wrong kernels and launches, and the same counters whatever the host
 * threads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "mem/place.h"
#include "testutil.h"

static PtxModule *mod;

static const PtxModule *corpus(void) {
  if (!mod) mod = tu_load(tu_corpus("cluster_dsm.ptx"));
  return mod;
}

#define ARG(run, argno, T, count) ((T *)tu_arg_buf(run, argno, sizeof(T), count))
#define M(run, id) ((run)->mm.metric[WM_M_##id])

/* A launch spec of kernel name, grid, block and cluster ("" for none); its
 * args NULL-terminated.  The caller frees it. */
static LaunchSpec *spec(const char *name, const char *grid, const char *block, const char *cluster, va_list ap) {
  LaunchSpec *ls = calloc(1, sizeof *ls);
  assert_non_null(ls);
  WmErr e = {0};
  snprintf(ls->name, sizeof ls->name, "%s", name);
  snprintf(ls->label, sizeof ls->label, "%s", name);
  if (launch_parse_dim(grid, ls->grid, &e) || launch_parse_dim(block, ls->block, &e) ||
      (*cluster && launch_parse_dim(cluster, ls->cluster, &e)))
    fail_msg("%s: %s", name, e.msg);
  for (const char *s; (s = va_arg(ap, const char *)) != NULL;) {
    assert_true(ls->nargs < LAUNCH_MAX_ARGS);
    if (launch_parse_arg(s, &ls->args[ls->nargs++], &e)) fail_msg("%s: %s", name, e.msg);
  }
  return ls;
}

static void options(SimOptions *o) {
  sim_options_init(o);
  o->keep_buffers = 1;
  o->init = INIT_RAND;
  o->seed = 12345;
}

/* Runs the launch into *run (fails the test on an error). */
static void launch(SimRun *run, const char *name, const char *grid, const char *block, const char *cluster, ...) {
  va_list ap;
  va_start(ap, cluster);
  LaunchSpec *ls = spec(name, grid, block, cluster, ap);
  va_end(ap);
  SimOptions o;
  options(&o);
  WmErr e = {0};
  if (sim_run_launch(corpus(), ls, &o, run, &e)) fail_msg("%s: %s", name, e.msg);
  free(ls);
}

/* The launch must fail (on preset arch, NULL: the default; nonportable
 * sizes allowed if np): its message (static buffer) and code. */
static const char *launch_fails(const Arch *arch, int np, int *code, const char *name, const char *grid,
                                const char *block, const char *cluster, ...) {
  static WmErr e;
  va_list ap;
  va_start(ap, cluster);
  LaunchSpec *ls = spec(name, grid, block, cluster, ap);
  va_end(ap);
  ls->cluster_nonportable = np;
  SimOptions o;
  options(&o);
  if (arch) o.cfg.arch = arch;
  SimRun run;
  memset(&run, 0, sizeof run);
  memset(&e, 0, sizeof e);
  int rc = sim_run_launch(corpus(), ls, &o, &run, &e);
  sim_run_free(&run);
  free(ls);
  if (rc == 0) fail_msg("%s (grid %s, cluster %s) ran without an error", name, grid, cluster);
  *code = e.code;
  return e.msg;
}

static void expect_in(const char *msg, const char *needle) {
  if (!strstr(msg, needle)) fail_msg("expected '%s' in: %s", needle, msg);
}

/* --- outputs -------------------------------------------------------------- */

/* cluster_sum2, cluster_sum4: out[c] = the sum of cluster c's blocks'
 * elements, with in[i] = i (iota: every sum exact in f32). */
static void check_sums(const char *name, const char *cluster, int per) {
  SimRun run = {0};
  launch(&run, name, "8", "256", cluster, "buf:f32:2048:iota", "buf:f32:4:zero", (const char *)NULL);
  const float *out = ARG(&run, 1, float, 4);
  for (int c = 0; c < 8 / per; c++) {
    double want = 0;
    for (int i = c * per * 256; i < (c + 1) * per * 256; i++) want += i;
    if (out[c] != (float)want) fail_msg("%s: out[%d] = %.1f, expected %.1f", name, c, out[c], want);
  }
  /* first principles: rank 0 of each cluster reads each peer's sum once (a
   * one-lane load, one sector); its own through mapa is shared memory
   * (docs/clusters.md) */
  uint64_t clusters = 8 / (uint64_t)per, peers = clusters * (uint64_t)(per - 1);
  assert_int_equal(M(&run, DSLD_INST), peers);
  assert_int_equal(M(&run, DSLD_REQ), peers);
  assert_int_equal(M(&run, DSLD_SEC), peers);
  assert_int_equal(M(&run, DS_RD), 32 * peers);
  assert_int_equal(M(&run, DSST_INST), 0);
  sim_run_free(&run);
}

static void test_cluster_sum2(void **state) {
  (void)state;
  check_sums("cluster_sum2", "", 2); /* __cluster_dims__(2,1,1) */
}

static void test_cluster_sum4(void **state) {
  (void)state;
  check_sums("cluster_sum4", "4", 4); /* the launch's cluster */
}

/* cluster_histogram: hist[c * 256 + v] counts the elements with low byte v
 * that cluster c's blocks read in the grid-stride loop. */
static void test_cluster_histogram(void **state) {
  (void)state;
  SimRun run = {0};
  const int n = 5000, grid = 8, block = 128;
  launch(&run, "cluster_histogram", "8", "128", "", "buf:u32:5000:rand", "buf:u32:512:zero", "i32:5000",
         (const char *)NULL);
  const uint32_t *in = ARG(&run, 0, uint32_t, 5000), *hist = ARG(&run, 1, uint32_t, 512);
  uint32_t want[512] = {0};
  for (int i = 0; i < n; i++) want[(i / block) % grid / 4 * 256 + (in[i] & 255)]++;
  for (int i = 0; i < 512; i++)
    if (hist[i] != want[i]) fail_msg("hist[%d] = %u, expected %u", i, hist[i], want[i]);
  /* every atomicAdd's lanes are all in some block's bins: peers' (the 3 of 4
   * bin owners that are not the block) and its own split one instruction
   * into a dshared request and a shared one when both occur */
  assert_true(M(&run, DSATOM_INST) > 0);
  assert_int_equal(M(&run, DSATOM_INST), M(&run, DSATOM_REQ));
  /* its sectors: per warp instruction, each (peer, 32-byte sector of bins)
   * its peer lanes update, as many times as the most lanes on one of its
   * words (lanes on one word are sent apart: mem.c atomic_packets) */
  uint64_t sec = 0;
  for (int b = 0; b < grid; b++)
    for (int w = 0; w < block / 32; w++)
      for (int i0 = b * block + w * 32; i0 < n; i0 += grid * block) {
        uint8_t on[4][64] = {{0}};
        for (int i = i0; i < i0 + 32 && i < n; i++) on[(in[i] & 255) / 64][in[i] % 64]++;
        for (int r = 0; r < 4; r++)
          for (int s8 = 0; s8 < 64 && r != b % 4; s8 += 8) {
            uint8_t most = 0;
            for (int k = s8; k < s8 + 8; k++) most = on[r][k] > most ? on[r][k] : most;
            sec += most;
          }
      }
  assert_int_equal(M(&run, DSATOM_SEC), sec);
  assert_int_equal(M(&run, DSLD_INST) + M(&run, DSST_INST), 0);
  sim_run_free(&run);
}

/* cluster_ring: block b receives 2 * in of the previous rank of its
 * cluster (4 blocks), through its shared memory and an mbarrier the sender
 * arrived on. */
static void test_cluster_ring(void **state) {
  (void)state;
  SimRun run = {0};
  launch(&run, "cluster_ring", "8", "64", "4", "buf:f32:512:iota", "buf:f32:512:zero", (const char *)NULL);
  const float *out = ARG(&run, 1, float, 512);
  for (int b = 0; b < 8; b++) {
    int from = b / 4 * 4 + (b % 4 + 3) % 4;
    for (int l = 0; l < 32; l++)
      if (out[b * 32 + l] != 2.0f * (float)(from * 32 + l))
        fail_msg("out[%d] = %g, expected %g (from block %d)", b * 32 + l, out[b * 32 + l], 2.0 * (from * 32 + l), from);
  }
  /* 8 warps store 32 consecutive words each to a peer: 4 sectors a store */
  assert_int_equal(M(&run, DSST_INST), 8);
  assert_int_equal(M(&run, DSST_SEC), 32);
  assert_int_equal(M(&run, DS_WR_ST), 32 * 32);
  sim_run_free(&run);
}

/* cluster_regs on grid (4,2,2), clusters (2,2,2): the PTX ISA's values. */
static void test_cluster_regs(void **state) {
  (void)state;
  SimRun run = {0};
  launch(&run, "cluster_regs", "4,2,2", "32", "2,2,2", "buf:u32:320:zero", (const char *)NULL);
  const uint32_t *out = ARG(&run, 0, uint32_t, 320);
  for (uint32_t z = 0; z < 2; z++)
    for (uint32_t y = 0; y < 2; y++)
      for (uint32_t x = 0; x < 4; x++) {
        uint32_t b = x + 4 * (y + 2 * z), cx = x % 2, cy = y % 2, cz = z % 2, rank = cx + 2 * (cy + 2 * cz);
        const uint32_t *r = out + b * 20;
        uint32_t want[20] = {cx, cy, cz, 2, 2, 2, x / 2, y / 2, z / 2, 2, 1, 1, rank, 8, 1,
                             rank, cx + 10 * cy + 100 * cz, 8, b, 7 - rank};
        for (int i = 0; i < 20; i++)
          if (r[i] != want[i]) fail_msg("block (%u,%u,%u) word %d = %u, expected %u", x, y, z, i, r[i], want[i]);
      }
  sim_run_free(&run);
}

/* Without a cluster launch every block is a cluster of one: rank 0,
 * %is_explicit_cluster false, %clusterid its %ctaid. */
static void test_cluster_of_one(void **state) {
  (void)state;
  SimRun run = {0};
  launch(&run, "cluster_regs", "4,2,2", "32", "", "buf:u32:320:zero", (const char *)NULL);
  const uint32_t *out = ARG(&run, 0, uint32_t, 320);
  const uint32_t *r = out + 5 * 20; /* block (1,1,0) */
  uint32_t want[15] = {0, 0, 0, 1, 1, 1, 1, 1, 0, 4, 2, 2, 0, 1, 0};
  for (int i = 0; i < 15; i++)
    if (r[i] != want[i]) fail_msg("word %d = %u, expected %u", i, r[i], want[i]);
  sim_run_free(&run);
}

/* --- the DSM counters, by first principles (docs/clusters.md) -------------- */

/* Each probe: 8 blocks of 4 warps, 16 accesses a warp: 512 warp
 * instructions; lane l at word l * stride of the block named. */
static SimRun probe(const char *name) {
  SimRun run = {0};
  launch(&run, name, "8", "128", "2", "buf:f32:1024:zero", (const char *)NULL);
  return run;
}

static void test_probe_counters(void **state) {
  (void)state;
  SimRun r = probe("dsm_ld_peer"); /* 32 consecutive words: 128 bytes, 4 sectors */
  assert_int_equal(M(&r, DSLD_INST), 512);
  assert_int_equal(M(&r, DSLD_REQ), 512);
  assert_int_equal(M(&r, DSLD_SEC), 4 * 512);
  assert_int_equal(M(&r, DS_RD_LD), 32 * 4 * 512);
  const float *out = ARG(&r, 0, float, 1024); /* 16 loads of word t % 32 of the peer (words[i] = i) */
  for (int t = 0; t < 1024; t++)
    if (out[t] != 16.0f * (float)(t % 32)) fail_msg("dsm_ld_peer out[%d] = %g", t, out[t]);
  sim_run_free(&r);
  r = probe("dsm_ld_own"); /* its own memory through mapa: shared, no dshared (hypothesis) */
  assert_int_equal(M(&r, DSLD_INST), 0);
  assert_int_equal(M(&r, SLD_INST), 512 + 0 * 1);
  sim_run_free(&r);
  r = probe("dsm_ld_v4_peer"); /* 16 bytes a lane, 512 bytes: 16 sectors */
  assert_int_equal(M(&r, DSLD_SEC), 16 * 512);
  sim_run_free(&r);
  r = probe("dsm_ld_strided_peer"); /* lanes 32 bytes apart: a sector each */
  assert_int_equal(M(&r, DSLD_SEC), 32 * 512);
  sim_run_free(&r);
  /* the crossbar bytes are the same both ways, as the H200 counts them
   * (docs/results/h200-2026-12-02-hopper): 32 a sector for loads and
   * stores, 64 for atomics and reductions, which also cost the executing
   * block one shared-memory atomic wavefront a request */
  r = probe("dsm_ld_peer");
  assert_int_equal(M(&r, DS_RD), 32 * 4 * 512);
  assert_int_equal(M(&r, DS_WR), 32 * 4 * 512);
  assert_int_equal(M(&r, DS_WR_ST), 0);
  sim_run_free(&r);
  r = probe("dsm_st_peer");
  assert_int_equal(M(&r, DSST_INST), 512);
  assert_int_equal(M(&r, DSST_SEC), 4 * 512);
  assert_int_equal(M(&r, DS_WR_ST), 32 * 4 * 512);
  assert_int_equal(M(&r, DS_RD), 32 * 4 * 512);
  assert_int_equal(M(&r, DS_RD_LD), 0);
  sim_run_free(&r);
  r = probe("dsm_atom_peer");
  assert_int_equal(M(&r, DSATOM_INST), 512);
  assert_int_equal(M(&r, DS_RD), 64 * 4 * 512);
  assert_int_equal(M(&r, DS_WR), 64 * 4 * 512);
  assert_int_equal(M(&r, SATOM_WF), 512);
  out = ARG(&r, 0, float, 1024); /* 16 atomics a lane, each result counted once */
  for (int t = 0; t < 1024; t++)
    if (out[t] != 16.0f) fail_msg("dsm_atom_peer out[%d] = %g", t, out[t]);
  sim_run_free(&r);
  r = probe("dsm_red_peer");
  assert_int_equal(M(&r, DSATOM_INST), 512);
  assert_int_equal(M(&r, DS_RD), 64 * 4 * 512);
  assert_int_equal(M(&r, DS_WR), 64 * 4 * 512);
  assert_int_equal(M(&r, SATOM_WF), 512);
  sim_run_free(&r);
  r = probe("dsm_generic_peer"); /* a generic load of the peer's window counts as dshared too */
  assert_int_equal(M(&r, DSLD_INST), 512);
  assert_int_equal(M(&r, DSLD_SEC), 4 * 512);
  sim_run_free(&r);
}

/* --- errors ------------------------------------------------------------- */

/* groundtruth/dsm_atom_kernels.cu: rank 0's warp does 64 atomics of a
 * pattern of (rank, word) a lane; the H200's counts
 * (docs/results/h200-2026-12-03-rules), read as: each (peer, sector) is
 * sent once for every lane on its busiest word, and the instruction takes
 * one shared atomic wavefront, or its own lanes' wavefronts when it has
 * lanes in the block's own memory. */
static SimRun dsm_atom(const char *pattern, const char *form) {
  PtxModule *m = tu_load(WM_SOURCE_DIR "/groundtruth/ptx/dsm_atom_kernels.ptx");
  SimRun run;
  tu_launch(&run, m, "dsm_atom", "4", "32", 0, "buf:u32:257:zero", pattern, form, "i32:64", (const char *)NULL);
  ptx_module_free(m);
  /* every atomic landed: rank r's bins hold 64 per lane that targets them */
  const uint32_t *out = tu_arg_buf(&run, 0, 4, 257);
  uint32_t sum = 0;
  for (int i = 0; i < 256; i++) sum += out[i];
  assert_int_equal(sum, 32 * 64);
  return run;
}

static void test_dsm_atom_rules(void **state) {
  (void)state;
  SimRun r = dsm_atom("i32:0", "i32:0"); /* one peer, 32 words: 4 sectors */
  assert_int_equal(M(&r, DSATOM_SEC), 64 * 4);
  assert_int_equal(M(&r, SATOM_WF), 64);
  sim_run_free(&r);
  r = dsm_atom("i32:1", "i32:1"); /* one word, 32 lanes (red): 32 sends */
  assert_int_equal(M(&r, DSATOM_SEC), 64 * 32);
  assert_int_equal(M(&r, DS_RD), 64 * 64 * 32);
  assert_int_equal(M(&r, SATOM_WF), 64);
  sim_run_free(&r);
  r = dsm_atom("i32:3", "i32:0"); /* 4 words in 4 sectors, 8 lanes each */
  assert_int_equal(M(&r, DSATOM_SEC), 64 * 4 * 8);
  sim_run_free(&r);
  r = dsm_atom("i32:6", "i32:2"); /* 16 own lanes on 16 words, 16 on a peer's: 2 sectors, one wavefront */
  assert_int_equal(M(&r, DSATOM_SEC), 64 * 2);
  assert_int_equal(M(&r, SATOM_WF), 64);
  sim_run_free(&r);
  /* the mix: lane l on rank 5l % 4, word 13l % 16.  Own lanes (l % 4 ==
   * 0): words 0, 4, 8, 12 twice each: 2 wavefronts.  Rank 1 (l % 4 == 1):
   * words 13, 1, 5, 9 twice each, sectors 0 and 1 each twice its busiest
   * word's 2 lanes: 4; ranks 2 and 3 alike: 12 a warp instruction */
  r = dsm_atom("i32:9", "i32:0");
  assert_int_equal(M(&r, DSATOM_SEC), 64 * 12);
  assert_int_equal(M(&r, SATOM_WF), 64 * 2);
  sim_run_free(&r);
}

static void test_errors(void **state) {
  (void)state;
  int code;
  const char *msg = launch_fails(NULL, 0, &code, "mapa_beyond", "2", "32", "", "buf:f32:64:zero", (const char *)NULL);
  assert_int_equal(code, WM_EFAULT);
  expect_in(msg, "mapa to block rank 5 of the cluster, which has 2 blocks");
  expect_in(msg, "cluster_dsm.cu:");
  /* a read of an exited peer's shared memory is undefined in the PTX ISA
   * and harmless on the H200 (fast.cu's cluster kernels do it): a run
   * reads what the peer left, `warpmem check` reports it */
  SimRun r = {0};
  launch(&r, "read_after_exit", "2", "32", "", "buf:f32:64:zero", (const char *)NULL);
  const float *got = ARG(&r, 0, float, 64);
  for (int t = 0; t < 32; t++) assert_true(got[t] == (float)t);
  sim_run_free(&r);
  char cmd[1024], *out = NULL;
  snprintf(cmd, sizeof cmd, "check '%s' --kernel read_after_exit --grid 2 --block 32 --arg buf:f32:64:zero",
           tu_corpus("cluster_dsm.ptx"));
  assert_int_equal(tu_run_cli(cmd, &out, NULL), 5); /* check's "found errors" */
  expect_in(out, "memcheck: invalid access in kernel read_after_exit");
  expect_in(out, "block rank 1 of the cluster, which has exited");
  free(out);
  msg = launch_fails(NULL, 0, &code, "cluster_deadlock", "2", "32", "", "buf:f32:64:zero", (const char *)NULL);
  assert_int_equal(code, WM_EDEADLOCK);
  expect_in(msg, "cluster barrier deadlock in kernel cluster_deadlock, block (0,0,0) (rank 0 of its cluster)");
  expect_in(msg, "32 of the 64 live threads of the cluster (2 blocks) arrived");
  msg = launch_fails(NULL, 0, &code, "cluster_any", "3", "32", "2", "buf:f32:96:zero", (const char *)NULL);
  assert_int_equal(code, WM_ELIMIT);
  expect_in(msg, "not a whole number of clusters");
  msg = launch_fails(NULL, 0, &code, "cluster_any", "16", "32", "16", "buf:f32:512:zero", (const char *)NULL);
  expect_in(msg, "at most 8 are allowed");
  expect_in(msg, "cudaErrorInvalidClusterSize");
  msg = launch_fails(NULL, 1, &code, "cluster_any", "32", "32", "32", "buf:f32:1024:zero", (const char *)NULL);
  expect_in(msg, "at most 16 are allowed");
  msg = launch_fails(NULL, 0, &code, "cluster_sum2", "8", "256", "4", "buf:f32:2048:iota", "buf:f32:4:zero",
                     (const char *)NULL);
  expect_in(msg, "compiled with cluster (2,1,1)");
  /* a GPU of one GPC of 8 SMs, one block an SM, cannot hold a cluster of
   * 16 blocks */
  Arch small = *arch_default();
  small.layout = NULL;
  small.sms = 8;
  small.max_blocks_sm = 1;
  small.name = "h200-8sm";
  msg = launch_fails(&small, 1, &code, "cluster_any", "16", "1024", "16", "buf:f32:16384:zero", (const char *)NULL);
  assert_int_equal(code, WM_ELIMIT);
  expect_in(msg, "does not fit");
  expect_in(msg, "largest GPC has 8 SMs");
}

/* The kernel's directives (PtxKernel) and the //@ grammar. */
static const char *const directives_ptx =
  ".version 8.0\n.target sm_90\n.address_size 64\n"
  ".visible .entry must(.param .u64 out) .explicitcluster .maxclusterrank 2\n{\n  ret;\n}\n"
  ".visible .entry dims(.param .u64 out) .reqnctapercluster 2, 2\n{\n  ret;\n}\n";

static void test_directives(void **state) {
  (void)state;
  char *path = tu_temp_file(".ptx", directives_ptx);
  PtxModule *m = tu_load(path);
  WmErr e = {0};
  const PtxKernel *must = ptx_find_kernel(m, "must", &e), *dims = ptx_find_kernel(m, "dims", &e);
  assert_non_null(must);
  assert_non_null(dims);
  assert_int_equal(must->explicit_cluster, 1);
  assert_int_equal(must->max_cluster_rank, 2);
  assert_true(dims->cluster_dims[0] == 2 && dims->cluster_dims[1] == 2 && dims->cluster_dims[2] == 1);
  SimOptions o;
  options(&o);
  LaunchSpec ls;
  memset(&ls, 0, sizeof ls);
  snprintf(ls.name, sizeof ls.name, "must");
  snprintf(ls.label, sizeof ls.label, "must");
  ls.grid[0] = 4, ls.grid[1] = ls.grid[2] = 1, ls.block[0] = 32, ls.block[1] = ls.block[2] = 1;
  assert_int_equal(launch_parse_arg("buf:u32:4:zero", &ls.args[ls.nargs++], &e), 0);
  SimRun run = {0};
  assert_int_equal(sim_run_launch(m, &ls, &o, &run, &e), -1); /* no cluster: .explicitcluster */
  if (!strstr(e.msg, "must be launched with a cluster dimension (.explicitcluster)")) fail_msg("%s", e.msg);
  ls.cluster[0] = 4, ls.cluster[1] = ls.cluster[2] = 1;
  assert_int_equal(sim_run_launch(m, &ls, &o, &run, &e), -1); /* 4 > .maxclusterrank 2 */
  if (!strstr(e.msg, "at most 2 blocks a cluster (.maxclusterrank)")) fail_msg("%s", e.msg);
  ls.cluster[0] = 2;
  if (sim_run_launch(m, &ls, &o, &run, &e)) fail_msg("%s", e.msg);
  sim_run_free(&run);
  ptx_module_free(m);
  unlink(path);
  free(path);
  /* //@ cluster= and nonportable */
  LaunchSpec *v;
  int n;
  const char *text = "//@ k nonportable grid=32,2 block=64 cluster=16 args=i32:1\n//@ k#b grid=4 block=32 cluster=2,2 args=\n";
  if (launch_parse_file("x.cu", text, &v, &n, &e)) fail_msg("%s", e.msg);
  assert_int_equal(n, 2);
  assert_true(v[0].cluster[0] == 16 && v[0].cluster[1] == 1 && v[0].cluster[2] == 1 && v[0].cluster_nonportable);
  assert_true(v[1].cluster[0] == 2 && v[1].cluster[1] == 2 && v[1].cluster[2] == 1 && !v[1].cluster_nonportable);
  free(v);
  assert_int_equal(launch_parse_file("x.cu", "//@ k grid=4 block=32 cluster=0 args=\n", &v, &n, &e), -1);
  if (!strstr(e.msg, "x.cu:1:")) fail_msg("%s", e.msg);
}

/* cudaOccupancyMaxActiveClusters' count from the H200's GPCs (18, 18 and
 * six of 16 SMs, arch_cluster_gpcs): clusters of 2 at one block an SM: 66;
 * of 16: one a GPC, 8; of 8 at two blocks an SM: 4 + 4 + 6 * 4 = 32. */
static void test_active_clusters(void **state) {
  (void)state;
  const Arch *a = arch_default();
  int largest;
  assert_int_equal(occ_active_clusters(a, 1, 2, &largest), 66);
  assert_int_equal(largest, 18);
  assert_int_equal(occ_active_clusters(a, 1, 16, NULL), 8);
  assert_int_equal(occ_active_clusters(a, 2, 8, NULL), 32);
  int sms[ARCH_GPCS_MAX], n = arch_cluster_gpcs(a->layout, a->sms, sms, ARCH_GPCS_MAX), total = 0;
  assert_int_equal(n, 8);
  for (int g = 0; g < n; g++) total += sms[g];
  assert_int_equal(total, 132);
}

/* The cache replay's placement of a cluster launch (place_init_clusters):
 * every cluster of 2 or 4 blocks on SMs of one GPC, two blocks an SM, and
 * every SM holding its two; clusters of 16 at one block an SM: 8 whole
 * clusters (one a GPC: 18, 18 and six GPCs of 16 SMs), the 4 places left
 * spread over the two GPCs of 18. */
static void test_placement(void **state) {
  (void)state;
  const Arch *a = arch_default();
  uint16_t gpc_of[256];
  arch_cluster_gpc_of(a->layout, a->sms, gpc_of, ARCH_GPCS_MAX);
  static const int cases[3][2] = {{2, 2}, {4, 2}, {16, 1}};
  for (int c = 0; c < 3; c++) {
    int n = cases[c][0], per = cases[c][1], wave = a->sms * per;
    Place p;
    place_init_clusters(&p, a->layout, a->sms, per, n);
    assert_non_null(p.sm);
    int held[256] = {0}, whole = wave / n;
    if (n == 16) whole = 8;
    for (int i = 0; i < wave; i++) held[p.sm[i]]++;
    for (int s = 0; s < a->sms; s++) assert_int_equal(held[s], per);
    for (int q = 0; q < whole; q++)
      for (int b = 1; b < n; b++)
        if (gpc_of[p.sm[q * n + b]] != gpc_of[p.sm[q * n]])
          fail_msg("cluster %d of %d: block %d on SM %u (GPC %u), block 0 on SM %u (GPC %u)", q, n, b, p.sm[q * n + b],
                   gpc_of[p.sm[q * n + b]], p.sm[q * n], gpc_of[p.sm[q * n]]);
    if (n == 16) /* spread: a cluster's 16 blocks on 16 different SMs */
      for (int q = 0; q < whole; q++)
        for (int b = 1; b < n; b++)
          for (int d = 0; d < b; d++) assert_int_not_equal(p.sm[q * n + b], p.sm[q * n + d]);
    place_free(&p);
  }
}

/* The counters do not depend on the host threads (a cluster's blocks run
 * on one of them). */
static void test_same_threads(void **state) {
  (void)state;
  uint64_t m[2][WM_M_COUNT];
  for (int i = 0; i < 2; i++) {
    setenv("WARPMEM_THREADS", i ? "3" : "1", 1);
    SimRun run = {0};
    launch(&run, "cluster_histogram", "8", "128", "", "buf:u32:5000:rand", "buf:u32:512:zero", "i32:5000",
           (const char *)NULL);
    memcpy(m[i], run.mm.metric, sizeof m[i]);
    sim_run_free(&run);
  }
  unsetenv("WARPMEM_THREADS");
  for (int k = 0; k < WM_M_COUNT; k++)
    if (m[0][k] != m[1][k] && k != WM_M_TIME)
      fail_msg("%s: %llu on one thread, %llu on three", wm_metric_name[k], (unsigned long long)m[0][k],
               (unsigned long long)m[1][k]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cluster_sum2),     cmocka_unit_test(test_cluster_sum4),
    cmocka_unit_test(test_cluster_histogram), cmocka_unit_test(test_cluster_ring),
    cmocka_unit_test(test_cluster_regs),     cmocka_unit_test(test_cluster_of_one),
    cmocka_unit_test(test_probe_counters),
    cmocka_unit_test(test_dsm_atom_rules),   cmocka_unit_test(test_errors),
    cmocka_unit_test(test_active_clusters),  cmocka_unit_test(test_same_threads),
    cmocka_unit_test(test_placement),        cmocka_unit_test(test_directives),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
