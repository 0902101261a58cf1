/* test_corpus_tma.c - tests/corpus/tma_copy.cu: TMA copies as Hopper code
 * writes them.  Every output against a CPU model of the PTX ISA (the box's
 * elements, the swizzle tables of 5.5.7, the fills of 5.5.3, the im2col
 * walk of 5.5.4), the TMA counters against first principles (the sectors
 * of the box rows inside the tensor), the bank conflicts of swizzled and
 * plain column reads, and the located errors of the three wrong kernels
 * and of a bad tmap: spec. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "testutil.h"
#include "util/half.h"

static PtxModule *mod;

static const PtxModule *corpus(void) {
  if (!mod) mod = tu_load(tu_corpus("tma_copy.ptx"));
  return mod;
}

#define LAUNCH(run, name, grid, block, ...) tu_launch(run, corpus(), name, grid, block, 0, __VA_ARGS__, (const char *)NULL)
#define M(run, id) ((run)->mm.metric[WM_M_##id])

/* The buffer of argument argno (its tensor's, for a tmap:). */
static const GBuf *buf_of(SimRun *run, int argno) {
  char prefix[32];
  snprintf(prefix, sizeof prefix, "arg%d (", argno);
  for (int i = 0; i < run->gmem.n; i++)
    if (!strncmp(run->gmem.buf[i].name, prefix, strlen(prefix))) return &run->gmem.buf[i];
  fail_msg("no buffer for argument %d", argno);
  return NULL;
}

/* The 32-byte sectors of len bytes at addr. */
static uint64_t sectors(uint64_t addr, uint64_t len) { return len ? (addr + len - 1) / 32 - addr / 32 + 1 : 0; }

/* PTX ISA 5.5.7's tables: the 16-byte chunk c of 128-byte line r (counted
 * from the pattern's aligned start) holds chunk c ^ (r % 8) (128B),
 * c ^ (r % 4) (64B), c ^ (r % 2) (32B).  Where byte o of the box lies. */
static unsigned isa_swizzle(unsigned o, unsigned span) {
  if (!span) return o;
  unsigned line = o / 128, chunk = o % 128 / 16;
  return line * 128 + (chunk ^ line % (span / 16)) * 16 + o % 16;
}

/* A 2D box of w x h elements of `es` bytes at (x, y) of a tensor of dx x
 * dy (rows `stride` bytes apart, at `in`), as the TMA lays it out: each
 * element in place, or the fill outside the tensor (nan: the halfword
 * 0x7ff7 in every 2 bytes, as the H200 writes it), then swizzled.  Into want (w * h * es bytes). */
static void box2d(const uint8_t *in, int dx, int dy, size_t stride, unsigned es, int x, int y, int w, int h,
                  unsigned span, int nan, uint8_t *want) {
  for (int j = 0; j < h; j++)
    for (int i = 0; i < w; i++) {
      uint8_t e[8];
      int gx = x + i, gy = y + j;
      if (gx >= 0 && gx < dx && gy >= 0 && gy < dy) memcpy(e, in + (size_t)gy * stride + (size_t)gx * es, es);
      else if (nan)
        for (unsigned b = 0; b < es; b++) e[b] = (uint8_t)(0x7ff7u >> 8 * (b % 2));
      else memset(e, 0, es);
      memcpy(want + isa_swizzle((unsigned)((j * w + i) * es), span), e, es);
    }
}

/* The sectors a 2D box's rows inside the tensor read. */
static uint64_t box2d_sectors(uint64_t base, int dx, int dy, size_t stride, unsigned es, int x, int y, int w,
                              int h) {
  uint64_t n = 0;
  int lo = x < 0 ? 0 : x, hi = x + w > dx ? dx : x + w;
  for (int j = y; j < y + h; j++)
    if (j >= 0 && j < dy && hi > lo) n += sectors(base + (uint64_t)j * stride + (uint64_t)lo * es, (uint64_t)(hi - lo) * es);
  return n;
}

/* The sectors a 2D box's load reads over the crossbar, as the H200 counts
 * them (groundtruth/tma_edge_kernels.cu's 25 boxes, docs/tma.md): each row
 * in 128-byte pieces, a piece the sectors of its part inside the tensor
 * plus its outside bytes in sectors, rounded up. */
static uint64_t box2d_read(uint64_t base, int dx, int dy, size_t stride, unsigned es, int x, int y, int w, int h) {
  uint64_t n = 0;
  int per = 128 / (int)es;
  for (int j = y; j < y + h; j++)
    for (int p0 = 0; p0 < w; p0 += per) {
      int p1 = p0 + per < w ? p0 + per : w, lo = x + p0, hi = x + p1;
      if (lo < 0) lo = 0;
      if (hi > dx) hi = dx;
      int inside = j >= 0 && j < dy && hi > lo ? hi - lo : 0;
      if (inside) n += sectors(base + (uint64_t)j * stride + (uint64_t)lo * es, (uint64_t)inside * es);
      n += ((uint64_t)(p1 - p0 - inside) * es + 31) / 32;
    }
  return n;
}

/* --- the box's bytes ---------------------------------------------------- */

typedef struct RawCase {
  const char *map, *out;
  int dx, dy, x, y, w, h, words;
  unsigned es, span;
  int nan;
} RawCase;

static void check_raw(const RawCase *c) {
  SimRun run;
  char xs[16], ys[16], ws[16];
  snprintf(xs, sizeof xs, "i32:%d", c->x);
  snprintf(ys, sizeof ys, "i32:%d", c->y);
  snprintf(ws, sizeof ws, "i32:%d", c->words);
  LAUNCH(&run, "tile_raw", "1", "128", c->map, c->out, xs, ys, ws);
  const GBuf *in = buf_of(&run, 0);
  size_t stride = ((size_t)c->dx * c->es + 15) / 16 * 16; /* the spec's dense rows, 16-byte multiples */
  uint8_t *want = calloc(1, (size_t)c->words * 4);
  box2d(in->data, c->dx, c->dy, stride, c->es, c->x, c->y, c->w, c->h, c->span, c->nan, want);
  const uint8_t *got = tu_arg_buf(&run, 1, 4, (size_t)c->words);
  for (int i = 0; i < c->words * 4; i++)
    if (got[i] != want[i])
      fail_msg("%s: byte %d of the box is 0x%02x, expected 0x%02x", c->map, i, got[i], want[i]);
  free(want);
  /* one lane issued one copy, read in 128-byte pieces (box2d_read); L2
   * saw at least the rows inside the tensor, at most every piece (the
   * kernel has no other global load) */
  uint64_t sec = box2d_read(in->addr, c->dx, c->dy, stride, c->es, c->x, c->y, c->w, c->h);
  uint64_t inside = box2d_sectors(in->addr, c->dx, c->dy, stride, c->es, c->x, c->y, c->w, c->h);
  assert_int_equal(M(&run, TMA_LD_INST), 1);
  assert_int_equal(M(&run, TMA_REQ), 1);
  assert_int_equal(M(&run, TMA_LD_SEC), sec);
  assert_int_equal(M(&run, TMA_LD_BYTES), 32 * sec);
  assert_int_equal(M(&run, TMA_SELF_SEC), sec);
  assert_int_equal(M(&run, TMA_MC_SEC), 0);
  assert_int_equal(M(&run, TMA_SMEM_BYTES), (uint64_t)c->words * 4);
  assert_true(M(&run, L2_RD) >= inside && M(&run, L2_RD) <= sec);
  assert_int_equal(M(&run, GLD_REQ), 0);
  sim_run_free(&run);
}

static void test_tile_no_swizzle_edge(void **state) {
  (void)state;
  /* x 80..111 of 100, y 60..75 of 70: a corner, 20 x 10 elements inside */
  RawCase c = {"tmap:f32:100x70:box=32x16", "buf:u32:512:zero", 100, 70, 80, 60, 32, 16, 512, 4, 0, 0};
  check_raw(&c);
}

static void test_tile_widths(void **state) {
  (void)state;
  /* rows of 16 and 256 bytes, and rows that start inside a sector */
  RawCase w16 = {"tmap:f32:100x70:box=4x32", "buf:u32:128:zero", 100, 70, 96, 50, 4, 32, 128, 4, 0, 0};
  RawCase w256 = {"tmap:f32:100x70:box=64x8", "buf:u32:512:zero", 100, 70, 40, 66, 64, 8, 512, 4, 0, 0};
  RawCase odd = {"tmap:f32:100x70:box=32x16", "buf:u32:512:zero", 100, 70, 4, 5, 32, 16, 512, 4, 0, 0};
  check_raw(&w16);
  check_raw(&w256);
  check_raw(&odd);
}

static void test_tile_swizzles(void **state) {
  (void)state;
  RawCase c128 = {"tmap:f32:100x70:box=32x16:swz=128", "buf:u32:512:zero", 100, 70, 80, 60, 32, 16, 512, 4, 128, 0};
  RawCase c64 = {"tmap:f32:100x70:box=16x16:swz=64", "buf:u32:256:zero", 100, 70, 88, -3, 16, 16, 256, 4, 64, 0};
  RawCase c32 = {"tmap:f32:100x70:box=8x32:swz=32", "buf:u32:256:zero", 100, 70, -4, 50, 8, 32, 256, 4, 32, 0};
  check_raw(&c128);
  check_raw(&c64);
  check_raw(&c32);
}

static void test_tile_nan_fill(void **state) {
  (void)state;
  RawCase f32 = {"tmap:f32:100x70:box=32x16:swz=128:oob=nan", "buf:u32:512:zero", 100, 70, 80, 60, 32, 16, 512, 4, 128, 1};
  RawCase bf16 = {"tmap:bf16:200x33:box=64x8:swz=128:oob=nan", "buf:u32:256:zero", 200, 33, 160, 30, 64, 8, 256, 2, 128, 1};
  check_raw(&f32);
  check_raw(&bf16);
}

/* --- transposes: swizzled column reads ------------------------------------ */

/* out (50 x 70) = in (70 x 50) transposed, in W x W tiles; `wf` the
 * shared-load wavefronts the column reads take (first principles in the
 * callers). */
static void check_transpose(const char *kernel, const char *grid, int w, const char *in_map, const char *out_map,
                            const char *span, uint64_t wf) {
  SimRun run;
  LAUNCH(&run, kernel, grid, "32", in_map, out_map, span);
  const float *in = (const float *)buf_of(&run, 0)->data, *out = (const float *)buf_of(&run, 1)->data;
  for (int y = 0; y < 70; y++)
    for (int x = 0; x < 50; x++)
      if (out[y * 52 + x] != in[x * 72 + y]) /* rows of 50 and 70 floats padded to 16 bytes: 52, 72 */
        fail_msg("%s: out[%d][%d] = %g, expected %g", kernel, y, x, out[y * 52 + x], in[x * 72 + y]);
  uint64_t blocks = run.blocks_run;
  assert_int_equal(M(&run, TMA_LD_INST), blocks);
  assert_int_equal(M(&run, TMA_ST_INST), blocks);
  /* a request each for the load, the store and the bulk group's commit
   * (the H200: 18, 60 and 189 for 6, 20 and 63 blocks) */
  assert_int_equal(M(&run, TMA_REQ), 3 * blocks);
  /* the load: in's rows (70 floats, a 288-byte pitch of 9 sectors) start
   * each box row on a sector; a row partly inside reads its inside part to
   * a 16-byte boundary and its outside bytes' sectors, a row outside its
   * bytes': every box row w * 4 / 32 sectors (the H200: 768, 640 and 504,
   * docs/results/h200-2026-12-02-hopper/ncu-tma_copy.csv) */
  assert_int_equal(M(&run, TMA_LD_SEC), blocks * (uint64_t)w * (uint64_t)(w * 4 / 32));
  /* every element written once: the store's sectors are its rows inside
   * out (70 rows of 50 floats at 208-byte strides, cut in tiles of w) */
  uint64_t base = buf_of(&run, 1)->addr, sec = 0;
  for (int ty = 0; ty < 70; ty += w)
    for (int tx = 0; tx < 50; tx += w) sec += box2d_sectors(base, 50, 70, 208, 4, tx, ty, w, w);
  assert_int_equal(M(&run, TMA_ST_SEC), sec);
  assert_int_equal(M(&run, TMA_ST_BYTES), 32 * sec);
  assert_int_equal(M(&run, L2_WR), sec);
  assert_int_equal(M(&run, SLD_WF), wf);
  sim_run_free(&run);
}

static void test_transpose_128b(void **state) {
  (void)state;
  /* lane r reads word c of row r: with the 128B swizzle its chunk is
   * c/4 ^ r%8, 8 banks for 32 lanes, 4 lanes each: 4 wavefronts a column,
   * 32 columns, 6 blocks.  Without: one bank, 32 wavefronts. */
  check_transpose("transpose", "3,2", 32, "tmap:f32:70x50:box=32x32:swz=128", "tmap:f32:50x70:box=32x32:zero",
                  "i32:128", 6 * 32 * 4);
  check_transpose("transpose", "3,2", 32, "tmap:f32:70x50:box=32x32", "tmap:f32:50x70:box=32x32:zero", "i32:0",
                  6 * 32 * 32);
}

static void test_transpose_64b_32b(void **state) {
  (void)state;
  /* 16 lanes on 64-byte rows: row r's chunk (r%2)*4 + c/4 ^ (r/2)%4, 8
   * banks, 2 lanes each: 2 wavefronts; 20 blocks of 16 columns */
  check_transpose("transpose16", "5,4", 16, "tmap:f32:70x50:box=16x16:swz=64", "tmap:f32:50x70:box=16x16:zero",
                  "i32:64", 20 * 16 * 2);
  /* 8 lanes on 32-byte rows: chunk (r%4)*2 + c/4 ^ (r/4)%2, 8 distinct:
   * 1 wavefront; 63 blocks of 8 columns */
  check_transpose("transpose8", "9,7", 8, "tmap:f32:70x50:box=8x8:swz=32", "tmap:f32:50x70:box=8x8:zero", "i32:32",
                  63 * 8 * 1);
}

/* --- 1D, 3D and 5D boxes ------------------------------------------------- */

static void test_box_1d(void **state) {
  (void)state;
  SimRun run;
  LAUNCH(&run, "box_1d", "1", "64", "tmap:u8:1000:box=256", "buf:u32:64:zero", "i32:896");
  const uint8_t *in = buf_of(&run, 0)->data, *got = tu_arg_buf(&run, 1, 4, 64);
  for (int i = 0; i < 256; i++) assert_int_equal(got[i], 896 + i < 1000 ? in[896 + i] : 0);
  /* two 128-byte pieces: the first 104 bytes inside and 24 outside (a
   * sector more), the second all outside (4) */
  uint64_t a = buf_of(&run, 0)->addr + 896;
  assert_int_equal(M(&run, TMA_LD_SEC), sectors(a, 104) + 1 + 4);
  sim_run_free(&run);
}

static void test_box_3d_strided(void **state) {
  (void)state;
  SimRun run;
  LAUNCH(&run, "box_3d", "1", "64", "tmap:i32:12x9x5:box=8x6x4:estride=1x2x1", "buf:u32:96:zero", "i32:4", "i32:-1",
         "i32:2");
  const int32_t *in = (const int32_t *)buf_of(&run, 0)->data;
  const uint32_t *got = tu_arg_buf(&run, 1, 4, 96);
  /* ceil(6 / 2) = 3 rows along y (every other one: -1, 1, 3), 4 planes z = 2..5 */
  int n = 0;
  for (int k = 0; k < 4; k++)
    for (int j = 0; j < 3; j++)
      for (int i = 0; i < 8; i++, n++) {
        int x = 4 + i, y = -1 + 2 * j, z = 2 + k;
        int32_t want = x < 12 && y >= 0 && y < 9 && z < 5 ? in[(z * 9 + y) * 12 + x] : 0;
        if (got[n] != (uint32_t)want) fail_msg("element (%d, %d, %d) = %u, expected %d", x, y, z, got[n], want);
      }
  sim_run_free(&run);
}

static void test_box_5d(void **state) {
  (void)state;
  SimRun run;
  LAUNCH(&run, "box_5d", "1", "64", "tmap:u16:16x3x4x2x3:box=8x2x3x2x2:estride=1x1x2x1x1", "buf:u32:64:zero",
         "i32:8", "i32:1", "i32:0", "i32:1", "i32:2");
  const uint16_t *in = (const uint16_t *)buf_of(&run, 0)->data, *got = tu_arg_buf(&run, 1, 2, 128);
  const int dim[5] = {16, 3, 4, 2, 3}, c[5] = {8, 1, 0, 1, 2}, es[5] = {1, 1, 2, 1, 1}, n[5] = {8, 2, 2, 2, 2};
  int at = 0;
  for (int e4 = 0; e4 < n[4]; e4++)
    for (int e3 = 0; e3 < n[3]; e3++)
      for (int e2 = 0; e2 < n[2]; e2++)
        for (int e1 = 0; e1 < n[1]; e1++)
          for (int e0 = 0; e0 < n[0]; e0++, at++) {
            int g[5] = {c[0] + e0 * es[0], c[1] + e1 * es[1], c[2] + e2 * es[2], c[3] + e3 * es[3], c[4] + e4 * es[4]};
            int inside = 1;
            size_t off = 0, mul = 1;
            for (int d = 0; d < 5; d++) {
              inside &= g[d] >= 0 && g[d] < dim[d];
              off += (size_t)g[d] * mul;
              mul *= (size_t)dim[d];
            }
            assert_int_equal(got[at], inside ? in[off] : 0);
          }
  sim_run_free(&run);
}

/* --- im2col -------------------------------------------------------------- */

/* The im2col box of an NHWC tensor (C 8, W 6, H 5, N 2) with the corners
 * of a 3x3 filter and padding 1 (-1 each): the filter base walks W from
 * -1 to W-1-1, then H, then N, `step` at a time (back to the lower corner
 * past the upper one); pixel p reads the 8 channels at base + (ow, oh). */
static void im2col_model(const float *in, int w0, int h0, int n0, int ow, int oh, int pixels, int step, float *want) {
  int w = w0, h = h0, n = n0;
  for (int p = 0; p < pixels; p++) {
    int x = w + ow, y = h + oh;
    for (int c = 0; c < 8; c++)
      want[p * 8 + c] = x >= 0 && x < 6 && y >= 0 && y < 5 && n < 2 ? in[((n * 5 + y) * 6 + x) * 8 + c] : 0.0f;
    w += step;
    if (w > 6 - 1 - 1) {
      w = -1;
      h += step;
      if (h > 5 - 1 - 1) h = -1, n++;
    }
  }
}

static void check_im2col(const char *map, const char *out, int w, int h, int ow, int oh, int pixels, int step) {
  SimRun run;
  char ws[16], hs[16], ows[16], ohs[16], words[16];
  snprintf(ws, sizeof ws, "i32:%d", w), snprintf(hs, sizeof hs, "i32:%d", h);
  snprintf(ows, sizeof ows, "i32:%d", ow), snprintf(ohs, sizeof ohs, "i32:%d", oh);
  snprintf(words, sizeof words, "i32:%d", pixels * 8);
  LAUNCH(&run, "im2col", "1", "64", map, out, ws, hs, "i32:0", ows, ohs, words);
  const float *in = (const float *)buf_of(&run, 0)->data, *got = tu_arg_buf(&run, 1, 4, (size_t)pixels * 8);
  float want[32 * 8];
  im2col_model(in, w, h, 0, ow, oh, pixels, step, want);
  for (int i = 0; i < pixels * 8; i++)
    if (got[i] != want[i]) fail_msg("%s: pixel %d channel %d = %g, expected %g", map, i / 8, i % 8, got[i], want[i]);
  sim_run_free(&run);
}

static void test_im2col(void **state) {
  (void)state;
  const char *m32 = "tmap:f32:8x6x5x2:im2col=8x32:lower=-1x-1:upper=-1x-1";
  check_im2col(m32, "buf:u32:256:zero", -1, -1, 0, 0, 32, 1); /* the padded corner tap, into image 1 */
  check_im2col(m32, "buf:u32:256:zero", 3, 2, 2, 1, 32, 1);   /* tap (2, 1) from the middle */
  check_im2col("tmap:f32:8x6x5x2:im2col=8x16:lower=-1x-1:upper=-1x-1:estride=1x2x2x1", "buf:u32:128:zero", -1, -1, 1,
               1, 16, 2);                                      /* a stride-2 convolution */
}

/* --- stores and reductions ------------------------------------------------ */

static void test_store_reduce(void **state) {
  (void)state;
  SimRun run;
  LAUNCH(&run, "store_reduce", "2", "128", "tmap:f32:40x20:box=32x8:iota", "tmap:f32:40x20:box=32x8:1.5", "i32:24",
         "i32:16");
  const float *t = (const float *)buf_of(&run, 0)->data, *acc = (const float *)buf_of(&run, 1)->data;
  /* block 0's tile at (24, 16): x 24..39, y 16..19 inside; block 1's at
   * (24, 0): x 24..39, y 0..7; iota: element i was (float)i */
  for (int y = 0; y < 20; y++)
    for (int x = 0; x < 40; x++) {
      int in0 = x >= 24 && y >= 16, in1 = x >= 24 && y < 8;
      float orig = (float)(y * 40 + x), twice = 2.0f * orig;
      assert_true(t[y * 40 + x] == (in0 || in1 ? twice : orig));
      assert_true(acc[y * 40 + x] == (in0 || in1 ? 1.5f + twice : 1.5f));
    }
  /* the loads' and the stores' rows: 4 rows of 64 bytes, 8 rows of 64 */
  uint64_t a0 = buf_of(&run, 0)->addr, a1 = buf_of(&run, 1)->addr;
  uint64_t ld = box2d_read(a0, 40, 20, 160, 4, 24, 16, 32, 8) + box2d_read(a0, 40, 20, 160, 4, 24, 0, 32, 8);
  uint64_t st = box2d_sectors(a0, 40, 20, 160, 4, 24, 16, 32, 8) + box2d_sectors(a0, 40, 20, 160, 4, 24, 0, 32, 8);
  uint64_t red = box2d_sectors(a1, 40, 20, 160, 4, 24, 16, 32, 8) + box2d_sectors(a1, 40, 20, 160, 4, 24, 0, 32, 8);
  assert_int_equal(M(&run, TMA_LD_SEC), ld);
  assert_int_equal(M(&run, TMA_ST_SEC), st); /* a store writes only what is inside */
  assert_int_equal(M(&run, TMA_RED_SEC), red);
  assert_int_equal(M(&run, TMA_ST_INST), 4); /* a store and a reduction per block */
  assert_int_equal(M(&run, L2_RED), red);
  sim_run_free(&run);
}

static void test_bulk_reduce(void **state) {
  (void)state;
  SimRun run;
  LAUNCH(&run, "bulk_reduce", "8", "128", "buf:f32:4096", "buf:f32:128:zero");
  const float *in = tu_arg_buf(&run, 0, 4, 4096), *out = tu_arg_buf(&run, 1, 4, 128);
  for (int t = 0; t < 128; t++) {
    double want = 0, mag = 0; /* the blocks add in any order: float rounding of 32 terms */
    for (int b = 0; b < 8; b++)
      for (int j = 0; j < 4; j++) want += in[b * 512 + t + 128 * j], mag += fabs(in[b * 512 + t + 128 * j]);
    assert_true(fabs(out[t] - want) <= 32 * 0x1p-24 * mag);
  }
  /* 8 reductions of 512 bytes: 16 sectors each, to L2 */
  assert_int_equal(M(&run, TMA_ST_INST), 8);
  assert_int_equal(M(&run, TMA_RED_SEC), 8 * 16);
  assert_int_equal(M(&run, L2_RED), 8 * 16);
  sim_run_free(&run);
}

/* --- pipelines, libcu++, maps by pointer, multicast ---------------------- */

static void test_pipeline(void **state) {
  (void)state;
  SimRun run;
  LAUNCH(&run, "pipeline", "4", "160", "tmap:f32:512x256:box=32x64:swz=128", "buf:f32:256:zero");
  const float *a = (const float *)buf_of(&run, 0)->data, *sums = tu_arg_buf(&run, 1, 4, 256);
  for (int r = 0; r < 256; r++) {
    double want = 0;
    for (int k = 0; k < 512; k++) want += a[r * 512 + k];
    if (fabs(sums[r] - want) > 1e-4 * fabs(want) + 1e-5) fail_msg("row %d: %g, expected %g", r, sums[r], want);
  }
  /* 16 tiles of 64 rows x 128 bytes per block: 16 x 64 x 4 sectors */
  assert_int_equal(M(&run, TMA_LD_INST), 4 * 16);
  assert_int_equal(M(&run, TMA_LD_SEC), 4 * 16 * 64 * 4);
  assert_int_equal(M(&run, L2_RD), 4 * 16 * 64 * 4);
  sim_run_free(&run);
}

static void test_libcudacxx(void **state) {
  (void)state;
  SimRun run;
  LAUNCH(&run, "libcudacxx", "2,3", "128", "tmap:i32:128x96:box=64x32", "tmap:i32:128x96:box=64x32:zero");
  const int32_t *in = (const int32_t *)buf_of(&run, 0)->data, *out = (const int32_t *)buf_of(&run, 1)->data;
  for (int i = 0; i < 128 * 96; i++) assert_int_equal(out[i], in[i] + 1);
  assert_int_equal(M(&run, TMA_LD_SEC), 128 * 96 * 4 / 32);
  assert_int_equal(M(&run, TMA_ST_SEC), 128 * 96 * 4 / 32);
  sim_run_free(&run);
}

static void test_by_pointer(void **state) {
  (void)state;
  SimRun run;
  LAUNCH(&run, "by_pointer", "4", "64", "tmap:f32:64x64:box=16x16:swz=64", "buf:f32:1024:zero");
  const float *in = (const float *)buf_of(&run, 0)->data, *out = tu_arg_buf(&run, 1, 4, 1024);
  for (int b = 0; b < 4; b++)
    for (int i = 0; i < 256; i++) assert_true(out[b * 256 + i] == in[(i / 16) * 64 + b * 16 + i % 16]);
  /* the map lives in a buffer of its own, 128 bytes, beside the tensor's */
  assert_int_equal(run.gmem.buf[1].size, 128);
  /* each block's load and its prefetch.tensormap (the H200: 8) */
  assert_int_equal(M(&run, TMA_REQ), 8);
  sim_run_free(&run);
}

static void test_multicast(void **state) {
  (void)state;
  SimRun run;
  LAUNCH(&run, "multicast", "2", "64", "tmap:f32:64x8:box=32x8", "buf:f32:512:zero", "i32:1");
  const float *in = (const float *)buf_of(&run, 0)->data, *out = tu_arg_buf(&run, 1, 4, 512);
  for (int b = 0; b < 2; b++)
    for (int i = 0; i < 256; i++) assert_true(out[b * 256 + i] == in[(i / 32) * 64 + b * 32 + i % 32]);
  /* a multicast to the issuing block alone (a cluster of one, ctaMask 1)
   * is counted as its own load, as the H200 counts it (docs/results/
   * h200-2026-12-02-hopper/ncu-tma_copy.csv: dest_self 64 sectors,
   * dest_multicast 0): 8 rows of one whole 128-byte line each, per block */
  assert_int_equal(M(&run, TMA_SELF_SEC), 2 * 8 * 4);
  assert_int_equal(M(&run, TMA_SELF_BYTES), 2 * 8 * 128);
  assert_int_equal(M(&run, TMA_MC_SEC), 0);
  assert_int_equal(M(&run, TMA_MC_REQ), 0);
  sim_run_free(&run);
}

/* A multicast across clusters of two: where clusters of several blocks run,
 * every block gets its cluster's box, read once per cluster; where a
 * cluster is one block, ctaMask 3 is the located fault. */
static void test_multicast_cluster(void **state) {
  (void)state;
  LaunchSpec *ls = calloc(1, sizeof *ls);
  WmErr e = {0};
  snprintf(ls->name, sizeof ls->name, "multicast2");
  snprintf(ls->label, sizeof ls->label, "multicast2");
  assert_int_equal(launch_parse_dim("4", ls->grid, &e), 0);
  assert_int_equal(launch_parse_dim("64", ls->block, &e), 0);
  assert_int_equal(launch_parse_arg("tmap:f32:64x8:box=32x8", &ls->args[ls->nargs++], &e), 0);
  assert_int_equal(launch_parse_arg("buf:f32:1024:zero", &ls->args[ls->nargs++], &e), 0);
  SimOptions o;
  sim_options_init(&o);
  o.keep_buffers = 1;
  SimRun run;
  memset(&run, 0, sizeof run);
  if (sim_run_launch(corpus(), ls, &o, &run, &e)) {
    assert_non_null(strstr(e.msg, "ctaMask 0x3 names block rank 1, which this cluster does not have"));
  } else {
    const float *in = (const float *)buf_of(&run, 0)->data, *out = tu_arg_buf(&run, 1, 4, 1024);
    for (int b = 0; b < 4; b++)
      for (int i = 0; i < 256; i++) assert_true(out[b * 256 + i] == in[(i / 32) * 64 + (b / 2) * 32 + i % 32]);
    assert_int_equal(M(&run, TMA_LD_INST), 2);        /* rank 0 of each cluster */
    /* read from L2 once for both blocks, delivered to each (the crossbar's
     * bytes and sectors count per destination, as on the H200) */
    assert_int_equal(M(&run, TMA_MC_SEC), 2 * 2 * 8 * 4);
    assert_int_equal(M(&run, L2_RD), 2 * 8 * 4);
    assert_int_equal(M(&run, TMA_SMEM_BYTES), 4 * 1024);
  }
  sim_run_free(&run);
  free(ls);
}

/* --- the located errors --------------------------------------------------- */

static const char *launch_fails(const char *name, const char *block, const char *const *args, int *code) {
  static WmErr e;
  LaunchSpec *ls = calloc(1, sizeof *ls);
  assert_non_null(ls);
  memset(&e, 0, sizeof e);
  snprintf(ls->name, sizeof ls->name, "%s", name);
  snprintf(ls->label, sizeof ls->label, "%s", name);
  assert_int_equal(launch_parse_dim("1", ls->grid, &e), 0);
  assert_int_equal(launch_parse_dim(block, ls->block, &e), 0);
  for (; *args; args++)
    if (launch_parse_arg(*args, &ls->args[ls->nargs++], &e)) fail_msg("%s: %s", *args, e.msg);
  SimOptions o;
  sim_options_init(&o);
  SimRun run;
  memset(&run, 0, sizeof run);
  int rc = sim_run_launch(corpus(), ls, &o, &run, &e);
  sim_run_free(&run);
  free(ls);
  if (rc == 0) fail_msg("%s ran without an error", name);
  *code = e.code;
  return e.msg;
}

static void test_read_before_complete(void **state) {
  (void)state;
  static const char *const args[] = {"tmap:f32:32x32:box=32x32", "buf:f32:64:zero", NULL};
  int code;
  const char *msg = launch_fails("early_read", "64", args, &code);
  assert_int_equal(code, WM_EFAULT);
  assert_non_null(strstr(msg, "read of shared memory before its cp.async.bulk.tensor completed"));
  assert_non_null(strstr(msg, "the mbarrier tracking it"));
  assert_non_null(strstr(msg, "has not completed its phase"));
  assert_non_null(strstr(msg, "tma_copy.cu:")); /* the read's line and the copy's */
}

static void test_ldmatrix_before_complete(void **state) {
  (void)state;
  static const char *const args[] = {"tmap:bf16:64x8:box=64x8", "buf:u32:32:zero", NULL};
  int code;
  const char *msg = launch_fails("early_ldmatrix", "32", args, &code);
  assert_int_equal(code, WM_EFAULT);
  assert_non_null(strstr(msg, "read of shared memory before its cp.async.bulk.tensor completed"));
  assert_non_null(strstr(msg, "ldmatrix"));
}

/* A box whose dimension-0 start is not on a 16-byte boundary: the H200
 * stopped tile_raw at (3, 5), (97, 50), (99, 0) and box_1d at byte 900 with
 * an illegal instruction (docs/results/h200-2026-12-02-hopper). */
static void test_misaligned_start(void **state) {
  (void)state;
  static const char *const args[] = {"tmap:f32:100x70:box=32x16", "buf:u32:512:zero", "i32:3", "i32:5", "i32:512", NULL};
  int code;
  const char *msg = launch_fails("tile_raw", "128", args, &code);
  assert_int_equal(code, WM_EFAULT);
  assert_non_null(strstr(msg, "the box starts at coordinate 3 of dimension 0, byte 12 of a row, not a multiple of 16"));
  assert_non_null(strstr(msg, "tma_copy.cu:"));
  static const char *const bytes[] = {"tmap:u8:1000:box=256", "buf:u32:64:zero", "i32:900", NULL};
  msg = launch_fails("box_1d", "64", bytes, &code);
  assert_non_null(strstr(msg, "byte 900 of a row"));
}

/* A store whose box starts before the tensor: the H200 stops the kernel
 * (groundtruth/bulk_group_kernels.cu's store_at#xm8), warpmem faults there. */
static void test_store_before_tensor(void **state) {
  (void)state;
  static const char *const args[] = {"tmap:f32:40x20:box=32x8:iota", "tmap:f32:40x20:box=32x8:1.5", "i32:-8", "i32:8",
                                     NULL};
  int code;
  const char *msg = launch_fails("store_reduce", "128", args, &code);
  assert_int_equal(code, WM_EFAULT);
  assert_non_null(strstr(msg, "cp.async.bulk.tensor (store): the box starts at coordinate -8 of dimension 0, before the "
                              "tensor"));
  assert_non_null(strstr(msg, "tma_copy.cu:"));
}

static void test_not_a_map(void **state) {
  (void)state;
  static const char *const args[] = {"buf:u8:128:zero", "buf:f32:64:zero", NULL};
  int code;
  const char *msg = launch_fails("not_a_map", "64", args, &code);
  assert_int_equal(code, WM_EFAULT);
  assert_non_null(strstr(msg, "cp.async.bulk.tensor: the tensor map at generic address 0x"));
  assert_non_null(strstr(msg, "its 128 bytes are not a tensor map"));
  assert_non_null(strstr(msg, "thread (0,0,0)"));
}

static void test_multicast_missing_rank(void **state) {
  (void)state;
  static const char *const args[] = {"tmap:f32:64x8:box=32x8", "buf:f32:512:zero", "i32:3", NULL};
  int code;
  const char *msg = launch_fails("multicast", "64", args, &code);
  assert_int_equal(code, WM_EFAULT);
  assert_non_null(strstr(msg, "ctaMask 0x3 names block rank 1, which this cluster does not have"));
}

static void test_spec_the_driver_refuses(void **state) {
  (void)state;
  static const struct {
    const char *spec, *why;
  } bad[] = {
    {"tmap:f32:100x70:box=300x16", "boxDim[0] = 300 is not in 1..256"},
    {"tmap:f32:100x70:box=64x16:swz=128", "inner dimension is 256 bytes, more than the 128-byte swizzle span"},
    {"tmap:i32:100x70:box=32x16:oob=nan", "the NaN fill needs a floating-point tensorDataType"},
    {"tmap:f32:100x70:box=32x16:stride=404", "globalStrides[0] = 404 is not a multiple of 16"},
    {"tmap:f32:100x70:box=32x16:estride=1x9", "elementStrides[1] = 9 is not in 1..8"},
    {"tmap:f32:8x6x5:im2col=8x32:lower=-40000", "pixelBoxLowerCorner[0] = -40000 is not in [-32768, 32767]"},
    {"tmap:u8:100x70:box=8x16", "boxDim[0] = 8: its 8 bytes are not a multiple of 16"},
    {"tmap:f32:1x2x3x4x5x6:box=1", "dimensions '1x2x3x4x5x6'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ArgSpec a;
    WmErr e = {0};
    if (launch_parse_arg(bad[i].spec, &a, &e) == 0) fail_msg("%s was accepted", bad[i].spec);
    if (!strstr(e.msg, bad[i].why)) fail_msg("%s: '%s' does not say '%s'", bad[i].spec, e.msg, bad[i].why);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_tile_no_swizzle_edge),
    cmocka_unit_test(test_tile_widths),
    cmocka_unit_test(test_tile_swizzles),
    cmocka_unit_test(test_tile_nan_fill),
    cmocka_unit_test(test_transpose_128b),
    cmocka_unit_test(test_transpose_64b_32b),
    cmocka_unit_test(test_box_1d),
    cmocka_unit_test(test_box_3d_strided),
    cmocka_unit_test(test_box_5d),
    cmocka_unit_test(test_im2col),
    cmocka_unit_test(test_store_reduce),
    cmocka_unit_test(test_bulk_reduce),
    cmocka_unit_test(test_pipeline),
    cmocka_unit_test(test_libcudacxx),
    cmocka_unit_test(test_by_pointer),
    cmocka_unit_test(test_multicast),
    cmocka_unit_test(test_multicast_cluster),
    cmocka_unit_test(test_read_before_complete),
    cmocka_unit_test(test_ldmatrix_before_complete),
    cmocka_unit_test(test_misaligned_start),
    cmocka_unit_test(test_store_before_tensor),
    cmocka_unit_test(test_not_a_map),
    cmocka_unit_test(test_multicast_missing_rank),
    cmocka_unit_test(test_spec_the_driver_refuses),
  };
  int rc = cmocka_run_group_tests_name("corpus: TMA (tma_copy.cu)", tests, NULL, NULL);
  if (mod) ptx_module_free(mod);
  return rc;
}
