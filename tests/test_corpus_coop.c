/* test_corpus_coop.c - cooperative groups (issue 8, item 7): the corpus
 * kernels tests/corpus/cg_*.cu against CPU references, cooperative launches
 * (grid.sync(), flags between blocks), and the errors a user meets: a
 * cooperative grid too large to be resident, grid.sync() in a plain launch,
 * a spin that can never finish.
 *
 * Inputs are rand (integers in [0, 1024), floats in [0, 1)) read back from
 * the buffers after the run; integer results must be equal, float sums
 * within 1e-5 relative of a double-precision sum (the GPU's order of
 * additions is the tree of cg::reduce, not the host's).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "testutil.h"

static PtxModule *load(const char *name) {
  static struct {
    const char *name;
    PtxModule *m;
  } cache[8];
  for (int i = 0; i < 8; i++) {
    if (cache[i].name && !strcmp(cache[i].name, name)) return cache[i].m;
    if (!cache[i].name) {
      cache[i].name = name;
      cache[i].m = tu_load(tu_corpus(name));
      return cache[i].m;
    }
  }
  fail_msg("too many modules");
  return NULL;
}

/* Runs a launch (cooperative or not) with the NULL-terminated arg specs;
 * returns sim_run_launch's status, the error in *e. */
static int run_launch(SimRun *run, const char *file, const char *name, const char *grid, const char *block,
                      int cooperative, WmErr *e, ...) {
  LaunchSpec *ls = calloc(1, sizeof *ls);
  assert_non_null(ls);
  snprintf(ls->name, sizeof ls->name, "%s", name);
  snprintf(ls->label, sizeof ls->label, "%s", name);
  if (launch_parse_dim(grid, ls->grid, e) || launch_parse_dim(block, ls->block, e)) fail_msg("%s: %s", name, e->msg);
  ls->cooperative = cooperative;
  va_list ap;
  va_start(ap, e);
  for (const char *s; (s = va_arg(ap, const char *)) != NULL;)
    if (launch_parse_arg(s, &ls->args[ls->nargs++], e)) fail_msg("%s: %s", name, e->msg);
  va_end(ap);
  SimOptions o;
  sim_options_init(&o);
  o.keep_buffers = 1;
  o.seed = 12345;
  int rc = sim_run_launch(load(file), ls, &o, run, e);
  free(ls);
  return rc;
}
#define RUN(run, file, name, grid, block, coop, ...)                                                      \
  do {                                                                                                    \
    WmErr e_ = {0};                                                                                       \
    if (run_launch(run, file, name, grid, block, coop, &e_, __VA_ARGS__, (const char *)NULL))             \
      fail_msg("%s: %s", name, e_.msg);                                                                   \
  } while (0)
#define ARG(run, argno, T, count) ((T *)tu_arg_buf(run, argno, sizeof(T), count))

static void expect_i32(const char *what, const int32_t *got, const int32_t *want, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) fail_msg("%s[%zu] = %d, expected %d", what, i, got[i], want[i]);
}

static void expect_close(const char *what, double got, double want) {
  if (fabs(got - want) > 1e-5 * fabs(want) + 1e-6) fail_msg("%s = %.9g, expected %.9g", what, got, want);
}

/* --- cg_reduce.cu --- */

static void test_block_reduce_i32(void **state) {
  (void)state;
  SimRun r;
  RUN(&r, "cg_reduce.ptx", "block_reduce_i32", "8", "256", 0, "buf:i32:10000:rand", "buf:i32:8:zero",
      "buf:i32:8:zero", "i32:10000");
  const int32_t *in = ARG(&r, 0, int32_t, 10000);
  int32_t sums[8] = {0}, maxes[8];
  for (int b = 0; b < 8; b++) maxes[b] = in[0]; /* every thread starts from in[0] */
  for (int i = 0; i < 10000; i++) {
    int b = i / 256 % 8; /* the grid-stride loop: 2048 elements a round */
    sums[b] += in[i];
    if (in[i] > maxes[b]) maxes[b] = in[i];
  }
  expect_i32("sums", ARG(&r, 1, int32_t, 8), sums, 8);
  expect_i32("maxes", ARG(&r, 2, int32_t, 8), maxes, 8);
  sim_run_free(&r);
}

static void test_block_reduce_f32(void **state) {
  (void)state;
  SimRun r;
  RUN(&r, "cg_reduce.ptx", "block_reduce_f32", "4", "128", 0, "buf:f32:3000:rand", "buf:f32:4:zero",
      "buf:f32:4:zero", "i32:3000");
  const float *in = ARG(&r, 0, float, 3000), *sums = ARG(&r, 1, float, 4), *maxes = ARG(&r, 2, float, 4);
  for (int b = 0; b < 4; b++) {
    double s = 0;
    float mx = in[0];
    for (int i = b * 128; i < 3000; i += 512)
      for (int t = 0; t < 128 && i + t < 3000; t++) {
        s += in[i + t];
        if (in[i + t] > mx) mx = in[i + t];
      }
    char what[32];
    snprintf(what, sizeof what, "sums[%d]", b);
    expect_close(what, sums[b], s);
    if (maxes[b] != mx) fail_msg("maxes[%d] = %g, expected %g", b, maxes[b], mx);
  }
  sim_run_free(&r);
}

/* What tile_ops<T> writes for each thread, from the tile's definition:
 * tiles of T consecutive threads of the block, masks relative to the tile. */
static void tile_reference(const int32_t *in, int T, int32_t *want) {
  for (int i = 0; i < 192; i++) {
    int tid = i % 96, first = i - tid % T;
    int32_t sum = 0, any7 = 0, all2 = 1, ballot = 0, match = 0, mx = in[first];
    for (int r = 0; r < T; r++) {
      int32_t v = in[first + r];
      sum += v;
      mx = v > mx ? v : mx;
      any7 |= v % 7 == 0;
      all2 &= v % 2 == 0;
      ballot |= (v % 3 == 0) << r;
      match |= (v % 4 == in[i] % 4) << r;
    }
    int32_t *o = want + 10 * i;
    o[0] = in[first];
    o[1] = sum;
    o[2] = any7 | all2 << 1;
    o[3] = ballot;
    o[4] = match;
    o[5] = tid / T + 100 * (tid / 32);
    o[6] = tid % T;
    o[7] = sum;
    o[8] = sum;
    o[9] = mx;
  }
}

static void test_tile_ops(void **state) {
  (void)state;
  static const char *const names[] = {"tile_ops16", "tile_ops8", "tile_ops4", "tile_ops2"};
  for (int k = 0; k < 4; k++) {
    SimRun r;
    RUN(&r, "cg_reduce.ptx", names[k], "2", "96", 0, "buf:i32:192:rand", "buf:i32:1920:zero");
    int32_t want[1920];
    tile_reference(ARG(&r, 0, int32_t, 192), 16 >> k, want);
    expect_i32(names[k], ARG(&r, 1, int32_t, 1920), want, 1920);
    sim_run_free(&r);
  }
}

/* A tile sized at run time: rank + 100 * size + 10000 * warp per thread. */
static void test_dynamic_tile(void **state) {
  (void)state;
  static const char *const sizes[] = {"i32:4", "i32:8", "i32:16", "i32:32"};
  for (int k = 0; k < 4; k++) {
    SimRun r;
    RUN(&r, "cg_reduce.ptx", "dyn_tile", "2", "64", 0, "buf:i32:128:zero", sizes[k]);
    int size = 4 << k;
    int32_t want[128];
    for (int i = 0; i < 128; i++) want[i] = i % 64 % size + 100 * size + 10000 * (i % 64 / 32);
    expect_i32(sizes[k], ARG(&r, 0, int32_t, 128), want, 128);
    sim_run_free(&r);
  }
}

/* barrier.cluster.arrive/.wait without a cluster launch: a barrier of the
 * block (what cg::this_cluster().sync() compiles to), so each thread reads
 * the word its neighbour wrote before the barrier. */
static const char cluster_ptx[] =
  ".version 8.0\n.target sm_90\n.address_size 64\n"
  ".visible .entry k(.param .u64 out)\n{\n"
  "  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n  .shared .align 4 .b8 s[256];\n"
  "  mov.u32 %r1, %tid.x;\n  mov.u32 %r7, %cluster_nctarank;\n"
  "  shl.b32 %r2, %r1, 2;\n  mov.u32 %r3, s;\n  add.u32 %r4, %r3, %r2;\n"
  "  st.shared.u32 [%r4], %r1;\n"
  "  barrier.cluster.arrive.release.aligned;\n  barrier.cluster.wait.acquire.aligned;\n"
  "  add.u32 %r5, %r1, 1;\n  and.b32 %r5, %r5, 63;\n  shl.b32 %r5, %r5, 2;\n  add.u32 %r5, %r3, %r5;\n"
  "  ld.shared.u32 %r6, [%r5];\n  mad.lo.u32 %r6, %r7, 1000, %r6;\n"
  "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n  mul.wide.u32 %rd2, %r1, 4;\n"
  "  add.u64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r6;\n  ret;\n}\n";

static void test_cluster_barrier(void **state) {
  (void)state;
  char *path = tu_temp_file(".ptx", cluster_ptx);
  assert_non_null(path);
  PtxModule *m = tu_load(path);
  SimRun r;
  tu_launch(&r, m, "k", "1", "64", 0, "buf:i32:64:zero", (const char *)NULL);
  int32_t want[64];
  for (int i = 0; i < 64; i++) want[i] = 1000 + (i + 1) % 64; /* a cluster of one block */
  expect_i32("out", ARG(&r, 0, int32_t, 64), want, 64);
  sim_run_free(&r);
  ptx_module_free(m);
  unlink(path);
  free(path);
}

/* A collective on a tile called by one lane (`if (lane == 31) x =
 * cg::exclusive_scan(warp, t)`): shfl.sync with a full member mask on a path
 * only lane 31 takes.  Undefined on the GPU; a located fault here, never a
 * silently different value. */
static const char partial_ptx[] =
  ".version 8.0\n.target sm_90\n.address_size 64\n"
  ".visible .entry k(.param .u64 out)\n{\n"
  "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<2>;\n"
  "  mov.u32 %r1, %laneid;\n  setp.ne.u32 %p1, %r1, 31;\n  @%p1 bra $L_end;\n"
  "  shfl.sync.up.b32 %r2, %r1, 1, 0, -1;\n"
  "  ld.param.u64 %rd1, [out];\n  st.global.u32 [%rd1], %r2;\n"
  "$L_end:\n  ret;\n}\n";

static void test_collective_on_a_subset(void **state) {
  (void)state;
  char *path = tu_temp_file(".ptx", partial_ptx);
  assert_non_null(path);
  PtxModule *m = tu_load(path);
  LaunchSpec ls = {.name = "k", .label = "k", .grid = {1, 1, 1}, .block = {32, 1, 1}, .nargs = 1};
  WmErr e = {0};
  assert_int_equal(launch_parse_arg("buf:i32:1:zero", &ls.args[0], &e), 0);
  SimOptions o;
  sim_options_init(&o);
  SimRun r;
  assert_int_not_equal(sim_run_launch(m, &ls, &o, &r, &e), 0);
  assert_int_equal(e.code, WM_EFAULT);
  static const char *const needles[] = {"shfl.sync", "0xffffffff", "0x7fffffff", "another path", "lane 31", NULL};
  for (int i = 0; needles[i]; i++)
    if (!strstr(e.msg, needles[i])) fail_msg("no '%s' in: %s", needles[i], e.msg);
  ptx_module_free(m);
  unlink(path);
  free(path);
}

/* A spin lock taken by one lane of a warp (while (atomicCAS(lock, 0, 1));
 * ++*count; atomicExch(lock, 0)): the holder leaves the loop while the
 * others spin.  Volta's independent thread scheduling runs it on, and so
 * does the emulator when the spinning path stalls: every thread counts
 * once.  A lock nobody releases (taken before the launch) ends in the
 * no-progress error. */
static const char lock_ptx[] =
  ".version 8.0\n.target sm_90\n.address_size 64\n"
  ".visible .entry k(.param .u64 lock, .param .u64 count)\n{\n"
  "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<3>;\n"
  "  ld.param.u64 %rd1, [lock];\n  ld.param.u64 %rd2, [count];\n"
  "$L_spin:\n  atom.global.cas.b32 %r1, [%rd1], 0, 1;\n  setp.ne.s32 %p1, %r1, 0;\n  @%p1 bra $L_spin;\n"
  "  ld.volatile.global.u32 %r2, [%rd2];\n  add.s32 %r2, %r2, 1;\n  st.volatile.global.u32 [%rd2], %r2;\n"
  "  membar.gl;\n  atom.global.exch.b32 %r3, [%rd1], 0;\n  ret;\n}\n";

static void test_intra_warp_lock(void **state) {
  (void)state;
  char *path = tu_temp_file(".ptx", lock_ptx);
  assert_non_null(path);
  PtxModule *m = tu_load(path);
  SimRun r;
  tu_launch(&r, m, "k", "2", "64", 0, "buf:i32:1:zero", "buf:i32:1:zero", (const char *)NULL);
  assert_int_equal(ARG(&r, 0, int32_t, 1)[0], 0);   /* released */
  assert_int_equal(ARG(&r, 1, int32_t, 1)[0], 128); /* every thread once */
  sim_run_free(&r);

  LaunchSpec ls = {.name = "k", .label = "k", .grid = {1, 1, 1}, .block = {32, 1, 1}, .nargs = 2};
  WmErr e = {0};
  assert_int_equal(launch_parse_arg("buf:i32:1:1", &ls.args[0], &e), 0); /* held by nobody running */
  assert_int_equal(launch_parse_arg("buf:i32:1:zero", &ls.args[1], &e), 0);
  SimOptions o;
  sim_options_init(&o);
  assert_int_not_equal(sim_run_launch(m, &ls, &o, &r, &e), 0);
  assert_int_equal(e.code, WM_EDEADLOCK);
  if (!strstr(e.msg, "no progress") || !strstr(e.msg, "lane 0)")) fail_msg("unexpected: %s", e.msg);
  ptx_module_free(m);
  unlink(path);
  free(path);
}

/* --- cg_compact.cu, cg_histogram.cu --- */

static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

static void test_filter_warp_aggregated(void **state) {
  (void)state;
  SimRun r;
  RUN(&r, "cg_compact.ptx", "filter_k", "16", "128", 0, "buf:i32:2000:zero", "buf:i32:1:zero", "buf:i32:2000:rand",
      "i32:2000", "i32:500");
  const int32_t *src = ARG(&r, 2, int32_t, 2000);
  int32_t *want = calloc(2000, sizeof *want), *got = calloc(2000, sizeof *got);
  int n = 0;
  for (int i = 0; i < 2000; i++)
    if (src[i] > 500) want[n++] = src[i];
  assert_true(n > 100 && n < 1900);
  assert_int_equal(ARG(&r, 1, int32_t, 1)[0], n);
  /* the order is the atomics' (on the GPU too): compare as sets */
  memcpy(got, ARG(&r, 0, int32_t, 2000), 2000 * sizeof *got);
  qsort(got, (size_t)n, sizeof *got, cmp_i32);
  qsort(want, (size_t)n, sizeof *want, cmp_i32);
  expect_i32("dst (sorted)", got, want, (size_t)n);
  for (int i = n; i < 2000; i++) assert_int_equal(got[i], 0);
  free(want);
  free(got);
  sim_run_free(&r);
}

static void test_binary_partition(void **state) {
  (void)state;
  SimRun r;
  RUN(&r, "cg_compact.ptx", "parity_count", "4", "64", 0, "buf:i32:256:rand", "buf:i32:2:zero", "buf:i32:256:zero");
  const int32_t *in = ARG(&r, 0, int32_t, 256);
  int32_t counts[2] = {0, 0}, rank[256];
  for (int i = 0; i < 256; i++) {
    counts[in[i] & 1]++;
    rank[i] = 0;
    for (int j = i - i % 32; j < i; j++) rank[i] += (in[j] & 1) == (in[i] & 1);
  }
  expect_i32("odd_even", ARG(&r, 1, int32_t, 2), counts, 2);
  expect_i32("rank", ARG(&r, 2, int32_t, 256), rank, 256);
  sim_run_free(&r);
}

static void test_labeled_histogram(void **state) {
  (void)state;
  SimRun r;
  RUN(&r, "cg_histogram.ptx", "histo_labeled", "8", "128", 0, "buf:i32:3000:rand", "buf:u32:16:zero", "i32:3000",
      "i32:16");
  const int32_t *keys = ARG(&r, 0, int32_t, 3000);
  int32_t want[16] = {0};
  for (int i = 0; i < 3000; i++) want[(keys[i] & 0x7fffffff) % 16]++;
  expect_i32("bins", ARG(&r, 1, int32_t, 16), want, 16);
  sim_run_free(&r);

  RUN(&r, "cg_histogram.ptx", "histo_sum", "4", "96", 0, "buf:i32:300:rand", "buf:u32:8:zero", "buf:i32:8:zero",
      "i32:300", "i32:8");
  keys = ARG(&r, 0, int32_t, 300);
  int32_t bins[8] = {0}, sums[8] = {0};
  for (int i = 0; i < 300; i++) {
    bins[(keys[i] & 0x7fffffff) % 8]++;
    sums[(keys[i] & 0x7fffffff) % 8] += keys[i] % 1000;
  }
  expect_i32("bins", ARG(&r, 1, int32_t, 8), bins, 8);
  expect_i32("sums", ARG(&r, 2, int32_t, 8), sums, 8);
  sim_run_free(&r);
}

/* --- cg_grid.cu: cooperative launches --- */

static void test_grid_sync_normalize(void **state) {
  (void)state;
  SimRun r;
  RUN(&r, "cg_grid.ptx", "grid_normalize", "16", "128", 1, "buf:f32:5000:rand", "buf:f32:16:zero",
      "buf:f32:1:zero", "buf:f32:5000:zero", "i32:5000");
  const float *in = ARG(&r, 0, float, 5000), *partial = ARG(&r, 1, float, 16), *out = ARG(&r, 3, float, 5000);
  float total = ARG(&r, 2, float, 1)[0];
  double sum = 0;
  for (int b = 0; b < 16; b++) {
    double s = 0; /* block b's threads: i = b * 128 + t + k * 2048 */
    for (int i = b * 128; i < 5000; i += 2048)
      for (int t = 0; t < 128 && i + t < 5000; t++) s += in[i + t];
    char what[32];
    snprintf(what, sizeof what, "partial[%d]", b);
    expect_close(what, partial[b], s);
    sum += s;
  }
  /* phase 2 read every partial: only after all blocks wrote theirs */
  expect_close("total", total, sum);
  float scale = 1.0f / total;
  for (int i = 0; i < 5000; i++)
    if (out[i] != in[i] * scale) fail_msg("out[%d] = %.9g, expected %.9g", i, out[i], in[i] * scale);
  sim_run_free(&r);
}

static void test_grid_sync_scan(void **state) {
  (void)state;
  SimRun r;
  RUN(&r, "cg_grid.ptx", "grid_scan", "12", "256", 1, "buf:i32:3072:rand", "buf:i32:12:zero", "buf:i32:3072:zero");
  const int32_t *in = ARG(&r, 0, int32_t, 3072);
  int32_t *want = calloc(3072, sizeof *want), totals[12] = {0};
  int32_t run_sum = 0;
  for (int i = 0; i < 3072; i++) {
    run_sum += in[i] & 0xffff;
    want[i] = run_sum;
    totals[i / 256] += in[i] & 0xffff;
  }
  expect_i32("block_total", ARG(&r, 1, int32_t, 12), totals, 12);
  expect_i32("out", ARG(&r, 2, int32_t, 3072), want, 3072);
  free(want);
  sim_run_free(&r);
}

static void test_flags_between_blocks(void **state) {
  (void)state;
  SimRun r;
  RUN(&r, "cg_grid.ptx", "flag_chain", "8", "64", 1, "buf:i32:9:zero", "buf:i32:2:zero");
  int32_t s = 0; /* blocks 7, 6, ..., 0 in turn: each waits for the one after it */
  for (int b = 7; b >= 0; b--) s = s * 3 + b;
  assert_int_equal(ARG(&r, 1, int32_t, 2)[0], s);
  for (int b = 0; b < 8; b++) assert_int_equal(ARG(&r, 0, int32_t, 9)[b], 1);
  sim_run_free(&r);
}

/* A plain launch whose blocks wait for earlier ones (decoupled look-back):
 * with several host threads a block may spin while an earlier block runs
 * on another; the spin watch must wait for it, not stop the kernel. */
static void test_lookback_plain_launch(void **state) {
  (void)state;
  const char *threads[] = {"1", "4"};
  for (int t = 0; t < 2; t++) {
    setenv("WARPMEM_THREADS", threads[t], 1);
    SimRun r;
    RUN(&r, "cg_grid.ptx", "lookback_chain", "8", "64", 0, "buf:i32:9:zero", "buf:i32:2:zero");
    int32_t s = 0;
    for (int b = 0; b < 8; b++) s = s * 3 + b;
    assert_int_equal(ARG(&r, 1, int32_t, 2)[0], s);
    sim_run_free(&r);
  }
  unsetenv("WARPMEM_THREADS");
}

/* The counters of a cooperative launch do not depend on the host threads. */
static void test_cooperative_deterministic(void **state) {
  (void)state;
  uint64_t first[WM_M_COUNT];
  const char *threads[] = {"1", "3"};
  for (int t = 0; t < 2; t++) {
    setenv("WARPMEM_THREADS", threads[t], 1);
    SimRun r;
    RUN(&r, "cg_grid.ptx", "grid_scan", "12", "256", 1, "buf:i32:3072:rand", "buf:i32:12:zero", "buf:i32:3072:zero");
    assert_true(r.mm.metric[WM_M_INST] > 0);
    if (t == 0) memcpy(first, r.mm.metric, sizeof first);
    else
      for (int m = 0; m < WM_M_COUNT; m++)
        if (first[m] != r.mm.metric[m])
          fail_msg("%s: %llu with 1 thread, %llu with 3", wm_metric_name[m], (unsigned long long)first[m],
                   (unsigned long long)r.mm.metric[m]);
    sim_run_free(&r);
  }
  unsetenv("WARPMEM_THREADS");
}

/* --- the errors --- */

static void expect_failure(const char *file, const char *name, const char *grid, const char *block, int coop,
                           int code, const char *const *needles, ...) {
  SimRun r;
  WmErr e = {0};
  va_list ap;
  va_start(ap, needles);
  LaunchSpec *ls = calloc(1, sizeof *ls);
  snprintf(ls->name, sizeof ls->name, "%s", name);
  snprintf(ls->label, sizeof ls->label, "%s", name);
  assert_int_equal(launch_parse_dim(grid, ls->grid, &e), 0);
  assert_int_equal(launch_parse_dim(block, ls->block, &e), 0);
  ls->cooperative = coop;
  for (const char *s; (s = va_arg(ap, const char *)) != NULL;)
    assert_int_equal(launch_parse_arg(s, &ls->args[ls->nargs++], &e), 0);
  va_end(ap);
  SimOptions o;
  sim_options_init(&o);
  int rc = sim_run_launch(load(file), ls, &o, &r, &e);
  free(ls);
  if (rc == 0) {
    sim_run_free(&r);
    fail_msg("%s ran; expected an error", name);
  }
  assert_int_equal(e.code, code);
  for (int i = 0; needles[i]; i++)
    if (!strstr(e.msg, needles[i])) fail_msg("%s: no '%s' in: %s", name, needles[i], e.msg);
}

/* An H200 has 132 SMs and holds 2048 threads per SM: two blocks of 1024
 * threads (registers: 1024 x 32 = half of the 64 Ki), so 264 at once. */
static void test_cooperative_too_large(void **state) {
  (void)state;
  static const char *const needles[] = {"cudaErrorCooperativeLaunchTooLarge", "265 blocks", "at most 264",
                                        "2 per SM", "132 SMs", NULL};
  expect_failure("cg_grid.ptx", "grid_scan", "265", "1024", 1, WM_ELIMIT, needles, "buf:i32:271360:rand",
                 "buf:i32:265:zero", "buf:i32:271360:zero", (const char *)NULL);
  /* 264 blocks fit: the same launch one block smaller is accepted (and runs) */
  SimRun r;
  RUN(&r, "cg_grid.ptx", "grid_scan", "264", "1024", 1, "buf:i32:270336:rand", "buf:i32:264:zero",
      "buf:i32:270336:zero");
  const int32_t *in = ARG(&r, 0, int32_t, 270336), *out = ARG(&r, 2, int32_t, 270336);
  int64_t s = 0;
  for (int i = 0; i < 270336; i++) s += in[i] & 0xffff;
  assert_int_equal(out[270335], (int32_t)s);
  sim_run_free(&r);
}

static void test_grid_sync_needs_cooperative(void **state) {
  (void)state;
  static const char *const needles[] = {"trap", "grid.is_valid()", "cooperative", "cg_grid.cu:", NULL};
  expect_failure("cg_grid.ptx", "grid_scan", "12", "256", 0, WM_EFAULT, needles, "buf:i32:3072:rand",
                 "buf:i32:12:zero", "buf:i32:3072:zero", (const char *)NULL);
}

/* "cg_grid.cu:LINE" of the first line of tests/corpus/cg_grid.cu holding `text`. */
static const char *cu_line_of(const char *text) {
  static char where[64];
  char path[4096], line[1024];
  snprintf(path, sizeof path, "%s", tu_corpus("cg_grid.ptx"));
  char *slash = strstr(path, "/ptx/cg_grid.ptx");
  assert_non_null(slash);
  strcpy(slash, "/cg_grid.cu");
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  for (int n = 1; fgets(line, sizeof line, f); n++)
    if (strstr(line, text)) {
      snprintf(where, sizeof where, "cg_grid.cu:%d", n);
      fclose(f);
      return where;
    }
  fclose(f);
  fail_msg("no '%s' in %s", text, path);
  return NULL;
}

static void test_spin_without_progress(void **state) {
  (void)state;
  /* a flag nobody sets: stopped, located at the spin loop, in either launch */
  const char *const forever[] = {"no progress", "spin_forever", cu_line_of("while (*flag == 0)"), "block (0,0,0)",
                                 NULL};
  expect_failure("cg_grid.ptx", "spin_forever", "2", "64", 1, WM_EDEADLOCK, forever, "buf:i32:1:zero",
                 (const char *)NULL);
  expect_failure("cg_grid.ptx", "spin_forever", "2", "64", 0, WM_EDEADLOCK, forever, "buf:i32:1:zero",
                 (const char *)NULL);
  /* a flag a later block sets: fine when cooperative (above), stopped in a
   * plain launch, whose blocks run here one after another, with the hint */
  static const char *const chain[] = {"no progress", "flag_chain", "cooperative launch", NULL};
  expect_failure("cg_grid.ptx", "flag_chain", "8", "64", 0, WM_EDEADLOCK, chain, "buf:i32:9:zero", "buf:i32:2:zero",
                 (const char *)NULL);
}

/* The //@ word and the command line. */
static void test_cooperative_spec(void **state) {
  (void)state;
  LaunchSpec *ls = NULL;
  int n = 0;
  WmErr e = {0};
  const char *text = "//@ k cooperative grid=4 block=32 args=\n//@ k#plain grid=4 block=32 args=\n";
  if (launch_parse_file("x.cu", text, &ls, &n, &e)) fail_msg("%s", e.msg);
  assert_int_equal(n, 2);
  assert_int_equal(ls[0].cooperative, 1);
  assert_int_equal(ls[1].cooperative, 0);
  free(ls);
  char cmd[4096], *out = NULL;
  snprintf(cmd, sizeof cmd, "sim %s --kernel flag_chain --grid 8 --block 64 --arg buf:i32:9:zero "
           "--arg buf:i32:2:zero --cooperative", tu_corpus("cg_grid.ptx"));
  assert_int_equal(tu_run_cli(cmd, &out, NULL), 0);
  assert_non_null(strstr(out, "flag_chain"));
  free(out);
  /* too large for an H200 (132 SMs x 8 blocks of 256 threads): refused */
  char *err = NULL;
  snprintf(cmd, sizeof cmd, "sim %s --kernel grid_scan --grid 1057 --block 256 --arg buf:i32:270592 "
           "--arg buf:i32:1057 --arg buf:i32:270592 --cooperative", tu_corpus("cg_grid.ptx"));
  assert_int_not_equal(tu_run_cli(cmd, NULL, &err), 0);
  if (!strstr(err, "cudaErrorCooperativeLaunchTooLarge") || !strstr(err, "at most 1056"))
    fail_msg("unexpected: %s", err);
  free(err);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_block_reduce_i32),
    cmocka_unit_test(test_block_reduce_f32),
    cmocka_unit_test(test_tile_ops),
    cmocka_unit_test(test_dynamic_tile),
    cmocka_unit_test(test_cluster_barrier),
    cmocka_unit_test(test_collective_on_a_subset),
    cmocka_unit_test(test_intra_warp_lock),
    cmocka_unit_test(test_filter_warp_aggregated),
    cmocka_unit_test(test_binary_partition),
    cmocka_unit_test(test_labeled_histogram),
    cmocka_unit_test(test_grid_sync_normalize),
    cmocka_unit_test(test_grid_sync_scan),
    cmocka_unit_test(test_flags_between_blocks),
    cmocka_unit_test(test_lookback_plain_launch),
    cmocka_unit_test(test_cooperative_deterministic),
    cmocka_unit_test(test_cooperative_too_large),
    cmocka_unit_test(test_grid_sync_needs_cooperative),
    cmocka_unit_test(test_spin_without_progress),
    cmocka_unit_test(test_cooperative_spec),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
