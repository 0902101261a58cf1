/* test_dram_map.c - dram_access's fast mapping (src/mem/dram.h) against the
 * mapping as dram.c's notes define it, by plain division.
 *
 * The mapping: unit = addr / interleave; channel = unit % channels; then
 * unit / channels goes to the banks in turn: bank = (unit / channels) %
 * banks, row = unit / channels / banks / units_per_row (units_per_row =
 * row_bytes / interleave).  A bank's access is a row hit when its last row
 * is the same.  For every geometry below, a reference replay with `/` and
 * `%` must count the same row hits and misses and leave the same open rows
 * as dram_access, whichever of its paths the geometry takes: shifts and a
 * reciprocal multiplication (every preset: 192 channels on the H200), a
 * power-of-two channel count, or the general path (a 200-byte interleave).
 */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "mem/dram.h"

typedef struct Geo {
  int channels, banks;
  uint32_t row_bytes, interleave;
} Geo;

/* A 64-bit draw from a fixed generator (xorshift64*). */
static uint64_t draw(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 0x2545F4914F6CDD1Dull;
}

static void replay(const Geo *g, const uint64_t *addr, size_t n) {
  Dram d;
  dram_init(&d, g->channels, g->banks, g->row_bytes, g->interleave);
  uint64_t upr = g->row_bytes / g->interleave, nb = (uint64_t)g->channels * (uint64_t)g->banks;
  int64_t *open = malloc(nb * sizeof *open);
  for (uint64_t i = 0; i < nb; i++) open[i] = -1;
  uint64_t hits = 0, misses = 0;
  for (size_t i = 0; i < n; i++) {
    dram_access(&d, addr[i], 32, (int)(i & 1));
    uint64_t unit = addr[i] / g->interleave, ch = unit % (uint64_t)g->channels, q = unit / (uint64_t)g->channels;
    uint64_t bank = q % (uint64_t)g->banks;
    int64_t row = (int64_t)(q / (uint64_t)g->banks / upr);
    int64_t *o = &open[ch * (uint64_t)g->banks + bank];
    if (*o == row) hits++;
    else misses++;
    *o = row;
  }
  assert_int_equal(d.row_hits, hits);
  assert_int_equal(d.row_misses, misses);
  assert_memory_equal(d.open_row, open, nb * sizeof *open);
  assert_int_equal(d.rd_bytes + d.wr_bytes, 32 * n);
  free(open);
  dram_free(&d);
}

static void test_mappings(void **state) {
  (void)state;
  static const Geo geo[] = {
    {192, 16, 2048, 256}, /* the H200's: reciprocal for the channels */
    {80, 16, 1024, 256},  /* another count that is not a power of two */
    {8, 16, 2048, 256},   /* all powers of two: shifts only */
    {12, 3, 1000, 200},   /* none: the general path */
    {1, 1, 1024, 256},
  };
  enum { N = 200000 };
  uint64_t *addr = malloc(N * sizeof *addr), s = 88172645463325252ull;
  for (size_t gi = 0; gi < sizeof geo / sizeof geo[0]; gi++) {
    for (size_t i = 0; i < N; i++) {
      uint64_t r = draw(&s);
      switch (i % 4) {
      case 0: addr[i] = r & ((1ull << 52) - 1); break;             /* anywhere below 2^52 */
      case 1: addr[i] = (r & ((1ull << 24) - 1)) & ~31ull; break; /* a small region: row hits */
      case 2: addr[i] = r; break;                                  /* beyond: the plain division */
      default: addr[i] = addr[i - 1] + 32;                         /* the next sector */
      }
    }
    replay(&geo[gi], addr, N);
  }
  /* the reciprocal's edge: multiples of 192 * 256 and their neighbours near 2^52 */
  for (size_t i = 0; i < N; i++) {
    uint64_t q = ((1ull << 52) / (192 * 256)) - (uint64_t)(i / 3);
    addr[i] = q * 192 * 256 + (i % 3 == 0 ? 0 : i % 3 == 1 ? 255 : (uint64_t)-1);
  }
  replay(&geo[0], addr, N);
  free(addr);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_mappings),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
