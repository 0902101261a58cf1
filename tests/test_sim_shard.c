/* test_sim_shard.c - the MPI-free parts of a launch sharded over processes:
 * which blocks each process runs (emu_shard.c), which kernels cannot be
 * sharded, and the changed-bytes records that bring processes' memories
 * together (sim_diff.c).  The MPI transport itself is tests/mpi/run_mpi.sh.
 *
 * First principles behind the numbers:
 *  - 100 blocks in chunks of 32 over 2 processes: chunks 0 (0..31) and 2
 *    (64..95) are rank 0's, 64 blocks; chunks 1 (32..63) and 3 (96..99)
 *    rank 1's, 36; over 3 processes rank 2 has 64..95, 32, and rank 0
 *    0..31 and 96..99, 36.  A chunk >= the blocks: all are rank 0's.
 *  - the replay's group g: a chunk is g * (32 / g): 32 for 1, 30 for 3.
 *  - a run of changed bytes costs 16 bytes of header plus its bytes rounded
 *    up to 8; a page whose every 4th byte changed would take 1024 runs of
 *    24 bytes, so it goes whole with its 512-byte mask: 16 + 520 + 4096.
 */
#include <stdlib.h>
#include <string.h>

#include "emu/emu_exec.h"
#include "sim/sim_diff.h"
#include "testutil.h"

static void test_chunks_cover_every_block_once(void **state) {
  (void)state;
  for (int nproc = 1; nproc <= 3; nproc++) {
    uint64_t n = 100, total = 0;
    uint8_t seen[100] = {0};
    for (int r = 0; r < nproc; r++) {
      EmuShard sh = {.chunk = 32, .rank = r, .nproc = nproc};
      uint64_t mine = emu_shard_count(&sh, n), last = 0;
      for (uint64_t q = 0; q < mine; q++) {
        uint64_t j = emu_shard_block(&sh, q);
        assert_true(j < n);
        assert_int_equal(emu_shard_owner(&sh, j), r);
        if (q) assert_true(j > last); /* in run order */
        last = j;
        seen[j]++;
      }
      total += mine;
    }
    assert_int_equal(total, n);
    for (int j = 0; j < 100; j++) assert_int_equal(seen[j], 1);
  }
  EmuShard r0 = {.chunk = 32, .rank = 0, .nproc = 2}, r1 = {.chunk = 32, .rank = 1, .nproc = 2};
  assert_int_equal(emu_shard_count(&r0, 100), 64);
  assert_int_equal(emu_shard_count(&r1, 100), 36);
  assert_int_equal(emu_shard_block(&r1, 32), 96);
  EmuShard t0 = {.chunk = 32, .rank = 0, .nproc = 3}, t2 = {.chunk = 32, .rank = 2, .nproc = 3};
  assert_int_equal(emu_shard_count(&t0, 100), 36);
  assert_int_equal(emu_shard_count(&t2, 100), 32);
  EmuShard all0 = {.chunk = UINT64_MAX, .rank = 0, .nproc = 2}, all1 = {.chunk = UINT64_MAX, .rank = 1, .nproc = 2};
  assert_int_equal(emu_shard_count(&all0, 100), 100);
  assert_int_equal(emu_shard_count(&all1, 100), 0);
  assert_int_equal(emu_shard_owner(&all1, 99), 0);
}

static void test_chunk_is_a_multiple_of_the_group(void **state) {
  (void)state;
  EmuLaunch l = {0};
  assert_int_equal(emu_shard_chunk(&l), 64); /* no caches: group 1, EMU_CHUNK_MAX blocks */
  CacheConfig cc = {.sms = 4, .blocks_per_sm = 3, .group = 3, .warps_per_block = 1, .l2_bytes = 1 << 20,
                    .l2_ways = 16, .l1_bytes = 1 << 14, .l1_ways = 4};
  CacheSys c;
  cache_init(&c, &cc);
  l.cache = &c;
  uint64_t chunk = emu_shard_chunk(&l);
  assert_int_equal(chunk % (uint64_t)replay_group(&c), 0);
  if (replay_group(&c) == 3) assert_int_equal(chunk, 63); /* 21 groups of 3 fill 64 at most */
  cache_free(&c);
}

static const char *ptx_head = ".version 8.0\n.target sm_90\n.address_size 64\n";

static int unsafe(const char *body, char *why) {
  char text[2048];
  snprintf(text, sizeof text, "%s%s", ptx_head, body);
  WmErr e = {0};
  PtxModule *m = ptx_parse("shard.ptx", wm_xstrdup(text), &e); /* the module keeps the text */
  if (!m) fail_msg("%s", e.msg);
  const PtxKernel *k = ptx_find_kernel(m, "k", &e);
  assert_non_null(k);
  int u = emu_shard_unsafe(k, 0, why, 256);
  ptx_module_free(m);
  return u;
}

static void test_unsafe_kernels(void **state) {
  (void)state;
  char why[256] = "";
  assert_int_equal(unsafe(".visible .entry k(.param .u64 p) {\n .reg .b64 %rd<2>;\n .reg .f32 %f<2>;\n"
                          " ld.param.u64 %rd1, [p];\n ld.global.f32 %f1, [%rd1];\n st.global.f32 [%rd1+4], %f1;\n"
                          " ret;\n}\n", why), 0);
  assert_int_equal(unsafe(".visible .entry k(.param .u64 p) {\n .reg .b64 %rd<2>;\n .reg .b32 %r<2>;\n"
                          " ld.param.u64 %rd1, [p];\n atom.global.add.u32 %r1, [%rd1], 1;\n ret;\n}\n", why), 1);
  assert_non_null(strstr(why, "global atomics"));
  assert_int_equal(unsafe(".visible .entry k(.param .u64 p) {\n .reg .b64 %rd<2>;\n .reg .b32 %r<2>;\n"
                          " ld.param.u64 %rd1, [p];\n ld.volatile.global.u32 %r1, [%rd1];\n ret;\n}\n", why), 1);
  assert_non_null(strstr(why, "volatile"));
  /* shared atomics stay inside a block */
  assert_int_equal(unsafe(".visible .entry k() {\n .shared .align 4 .b8 s[4];\n .reg .b32 %r<2>;\n"
                          " atom.shared.add.u32 %r1, [s], 1;\n ret;\n}\n", why), 0);
  assert_int_equal(emu_shard_unsafe(NULL, 1, why, sizeof why), 1); /* cooperative: decided before the code */
}

/* Two "processes" start from the same buffers, each changes its own bytes
 * (some in the same words), and each applies the other's records. */
static void test_diff_merges_changed_bytes(void **state) {
  (void)state;
  GlobalMem a, b;
  WmErr e = {0};
  gmem_init(&a, 1 << 24);
  gmem_init(&b, 1 << 24);
  for (int i = 0; i < 2; i++) {
    assert_int_equal(gmem_alloc(&a, 3 * 4096 + 100, "x", PTX_T_U8, 3 * 4096 + 100, &e), i);
    assert_int_equal(gmem_alloc(&b, 3 * 4096 + 100, "x", PTX_T_U8, 3 * 4096 + 100, &e), i);
    for (int k = 0; k < 3 * 4096 + 100; k++) a.buf[i].data[k] = b.buf[i].data[k] = (uint8_t)(k * 7 + i);
  }
  SimSnap sa, sb;
  sim_snap_take(&a, &sa);
  sim_snap_take(&b, &sb);
  a.buf[0].data[10] = 0xaa;                                      /* byte 10 of a word ... */
  b.buf[0].data[11] = 0xbb;                                      /* ... byte 11 of it, by the other */
  for (int k = 0; k < 4096; k += 4) a.buf[1].data[4096 + k] ^= 0xff; /* scattered: a masked page */
  for (int k = 0; k < 100; k++) b.buf[1].data[3 * 4096 + k] ^= 0x5c; /* the tail of the buffer */
  int nb = gmem_alloc(&a, 64, "new", PTX_T_U8, 64, &e);          /* made during the launch */
  assert_int_equal(gmem_alloc(&b, 64, "new", PTX_T_U8, 64, &e), nb);
  a.buf[nb].data[5] = 9;
  size_t la = 0, lb = 0;
  uint8_t *da = sim_diff_build(&a, &sa, &la), *db = sim_diff_build(&b, &sb, &lb);
  assert_int_equal(la, 24 + (16 + 520 + 4096) + 24);
  assert_int_equal(lb, 24 + (16 + 104));
  assert_int_equal(sim_diff_apply(&a, db, lb), 0);
  assert_int_equal(sim_diff_apply(&b, da, la), 0);
  for (int i = 0; i < a.n; i++) assert_memory_equal(a.buf[i].data, b.buf[i].data, a.buf[i].size);
  assert_int_equal(a.buf[0].data[10], 0xaa);
  assert_int_equal(a.buf[0].data[11], 0xbb);
  assert_int_equal(b.buf[nb].data[5], 9);
  size_t none = 1;
  SimSnap sc;
  sim_snap_take(&a, &sc);
  assert_null(sim_diff_build(&a, &sc, &none));
  assert_int_equal(none, 0);
  free(da);
  free(db);
  sim_snap_free(&sa);
  sim_snap_free(&sb);
  sim_snap_free(&sc);
  gmem_free(&a);
  gmem_free(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_chunks_cover_every_block_once),
    cmocka_unit_test(test_chunk_is_a_multiple_of_the_group),
    cmocka_unit_test(test_unsafe_kernels),
    cmocka_unit_test(test_diff_merges_changed_bytes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
