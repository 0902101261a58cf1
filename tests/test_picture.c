/* test_picture.c - one warp's access kept by the memory model
 * (LineStat.pic) and drawn by report_picture_svg, read back from the SVG's
 * data attributes.
 *
 * Golden numbers from first principles: a sector is 32 bytes, a line 128,
 * a shared bank 4 bytes wide with 32 banks (sm_70+), so word w is in bank
 * w % 32 and a bank serves one distinct word per wavefront; a texture
 * fetch reads 1 texel a lane point sampled, 2 linearly filtered in 1D.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/mem.h"
#include "ptx/ptx.h"
#include "report/report_picture.h"

#define ALL 0xffffffffu

/* ---- helpers ---------------------------------------------------------- */

static void model(MemModel *mm, int sm, int ncode) {
  MemConfig cfg = {0};
  cfg.sm = sm;
  assert_int_equal(mem_init(mm, &cfg, ncode), 0);
}

static void request(MemModel *mm, int instr, uint8_t space, uint8_t op, uint8_t size, uint32_t mask,
                    const uint64_t *addr) {
  MemReq r = {0};
  r.space = space;
  r.op = op;
  r.size = size;
  r.elem = size;
  r.mask = mask;
  r.addr = addr;
  r.instr = instr;
  r.warp = 3;
  mem_access(mm, &r);
}

/* The picture of instruction `instr` as a string (caller frees). */
__attribute__((noinline)) static char *render(const MemModel *mm, int instr) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  assert_non_null(f);
  report_picture_svg(f, mm, instr);
  fclose(f);
  const char *dump = getenv("WM_PICTURE_DUMP"); /* for a look: appended to that file */
  FILE *d = dump ? fopen(dump, "a") : NULL;
  if (d) fputs(buf ? buf : "", d), fclose(d);
  return buf;
}

/* The value of attribute `name` in the tag that starts at `tag`; -1 if the
 * tag has none. */
static long tag_attr(const char *tag, const char *name) {
  const char *end = strchr(tag, '>');
  char key[64];
  snprintf(key, sizeof key, " %s=\"", name);
  const char *p = strstr(tag, key);
  if (!p || (end && p > end)) return -1;
  return strtol(p + strlen(key), NULL, 10);
}

typedef struct Lanes {
  int n;          /* elements with data-lane */
  int active;     /* of them without data-active="0" */
  long val[32];   /* `attr` of each active lane, by lane */
  int distinct;   /* distinct values of `attr` among them */
} Lanes;

static Lanes lanes(const char *svg, const char *attr) {
  Lanes L;
  memset(&L, 0, sizeof L);
  for (const char *q = strstr(svg, " data-lane=\""); q; q = strstr(q + 1, " data-lane=\"")) {
    const char *p = q;
    while (p > svg && *p != '<') p--;
    long lane = tag_attr(p, "data-lane");
    assert_true(lane >= 0 && lane < 32);
    L.n++;
    if (tag_attr(p, "data-active") == 0) continue;
    L.val[L.active++] = tag_attr(p, attr);
    int seen = 0;
    for (int i = 0; i < L.active - 1; i++) seen |= L.val[i] == L.val[L.active - 1];
    L.distinct += !seen;
  }
  return L;
}

static long svg_attr(const char *svg, const char *name) {
  const char *p = strstr(svg, "<svg");
  assert_non_null(p);
  return tag_attr(p, name);
}

/* ---- global -------------------------------------------------------------- */

/* a[tid] of floats: 32 lanes x 4 bytes = 128 contiguous bytes = 4 sectors. */
static void test_unit_stride(void **state) {
  (void)state;
  MemModel mm;
  model(&mm, 90, 2);
  uint64_t a[32];
  for (int l = 0; l < 32; l++) a[l] = 0x10000 + 4u * l;
  request(&mm, 1, PTX_S_GLOBAL, MEM_LD, 4, ALL, a);
  char *svg = render(&mm, 1);
  assert_non_null(strstr(svg, "<svg"));
  assert_int_equal(svg_attr(svg, "data-sectors"), 4);
  assert_int_equal(svg_attr(svg, "data-lanes"), 32);
  assert_non_null(strstr(svg, "data-space=\"global\""));
  assert_non_null(strstr(svg, "data-op=\"ld\""));
  Lanes L = lanes(svg, "data-sector");
  assert_int_equal(L.n, 32);
  assert_int_equal(L.active, 32);
  assert_int_equal(L.distinct, 4);
  assert_int_equal(L.val[0], 0x10000 / 32);  /* absolute sector index */
  assert_int_equal(L.val[31], (0x10000 + 124) / 32);
  assert_true(strlen(svg) < 8000);            /* a few KB */
  free(svg);
  /* an instruction that never ran draws nothing */
  svg = render(&mm, 0);
  assert_true(!svg || !svg[0]);
  free(svg);
  mem_free(&mm);
}

/* a[32 * tid] of floats: lanes 128 bytes apart, one sector each: 32. */
static void test_stride_32(void **state) {
  (void)state;
  MemModel mm;
  model(&mm, 90, 1);
  uint64_t a[32];
  for (int l = 0; l < 32; l++) a[l] = 0x20000 + 128u * l;
  request(&mm, 0, PTX_S_GLOBAL, MEM_ST, 4, ALL, a);
  char *svg = render(&mm, 0);
  assert_int_equal(svg_attr(svg, "data-sectors"), 32);
  Lanes L = lanes(svg, "data-sector");
  assert_int_equal(L.n, 32);
  assert_int_equal(L.distinct, 32);
  free(svg);
  mem_free(&mm);
}

/* tr_naive's store on a 2048-wide float matrix: lanes 8 KiB apart, 32
 * sectors, drawn as touched sectors only (32 boxes, not 128) and small. */
static void test_far_apart(void **state) {
  (void)state;
  MemModel mm;
  model(&mm, 90, 1);
  uint64_t a[32];
  for (int l = 0; l < 32; l++) a[l] = 0x7f0000000000ull + 8192u * l;
  request(&mm, 0, PTX_S_GLOBAL, MEM_ST, 4, ALL, a);
  char *svg = render(&mm, 0);
  assert_int_equal(svg_attr(svg, "data-sectors"), 32);
  int boxes = 0;
  for (const char *p = strstr(svg, "class=\"sector\""); p; p = strstr(p + 1, "class=\"sector\"")) boxes++;
  assert_int_equal(boxes, 32);
  assert_true(strlen(svg) < 12000);
  free(svg);
  mem_free(&mm);
}

/* Half a warp active: 16 greyed lanes, 16 on 2 sectors (64 bytes). */
static void test_inactive(void **state) {
  (void)state;
  MemModel mm;
  model(&mm, 90, 1);
  uint64_t a[32];
  for (int l = 0; l < 32; l++) a[l] = 4096 + 4u * l;
  request(&mm, 0, PTX_S_GLOBAL, MEM_LD, 4, 0x0000ffffu, a);
  char *svg = render(&mm, 0);
  Lanes L = lanes(svg, "data-sector");
  assert_int_equal(L.n, 32);
  assert_int_equal(L.active, 16);
  assert_int_equal(svg_attr(svg, "data-lanes"), 16);
  assert_int_equal(svg_attr(svg, "data-sectors"), 2);
  free(svg);
  mem_free(&mm);
}

/* The picture is the worst request's, also when later requests of the
 * same shape take the model's fast path (MemMemo), and mem_merge keeps it
 * with `why`. */
static void test_worst_kept(void **state) {
  (void)state;
  MemModel mm, other;
  model(&mm, 90, 1);
  model(&other, 90, 1);
  uint64_t unit[32], strided[32];
  for (int l = 0; l < 32; l++) unit[l] = 4u * l, strided[l] = 1u << 20 | 128u * l;
  request(&mm, 0, PTX_S_GLOBAL, MEM_LD, 4, ALL, unit);
  request(&mm, 0, PTX_S_GLOBAL, MEM_LD, 4, ALL, unit); /* memo hit */
  assert_int_equal(mm.line[0].pic.mask, ALL);
  assert_int_equal(mm.line[0].pic.addr[31], 124);
  assert_int_equal(mm.line[0].pic.warp, 3);
  request(&mm, 0, PTX_S_GLOBAL, MEM_LD, 4, ALL, strided);
  request(&mm, 0, PTX_S_GLOBAL, MEM_LD, 4, ALL, unit); /* cheaper: not kept */
  assert_int_equal(mm.line[0].worst, 32);
  assert_int_equal(mm.line[0].pic.addr[1], (1u << 20) + 128);
  /* merged: the worse statistics bring their picture */
  request(&other, 0, PTX_S_GLOBAL, MEM_LD, 4, ALL, unit);
  mem_merge(&other, &mm);
  assert_int_equal(other.line[0].pic.addr[1], (1u << 20) + 128);
  mem_free(&mm);
  mem_free(&other);
}

/* Local memory: the same offset in every lane is interleaved into one
 * 128-byte line (local.c): 4 sectors. */
static void test_local(void **state) {
  (void)state;
  MemModel mm;
  model(&mm, 90, 1);
  uint64_t a[32];
  for (int l = 0; l < 32; l++) a[l] = 16;
  request(&mm, 0, PTX_S_LOCAL, MEM_ST, 4, ALL, a);
  char *svg = render(&mm, 0);
  assert_non_null(strstr(svg, "data-space=\"local\""));
  assert_int_equal(svg_attr(svg, "data-sectors"), 4);
  assert_int_equal(lanes(svg, "data-sector").distinct, 4);
  free(svg);
  /* a float2 at offset 8 * tid: two requests, one per 4-byte word, each
   * lane's word 0 at interleaved ((2 tid) * 32 + tid) * 4 -- lanes 260
   * bytes apart, one sector each: 32; the picture is one word's request */
  for (int l = 0; l < 32; l++) a[l] = 8u * l;
  request(&mm, 0, PTX_S_LOCAL, MEM_LD, 8, ALL, a);
  assert_int_equal(mm.line[0].pic.size, 4);
  svg = render(&mm, 0);
  assert_int_equal(svg_attr(svg, "data-sectors"), 32);
  assert_int_equal(lanes(svg, "data-sector").val[1], (2 * 32 + 1) * 4 / 32);
  free(svg);
  mem_free(&mm);
}

/* ---- shared -------------------------------------------------------------- */

/* tile[tid][k] of int tile[32][32]: rows 128 bytes apart, every lane in
 * bank k, 32 distinct words: 32 wavefronts, lane l served in the l+1st. */
static void test_smem_column(void **state) {
  (void)state;
  MemModel mm;
  model(&mm, 90, 1);
  uint64_t a[32];
  for (int l = 0; l < 32; l++) a[l] = 128u * l + 4 * 5;
  request(&mm, 0, PTX_S_SHARED, MEM_LD, 4, ALL, a);
  char *svg = render(&mm, 0);
  assert_non_null(strstr(svg, "data-space=\"shared\""));
  assert_int_equal(svg_attr(svg, "data-wavefronts"), 32);
  Lanes B = lanes(svg, "data-bank"), W = lanes(svg, "data-wavefront");
  assert_int_equal(B.n, 32);
  assert_int_equal(B.distinct, 1);
  assert_int_equal(B.val[7], 5);
  assert_int_equal(W.distinct, 32);
  assert_int_equal(W.val[0], 1);
  assert_int_equal(W.val[31], 32);
  free(svg);
  mem_free(&mm);
}

/* Every lane reads one word: a broadcast, one wavefront; a row read
 * tile[k][tid]: 32 banks, one wavefront. */
static void test_smem_broadcast(void **state) {
  (void)state;
  MemModel mm;
  model(&mm, 90, 2);
  uint64_t one[32], row[32];
  for (int l = 0; l < 32; l++) one[l] = 256, row[l] = 512 + 4u * l;
  request(&mm, 0, PTX_S_SHARED, MEM_LD, 4, ALL, one);
  request(&mm, 1, PTX_S_SHARED, MEM_LD, 4, ALL, row);
  char *svg = render(&mm, 0);
  assert_int_equal(svg_attr(svg, "data-wavefronts"), 1);
  assert_int_equal(lanes(svg, "data-wavefront").distinct, 1);
  free(svg);
  svg = render(&mm, 1);
  assert_int_equal(svg_attr(svg, "data-wavefronts"), 1);
  assert_int_equal(lanes(svg, "data-bank").distinct, 32);
  free(svg);
  mem_free(&mm);
}

/* The lanes' wavefronts add up to the model's cost, on every generation's
 * banks, for loads, stores and atomics of 1 to 16 bytes. */
static void test_lane_map_matches_cost(void **state) {
  (void)state;
  static const int sms[] = {12, 20, 30, 90};
  static const unsigned sizes[] = {1, 2, 4, 8, 16};
  static const unsigned ops[] = {MEM_LD, MEM_ST, MEM_ATOM};
  srand(7);
  for (unsigned s = 0; s < sizeof sms / sizeof *sms; s++) {
    MemConfig cfg = {0};
    MemGen g;
    cfg.sm = sms[s];
    assert_int_equal(mem_gen(&cfg, &g, NULL, 0), 0);
    for (int trial = 0; trial < 300; trial++) {
      unsigned size = sizes[trial % 5], op = ops[trial / 5 % 3], stride = (unsigned)(rand() % 9) * size;
      uint32_t mask = trial % 4 ? ALL : (uint32_t)rand() | 1u;
      uint64_t a[32];
      for (int l = 0; l < 32; l++)
        a[l] = trial % 7 == 0 ? (uint64_t)(rand() % 64) * size : 1024 + (uint64_t)l * stride;
      uint8_t bank[32];
      uint16_t wave[32];
      unsigned ideal, total = mem_smem_lane_map(&g, a, mask, size, op, bank, wave);
      assert_int_equal(total, mem_smem_cost_gen(&g, a, mask, size, op, &ideal));
      unsigned most = 0;
      for (int l = 0; l < 32; l++)
        if (mask >> l & 1) most = wave[l] + 1u > most ? wave[l] + 1u : most;
      if (!(sms[s] == 12 && size > 4)) /* 1.x: the first piece's passes only */
        assert_int_equal(most, total);
    }
  }
}

/* ldmatrix of a row-major tile of 64 halves per row: the 8 rows of a
 * matrix 128 bytes apart share one bank group: 8 wavefronts per matrix. */
static void test_matrix(void **state) {
  (void)state;
  uint64_t a[32];
  for (int l = 0; l < 32; l++) a[l] = 128u * (uint64_t)l;
  uint16_t wave[32];
  assert_int_equal(mem_smem_matrix_lane_waves(a, ALL, wave), 32);
  assert_int_equal(wave[7], 7);
  assert_int_equal(wave[8], 8);
  assert_int_equal(wave[31], 31);
}

/* ---- texture ------------------------------------------------------------- */

/* One warp-level texture fetch of instruction 0: lane[i] reads addr[i]. */
static void fetch(MemModel *mm, const uint64_t *addr, const uint8_t *lane, uint32_t n, uint8_t size) {
  MemTexReq r = {0};
  r.op = MEM_TEX_FETCH;
  r.size = size;
  r.n = n;
  r.addr = addr;
  r.lane = lane;
  r.lanes = ALL;
  r.instr = 0;
  r.warp = 3;
  mem_texture(mm, &r);
}

/* tex1Dfetch of consecutive 4-byte texels, point sampled: lane l reads
 * texel l alone, 32 x 4 = 128 contiguous bytes = 4 sectors, lane l on
 * sector l / 8. */
static void test_tex_point_1d(void **state) {
  (void)state;
  MemModel mm;
  model(&mm, 90, 1);
  uint64_t a[32];
  uint8_t lane[32];
  for (int l = 0; l < 32; l++) a[l] = 0x10000 + 4u * l, lane[l] = (uint8_t)l;
  fetch(&mm, a, lane, 32, 4);
  assert_int_equal(mm.line[0].units, 4);
  char *svg = render(&mm, 0);
  assert_non_null(strstr(svg, "data-space=\"texture\""));
  assert_non_null(strstr(svg, "data-op=\"tex\""));
  assert_int_equal(svg_attr(svg, "data-sectors"), 4);
  assert_int_equal(svg_attr(svg, "data-sectors-drawn"), 4);
  assert_int_equal(svg_attr(svg, "data-texels"), 32);
  assert_int_equal(svg_attr(svg, "data-lanes"), 32);
  Lanes L = lanes(svg, "data-sector");
  assert_int_equal(L.active, 32);
  assert_int_equal(L.distinct, 4);
  for (int l = 0; l < 32; l++) assert_int_equal(L.val[l], 0x10000 / 32 + l / 8);
  L = lanes(svg, "data-lane-sectors");
  for (int l = 0; l < 32; l++) assert_int_equal(L.val[l], 1);
  free(svg);
  mem_free(&mm);
}

/* The same, linearly filtered halfway between texels: lane l reads texels
 * l and l + 1, 33 texels over 132 bytes = 5 sectors; the lanes whose
 * second texel starts a new sector (l = 7, 15, 23, 31) read two. */
static void test_tex_linear_1d(void **state) {
  (void)state;
  MemModel mm;
  model(&mm, 90, 1);
  uint64_t a[64];
  uint8_t lane[64];
  for (int l = 0; l < 32; l++)
    for (int t = 0; t < 2; t++) a[2 * l + t] = 0x10000 + 4u * (uint64_t)(l + t), lane[2 * l + t] = (uint8_t)l;
  fetch(&mm, a, lane, 64, 4);
  char *svg = render(&mm, 0);
  assert_int_equal(svg_attr(svg, "data-sectors"), 5);
  assert_int_equal(svg_attr(svg, "data-texels"), 64);
  Lanes L = lanes(svg, "data-lane-sectors");
  assert_int_equal(L.active, 32);
  for (int l = 0; l < 32; l++) assert_int_equal(L.val[l], l % 8 == 7 ? 2 : 1);
  L = lanes(svg, "data-sector");
  assert_int_equal(L.val[7], 0x10000 / 32); /* its first texel's */
  free(svg);
  mem_free(&mm);
}

/* Lanes 4 KiB apart: 32 sectors, of which the picture keeps the first 20
 * (MEM_PIC_TEX_SECTORS) in lane order: lanes 20..31 have no line. */
static void test_tex_scattered(void **state) {
  (void)state;
  MemModel mm;
  model(&mm, 90, 1);
  uint64_t a[32];
  uint8_t lane[32];
  for (int l = 0; l < 32; l++) a[l] = 0x100000 + 4096u * (uint64_t)l, lane[l] = (uint8_t)l;
  fetch(&mm, a, lane, 32, 4);
  char *svg = render(&mm, 0);
  assert_int_equal(svg_attr(svg, "data-sectors"), 32);
  assert_int_equal(svg_attr(svg, "data-sectors-drawn"), MEM_PIC_TEX_SECTORS);
  Lanes L = lanes(svg, "data-lane-sectors");
  for (int l = 0; l < 32; l++) assert_int_equal(L.val[l], l < MEM_PIC_TEX_SECTORS ? 1 : 0);
  free(svg);
  mem_free(&mm);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_unit_stride),    cmocka_unit_test(test_stride_32),
    cmocka_unit_test(test_far_apart),      cmocka_unit_test(test_inactive),
    cmocka_unit_test(test_worst_kept),     cmocka_unit_test(test_local),
    cmocka_unit_test(test_smem_column),    cmocka_unit_test(test_smem_broadcast),
    cmocka_unit_test(test_lane_map_matches_cost), cmocka_unit_test(test_matrix),
    cmocka_unit_test(test_tex_point_1d),   cmocka_unit_test(test_tex_linear_1d),
    cmocka_unit_test(test_tex_scattered),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
