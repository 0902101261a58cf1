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
#include <unistd.h>

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
  /* .cg bypasses L1: no sector is looked up there (Nsight Compute's
   * lookup counters are of LDGSTS.ACCESS, the .ca form) */
  assert_int_equal(M(&run, LDGSTS_MISS), 0);
  assert_int_equal(M(&run, LDGSTS_HIT), 0);
  /* The shared side: 4 tile rows of 32 floats, 512 contiguous bytes at 16
   * per lane: 4 wavefronts of 128 bytes, no conflicts. */
  assert_int_equal(M(&run, LDGSTS_WF), 128 * 4);
  assert_int_equal(M(&run, LDGSTS_BC), 0);
  /* an H100 counts LDGSTS's reads under op_ld as well (measured:
   * docs/results/h100-2026-11-23-corpus, gemm_async 128 requests, 2048 sectors) */
  assert_int_equal(M(&run, GLD_REQ), 128);
  assert_int_equal(M(&run, GLD_SEC), 128 * 16);
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
  /* but it reads the L2: 4 blocks x 8 chunks of 1 KB = 1024 sectors in
   * 256 requests of a 128-byte line, none through an L1 lookup (the H100
   * measured 1024 and 256: docs/results/h100-2026-11-23-corpus) */
  assert_int_equal(M(&run, L2_RD), BLOCKS * CHUNKS * 1024 / 32);
  assert_int_equal(M(&run, L2_RDREQ), BLOCKS * CHUNKS * 1024 / 128);
  assert_int_equal(M(&run, GLD_REQ), 0);
  /* the L1 looks up only out's stores: 4 blocks x 256 floats, 128 sectors */
  assert_int_equal(M(&run, GST_SEC), BLOCKS * 256 * 4 / 32);
  assert_int_equal(M(&run, L1_HIT) + M(&run, L1_MISS), M(&run, GST_SEC));
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
  /* each input sector is read once: all misses, through L1 */
  assert_int_equal(M(&run, LDGSTS_MISS), 512);
  assert_int_equal(M(&run, LDGSTS_HIT), 0);
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

static void test_bulk_store(void **state) {
  (void)state;
  SimRun run;
  LAUNCH(&run, "bulk_store", "2", "256", "buf:f32:512", "buf:f32:512:zero");
  const float *in = ARG(&run, 0, float, 512), *out = ARG(&run, 1, float, 512);
  for (int i = 0; i < 512; i++)
    if (out[i] != 2.0f * in[i]) fail_msg("out[%d] = %g, expected %g", i, out[i], 2.0f * in[i]);
  assert_int_equal(M(&run, LDGSTS_INST), 0); /* the TMA unit's, not LSU's */
  sim_run_free(&run);
}

/* A read before its cp.async completed is a race.  Simulated, the launch
 * goes on with a located warning and the bytes from before the copy (a
 * GPU's, when the read comes first: NVIDIA's globalToShmemAsyncCopy fills a
 * 4-stage ring 5 deep and passes on the GPU); `warpmem check` reports it
 * as an error. */
static void test_read_before_wait(void **state) {
  (void)state;
  SimRun run;
  LAUNCH(&run, "early_read", "1", "64", "buf:f32:64:iota", "buf:f32:64:zero");
  const float *out = ARG(&run, 1, float, 64);
  /* warp 0 reads warp 1's copies, not landed: shared memory as it started,
   * zeroed; then waits (the kernel's wait_group 0 after its read), so warp
   * 1 reads warp 0's copies landed (still a race: no barrier since) */
  for (int i = 0; i < 64; i++) {
    float want = i < 32 ? 0.0f : (float)(63 - i);
    if (out[i] != want) fail_msg("out[%d] = %g, expected %g", i, out[i], want);
  }
  sim_run_free(&run);
  char read_at[64], copy_at[64], args[1024], *out_text = NULL, *err = NULL;
  cu_line_of("__global__ void early_read", "out[threadIdx.x] = buf[63 - threadIdx.x];", read_at, sizeof read_at);
  cu_line_of("__global__ void early_read", "__pipeline_memcpy_async", copy_at, sizeof copy_at);
  snprintf(args, sizeof args, "sim '%s' --kernel early_read --grid 1 --block 64 --arg buf:f32:64 --arg buf:f32:64:zero",
           tu_corpus("async_copy.ptx"));
  assert_int_equal(tu_run_cli(args, &out_text, &err), 0);
  const char *msg = strstr(err, "warning: read of shared memory before its cp.async completed");
  assert_non_null(msg);
  /* thread 0 reads buf[63]: offset 63 * 4 = 0xfc, copied by thread 63 */
  assert_non_null(strstr(msg, "shared offset 0xfc was copied by thread (63,0,0)"));
  assert_non_null(strstr(msg, copy_at));
  assert_non_null(strstr(msg, "a barrier alone does not complete a cp.async"));
  assert_non_null(strstr(msg, "the bytes from before the copy"));
  assert_non_null(strstr(msg, "kernel _Z10early_readPKfPf"));
  assert_non_null(strstr(msg, read_at));
  assert_non_null(strstr(msg, "ld.shared.f32"));
  assert_non_null(strstr(msg, "block (0,0,0), thread (0,0,0)"));
  assert_null(strstr(msg + 1, "warning: read of shared memory")); /* once a launch */
  free(out_text);
  free(err);
  /* warpmem check: an error, the launch stopped there */
  snprintf(args, sizeof args, "check '%s' --kernel early_read --grid 1 --block 64 --arg buf:f32:64 --arg buf:f32:64:zero",
           tu_corpus("async_copy.ptx"));
  int rc = tu_run_cli(args, &out_text, &err);
  assert_int_not_equal(rc, 0);
  size_t n = strlen(out_text) + strlen(err) + 2;
  char *both = malloc(n);
  snprintf(both, n, "%s\n%s", out_text, err);
  assert_non_null(strstr(both, "read of shared memory before its cp.async completed: shared offset 0xfc"));
  free(both);
  free(out_text);
  free(err);
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


/* --- the forms one at a time, in small PTX kernels ------------------------ */

#define PTX_HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

static PtxModule *load_text(const char *text) {
  char *path = tu_temp_file(".ptx", text);
  PtxModule *m = tu_load(path);
  unlink(path);
  free(path);
  return m;
}

/* mbarrier arithmetic, one warp: arrive returns the state before each
 * lane's arrival (lanes in order), arrive_drop lowers the expected count of
 * later phases, expect_tx holds a phase open until complete_tx. */
static void test_mbarrier_phases(void **state) {
  (void)state;
  PtxModule *m = load_text(PTX_HEAD
    ".visible .entry mb(.param .u64 out)\n{\n"
    "  .reg .pred %p<8>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n"
    "  .shared .align 8 .b64 bar;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd5, %r1, 4;\n  add.s64 %rd1, %rd1, %rd5;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n"
    "  @%p1 mbarrier.init.shared.b64 [bar], 40;\n"
    "  bar.sync 0;\n"
    "  mbarrier.arrive.shared.b64 %rd2, [bar];\n"          /* 32 of 40 arrive */
    "  mbarrier.pending_count.b64 %r2, %rd2;\n"            /* 40 - lane */
    "  st.global.u32 [%rd1], %r2;\n"
    "  mbarrier.test_wait.parity.shared.b64 %p2, [bar], 1;\n" /* phase 1 (before 0) is complete */
    "  selp.u32 %r3, 1, 0, %p2;\n  st.global.u32 [%rd1+128], %r3;\n"
    "  @%p1 mbarrier.arrive_drop.shared.b64 %rd3, [bar], 8;\n" /* completes phase 0; 32 expected from now */
    "  mbarrier.test_wait.shared.b64 %p3, [bar], %rd2;\n"  /* true now */
    "  selp.u32 %r4, 1, 0, %p3;\n  st.global.u32 [%rd1+256], %r4;\n"
    "  @%p1 mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], 64;\n"
    "  cvta.shared.u64 %rd7, bar;\n"
    "  mbarrier.arrive.release.cta.b64 %rd4, [%rd7];\n" /* generic: 32 of 32, tx 64 pending */
    "  mbarrier.pending_count.b64 %r5, %rd4;\n"            /* 32 - lane */
    "  st.global.u32 [%rd1+384], %r5;\n"
    "  @%p1 mbarrier.complete_tx.shared::cta.b64 [bar], 64;\n" /* completes phase 1 */
    "  mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p4, [bar], 1;\n"
    "  selp.u32 %r6, 1, 0, %p4;\n  st.global.u32 [%rd1+512], %r6;\n"
    "  @%p1 mbarrier.inval.shared.b64 [bar];\n"
    "  ret;\n}\n");
  SimRun run;
  tu_launch(&run, m, "mb", "1", "32", 0, "buf:u32:160:zero", (const char *)NULL);
  const uint32_t *out = ARG(&run, 0, uint32_t, 160);
  for (int l = 0; l < 32; l++) {
    assert_int_equal(out[l], 40 - l);
    assert_int_equal(out[32 + l], 1);
    assert_int_equal(out[64 + l], 1);
    assert_int_equal(out[96 + l], 32 - l);
    assert_int_equal(out[128 + l], 1);
  }
  sim_run_free(&run);
  ptx_module_free(m);
}

/* try_wait blocks the warp: warp 0 waits for a value warp 1 stores and
 * announces with an arrival (warps run in order, so warp 0 gets there
 * first; had the wait not blocked, it would read 0). */
static void test_try_wait_blocks(void **state) {
  (void)state;
  PtxModule *m = load_text(PTX_HEAD
    ".visible .entry wt(.param .u64 out)\n{\n"
    "  .reg .pred %p<8>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n"
    "  .shared .align 8 .b64 bar;\n  .shared .align 4 .b32 val;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.eq.u32 %p1, %r1, 0;\n"
    "  @%p1 mbarrier.init.shared.b64 [bar], 1;\n"
    "  bar.sync 0;\n"
    "  setp.lt.u32 %p2, %r1, 32;\n"
    "  @%p2 bra WAIT;\n"
    "  setp.eq.u32 %p3, %r1, 32;\n"
    "  @!%p3 bra DONE;\n"
    "  st.shared.u32 [val], 1234;\n"
    "  mbarrier.arrive.shared.b64 _, [bar];\n"
    "  bra.uni DONE;\n"
    "WAIT:\n"
    "  mbarrier.try_wait.parity.shared.b64 %p4, [bar], 0;\n"
    "  @!%p4 bra WAIT;\n"
    "  ld.shared.u32 %r2, [val];\n"
    "  mul.wide.u32 %rd5, %r1, 4;\n  add.s64 %rd6, %rd1, %rd5;\n"
    "  st.global.u32 [%rd6], %r2;\n"
    "DONE:\n"
    "  ret;\n}\n");
  SimRun run;
  tu_launch(&run, m, "wt", "1", "64", 0, "buf:u32:32:zero", (const char *)NULL);
  const uint32_t *out = ARG(&run, 0, uint32_t, 32);
  for (int l = 0; l < 32; l++) assert_int_equal(out[l], 1234);
  /* the warp waited instead of spinning: a spin would run the two-instruction
   * loop for a whole scheduling slice (100000 instructions) */
  assert_true(M(&run, INST) < 100);
  sim_run_free(&run);
  ptx_module_free(m);
}

/* cp.async per thread: its own copy may be read after its wait_group; the
 * ignore-src predicate and src-size zero-fill; .noinc mbarrier tracking
 * makes the copies visible to every waiter. */
static void test_cp_async_forms(void **state) {
  (void)state;
  PtxModule *m = load_text(PTX_HEAD
    ".visible .entry cp(.param .u64 in, .param .u64 out)\n{\n"
    "  .reg .pred %p<8>;\n  .reg .b32 %r<20>;\n  .reg .b64 %rd<12>;\n"
    "  .shared .align 16 .b8 s[768];\n  .shared .align 8 .b64 bar;\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r1, 8;\n  add.s64 %rd4, %rd1, %rd3;\n"          /* in + 8 * tid */
    "  mov.u32 %r2, s;\n  shl.b32 %r3, %r1, 3;\n  add.s32 %r4, %r2, %r3;\n" /* s + 8 * tid */
    "  and.b32 %r5, %r1, 1;\n  setp.eq.u32 %p1, %r5, 1;\n"
    /* group 1: 8 bytes, 4 of them read (src-size 4): the high word is 0 */
    "  cp.async.ca.shared.global [%r4], [%rd4], 8, 4;\n"
    "  cp.async.commit_group;\n"
    /* group 2: 4 bytes at s + 256 + 4 * tid, zeros for odd threads (ignore-src) */
    "  shl.b32 %r6, %r1, 2;\n  add.s32 %r7, %r2, %r6;\n"
    "  cp.async.ca.shared::cta.global.L2::128B [%r7+256], [%rd4], 4, %p1;\n"
    "  cp.async.commit_group;\n"
    "  cp.async.wait_group 1;\n"                                         /* group 1 only */
    "  ld.shared.v2.u32 {%r8, %r9}, [%r4];\n"                            /* its own: fine */
    "  cp.async.wait_all;\n"
    "  ld.shared.u32 %r10, [%r7+256];\n"
    "  mul.wide.u32 %rd5, %r1, 12;\n  add.s64 %rd6, %rd2, %rd5;\n"
    "  st.global.u32 [%rd6], %r8;\n  st.global.u32 [%rd6+4], %r9;\n  st.global.u32 [%rd6+8], %r10;\n"
    /* 16 bytes at s + 384 + 16 * tid from in + 16 * tid, tracked by an
     * mbarrier (.noinc: the copies' completion is the arrival) */
    "  setp.eq.u32 %p2, %r1, 0;\n"
    "  @%p2 mbarrier.init.shared.b64 [bar], 32;\n"
    "  bar.sync 0;\n"
    "  mul.wide.u32 %rd7, %r1, 16;\n  add.s64 %rd8, %rd1, %rd7;\n"
    "  shl.b32 %r11, %r1, 4;\n  add.s32 %r12, %r2, %r11;\n"
    "  cp.async.cg.shared.global.L2::cache_hint [%r12+256], [%rd8], 16, %rd1;\n"
    "  cp.async.mbarrier.arrive.noinc.shared.b64 [bar];\n"
    "WAIT:\n"
    "  mbarrier.test_wait.parity.shared.b64 %p3, [bar], 0;\n"
    "  @!%p3 bra WAIT;\n"
    "  xor.b32 %r13, %r1, 1;\n  shl.b32 %r14, %r13, 4;\n  add.s32 %r15, %r2, %r14;\n"
    "  ld.shared.u32 %r16, [%r15+256];\n"                                /* a neighbour's copy */
    "  st.global.u32 [%rd6+384], %r16;\n"
    "  ret;\n}\n");
  SimRun run;
  tu_launch(&run, m, "cp", "1", "32", 0, "buf:u32:128", "buf:u32:256:zero", (const char *)NULL);
  const uint32_t *in = ARG(&run, 0, uint32_t, 128), *out = ARG(&run, 1, uint32_t, 256);
  for (int t = 0; t < 32; t++) {
    assert_int_equal(out[3 * t], in[2 * t]);                 /* the 4 bytes read */
    assert_int_equal(out[3 * t + 1], 0);                     /* past src-size: zero */
    assert_int_equal(out[3 * t + 2], t % 2 ? 0 : in[2 * t]); /* ignore-src on odd threads */
    assert_int_equal(out[3 * t + 96], in[4 * (t ^ 1)]);      /* the neighbour's 16 bytes */
  }
  /* LDGSTS: three cp.async instructions; the ignore-src one reads for the 16
   * even lanes only.  Sectors: 32 lanes 8 bytes apart = 256 bytes = 8; 16
   * lanes 16 apart, 4 bytes each = 8; 32 x 16 contiguous bytes = 16. */
  assert_int_equal(M(&run, LDGSTS_INST), 3);
  assert_int_equal(M(&run, LDGSTS_REQ), 3);
  assert_int_equal(M(&run, LDGSTS_SEC), 8 + 8 + 16);
  assert_int_equal(M(&run, LDGSTS_SEC_CG), 16);
  /* the .ca copies allocate in L1: the second reads the first's 8 sectors
   * again (hits); the .cg copy's 16 sectors bypass L1 (no lookup) */
  assert_int_equal(M(&run, LDGSTS_HIT), 8);
  assert_int_equal(M(&run, LDGSTS_MISS), 8);
  sim_run_free(&run);
  ptx_module_free(m);
}

/* A thread's wait_group completes its copies for itself only: a neighbour
 * reading them without a barrier is told so (its read gets the copy's
 * bytes, which its thread's wait landed). */
static void test_wait_without_barrier(void **state) {
  (void)state;
  const char *text = PTX_HEAD
    "//@ nb grid=1 block=32 args=buf:u32:33:iota,buf:u32:32:zero\n"
    ".visible .entry nb(.param .u64 in, .param .u64 out)\n{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n  .shared .align 4 .b8 s[132];\n"
    "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  mov.u32 %r2, s;\n  shl.b32 %r3, %r1, 2;\n  add.s32 %r4, %r2, %r3;\n"
    "  cp.async.ca.shared.global [%r4], [%rd4], 4;\n"
    "  cp.async.wait_all;\n"
    "  ld.shared.u32 %r5, [%r4+4];\n"
    "  add.s64 %rd5, %rd2, %rd3;\n  st.global.u32 [%rd5], %r5;\n"
    "  ret;\n}\n";
  char *path = tu_temp_file(".ptx", text), args[512], *out = NULL, *err = NULL;
  snprintf(args, sizeof args, "sim '%s'", path);
  assert_int_equal(tu_run_cli(args, &out, &err), 0);
  /* thread 0 reads s[1], which thread 1 copied and waited for */
  assert_non_null(strstr(err, "read of shared memory before its cp.async completed (a race; reported once a "
                              "launch, `warpmem check` reports each): shared offset 0x4 was copied by thread (1,0,0)"));
  assert_non_null(strstr(err, "its thread waited for it, but no barrier (__syncthreads) since has made it "
                              "visible to this thread"));
  assert_non_null(strstr(err, "the bytes the copy wrote"));
  assert_non_null(strstr(err, "thread (0,0,0)"));
  unlink(path);
  free(path);
  free(out);
  free(err);
}

/* The bulk group and prefetch forms run (nothing to count: the TMA unit's). */
static void test_bulk_forms(void **state) {
  (void)state;
  PtxModule *m = load_text(PTX_HEAD
    ".visible .entry pf(.param .u64 p)\n{\n  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [p];\n  cvta.to.global.u64 %rd2, %rd1;\n"
    "  cp.async.bulk.prefetch.L2.global [%rd2], 1024;\n"
    "  cp.async.bulk.commit_group;\n"
    "  cp.async.bulk.wait_group.read 0;\n"
    "  cp.async.bulk.wait_group 1;\n"
    "  ret;\n}\n");
  SimRun run;
  tu_launch(&run, m, "pf", "1", "32", 0, "buf:f32:256", (const char *)NULL);
  assert_int_equal(M(&run, GLD_REQ), 0);
  assert_int_equal(M(&run, LDGSTS_INST), 0);
  assert_int_equal(M(&run, INST), 32 / 32 * 7); /* one warp, 7 instructions */
  sim_run_free(&run);
  ptx_module_free(m);
}

/* Forms the parser refuses, located. */
static void test_bad_forms(void **state) {
  (void)state;
  static const struct { const char *line, *want; } bad[] = {
    {"cp.async.cg.shared.global [%r1], [%rd1], 8;", "cp.async.cg copies 16 bytes"},
    {"cp.async.ca.shared.global [%r1], [%rd1], 12;", "cp.async copies 4, 8 or 16 bytes"},
    {"cp.async.shared.global [%r1], [%rd1], 16;", "needs .ca or .cg"},
    {"cp.async.ca.global [%r1], [%rd1], 16;", "needs .shared and .global"},
    {"mbarrier.init.shared.b32 [%r1], 4;", "mbarrier objects are .b64"},
    {"cp.async.bulk.global.shared::cta [%rd1], [%r1], 16;", "needs .bulk_group"},
    {"cp.async.bulk.shared::cluster.global [%r1], [%rd1], 16, [%r2];", "needs .mbarrier::complete_tx::bytes"},
    {"mbarrier.arrive.expect_tx.shared.b64 %rd1, [%r1];", "takes 3 operands, found 2"},
    {"cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r1}], [%r1];",
     "a .2d tensor takes 2 coordinates in braces, found 1"},
    {"cp.async.bulk.tensor.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r1}], [%r1];",
     "needs its dimensions (.1d to .5d)"},
    {"cp.async.bulk.tensor.2d.global.shared::cta.bulk_group.multicast::cluster [%rd1, {%r1, %r1}], [%r1], %r2;",
     ".multicast::cluster copies global to .shared::cluster"},
    {"cp.async.bulk.tensor.2d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r1, %r1}], [%r1], {%r1};",
     "the im2col modes need 3 to 5 dimensions"},
    {"cp.reduce.async.bulk.global.shared::cta.bulk_group.inc.u64 [%rd1], [%r1], 16;",
     "not an operation and type the PTX ISA lists"},
    {"cp.reduce.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd1, {%r1, %r1}], [%r1];",
     "needs its operation"},
    {"cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r1, %r1}];",
     "takes 3 operands, found 2"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char text[1024];
    snprintf(text, sizeof text, PTX_HEAD ".visible .entry k()\n{\n  .reg .b32 %%r<4>;\n  .reg .b64 %%rd<4>;\n"
             "  %s\n  ret;\n}\n", bad[i].line);
    WmErr e = {0};
    PtxModule *m = ptx_parse("t.ptx", strdup(text), &e);
    const char *msg = m ? m->kernels[0].unsupported : e.msg;
    if (!msg || !strstr(msg, bad[i].want)) fail_msg("%s: got '%s', want '%s'", bad[i].line, msg ? msg : "", bad[i].want);
    if (!strstr(msg, "t.ptx:8:")) fail_msg("%s", msg); /* located: line, column, caret */
    assert_non_null(strchr(msg, '^'));
    if (m) ptx_module_free(m);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_gemm_double_buffered),
    cmocka_unit_test(test_pad_transpose_zero_fill),
    cmocka_unit_test(test_barrier_bulk_copy),
    cmocka_unit_test(test_block_pipeline),
    cmocka_unit_test(test_cg_memcpy_async),
    cmocka_unit_test(test_bulk_store),
    cmocka_unit_test(test_read_before_wait),
    cmocka_unit_test(test_barrier_deadlock),
    cmocka_unit_test(test_mbarrier_phases),
    cmocka_unit_test(test_try_wait_blocks),
    cmocka_unit_test(test_cp_async_forms),
    cmocka_unit_test(test_wait_without_barrier),
    cmocka_unit_test(test_bulk_forms),
    cmocka_unit_test(test_bad_forms),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  if (mod) ptx_module_free(mod);
  return rc;
}
