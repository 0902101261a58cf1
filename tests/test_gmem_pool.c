/* test_gmem_pool.c - large buffers' host copies kept between launches
 * (src/emu/gmem_pool.c): a kept block comes back cleared, whole, split or
 * grown, and the pool stays within its bound. */
#include "testutil.h"

#include <string.h>
#include <sys/mman.h>

#include "emu/gmem.h"
#include "ptx/ptx.h"

#define MIB (1ull << 20)

static int all_zero(const uint8_t *p, uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    if (p[i]) return 0;
  return 1;
}

/* A freed 8 MiB buffer waits in the pool; the next 8 MiB buffer takes the
 * same pages, cleared although the first wrote 0xab everywhere. */
static void test_reuse_is_cleared(void **state) {
  (void)state;
  gpool_drain();
  GlobalMem g;
  WmErr e = {0};
  gmem_init(&g, 0);
  int i = gmem_alloc(&g, 8 * MIB, "a", PTX_T_U8, 8 * MIB, &e);
  assert_int_equal(i, 0);
  uint8_t *first = g.buf[i].data;
  assert_true(all_zero(first, 8 * MIB));
  memset(first, 0xab, 8 * MIB);
  gmem_free(&g);
  assert_int_equal(gpool_kept(), 8 * MIB);

  gmem_init(&g, 0);
  i = gmem_alloc(&g, 8 * MIB, "b", PTX_T_U8, 8 * MIB, &e);
  assert_ptr_equal(g.buf[i].data, first);
  assert_true(all_zero(g.buf[i].data, 8 * MIB));
  assert_int_equal(gpool_kept(), 0);
  gmem_free(&g);
  gpool_drain();
  assert_int_equal(gpool_kept(), 0);
}

/* A kept block serves a buffer of about its size whole (its spare pages
 * go), a smaller one from its head (the tail stays kept), and a larger one
 * grown (the kept pages and fresh ones after them); every buffer comes
 * back cleared. */
static void test_fit(void **state) {
  (void)state;
  gpool_drain();
  GlobalMem g;
  WmErr e = {0};
  gmem_init(&g, 0);
  assert_int_equal(gmem_alloc(&g, 64 * MIB, "big", PTX_T_U8, 64 * MIB, &e), 0);
  uint8_t *big = g.buf[0].data;
  memset(big, 0xab, 64 * MIB);
  gmem_free(&g);
  assert_int_equal(gpool_kept(), 64 * MIB);

  gmem_init(&g, 0);
  int near = gmem_alloc(&g, 60 * MIB, "near", PTX_T_U8, 60 * MIB, &e);
  assert_ptr_equal(g.buf[near].data, big); /* 4 MiB to spare <= 60/8: whole */
  assert_true(all_zero(g.buf[near].data, 60 * MIB));
  assert_int_equal(gpool_kept(), 0);
  memset(g.buf[near].data, 0xcd, 60 * MIB);
  gmem_free(&g);
  assert_int_equal(gpool_kept(), 60 * MIB);

  gmem_init(&g, 0);
  int small = gmem_alloc(&g, 8 * MIB, "small", PTX_T_U8, 8 * MIB, &e);
  assert_ptr_equal(g.buf[small].data, big); /* the head of the 60 MiB */
  assert_true(all_zero(g.buf[small].data, 8 * MIB));
  assert_int_equal(gpool_kept(), 52 * MIB); /* the tail */
  int large = gmem_alloc(&g, 100 * MIB, "large", PTX_T_U8, 100 * MIB, &e);
  assert_true(all_zero(g.buf[large].data, 100 * MIB)); /* 52 kept (written 0xcd before) + 48 fresh */
  assert_int_equal(gpool_kept(), 0);
  memset(g.buf[large].data, 1, 100 * MIB); /* every page of it mapped */
  gmem_free(&g);
  assert_int_equal(gpool_kept(), 108 * MIB);
  gpool_drain();
}

/* The pool keeps at most 2 GiB: giving three 1 GiB blocks (never touched,
 * so they cost no memory) drops the oldest. */
static void test_bound(void **state) {
  (void)state;
  gpool_drain();
  uint64_t gib = 1024 * MIB;
  uint8_t *b[3];
  for (int i = 0; i < 3; i++) {
    b[i] = mmap(NULL, gib, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    assert_true(b[i] != MAP_FAILED);
    gpool_give(b[i], gib);
    assert_true(gpool_kept() <= 2 * gib);
  }
  assert_int_equal(gpool_kept(), 2 * gib);
  uint8_t *again = gpool_take(gib, 0);
  assert_true(again == b[1] || again == b[2]); /* b[0], the oldest, is gone */
  gpool_give(again, gib);
  gpool_drain();
  assert_int_equal(gpool_kept(), 0);
}

/* Buffers below GMEM_POOL_MIN never enter the pool. */
static void test_small_not_kept(void **state) {
  (void)state;
  gpool_drain();
  GlobalMem g;
  WmErr e = {0};
  gmem_init(&g, 0);
  assert_int_equal(gmem_alloc(&g, GMEM_POOL_MIN - 1, "s", PTX_T_U8, GMEM_POOL_MIN - 1, &e), 0);
  gmem_free(&g);
  assert_int_equal(gpool_kept(), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_reuse_is_cleared),
    cmocka_unit_test(test_fit),
    cmocka_unit_test(test_bound),
    cmocka_unit_test(test_small_not_kept),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
