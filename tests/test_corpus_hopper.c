/* test_corpus_hopper.c - tests/corpus/hopper_gemm.cu: bf16 GEMMs as Hopper
 * code writes them (TMA into 128B-swizzled stages, wgmma from descriptors,
 * warp specialisation with setmaxnreg, a cluster's multicast of B, a TMA
 * store epilogue), each of the file's //@ launches run as the GPU runs it:
 * C against a CPU product, the TMA and tensor-core counters against first
 * principles. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "testutil.h"
#include "util/half.h"

static PtxModule *mod;
static LaunchSpec *specs;
static int nspecs;

static const PtxModule *corpus(void) {
  if (!mod) {
    mod = tu_load(tu_corpus("hopper_gemm.ptx"));
    WmErr e = {0};
    if (launch_read_file(tu_corpus("hopper_gemm.ptx"), &specs, &nspecs, &e)) fail_msg("%s", e.msg);
  }
  return mod;
}

#define M(run, id) ((run)->mm.metric[WM_M_##id])

/* Runs the //@ launch `label` as `warpmem sim` would, its buffers kept. */
static const LaunchSpec *run_label(SimRun *run, const char *label) {
  corpus();
  for (int i = 0; i < nspecs; i++) {
    if (strcmp(specs[i].label, label)) continue;
    SimOptions o;
    sim_options_init(&o);
    o.keep_buffers = 1;
    o.init = INIT_RAND;
    o.seed = 12345;
    WmErr e = {0};
    memset(run, 0, sizeof *run);
    if (sim_run_launch(mod, &specs[i], &o, run, &e)) fail_msg("%s: %s", label, e.msg);
    return &specs[i];
  }
  fail_msg("no launch %s in hopper_gemm.cu", label);
  return NULL;
}

/* The buffer of argument argno (a tmap:'s tensor or a buf:). */
static const uint16_t *bf16_arg(SimRun *run, int argno, size_t count) {
  char prefix[32];
  snprintf(prefix, sizeof prefix, "arg%d (", argno);
  for (int i = 0; i < run->gmem.n; i++) {
    const GBuf *g = &run->gmem.buf[i];
    if (strncmp(g->name, prefix, strlen(prefix))) continue;
    if (g->size < count * 2) fail_msg("argument %d holds %llu bytes, not %zu", argno, (unsigned long long)g->size, count * 2);
    return (const uint16_t *)g->data;
  }
  fail_msg("no buffer for argument %d", argno);
  return NULL;
}

/* C (M x N, bf16, row-major) against sum_k A[m][k] B[n][k] in double: the
 * f32 sum's error is at most K 2^-24 sum |a b| (each of the K additions
 * rounds once), and C's rounding to bf16 half an ulp, 2^-9 of it. */
static void check_product(SimRun *run, int ca, int cb, int cc, int Mm, int Nn, int K) {
  const uint16_t *A = bf16_arg(run, ca, (size_t)Mm * K), *B = bf16_arg(run, cb, (size_t)Nn * K);
  const uint16_t *C = bf16_arg(run, cc, (size_t)Mm * Nn);
  float *af = malloc(sizeof(float) * (size_t)Mm * K), *bf = malloc(sizeof(float) * (size_t)Nn * K);
  for (size_t i = 0; i < (size_t)Mm * K; i++) af[i] = wm_bf16_value(A[i]);
  for (size_t i = 0; i < (size_t)Nn * K; i++) bf[i] = wm_bf16_value(B[i]);
  int nonzero = 0;
  for (int m = 0; m < Mm; m++)
    for (int n = 0; n < Nn; n++) {
      double s = 0, abs = 0;
      for (int k = 0; k < K; k++) {
        double p = (double)af[(size_t)m * K + k] * bf[(size_t)n * K + k];
        s += p;
        abs += fabs(p);
      }
      double got = wm_bf16_value(C[(size_t)m * Nn + n]);
      double tol = fabs(s) / 256 + K * ldexp(abs, -24) + 1e-30;
      if (!(fabs(got - s) <= tol)) fail_msg("C[%d][%d] = %.6g, expected %.6g (within %.2g)", m, n, got, s, tol);
      nonzero += got != 0;
    }
  assert_true(nonzero > Mm * Nn / 2); /* every tile was written */
  free(af);
  free(bf);
}

/* --- outputs and counters ------------------------------------------------ */

/* 4 x 4 tiles of 128 x 128, K = 512 in 8 stages of 64: the producer thread
 * of each block issues 2 TMA loads a stage (A's and B's 128 x 64 boxes,
 * 16 KiB each); each of the 2 consumer warpgroups' 4 warps issues 4 wgmma
 * m64n128k16 a stage. */
static void test_gemm_ws(void **state) {
  (void)state;
  SimRun run;
  run_label(&run, "gemm_ws#512");
  check_product(&run, 0, 1, 2, 512, 512, 512);
  uint64_t blocks = 16, stages = 8;
  assert_int_equal(M(&run, TMA_LD_INST), blocks * stages * 2);
  assert_int_equal(M(&run, TMA_LD_BYTES), blocks * stages * 2 * 16384);
  assert_int_equal(M(&run, TMA_MC_BYTES), 0);
  /* wgmma: each of a warpgroup's 4 warps executes every instruction (4 a
   * stage for each of the 2 warpgroups), and M N K multiply-adds in all */
  assert_int_equal(M(&run, GMMA_INST), blocks * 2 * 4 * stages * 4);
  assert_int_equal(M(&run, OPS_HGMMA_BF16), 2ull * 512 * 512 * 512); /* 2 ops a multiply-add */
  sim_run_free(&run);
  run_label(&run, "gemm_ws#256x512x1024");
  check_product(&run, 0, 1, 2, 256, 512, 1024);
  sim_run_free(&run);
}

/* Clusters of 2 along M share B's tile: rank 0 loads it once for both
 * (multicast), each block its own A.  A: 16 blocks x 8 stages; B: 8
 * clusters x 8 stages, each read from L2 once and delivered to both blocks
 * (the crossbar's bytes count per destination, as on the H200). */
static void test_gemm_multicast(void **state) {
  (void)state;
  SimRun run;
  run_label(&run, "gemm_mc#512");
  check_product(&run, 0, 1, 2, 512, 512, 512);
  assert_int_equal(M(&run, TMA_LD_INST), 16 * 8 + 8 * 8);
  assert_int_equal(M(&run, TMA_MC_BYTES), 2 * 8 * 8 * 16384);
  assert_int_equal(M(&run, TMA_LD_BYTES), (16 * 8 + 2 * 8 * 8) * 16384);
  assert_int_equal(M(&run, TMA_SELF_BYTES), 16 * 8 * 16384);
  sim_run_free(&run);
}

/* The epilogue through shared memory and two TMA stores of 128 x 64 a
 * block: C's 512 KiB written once, as whole sectors. */
static void test_gemm_tma_store(void **state) {
  (void)state;
  SimRun run;
  run_label(&run, "gemm_tmastore#512");
  check_product(&run, 0, 1, 2, 512, 512, 512);
  assert_int_equal(M(&run, TMA_ST_INST), 16 * 2);
  assert_int_equal(M(&run, TMA_ST_BYTES), 512 * 512 * 2);
  sim_run_free(&run);
}

/* One warpgroup, double buffered: 64 x 64 tiles, K = 256 in 4 stages. */
static void test_gemm_one_warpgroup(void **state) {
  (void)state;
  SimRun run;
  run_label(&run, "gemm_1wg#256");
  check_product(&run, 0, 1, 2, 256, 256, 256);
  assert_int_equal(M(&run, TMA_LD_INST), 16 * 4 * 2);
  assert_int_equal(M(&run, TMA_LD_BYTES), 16 * 4 * 2 * 8192);
  sim_run_free(&run);
}

static int teardown(void **state) {
  (void)state;
  ptx_module_free(mod);
  free(specs);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_gemm_ws),
    cmocka_unit_test(test_gemm_multicast),
    cmocka_unit_test(test_gemm_tma_store),
    cmocka_unit_test(test_gemm_one_warpgroup),
  };
  return cmocka_run_group_tests(tests, NULL, teardown);
}
