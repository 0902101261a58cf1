/* test_lab_catalogue.c - every kernel of the lab's catalogue (the .cu files
 * of lab/) computes what its seed says it computes: each one runs in the
 * emulator at a small size from its committed PTX (lab/ptx/), and its output
 * buffers are compared with a CPU reference written here.
 *
 * Inputs are iota (for kernels that update in place, so the reference knows
 * the initial values) or seeded rand read back from the input buffers after
 * the run (kernels that do not write their inputs).  Every comparison is
 * exact: float references do the same operations in the same order as the
 * PTX (nvcc contracts a*b+c into fma.rn.f32, so the references use fmaf
 * where the PTX has fma).  test_every_kernel_is_tested fails when a kernel
 * is added to the catalogue without a reference here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "lab/lab_catalogue.h"
#include "testutil.h"

/* ---- running a kernel ---------------------------------------------------- */

#define NFILES 5
static const char *const files[NFILES] = {"seed000_coalescing", "seed001_cuda_memory", "seed002_smem_layout",
                                          "seed003_memories", "seed004_global_memory"};
enum { S0, S1, S2, S3, S4 };
static PtxModule *modules[NFILES];

static const PtxModule *module(int f) {
  if (!modules[f]) {
    char path[256];
    WmErr e = {0};
    snprintf(path, sizeof path, "ptx/%s.ptx", files[f]);
    modules[f] = ptx_load(tu_lab(path), arch_ptx_target(), &e);
    if (!modules[f]) fail_msg("%s: %s", path, e.msg);
  }
  return modules[f];
}

/* Kernels run by this file (test_every_kernel_is_tested checks the list). */
static char tested[256][64];
static int ntested;

static void note_tested(const char *name) {
  for (int i = 0; i < ntested; i++)
    if (!strcmp(tested[i], name)) return;
  if (ntested < 256) snprintf(tested[ntested++], sizeof tested[0], "%s", name);
}

/* Runs `name` of file f on GRID, BLOCK with `smem` dynamic bytes and the
 * NULL-terminated argument specs; the buffers stay in run->gmem. */
static void launch(SimRun *run, int f, const char *name, const char *grid, const char *block, uint32_t smem, ...) {
  LaunchSpec *ls = calloc(1, sizeof *ls);
  assert_non_null(ls);
  WmErr e = {0};
  snprintf(ls->name, sizeof ls->name, "%s", name);
  snprintf(ls->label, sizeof ls->label, "%s", name);
  if (launch_parse_dim(grid, ls->grid, &e) || launch_parse_dim(block, ls->block, &e)) fail_msg("%s: %s", name, e.msg);
  ls->smem = smem;
  va_list ap;
  va_start(ap, smem);
  for (const char *s; (s = va_arg(ap, const char *)) != NULL;)
    if (launch_parse_arg(s, &ls->args[ls->nargs++], &e)) fail_msg("%s: %s", name, e.msg);
  va_end(ap);
  SimOptions o;
  sim_options_init(&o);
  o.keep_buffers = 1;
  o.seed = 471;
  if (sim_run_launch(module(f), ls, &o, run, &e)) fail_msg("%s: %s", name, e.msg);
  free(ls);
  note_tested(name);
}
#define LAUNCH(run, f, name, grid, block, smem, ...) launch(run, f, name, grid, block, smem, __VA_ARGS__, (const char *)NULL)

/* The host copy of argument buffer `argno`, checked to hold count elements. */
static void *arg_buf(SimRun *run, int argno, size_t elem, size_t count) {
  char prefix[32];
  snprintf(prefix, sizeof prefix, "arg%d (", argno);
  for (int i = 0; i < run->gmem.n; i++)
    if (!strncmp(run->gmem.buf[i].name, prefix, strlen(prefix))) {
      assert_true(run->gmem.buf[i].size >= elem * count);
      return run->gmem.buf[i].data;
    }
  fail_msg("no buffer for argument %d", argno);
  return NULL;
}
#define ARG(run, argno, T, count) ((T *)arg_buf(run, argno, sizeof(T), count))

static void expect_f32(const char *what, const float *got, const float *want, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (memcmp(&got[i], &want[i], 4)) fail_msg("%s[%zu] = %.9g, expected %.9g", what, i, (double)got[i], (double)want[i]);
}
static void expect_i32(const char *what, const int32_t *got, const int32_t *want, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) fail_msg("%s[%zu] = %d, expected %d", what, i, got[i], want[i]);
}

/* ---- seed 000 ------------------------------------------------------------- */

/* a[i]++ variants on iota: a[i] = i before.  Cases 2 and 3 race on a[0] and
 * on each block's first element (the seed's point): those are not checked. */
static void test_inc_case(void **state) {
  (void)state;
  for (int c = 0; c < 4; c++) {
    SimRun run;
    char cs[16];
    snprintf(cs, sizeof cs, "i32:%d", c);
    LAUNCH(&run, S0, "inc_case", "8", "256", 0, "buf:f32:2048:iota", cs);
    const float *a = ARG(&run, 0, float, 2048);
    for (int i = 0; i < 2048; i++) {
      if ((c == 2 && i == 0) || (c == 3 && i % 256 == 0)) continue;
      float want = (float)i;
      if (c == 0) want = (float)i + (float)i;
      else if ((i & 3) != 0) want = (float)i + 1.0f;
      if (a[i] != want) fail_msg("inc_case %d: a[%d] = %g, expected %g", c, i, (double)a[i], (double)want);
    }
    sim_run_free(&run);
  }
}

static void test_float3(void **state) {
  (void)state;
  const char *names[] = {"f3_plain", "f3_smem"};
  for (int k = 0; k < 3; k++) {
    SimRun run;
    if (k < 2) LAUNCH(&run, S0, names[k], "2", "256", 0, "buf:f32:1536:rand", "buf:f32:1536:zero");
    else LAUNCH(&run, S0, "f3_flat4", "2", "256", 0, "buf:f32:1536:rand", "buf:f32:1536:zero", "i32:384");
    const float *in = ARG(&run, 0, float, 1536), *out = ARG(&run, 1, float, 1536);
    float want[1536];
    for (int i = 0; i < 1536; i++) want[i] = in[i] + 2.0f;
    expect_f32(k < 2 ? names[k] : "f3_flat4", out, want, 1536);
    sim_run_free(&run);
  }
}

/* out (h x w... transposed: out[x * h + y] = in[y * w + x]), w = 96, h = 64:
 * not square, so rows and columns cannot be mixed up unnoticed. */
static void check_transpose(SimRun *run, const char *name, int w, int h) {
  const float *out = ARG(run, 0, float, (size_t)w * h), *in = ARG(run, 1, float, (size_t)w * h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      if (out[(size_t)x * h + y] != in[(size_t)y * w + x])
        fail_msg("%s: out[%d][%d] = %g, expected in[%d][%d] = %g", name, x, y, (double)out[(size_t)x * h + y], y, x,
                 (double)in[(size_t)y * w + x]);
}

static void test_transpose(void **state) {
  (void)state;
  const char *k32[] = {"tr_naive", "tr_smem", "tr_pad"};
  for (int k = 0; k < 3; k++) {
    SimRun run;
    LAUNCH(&run, S0, k32[k], "3,2", "32,32", 0, "buf:f32:6144:zero", "buf:f32:6144:rand", "i32:96", "i32:64");
    check_transpose(&run, k32[k], 96, 64);
    sim_run_free(&run);
  }
  SimRun run;
  LAUNCH(&run, S0, "tr_32x8", "3,2", "32,8", 0, "buf:f32:6144:zero", "buf:f32:6144:rand", "i32:96", "i32:64");
  check_transpose(&run, "tr_32x8", 96, 64);
  sim_run_free(&run);
  LAUNCH(&run, S0, "tr_v4", "2,1", "16,16", 0, "buf:f32:8192:zero", "buf:f32:8192:rand", "i32:128", "i32:64");
  check_transpose(&run, "tr_v4", 128, 64);
  sim_run_free(&run);
  LAUNCH(&run, S0, "copy32", "3,2", "32,32", 0, "buf:f32:6144:zero", "buf:f32:6144:rand", "i32:96", "i32:64");
  expect_f32("copy32", ARG(&run, 0, float, 6144), ARG(&run, 1, float, 6144), 6144);
  sim_run_free(&run);
}

/* C = A B, n x n, summed over k in order with fma, as every kernel does. */
static void matmul_ref(const float *a, const float *b, float *c, int n) {
  for (int r = 0; r < n; r++)
    for (int col = 0; col < n; col++) {
      float s = 0;
      for (int k = 0; k < n; k++) s = fmaf(a[r * n + k], b[k * n + col], s);
      c[r * n + col] = s;
    }
}

/* Runs a square multiply (A, B, C, N) and checks C. */
static void check_matmul(int f, const char *name, const char *grid, const char *block, uint32_t smem, int n) {
  char a[64], c[64], ns[32];
  snprintf(a, sizeof a, "buf:f32:%d:rand", n * n);
  snprintf(c, sizeof c, "buf:f32:%d:zero", n * n);
  snprintf(ns, sizeof ns, "i32:%d", n);
  SimRun run;
  LAUNCH(&run, f, name, grid, block, smem, a, a, c, ns);
  float *want = malloc(sizeof(float) * (size_t)n * n);
  matmul_ref(ARG(&run, 0, float, (size_t)n * n), ARG(&run, 1, float, (size_t)n * n), want, n);
  expect_f32(name, ARG(&run, 2, float, (size_t)n * n), want, (size_t)n * n);
  free(want);
  sim_run_free(&run);
}

static void test_matmul_seed000(void **state) {
  (void)state;
  check_matmul(S0, "MatrixMulKernel", "3,3", "16,16", 0, 40); /* bounds checked: 40 is not a multiple of 16 */
  check_matmul(S0, "MatrixMulTiled", "2,2", "16,16", 0, 32);
}

/* ---- seed 001 ------------------------------------------------------------- */

static void test_madd(void **state) {
  (void)state;
  const char *names[] = {"madd_c", "madd_nc", "madd_c4"};
  const char *grids[] = {"3,3", "3,3", "1,4"};
  const int ns[] = {48, 48, 64};
  for (int k = 0; k < 3; k++) {
    char buf[64], bz[64], n[32];
    int N = ns[k];
    snprintf(buf, sizeof buf, "buf:f32:%d:rand", N * N);
    snprintf(bz, sizeof bz, "buf:f32:%d:zero", N * N);
    snprintf(n, sizeof n, "i32:%d", N);
    SimRun run;
    LAUNCH(&run, S1, names[k], grids[k], "16,16", 0, buf, buf, bz, n);
    const float *A = ARG(&run, 0, float, N * N), *B = ARG(&run, 1, float, N * N);
    float want[64 * 64];
    for (int i = 0; i < N * N; i++) want[i] = A[i] + B[i];
    expect_f32(names[k], ARG(&run, 2, float, N * N), want, (size_t)N * N);
    sim_run_free(&run);
  }
}

static void test_matmul_seed001(void **state) {
  (void)state;
  check_matmul(S1, "matrix_mult_global", "3,3", "16,16", 0, 40);
  check_matmul(S1, "matrix_mult_shared", "3,3", "16,16", 0, 40); /* partial tiles padded with zeros */
  check_matmul(S1, "matrix_mult_mixed", "3,3", "16,16", 1024, 40);
}

/* ---- seed 002 ------------------------------------------------------------- */

/* What each layout kernel writes at idx = ty * 32 + tx of its block. */
static int square_value(const char *name, int tx, int ty) {
  if (!strcmp(name, "setRowReadRow") || !strcmp(name, "setColReadCol")) return ty * 32 + tx;
  if (!strcmp(name, "setRowReadColDynIpad")) return tx * 33 + ty;
  return tx * 32 + ty; /* the tile read by columns */
}

static void test_smem_layouts(void **state) {
  (void)state;
  const char *square[] = {"setRowReadRow", "setColReadCol", "setRowReadCol", "setColReadRow",
                          "setRowReadColDyn", "setRowReadColIpad", "setRowReadColDynIpad"};
  const uint32_t square_smem[] = {0, 0, 0, 0, 4096, 0, 4224};
  for (int k = 0; k < 7; k++) {
    SimRun run;
    LAUNCH(&run, S2, square[k], "2", "32,32", square_smem[k], "buf:i32:2048:zero");
    const int32_t *out = ARG(&run, 0, int32_t, 2048);
    int32_t want[2048];
    for (int b = 0; b < 2; b++)
      for (int ty = 0; ty < 32; ty++)
        for (int tx = 0; tx < 32; tx++) want[b * 1024 + ty * 32 + tx] = square_value(square[k], tx, ty);
    expect_i32(square[k], out, want, 2048);
    sim_run_free(&run);
  }
  /* 32x16: every variant reads tile[idx % 16][idx / 16], written as row * 32 + col */
  const char *rect[] = {"setRowReadColRect", "setRowReadColRectDyn", "setRowReadColRectPad",
                        "setRowReadColRectPad2", "setRowReadColRectDynPad"};
  const uint32_t rect_smem[] = {0, 2048, 0, 0, 2112};
  for (int k = 0; k < 5; k++) {
    SimRun run;
    LAUNCH(&run, S2, rect[k], "2", "32,16", rect_smem[k], "buf:i32:1024:zero");
    int32_t want[1024];
    for (int b = 0; b < 2; b++)
      for (int idx = 0; idx < 512; idx++) want[b * 512 + idx] = (idx % 16) * 32 + idx / 16;
    expect_i32(rect[k], ARG(&run, 0, int32_t, 1024), want, 1024);
    sim_run_free(&run);
  }
}

/* ---- seed 003 ------------------------------------------------------------- */

static void test_adjacent_difference(void **state) {
  (void)state;
  const char *names[] = {"adj_diff_naive", "adj_diff", "adj_diff_dyn", "adj_diff_v4"};
  for (int k = 0; k < 4; k++) {
    SimRun run;
    LAUNCH(&run, S3, names[k], k == 3 ? "1" : "4", "256", k == 2 ? 1024 : 0, "buf:i32:1024:zero", "buf:i32:1024:rand");
    const int32_t *res = ARG(&run, 0, int32_t, 1024), *in = ARG(&run, 1, int32_t, 1024);
    int32_t want[1024];
    want[0] = 0; /* result[0] is never written */
    for (int i = 1; i < 1024; i++) want[i] = in[i] - in[i - 1];
    expect_i32(names[k], res, want, 1024);
    sim_run_free(&run);
  }
}

static void test_tiles_and_sgemm(void **state) {
  (void)state;
  check_matmul(S3, "mat_mul", "2,2", "16,16", 0, 32);
  check_matmul(S3, "mm_tile4", "8,8", "4,4", 0, 32);
  check_matmul(S3, "mm_tile8", "4,4", "8,8", 0, 32);
  check_matmul(S3, "mm_tile16", "2,2", "16,16", 0, 32);
  check_matmul(S3, "mm_tile32", "1,1", "32,32", 0, 32);
  check_matmul(S3, "sgemm_128", "2,2", "256", 0, 256); /* two blocks each way: the tile offsets */
}

/* The 10 nearest q of each p, as (squared distance, q): both kernels keep
 * them (a heap in any order, or sorted); compare them sorted by distance. */
static int by_distance(const void *a, const void *b) {
  const float *x = a, *y = b;
  return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : (x[1] > y[1]) - (x[1] < y[1]);
}

static void test_ten_nearest(void **state) {
  (void)state;
  const char *names[] = {"ten_nn", "ten_nn_regs"};
  for (int k = 0; k < 2; k++) {
    SimRun run;
    LAUNCH(&run, S3, names[k], "1", "256", 0, "buf:f32:5120:zero", "buf:f32:512:rand", "buf:f32:128:rand", "u64:64");
    float *res = ARG(&run, 0, float, 5120);
    const float *ps = ARG(&run, 1, float, 512), *qs = ARG(&run, 2, float, 128);
    for (int i = 0; i < 256; i++) {
      float all[64][2];
      for (int q = 0; q < 64; q++) {
        float dx = qs[2 * q] - ps[2 * i], dy = qs[2 * q + 1] - ps[2 * i + 1];
        all[q][0] = fmaf(dx, dx, dy * dy); /* the PTX's fma.rn.f32 */
        all[q][1] = (float)q;
      }
      qsort(all, 64, sizeof all[0], by_distance);
      qsort(&res[i * 20], 10, 2 * sizeof(float), by_distance);
      for (int j = 0; j < 10; j++)
        if (res[i * 20 + 2 * j] != all[j][0] || res[i * 20 + 2 * j + 1] != all[j][1])
          fail_msg("%s: p %d, neighbour %d = (%g, q %g), expected (%g, q %g)", names[k], i, j,
                   (double)res[i * 20 + 2 * j], (double)res[i * 20 + 2 * j + 1], (double)all[j][0], (double)all[j][1]);
    }
    sim_run_free(&run);
  }
}

/* v = v * 3 + x, 20 times; the spaces differ only in where v lives. */
static void test_memory_spaces(void **state) {
  (void)state;
  static const uint32_t c_add[16] = {1, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47};
  const char *names[] = {"space_register", "space_local", "space_shared", "space_global", "space_constant"};
  for (int k = 0; k < 5; k++) {
    SimRun run;
    LAUNCH(&run, S3, names[k], "2", "256", 0, "buf:u32:512:zero", "i32:20");
    uint32_t want[512];
    for (uint32_t i = 0; i < 512; i++) {
      uint32_t v = i, a[10];
      for (int j = 0; j < 10; j++) a[j] = i + (uint32_t)j;
      for (int t = 0; t < 20; t++) {
        if (k == 1) a[t & 7] = a[(t + 7) & 7] * 3u + (uint32_t)t;
        else v = v * 3u + (k == 4 ? c_add[t & 15] : (uint32_t)t);
      }
      want[i] = k == 1 ? a[(20 + 7) & 7] : v;
    }
    uint32_t *out = ARG(&run, 0, uint32_t, 512);
    for (int i = 0; i < 512; i++)
      if (out[i] != want[i]) fail_msg("%s: out[%d] = %u, expected %u", names[k], i, out[i], want[i]);
    sim_run_free(&run);
  }
}

static void test_atomics(void **state) {
  (void)state;
  const char *names[] = {"atomic_sum", "atomic_sum_hier"};
  for (int k = 0; k < 2; k++) {
    SimRun run;
    LAUNCH(&run, S3, names[k], "4", "256", 0, "buf:i32:1024:rand", "buf:i32:1:zero");
    const int32_t *in = ARG(&run, 0, int32_t, 1024);
    int32_t sum = 0;
    for (int i = 0; i < 1024; i++) sum += in[i];
    expect_i32(names[k], ARG(&run, 1, int32_t, 1), &sum, 1);
    sim_run_free(&run);
  }
}

/* ---- seed 004 ------------------------------------------------------------- */

/* In-place increments of iota: every element of the first n ends as i + 1. */
static void check_incremented(SimRun *run, const char *name, int n, int total) {
  const float *a = ARG(run, 0, float, total);
  for (int i = 0; i < total; i++) {
    float want = i < n ? (float)i + 1.0f : (float)i;
    if (a[i] != want) fail_msg("%s: a[%d] = %g, expected %g", name, i, (double)a[i], (double)want);
  }
}

static void test_launch_configuration(void **state) {
  (void)state;
  SimRun run;
  LAUNCH(&run, S4, "inc1", "4", "256", 0, "buf:f32:1000:iota", "u64:1000"); /* the i < n guard */
  check_incremented(&run, "inc1", 1000, 1000);
  sim_run_free(&run);
  LAUNCH(&run, S4, "inc_gs", "3", "64", 0, "buf:f32:1000:iota", "u64:1000"); /* 192 threads stride over 1000 */
  check_incremented(&run, "inc_gs", 1000, 1000);
  sim_run_free(&run);
  const char *ept[] = {"inc_ept1", "inc_ept2", "inc_ept4", "inc_ept8"};
  for (int k = 0; k < 4; k++) {
    char b[64];
    int n = 2 * 256 * (1 << k);
    snprintf(b, sizeof b, "buf:f32:%d:iota", n);
    LAUNCH(&run, S4, ept[k], "2", "256", 0, b);
    check_incremented(&run, ept[k], n, n);
    sim_run_free(&run);
  }
  const char *words[] = {"inc_f1", "inc_f2", "inc_f4"};
  for (int k = 0; k < 3; k++) {
    char b[64];
    snprintf(b, sizeof b, "buf:f32:%d:iota", 512 * (1 << k));
    LAUNCH(&run, S4, words[k], "2", "256", 0, b);
    check_incremented(&run, words[k], 512 * (1 << k), 512 * (1 << k));
    sim_run_free(&run);
  }
}

static void test_copies(void **state) {
  (void)state;
  SimRun run;
  LAUNCH(&run, S4, "copy_f1", "2", "256", 0, "buf:f32:512:zero", "buf:f32:512:rand");
  expect_f32("copy_f1", ARG(&run, 0, float, 512), ARG(&run, 1, float, 512), 512);
  sim_run_free(&run);
  LAUNCH(&run, S4, "copy_f4", "2", "256", 0, "buf:f32:2048:zero", "buf:f32:2048:rand");
  expect_f32("copy_f4", ARG(&run, 0, float, 2048), ARG(&run, 1, float, 2048), 2048);
  sim_run_free(&run);
  /* 1000 float4 over 128 threads: the unrolled loop and its tail */
  LAUNCH(&run, S4, "copy_f4x4", "2", "64", 0, "buf:f32:4000:zero", "buf:f32:4000:rand", "u64:1000");
  expect_f32("copy_f4x4", ARG(&run, 0, float, 4000), ARG(&run, 1, float, 4000), 4000);
  sim_run_free(&run);
}

/* The word thread i reads in each pattern (lab/seed004_global_memory.cu). */
static size_t pattern_index(size_t i, int mode, unsigned shift) {
  switch (mode) {
  case 0: return i;
  case 1: return (i & ~(size_t)31) | ((i * 7 + 3) & 31);
  case 2: return i + 1;
  case 3: return i & ~(size_t)31;
  default: return ((uint32_t)i * 2654435761u) >> shift;
  }
}

static void test_access_patterns(void **state) {
  (void)state;
  const char *names[] = {"pat_ca", "pat_cg"};
  for (int k = 0; k < 2; k++)
    for (int mode = 0; mode < 5; mode++) {
      char ms[16];
      snprintf(ms, sizeof ms, "i32:%d", mode);
      SimRun run;
      LAUNCH(&run, S4, names[k], "2", "256", 0, "buf:f32:512:zero", "buf:f32:544:rand", ms, "u32:23");
      const float *out = ARG(&run, 0, float, 512), *in = ARG(&run, 1, float, 544);
      for (size_t i = 0; i < 512; i++)
        if (out[i] != in[pattern_index(i, mode, 23)])
          fail_msg("%s mode %d: out[%zu] = %g, expected in[%zu] = %g", names[k], mode, i, (double)out[i],
                   pattern_index(i, mode, 23), (double)in[pattern_index(i, mode, 23)]);
      sim_run_free(&run);
    }
}

static void test_aos_soa(void **state) {
  (void)state;
  SimRun run;
  LAUNCH(&run, S4, "aos_inc", "2", "256", 0, "buf:f64:2048:iota"); /* 512 points {x, y, z, w} */
  const double *p = ARG(&run, 0, double, 2048);
  for (int i = 0; i < 2048; i++)
    if (p[i] != (double)i + (i % 4 == 0 ? 1.0 : 0.0)) fail_msg("aos_inc: word %d = %g", i, p[i]);
  sim_run_free(&run);
  LAUNCH(&run, S4, "soa_inc", "2", "256", 0, "buf:f64:512:iota");
  const double *x = ARG(&run, 0, double, 512);
  for (int i = 0; i < 512; i++)
    if (x[i] != (double)i + 1.0) fail_msg("soa_inc: x[%d] = %g", i, x[i]);
  sim_run_free(&run);
  const char *rows[] = {"row_per_thread", "col_per_thread"};
  for (int k = 0; k < 2; k++) {
    LAUNCH(&run, S4, rows[k], "1", "256", 0, "buf:f32:8192:iota", "i32:256");
    check_incremented(&run, rows[k], 8192, 8192);
    sim_run_free(&run);
  }
}

static void test_gather(void **state) {
  (void)state;
  const char *names[] = {"gather_ca", "gather_cg"};
  for (int k = 0; k < 2; k++) {
    SimRun run;
    LAUNCH(&run, S4, names[k], "2", "256", 0, "buf:f32:512:zero", "buf:f32:1024:rand", "u32:1023");
    const float *out = ARG(&run, 0, float, 512), *table = ARG(&run, 1, float, 1024);
    float want[512];
    for (uint32_t i = 0; i < 512; i++) {
      uint32_t h = i * 2654435761u;
      float s = 0.f;
      for (int j = 0; j < 8; j++) {
        h = h * 1664525u + 1013904223u;
        s += table[(h >> 8) & 1023u];
      }
      want[i] = s;
    }
    expect_f32(names[k], out, want, 512);
    sim_run_free(&run);
  }
}

/* ---- coverage --------------------------------------------------------------- */

/* Runs last: every kernel a catalogue launch names was run above. */
static void test_every_kernel_is_tested(void **state) {
  (void)state;
  LabCatalogue c;
  WmErr e = {0};
  if (lab_catalogue_load(&c, tu_lab(""), &e)) fail_msg("%s", e.msg);
  assert_true(c.nlaunches >= 100);
  for (int i = 0; i < c.nlaunches; i++) {
    int found = 0;
    for (int k = 0; k < ntested && !found; k++) found = !strcmp(tested[k], c.launches[i].sim.name);
    if (!found) fail_msg("catalogue kernel %s (launch %s) has no CPU reference in this test", c.launches[i].sim.name,
                         c.launches[i].sim.label);
  }
  lab_catalogue_free(&c);
}

static int teardown(void **state) {
  (void)state;
  for (int f = 0; f < NFILES; f++)
    if (modules[f]) ptx_module_free(modules[f]);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_inc_case),        cmocka_unit_test(test_float3),
    cmocka_unit_test(test_transpose),       cmocka_unit_test(test_matmul_seed000),
    cmocka_unit_test(test_madd),            cmocka_unit_test(test_matmul_seed001),
    cmocka_unit_test(test_smem_layouts),    cmocka_unit_test(test_adjacent_difference),
    cmocka_unit_test(test_tiles_and_sgemm), cmocka_unit_test(test_ten_nearest),
    cmocka_unit_test(test_memory_spaces),   cmocka_unit_test(test_atomics),
    cmocka_unit_test(test_launch_configuration), cmocka_unit_test(test_copies),
    cmocka_unit_test(test_access_patterns), cmocka_unit_test(test_aos_soa),
    cmocka_unit_test(test_gather),          cmocka_unit_test(test_every_kernel_is_tested),
  };
  return cmocka_run_group_tests(tests, NULL, teardown);
}
