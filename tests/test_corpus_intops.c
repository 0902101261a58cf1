/* test_corpus_intops.c - tests/corpus/wide_int.cu: __int128 arithmetic
 * (carry chains), an int8 dot product (__dp4a) and a sum of absolute
 * differences (__vsadu4) against CPU references written here: 128-bit
 * values through unsigned __int128, the bytes of dp4a and vsadu4 one by
 * one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "testutil.h"

typedef unsigned __int128 u128;

static PtxModule *mod;

static const PtxModule *module(void) {
  if (!mod) mod = tu_load(tu_corpus("wide_int.ptx"));
  return mod;
}

static u128 u128_at(const uint64_t *v, int i) { return (u128)v[2 * i + 1] << 64 | v[2 * i]; }

/* Inputs must be rand's: not all equal (a kernel that never ran would
 * leave zeros). */
static void expect_varied(const char *what, const uint64_t *v, size_t n) {
  size_t distinct = 0;
  for (size_t i = 1; i < n; i++) distinct += v[i] != v[i - 1];
  if (distinct < n / 2) fail_msg("%s: %zu distinct neighbours of %zu", what, distinct, n);
}

static void test_wide_mac(void **state) {
  (void)state;
  SimRun r;
  tu_launch(&r, module(), "wide_mac", "2", "128", 0, "buf:u64:1024:rand", "buf:u64:1024:rand", "buf:u64:1024:rand",
            "buf:u64:1024:zero", "i32:512", (const char *)NULL);
  const uint64_t *a = tu_arg_buf(&r, 0, 8, 1024), *b = tu_arg_buf(&r, 1, 8, 1024), *c = tu_arg_buf(&r, 2, 8, 1024);
  const uint64_t *out = tu_arg_buf(&r, 3, 8, 1024);
  expect_varied("a", a, 1024);
  for (int i = 0; i < 512; i++) {
    u128 want = u128_at(a, i) * u128_at(b, i) + u128_at(c, i), got = u128_at(out, i);
    if (got != want)
      fail_msg("out[%d] = 0x%016llx%016llx, want 0x%016llx%016llx", i, (unsigned long long)(got >> 64),
               (unsigned long long)got, (unsigned long long)(want >> 64), (unsigned long long)want);
  }
  sim_run_free(&r);
}

static void test_wide_diff(void **state) {
  (void)state;
  SimRun r;
  tu_launch(&r, module(), "wide_diff", "1", "256", 0, "buf:u64:512:rand", "buf:u64:512:rand", "buf:u64:512:zero",
            "buf:i32:256:zero", "i32:256", (const char *)NULL);
  const uint64_t *x = tu_arg_buf(&r, 0, 8, 512), *y = tu_arg_buf(&r, 1, 8, 512), *d = tu_arg_buf(&r, 2, 8, 512);
  const int32_t *neg = tu_arg_buf(&r, 3, 4, 256);
  int negatives = 0;
  for (int i = 0; i < 256; i++) {
    u128 want = u128_at(x, i) - u128_at(y, i);
    int want_neg = (int)(want >> 127);
    negatives += want_neg;
    if (u128_at(d, i) != want || neg[i] != want_neg) fail_msg("wide_diff %d: wrong difference or sign", i);
  }
  if (negatives == 0 || negatives == 256) fail_msg("the inputs should give both signs (%d negative)", negatives);
  sim_run_free(&r);
}

static void test_dot_int8(void **state) {
  (void)state;
  SimRun r;
  tu_launch(&r, module(), "dot_int8", "8", "128", 0, "buf:i32:2048:rand", "buf:i32:64:rand", "buf:i32:32:zero",
            "i32:32", "i32:64", (const char *)NULL);
  const uint32_t *A = tu_arg_buf(&r, 0, 4, 2048), *x = tu_arg_buf(&r, 1, 4, 64);
  const int32_t *y = tu_arg_buf(&r, 2, 4, 32);
  for (int row = 0; row < 32; row++) {
    int32_t want = 0;
    for (int k = 0; k < 64; k++)
      for (int j = 0; j < 4; j++) want += (int8_t)(A[row * 64 + k] >> (8 * j)) * (int8_t)(x[k] >> (8 * j));
    if (y[row] != want) fail_msg("y[%d] = %d, want %d", row, y[row], want);
  }
  sim_run_free(&r);
}

static void test_block_sad(void **state) {
  (void)state;
  SimRun r;
  tu_launch(&r, module(), "block_sad", "1", "64", 0, "buf:u32:1024:rand", "buf:u32:1024:rand", "buf:u32:64:zero",
            (const char *)NULL);
  const uint32_t *cur = tu_arg_buf(&r, 0, 4, 1024), *ref = tu_arg_buf(&r, 1, 4, 1024);
  const uint32_t *sad = tu_arg_buf(&r, 2, 4, 64);
  for (int cand = 0; cand < 64; cand++) {
    uint32_t want = 0;
    for (int i = 0; i < 64; i++) {
      uint32_t a = cur[i], b = ref[i + cand];
      for (int j = 0; j < 4; j++) {
        int d = (int)((a >> (8 * j)) & 0xff) - (int)((b >> (8 * j)) & 0xff);
        want += (uint32_t)(d < 0 ? -d : d);
      }
    }
    if (sad[cand] != want) fail_msg("sad[%d] = %u, want %u", cand, sad[cand], want);
  }
  sim_run_free(&r);
}

static int teardown(void **state) {
  (void)state;
  if (mod) ptx_module_free(mod);
  mod = NULL;
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_wide_mac),
    cmocka_unit_test(test_wide_diff),
    cmocka_unit_test(test_dot_int8),
    cmocka_unit_test(test_block_sad),
  };
  return cmocka_run_group_tests(tests, NULL, teardown);
}
