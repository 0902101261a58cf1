/* test_corpus_async.c - tests/corpus/async_copy.cu: asynchronous copies as
 * real code writes them (cp.async through cuda_pipeline.h, cuda::pipeline,
 * cuda::memcpy_async with cuda::barrier, cooperative_groups::memcpy_async),
 * their outputs against the host, their LDGSTS counters against first
 * principles, and the located errors of the two wrong kernels; then the
 * mbarrier and cp.async forms one at a time in small PTX kernels. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "testutil.h"

static PtxModule *mod;

static const PtxModule *corpus(void) {
  if (!mod) mod = tu_load(tu_corpus("async_copy.ptx"));
  return mod;
}

#define LAUNCH(run, name, grid, block, ...) tu_launch(run, corpus(), name, grid, block, 0, __VA_ARGS__, (const char *)NULL)
#define ARG(run, argno, T, count) ((T *)tu_arg_buf(run, argno, sizeof(T), count))
#define M(run, id) ((run)->mm.metric[WM_M_##id])

/* The launch must fail: its message (static buffer) and code. */
static const char *launch_fails(const PtxModule *m, const char *name, const char *grid, const char *block,
                                const char *const *args, int *code) {
  static WmErr e;
  LaunchSpec *ls = calloc(1, sizeof *ls);
  assert_non_null(ls);
  memset(&e, 0, sizeof e);
  snprintf(ls->name, sizeof ls->name, "%s", name);
  snprintf(ls->label, sizeof ls->label, "%s", name);
  assert_int_equal(launch_parse_dim(grid, ls->grid, &e), 0);
  assert_int_equal(launch_parse_dim(block, ls->block, &e), 0);
  for (; *args; args++) assert_int_equal(launch_parse_arg(*args, &ls->args[ls->nargs++], &e), 0);
  SimOptions o;
  sim_options_init(&o);
  SimRun run;
  memset(&run, 0, sizeof run);
  int rc = sim_run_launch(m, ls, &o, &run, &e);
  sim_run_free(&run);
  free(ls);
  if (rc == 0) fail_msg("%s ran without an error", name);
  *code = e.code;
  return e.msg;
}

/* "async_copy.cu:LINE" of the first line of the corpus file containing
 * `needle` after the line containing `after` (so a test names the line the
 * way a user reads it, not a number copied from warpmem). */
static void cu_line_of(const char *after, const char *needle, char *buf, size_t n) {
  char path[512];
  snprintf(path, sizeof path, "%s", tu_corpus("../async_copy.cu"));
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  char line[512];
  int no = 0, armed = 0;
  while (fgets(line, sizeof line, f)) {
    no++;
    if (!armed && strstr(line, after)) armed = 1;
    else if (armed && strstr(line, needle)) {
      fclose(f);
      snprintf(buf, n, "async_copy.cu:%d", no);
      return;
    }
  }
  fclose(f);
  fail_msg("no line '%s' after '%s' in %s", needle, after, path);
}

static void expect_close(const char *what, const float *got, const double *want, size_t n, double rel) {
  for (size_t i = 0; i < n; i++)
    if (fabs(got[i] - want[i]) > rel * (fabs(want[i]) + 1.0))
      fail_msg("%s[%zu] = %.9g, expected %.9g", what, i, got[i], want[i]);
}

/* --- the corpus ----------------------------------------------------------- */

static void test_gemm_double_buffered(void **state) {
  (void)state;
  enum { N = 64, T = 32 };
  SimRun run;
  LAUNCH(&run, "gemm_async", "2,2", "8,32", "buf:f32:4096", "buf:f32:4096", "buf:f32:4096:zero", "i32:64");
  const float *A = ARG(&run, 0, float, N * N), *B = ARG(&run, 1, float, N * N), *C = ARG(&run, 2, float, N * N);
  double *want = calloc(N * N, sizeof *want);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++) want[i * N + j] += (double)A[i * N + k] * B[k * N + j];
  expect_close("C", C, want, N * N, 1e-5);
  free(want);
  /* Per block and step, every thread copies 16 bytes of A and 16 of B:
   * two cp.async per warp.  A warp is 4 rows (ty) x 8 threads (tx) of 16
   * bytes: 4 rows of 128 contiguous, aligned bytes = 16 sectors in 1
   * request, the same for B.  4 blocks x 8 warps x 2 steps x 2 copies =
   * 128 requests and 128 x 16 = 2048 sectors, all .cg (16-byte copies of
   * __pipeline_memcpy_async), none through L1. */
  assert_int_equal(M(&run, LDGSTS_INST), 4 * 8 * 2 * 2);
  assert_int_equal(M(&run, LDGSTS_REQ), 128);
  assert_int_equal(M(&run, LDGSTS_SEC), 128 * 16);
  assert_int_equal(M(&run, LDGSTS_SEC_CG), 128 * 16);
  assert_int_equal(M(&run, LDGSTS_SEC_CA), 0);
  /* The shared side: 4 tile rows of 32 floats, 512 contiguous bytes at 16
   * per lane: 4 wavefronts of 128 bytes, no conflicts. */
  assert_int_equal(M(&run, LDGSTS_WF), 128 * 4);
  assert_int_equal(M(&run, LDGSTS_BC), 0);
  /* cp.async is not an ordinary load */
  assert_int_equal(M(&run, GLD_REQ), 0);
  sim_run_free(&run);
}

static void test_pad_transpose_zero_fill(void **state) {
  (void)state;
  enum { ROWS = 70, COLS = 99, LD = 104, GX = 4, GY = 3, PR = GY * 32 };
  SimRun run;
  LAUNCH(&run, "pad_transpose", "4,3", "8,32", "buf:f32:7280", "buf:f32:12288:zero", "i32:70", "i32:99", "i32:104");
  const float *in = ARG(&run, 0, float, ROWS * LD), *out = ARG(&run, 1, float, GX * 32 * PR);
  for (int c = 0; c < GX * 32; c++)
    for (int r = 0; r < PR; r++) {
      float want = r < ROWS && c < COLS ? in[r * LD + c] : 0.0f;
      if (out[c * PR + r] != want) fail_msg("out[%d][%d] = %g, expected %g", c, r, out[c * PR + r], want);
    }
  /* nvcc compiles __pipeline_memcpy_async with a run-time zfill into one
   * cp.async per zfill / 4 (a switch over 0..4), so a warp issues one LDGSTS
   * per distinct number of valid floats among its lanes; lanes with none
   * (src-size 0) read nothing.  Each lane's 16 bytes lie in one sector. */
  uint64_t inst = 0, req = 0, sec = 0;
  for (int by = 0; by < GY; by++)
    for (int bx = 0; bx < GX; bx++)
      for (int w = 0; w < 8; w++)
        for (int v = 0; v <= 4; v++) {
          uint64_t sectors[32];
          int lanes = 0, ns = 0;
          for (int l = 0; l < 32; l++) {
            int ty = w * 4 + l / 8, tx = l % 8, r = by * 32 + ty, c = bx * 32 + tx * 4;
            int valid = r < ROWS ? COLS - c : 0;
            valid = valid < 0 ? 0 : valid > 4 ? 4 : valid;
            if (valid != v) continue;
            lanes++;
            uint64_t s = (uint64_t)(r * LD + c) * 4 / 32, k = 0;
            while (k < (uint64_t)ns && sectors[k] != s) k++;
            if (k == (uint64_t)ns) sectors[ns++] = s;
          }
          if (!lanes) continue;
          inst++;
          if (v) req++, sec += (uint64_t)ns;
        }
  assert_int_equal(M(&run, LDGSTS_INST), inst);
  assert_int_equal(M(&run, LDGSTS_REQ), req);
  assert_int_equal(M(&run, LDGSTS_SEC), sec);
  assert_true(inst > req); /* the edge has zero-filled tiles */
  sim_run_free(&run);
}

static void test_barrier_bulk_copy(void **state) {
  (void)state;
  enum { BLOCKS = 4, CHUNKS = 8 };
  SimRun run;
  LAUNCH(&run, "barrier_sum", "4", "256", "buf:f32:8192", "buf:f32:1024:zero", "i32:8");
  const float *in = ARG(&run, 0, float, BLOCKS * CHUNKS * 256), *out = ARG(&run, 1, float, BLOCKS * 256);
  double want[BLOCKS * 256] = {0};
  for (int b = 0; b < BLOCKS; b++)
    for (int t = 0; t < 256; t++)
      for (int k = 0; k < CHUNKS; k++) want[b * 256 + t] += in[(b * CHUNKS + k) * 256 + (t * 7) % 256];
  expect_close("out", out, want, BLOCKS * 256, 1e-6);
  /* on sm_90 cuda::memcpy_async of 16-byte aligned data is one
   * cp.async.bulk (the TMA unit, not LSU): no LDGSTS */
  assert_int_equal(M(&run, LDGSTS_INST), 0);
  sim_run_free(&run);
}

static void test_block_pipeline(void **state) {
  (void)state;
  enum { BLOCKS = 2, CHUNKS = 16 };
  SimRun run;
  LAUNCH(&run, "pipeline_sum", "2", "128", "buf:f32:4096", "buf:f32:256:zero", "i32:16");
  const float *in = ARG(&run, 0, float, BLOCKS * CHUNKS * 128), *out = ARG(&run, 1, float, BLOCKS * 128);
  double want[BLOCKS * 128] = {0};
  for (int b = 0; b < BLOCKS; b++)
    for (int t = 0; t < 128; t++)
      for (int k = 0; k < CHUNKS; k++) want[b * 128 + t] += in[(b * CHUNKS + k) * 128 + 127 - t];
  expect_close("out", out, want, BLOCKS * 128, 1e-6);
  /* 512 bytes of floats without an alignment promise: one 4-byte .ca copy
   * per thread and chunk.  2 blocks x 16 chunks x 4 warps = 128 requests of
   * 32 x 4 = 128 contiguous bytes = 4 sectors, through L1. */
  assert_int_equal(M(&run, LDGSTS_REQ), 128);
  assert_int_equal(M(&run, LDGSTS_SEC), 512);
  assert_int_equal(M(&run, LDGSTS_SEC_CA), 512);
  /* 128 bytes written by 32 lanes: one wavefront each */
  assert_int_equal(M(&run, LDGSTS_WF), 128);
  sim_run_free(&run);
}

static void test_cg_memcpy_async(void **state) {
  (void)state;
  SimRun run;
  LAUNCH(&run, "cg_reverse", "3", "128", "buf:f32:768", "buf:f32:768:zero");
  const float *in = ARG(&run, 0, float, 768), *out = ARG(&run, 1, float, 768);
  for (int b = 0; b < 3; b++)
    for (int t = 0; t < 128; t++)
      if (out[b * 128 + t] != in[b * 128 + 127 - t]) fail_msg("out[%d] = %g", b * 128 + t, out[b * 128 + t]);
  /* 3 blocks x 4 warps, 4 bytes per lane: 12 requests of 4 sectors */
  assert_int_equal(M(&run, LDGSTS_REQ), 12);
  assert_int_equal(M(&run, LDGSTS_SEC), 48);
  sim_run_free(&run);
}

/* The wrong kernels: located errors, not data. */
static void test_read_before_wait(void **state) {
  (void)state;
  static const char *const args[] = {"buf:f32:64", "buf:f32:64:zero", NULL};
  int code;
  const char *msg = launch_fails(corpus(), "early_read", "1", "64", args, &code);
  char read_at[64], copy_at[64];
  cu_line_of("__global__ void early_read", "out[threadIdx.x] = buf[63 - threadIdx.x];", read_at, sizeof read_at);
  cu_line_of("__global__ void early_read", "__pipeline_memcpy_async", copy_at, sizeof copy_at);
  assert_int_equal(code, WM_EFAULT);
  assert_non_null(strstr(msg, "read of shared memory before its cp.async completed"));
  /* thread 0 reads buf[63]: offset 63 * 4 = 0xfc, copied by thread 63 */
  assert_non_null(strstr(msg, "shared offset 0xfc was copied by thread (63,0,0)"));
  assert_non_null(strstr(msg, copy_at));
  assert_non_null(strstr(msg, "a barrier alone does not complete a cp.async"));
  assert_non_null(strstr(msg, "kernel _Z10early_readPKfPf"));
  assert_non_null(strstr(msg, read_at));
  assert_non_null(strstr(msg, "ld.shared.f32"));
  assert_non_null(strstr(msg, "block (0,0,0), thread (0,0,0)"));
}

static void test_barrier_deadlock(void **state) {
  (void)state;
  static const char *const args[] = {"buf:f32:64", "buf:f32:64:zero", NULL};
  int code;
  const char *msg = launch_fails(corpus(), "barrier_deadlock", "1", "64", args, &code);
  char wait_at[64];
  cu_line_of("__global__ void barrier_deadlock", "bar.arrive_and_wait();", wait_at, sizeof wait_at);
  assert_int_equal(code, WM_EDEADLOCK);
  assert_non_null(strstr(msg, "mbarrier deadlock in kernel _Z16barrier_deadlockPKfPf, block (0,0,0)"));
  assert_non_null(strstr(msg, wait_at));
  /* init(&bar, 64 + 1): all 64 threads arrived, one arrival is missing */
  assert_non_null(strstr(msg, "1 of 65 arrivals pending"));
  assert_non_null(strstr(msg, "warp 0 waits on the mbarrier"));
  assert_non_null(strstr(msg, "warp 1 waits on the mbarrier"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_gemm_double_buffered),
    cmocka_unit_test(test_pad_transpose_zero_fill),
    cmocka_unit_test(test_barrier_bulk_copy),
    cmocka_unit_test(test_block_pipeline),
    cmocka_unit_test(test_cg_memcpy_async),
    cmocka_unit_test(test_read_before_wait),
    cmocka_unit_test(test_barrier_deadlock),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  if (mod) ptx_module_free(mod);
  return rc;
}
