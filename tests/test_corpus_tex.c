/* test_corpus_tex.c - textures and surfaces (tests/corpus/tex_sampling.cu):
 * every kernel's output against a CPU reference written here from the CUDA
 * C++ Programming Guide's "Texture Fetching" appendix (point sampling,
 * linear filtering with 9-bit fixed-point weights, the address modes), the
 * tex:/surf: spec parser's errors, and the texture counters against first
 * principles. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launch/launch.h"
#include "sim/sim.h"
#include "testutil.h"
#include "util/bits.h"

static PtxModule *mod;

static int setup(void **state) {
  (void)state;
  mod = tu_load(tu_corpus("tex_sampling.ptx"));
  return 0;
}

static int teardown(void **state) {
  (void)state;
  ptx_module_free(mod);
  return 0;
}

/* ---- the reference ----------------------------------------------------- */

/* Texture argument argno of a run: its object and texels. */
typedef struct Ref {
  const GTex *t;
  const uint8_t *data;
} Ref;

static Ref ref_of(SimRun *run, int argno) {
  char prefix[32];
  snprintf(prefix, sizeof prefix, "arg%d (", argno);
  for (int i = 0; i < run->gmem.ntex; i++) {
    const GTex *t = &run->gmem.tex[i];
    if (!strncmp(run->gmem.buf[t->buf].name, prefix, strlen(prefix))) return (Ref){t, run->gmem.buf[t->buf].data};
  }
  fail_msg("no texture for argument %d", argno);
  return (Ref){0};
}

/* Channel c of texel (x, y, z) as a float (z: slice or layer; y: the layer
 * of a 1D layered object); a texel outside (border) reads 0. */
static float chan(const Ref *r, int x, int y, int z, int c) {
  const GTex *t = r->t;
  if (x < 0 || y < 0 || z < 0) return 0.0f;
  if (c >= t->nchan) return c == 3 ? 1.0f : 0.0f;
  uint64_t off = (t->dims == 1 ? gtex_offset(t, (uint32_t)x, (uint32_t)y, 0)
                               : gtex_offset(t, (uint32_t)x, (uint32_t)y, (uint32_t)z));
  const uint8_t *p = r->data + off;
  switch (t->type) {
  case PTX_T_U8: return t->normfloat ? p[c] / 255.0f : (float)p[c];
  case PTX_T_S32: {
    int32_t v;
    memcpy(&v, p + 4 * c, 4);
    return (float)v;
  }
  default: {
    float f;
    memcpy(&f, p + 4 * c, 4);
    return f;
  }
  }
}

/* The guide's address modes on a texel index: clamp, border (-1), wrap,
 * mirror. */
static int addr(int mode, int i, int n) {
  switch (mode) {
  case GTEX_BORDER: return i < 0 || i >= n ? -1 : i;
  case GTEX_WRAP: return ((i % n) + n) % n;
  case GTEX_MIRROR: {
    int m = ((i % (2 * n)) + 2 * n) % (2 * n);
    return m < n ? m : 2 * n - 1 - m;
  }
  default: return i < 0 ? 0 : i >= n ? n - 1 : i;
  }
}

/* The guide's linear filtering in one dimension: xB = x - 0.5, i =
 * floor(xB), alpha = frac(xB) in 9-bit fixed point (8 fractional bits;
 * rounded to nearest, the rounding warpmem assumes). */
static void taps(const GTex *t, float u, int n, int i[2], float *alpha) {
  float xb = (t->norm ? u * (float)n : u) - 0.5f;
  float fl = floorf(xb);
  *alpha = floorf((xb - fl) * 256.0f + 0.5f) / 256.0f;
  i[0] = addr(t->amode, (int)fl, n);
  i[1] = addr(t->amode, (int)fl + 1, n);
}

/* tex(x, y) = (1-a)(1-b)T[i,j] + a(1-b)T[i+1,j] + (1-a)b T[i,j+1] + ab T[i+1,j+1] */
static float bilinear(const Ref *r, float u, float v, int c, int layer) {
  int i[2], j[2];
  float a, b;
  taps(r->t, u, (int)r->t->w, i, &a);
  taps(r->t, v, (int)r->t->h, j, &b);
  float t00 = chan(r, i[0], j[0], layer, c), t10 = chan(r, i[1], j[0], layer, c);
  float t01 = chan(r, i[0], j[1], layer, c), t11 = chan(r, i[1], j[1], layer, c);
  return (1 - a) * (1 - b) * t00 + a * (1 - b) * t10 + (1 - a) * b * t01 + a * b * t11;
}

/* The 3D one, the eight corners in the guide's order (x fastest). */
static float trilinear(const Ref *r, float u, float v, float w) {
  int i[2], j[2], k[2];
  float a, b, g;
  taps(r->t, u, (int)r->t->w, i, &a);
  taps(r->t, v, (int)r->t->h, j, &b);
  taps(r->t, w, (int)r->t->d, k, &g);
  float sum = 0.0f;
  for (int n = 0; n < 8; n++) {
    int hx = n & 1, hy = (n >> 1) & 1, hz = n >> 2;
    int x = i[hx], y = j[hy], z = k[hz];
    float wt = (hx ? a : 1 - a) * (hy ? b : 1 - b) * (hz ? g : 1 - g);
    float tx = x < 0 || y < 0 || z < 0 ? 0.0f : chan(r, x, y, z, 0);
    sum = n == 0 ? wt * tx : sum + wt * tx;
  }
  return sum;
}

/* Point sampling with clamp, unnormalized: T[clamp(floor(x))]. */
static float point2d(const Ref *r, float x, float y) {
  return chan(r, addr(GTEX_CLAMP, (int)floorf(x), (int)r->t->w), addr(GTEX_CLAMP, (int)floorf(y), (int)r->t->h), 0, 0);
}

static void expect_exact(const float *got, const float *want, size_t n, const char *what) {
  for (size_t i = 0; i < n; i++)
    if (wm_f32_bits(got[i]) != wm_f32_bits(want[i]))
      fail_msg("%s[%zu]: %.9g (0x%08x), want %.9g (0x%08x)", what, i, got[i], wm_f32_bits(got[i]), want[i],
               wm_f32_bits(want[i]));
}

/* ---- the corpus kernels ------------------------------------------------ */

static void test_stencil5(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, mod, "stencil5", "8,16", "32,8", 0, "tex:f32:256x128:point:clamp", "buf:f32:32768:zero",
            "i32:256", "i32:128", NULL);
  Ref r = ref_of(&run, 0);
  float *want = malloc(32768 * sizeof *want);
  for (int y = 0; y < 128; y++)
    for (int x = 0; x < 256; x++) {
      float fx = x + 0.5f, fy = y + 0.5f;
      float n = point2d(&r, fx, fy - 1.0f) + point2d(&r, fx, fy + 1.0f);
      n = n + point2d(&r, fx - 1.0f, fy);
      n = n + point2d(&r, fx + 1.0f, fy);
      want[y * 256 + x] = fmaf(point2d(&r, fx, fy), 0.5f, n * 0.125f); /* nvcc's fma */
    }
  expect_exact(tu_arg_buf(&run, 1, 4, 32768), want, 32768, "stencil5");
  free(want);
  sim_run_free(&run);
}

static void test_resize(void **state) {
  (void)state;
  for (int rgba = 0; rgba < 2; rgba++) {
    SimRun run;
    if (rgba)
      tu_launch(&run, mod, "_Z6resizeI6float4EvyPT_ii", "4,3", "32,32", 0, "tex:u8x4:64x48:linear:clamp:norm:normfloat",
                "buf:f32:30000:zero", "i32:100", "i32:75", NULL);
    else
      tu_launch(&run, mod, "_Z6resizeIfEvyPT_ii", "4,3", "32,32", 0, "tex:f32:64x48:linear:clamp:norm",
                "buf:f32:7500:zero", "i32:100", "i32:75", NULL);
    Ref r = ref_of(&run, 0);
    int nc = rgba ? 4 : 1;
    float *want = malloc(7500 * 4 * sizeof *want);
    for (int y = 0; y < 75; y++)
      for (int x = 0; x < 100; x++)
        for (int c = 0; c < nc; c++)
          want[(y * 100 + x) * nc + c] = bilinear(&r, (x + 0.5f) / 100.0f, (y + 0.5f) / 75.0f, c, 0);
    expect_exact(tu_arg_buf(&run, 1, 4, (size_t)7500 * nc), want, (size_t)7500 * nc, rgba ? "resize rgba8" : "resize");
    free(want);
    sim_run_free(&run);
  }
}

static void test_lut1d_wrap(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, mod, "lut1d", "16", "256", 0, "tex:f32:256:linear:wrap:norm", "buf:f32:4096:rand",
            "buf:f32:4096:zero", "i32:4096", NULL);
  Ref r = ref_of(&run, 0);
  const float *in = tu_arg_buf(&run, 1, 4, 4096);
  float want[4096];
  int wrapped = 0;
  for (int i = 0; i < 4096; i++) {
    float u = fmaf(in[i], 3.0f, -1.0f);
    int k[2];
    float a;
    taps(r.t, u, 256, k, &a);
    want[i] = (1 - a) * chan(&r, k[0], 0, 0, 0) + a * chan(&r, k[1], 0, 0, 0);
    wrapped += u < 0.0f || u >= 1.0f;
  }
  assert_true(wrapped > 1000); /* the inputs do leave [0, 1) */
  expect_exact(tu_arg_buf(&run, 2, 4, 4096), want, 4096, "lut1d");
  sim_run_free(&run);
}

static void test_volume3d_border(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, mod, "volume3d", "1,8,16", "32,4", 0, "tex:f32:32x32x16:linear:border", "buf:f32:16384:zero", NULL);
  Ref r = ref_of(&run, 0);
  float *want = malloc(16384 * sizeof *want);
  for (int z = 0; z < 16; z++)
    for (int y = 0; y < 32; y++)
      for (int x = 0; x < 32; x++)
        want[(z * 32 + y) * 32 + x] = trilinear(&r, x + 0.25f, y + 0.75f, fmaf((float)z, 1.1f, -0.3f));
  const float *got = tu_arg_buf(&run, 1, 4, 16384);
  expect_exact(got, want, 16384, "volume3d");
  assert_true(got[0] < chan(&r, 0, 0, 0, 0) + 1.0f); /* the border pulls the z = 0 face down */
  free(want);
  sim_run_free(&run);
}

/* tld4.g: channel 1 of (i, j+1), (i+1, j+1), (i+1, j), (i, j) -- counter-
 * clockwise from the lower left (PTX ISA), the bilinear footprint. */
static void test_gather(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, mod, "gather_g", "2,8", "32,4", 0, "tex:f32x2:64x32:point:clamp", "buf:f32:8192:zero", NULL);
  Ref r = ref_of(&run, 0);
  float *want = malloc(8192 * sizeof *want);
  for (int y = 0; y < 32; y++)
    for (int x = 0; x < 64; x++) {
      int i[2], j[2];
      float a, b;
      taps(r.t, x + 0.3f, 64, i, &a);
      taps(r.t, y + 0.8f, 32, j, &b);
      float *o = want + (y * 64 + x) * 4;
      o[0] = chan(&r, i[0], j[1], 0, 1), o[1] = chan(&r, i[1], j[1], 0, 1);
      o[2] = chan(&r, i[1], j[0], 0, 1), o[3] = chan(&r, i[0], j[0], 0, 1);
    }
  expect_exact(tu_arg_buf(&run, 1, 4, 8192), want, 8192, "gather");
  free(want);
  sim_run_free(&run);
}

static void test_surface_rmw(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, mod, "surf_rmw", "4,16", "32,4", 0, "surf:f32:128x64:iota", "f32:2", "f32:1", NULL);
  Ref r = ref_of(&run, 0);
  for (int y = 0; y < 64; y++)
    for (int x = 0; x < 128; x++) {
      float want = fmaf(2.0f, (float)(y * 128 + x), 1.0f); /* iota, then a * v + b */
      if (chan(&r, x, y, 0, 0) != want) fail_msg("surface (%d, %d): %g, want %g", x, y, chan(&r, x, y, 0, 0), want);
    }
  /* 32 lanes x 4 bytes of one row: 128 bytes in two GOBs, 4 sectors each;
   * a surface request serves 8 lanes (as an H100 counts: 4 per warp
   * instruction), whose 32 bytes are two 16-byte pieces: 2 sectors each */
  assert_int_equal(run.mm.metric[WM_M_SULD_REQ], 256 * 4);
  assert_int_equal(run.mm.metric[WM_M_SULD_SEC], 256 * 8);
  assert_int_equal(run.mm.metric[WM_M_SUST_SEC], 256 * 8);
  assert_int_equal(run.mm.metric[WM_M_SUST_INST], 256);
  /* a sector holds 16 bytes of rows 2j and 2j+1, which two warps of one
   * block read: one misses (a cold L1), the other hits */
  assert_int_equal(run.mm.metric[WM_M_SULD_MISS], 256 * 4);
  assert_int_equal(run.mm.metric[WM_M_SULD_HIT], 256 * 4);
  assert_int_equal(run.mm.metric[WM_M_TEX_REQ], 0);
  sim_run_free(&run);
}

/* ---- the filter, the address modes, integer fetches, layers ------------- */

/* Texels 0 and 1, sampled at x in [0.5, 1.5): the result is alpha itself,
 * which must be frac(x - 0.5) rounded to 1/256 -- and is not the exact
 * fraction for most x. */
static void test_nine_bit_weights(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, mod, "fetch1d", "16", "256", 0, "tex:f32:2:linear:clamp:iota", "buf:f32:4096:zero", "f32:0.5",
            "f32:0.000244140625", NULL);
  const float *got = tu_arg_buf(&run, 1, 4, 4096);
  int inexact = 0;
  for (int i = 0; i < 4096; i++) {
    float x = fmaf(0.000244140625f, (float)i, 0.5f), frac = x - 0.5f;
    float want = floorf(frac * 256.0f + 0.5f) / 256.0f;
    if (got[i] != want) fail_msg("x = %.9g: %.9g, want %.9g", x, got[i], want);
    inexact += got[i] != frac;
  }
  assert_int_equal(inexact, 4096 - 256); /* 9-bit weights: exact only at multiples of 1/256 */
  assert_true(got[4095] == 1.0f); /* 1.0 is representable (the ninth bit) */
  sim_run_free(&run);
}

static void test_mirror_normalized_rgba(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, mod, "fetch2d", "2,8", "32,4", 0, "tex:f32x4:16x8:linear:mirror:norm", "buf:f32:8192:zero",
            "f32:-1.3", "f32:0.05", "f32:-0.7", "f32:0.06", NULL);
  Ref r = ref_of(&run, 0);
  float *want = malloc(8192 * sizeof *want);
  for (int y = 0; y < 32; y++)
    for (int x = 0; x < 64; x++)
      for (int c = 0; c < 4; c++)
        want[(y * 64 + x) * 4 + c] = bilinear(&r, fmaf(0.05f, (float)x, -1.3f), fmaf(0.06f, (float)y, -0.7f), c, 0);
  expect_exact(tu_arg_buf(&run, 1, 4, 8192), want, 8192, "mirror");
  free(want);
  sim_run_free(&run);
}

static void test_integer_fetch_border(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, mod, "fetch1d_int", "1", "64", 0, "tex:i32:40:border:iota", "buf:i32:64:zero", "i32:-8", NULL);
  const int32_t *got = tu_arg_buf(&run, 1, 4, 64);
  for (int i = 0; i < 64; i++) {
    int x = i - 8;
    assert_int_equal(got[i], x >= 0 && x < 40 ? x : 0); /* iota inside, the zero border outside */
  }
  sim_run_free(&run);
}

static void test_layered(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, mod, "fetch_layered", "1,1,3", "16,8", 0, "tex:f32:16x8x3:point:layered:iota", "buf:f32:384:zero",
            NULL);
  const float *got = tu_arg_buf(&run, 1, 4, 384);
  for (int i = 0; i < 384; i++) assert_true(got[i] == (float)i); /* layer-major iota read back in order */
  sim_run_free(&run);
}

/* A cubemap read back: each thread's direction points at the centre of
 * its own texel of its face (the inverse of the programming guide's
 * "Cubemap Fetch" table), so with iota texels out[i] == i. */
static void test_cube_faces(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, mod, "cube_faces", "16,6", "16", 0, "tex:f32:16x16:cube:iota", "buf:f32:1536:zero", "i32:16", NULL);
  const float *got = tu_arg_buf(&run, 1, 4, 1536);
  for (int i = 0; i < 1536; i++) assert_true(got[i] == (float)i);
  sim_run_free(&run);
}

/* Cubemap 2 of 3, direction (s, 1, 0.3) with |s| < 1: face +y (2), whose
 * s is x and t is z (the table), so the point (s+1)/2, (0.3+1)/2 of layer
 * 2*6+2 of 8x8 faces: column floor((s+1)/2*8), row floor(0.65*8) = 5. */
static void test_cube_layered(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, mod, "cube_layered", "1", "32", 0, "tex:f32:8x8x3:cube:layered:iota", "buf:f32:32:zero",
            "f32:0.3", "i32:2", NULL);
  const float *got = tu_arg_buf(&run, 1, 4, 32);
  for (int i = 0; i < 32; i++) {
    float sx = (float)(i - 16) / 17.0f;
    int col = (int)floorf((sx + 1.0f) * 0.5f * 8.0f);
    assert_int_equal((int)got[i], ((2 * 6 + 2) * 8 + 5) * 8 + col);
  }
  sim_run_free(&run);
}

/* Out of range: .zero reads 0 and drops the store; .trap is a fault that
 * names the instruction and the thread. */
static void test_surface_bounds(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, mod, "surf_zero", "1", "64", 0, "surf:u32:48:iota", NULL);
  Ref r = ref_of(&run, 0);
  for (int x = 0; x < 48; x++) {
    uint32_t v;
    memcpy(&v, r.data + gtex_offset(r.t, (uint32_t)x, 0, 0), 4);
    assert_int_equal(v, 1000u + (uint32_t)x);
  }
  sim_run_free(&run);

  LaunchSpec *ls = calloc(1, sizeof *ls);
  WmErr e = {0};
  snprintf(ls->name, sizeof ls->name, "surf_trap");
  snprintf(ls->label, sizeof ls->label, "surf_trap");
  ls->grid[0] = ls->grid[1] = ls->grid[2] = 1;
  ls->block[0] = 64, ls->block[1] = ls->block[2] = 1;
  ls->nargs = 1;
  assert_int_equal(launch_parse_arg("surf:u32:48:iota", &ls->args[0], &e), 0);
  SimOptions o;
  sim_options_init(&o);
  assert_int_equal(sim_run_launch(mod, ls, &o, &run, &e), -1);
  assert_int_equal(e.code, WM_EFAULT);
  if (!strstr(e.msg, "out-of-range surface load") || !strstr(e.msg, "suld.b.1d.b32.trap") ||
      !strstr(e.msg, "thread (48,0,0)"))
    fail_msg("fault message: %s", e.msg);
  free(ls);
}

/* ---- counters from first principles ------------------------------------- */

/* The texture pipe serves a warp one quad (4 lanes) per request, and counts
 * each request's distinct sectors (as an H100 does:
 * docs/results/h100-2026-11-23-corpus).  In the block-linear storage
 * (gtex_offset) a 32-byte sector holds a 16-byte piece of two rows (2j,
 * 2j+1).
 * One warp reading 32 consecutive f32 texels of one row: 8 quads, each
 * reading one 16-byte piece: 8 requests, 8 sectors (the warp as a whole
 * touches 8 distinct sectors too, which L1 looks up: all miss, cold). */
static void test_counters_first_principles(void **state) {
  (void)state;
  SimRun run;
  tu_launch(&run, mod, "fetch2d", "1,1", "32,1", 0, "tex:f32:256x64:point:clamp", "buf:f32:128:zero", "f32:0.5",
            "f32:1", "f32:8.5", "f32:1", NULL);
  assert_int_equal(run.mm.metric[WM_M_TEX_INST], 1);
  assert_int_equal(run.mm.metric[WM_M_TEX_REQ], 8);
  assert_int_equal(run.mm.metric[WM_M_TEX_SEC], 8);
  assert_int_equal(run.mm.metric[WM_M_TEX_HIT] + run.mm.metric[WM_M_TEX_MISS], 8);
  assert_int_equal(run.mm.metric[WM_M_TEX_MISS], 8); /* a cold L1 */
  sim_run_free(&run);

  /* An 8x4 block: each quad is 4 texels of one row, one 16-byte piece: 8
   * requests of one sector each (4 distinct sectors for the warp). */
  tu_launch(&run, mod, "fetch2d", "1,1", "8,4", 0, "tex:f32:256x64:point:clamp", "buf:f32:128:zero", "f32:0.5",
            "f32:1", "f32:0.5", "f32:1", NULL);
  assert_int_equal(run.mm.metric[WM_M_TEX_REQ], 8);
  assert_int_equal(run.mm.metric[WM_M_TEX_SEC], 8);
  assert_int_equal(run.mm.metric[WM_M_TEX_HIT] + run.mm.metric[WM_M_TEX_MISS], 4);
  sim_run_free(&run);

  /* Linear filtering a quarter texel past those centres: the quad of row y
   * at x = 0..3 reads texels 0..4 of rows y and y+1 (bytes 0..19: pieces 0
   * and 1), the one at x = 4..7 texels 4..8 (bytes 16..35: pieces 1 and 2).
   * Rows y, y+1 lie in one row pair for y = 0, 2 and in two for y = 1, 3:
   * per column of quads 2 + 4 + 2 + 4 = 12 sectors, 24 for the two. */
  tu_launch(&run, mod, "fetch2d", "1,1", "8,4", 0, "tex:f32:256x64:linear:clamp", "buf:f32:128:zero", "f32:0.75",
            "f32:1", "f32:0.75", "f32:1", NULL);
  assert_int_equal(run.mm.metric[WM_M_TEX_SEC], 24);
  sim_run_free(&run);

  /* the stencil: 1024 warps x 5 fetches, each warp a row of 32 texels */
  tu_launch(&run, mod, "stencil5", "8,16", "32,8", 0, "tex:f32:256x128:point:clamp", "buf:f32:32768:zero", "i32:256",
            "i32:128", NULL);
  assert_int_equal(run.mm.metric[WM_M_TEX_REQ], 5 * 1024 * 8);
  sim_run_free(&run);
}

/* Textures in linear memory (:mem).  1D: tex1Dfetch reads 0 out of range.
 * 2D (Pitch2D): the same texels as an array's, laid out row by row, so a
 * warp walking down a column (a quad: 4 rows of one column) touches 4
 * sectors per quad where the array's tiles put two rows in each 32-byte
 * sector (2 per quad): 32 against 16 sectors for 8 quads. */
static void test_linear_memory(void **state) {
  (void)state;
  SimRun run, arr;
  tu_launch(&run, mod, "fetch1d_int", "1", "64", 0, "tex:i32:40:mem:iota", "buf:i32:64:zero", "i32:-8", NULL);
  const int32_t *got = tu_arg_buf(&run, 1, 4, 64);
  for (int i = 0; i < 64; i++) assert_int_equal(got[i], i >= 8 && i < 48 ? i - 8 : 0);
  /* one request per 8 lanes with a texel in range, as the H100 counts
   * tex1Dfetch on linear memory (lanes 8..47: 5 groups), and the 160 bytes
   * of texels 0..39 from an aligned buffer: 5 sectors */
  assert_int_equal(run.mm.metric[WM_M_TEX_REQ], 5);
  assert_int_equal(run.mm.metric[WM_M_TEX_SEC], 5);
  sim_run_free(&run);

  tu_launch(&run, mod, "fetch2d", "1,1", "1,32", 0, "tex:f32:256x64:point:clamp:mem:iota", "buf:f32:128:zero",
            "f32:0.5", "f32:1", "f32:0.5", "f32:1", NULL);
  tu_launch(&arr, mod, "fetch2d", "1,1", "1,32", 0, "tex:f32:256x64:point:clamp:iota", "buf:f32:128:zero", "f32:0.5",
            "f32:1", "f32:0.5", "f32:1", NULL);
  const float *a = tu_arg_buf(&run, 1, 4, 128), *b = tu_arg_buf(&arr, 1, 4, 128);
  for (int y = 0; y < 32; y++) {
    assert_true(a[4 * y] == (float)(y * 256)); /* texel (0, y) of the iota: y * W */
    assert_true(a[4 * y] == b[4 * y]);
  }
  assert_int_equal(run.mm.metric[WM_M_TEX_REQ], 8);
  assert_int_equal(run.mm.metric[WM_M_TEX_SEC], 32);
  assert_int_equal(arr.mm.metric[WM_M_TEX_SEC], 16);
  sim_run_free(&run);
  sim_run_free(&arr);
}

/* The tiled layout is a bijection onto the storage. */
static void test_layout(void **state) {
  (void)state;
  GTex t = {.dims = 2, .type = PTX_T_F32, .nchan = 1, .texel = 4, .w = 40, .h = 20, .d = 1};
  uint64_t bytes = gtex_storage_bytes(&t);
  assert_int_equal(bytes, 3 * 3 * 512); /* 160 bytes -> 3 GOBs across, 20 rows -> 3 down */
  uint8_t *seen = calloc(bytes / 4, 1);
  for (uint32_t y = 0; y < 20; y++)
    for (uint32_t x = 0; x < 40; x++) {
      uint64_t o = gtex_offset(&t, x, y, 0);
      assert_true(o % 4 == 0 && o < bytes);
      assert_int_equal(seen[o / 4], 0);
      seen[o / 4] = 1;
    }
  free(seen);
  /* x = 4 is byte 16: the second 16-byte piece, in sector 1; row 1 is the
   * second half of that sector */
  assert_int_equal(gtex_offset(&t, 4, 1, 0), 32 + 16);
  /* row 8 starts the second GOB row: after 3 GOBs of 512 bytes */
  assert_int_equal(gtex_offset(&t, 0, 8, 0), 3 * 512);
}

/* ---- instructions nvcc emits rarely: txq, tex.level/.grad, .a1d, sust.p,
 * suld.clamp (written as PTX) ---------------------------------------------- */

static const char *const probe_ptx =
  ".version 8.0\n.target sm_90\n.address_size 64\n"
  ".visible .entry q(.param .u64 t, .param .u64 s, .param .u64 out) {\n"
  "  .reg .b32 %r<20>;\n  .reg .b64 %rd<5>;\n  .reg .f32 %f<20>;\n"
  "  ld.param.u64 %rd1, [t];\n  ld.param.u64 %rd2, [s];\n  ld.param.u64 %rd3, [out];\n"
  "  cvta.to.global.u64 %rd3, %rd3;\n"
  "  txq.width.b32 %r1, [%rd1];\n  st.global.u32 [%rd3], %r1;\n"
  "  txq.height.b32 %r1, [%rd1];\n  st.global.u32 [%rd3+4], %r1;\n"
  "  txq.array_size.b32 %r1, [%rd1];\n  st.global.u32 [%rd3+8], %r1;\n"
  "  txq.normalized_coords.b32 %r1, [%rd1];\n  st.global.u32 [%rd3+12], %r1;\n"
  "  txq.filter_mode.b32 %r1, [%rd1];\n  st.global.u32 [%rd3+16], %r1;\n"
  "  txq.channel_data_type.b32 %r1, [%rd1];\n  st.global.u32 [%rd3+20], %r1;\n"
  "  txq.addr_mode_0.b32 %r1, [%rd1];\n  st.global.u32 [%rd3+24], %r1;\n"
  "  mov.f32 %f1, 0f3F000000;\n  mov.u32 %r8, 1;\n"
  "  tex.level.a1d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [%rd1, {%r8, %f1}], 0f40000000;\n"
  "  st.global.f32 [%rd3+32], %f2;\n  st.global.f32 [%rd3+48], %f5;\n"
  "  tex.grad.a1d.v4.f32.f32 {%f6, %f7, %f8, %f9}, [%rd1, {%r8, %f1}], {%f1}, {%f1};\n"
  "  st.global.f32 [%rd3+36], %f6;\n"
  "  mov.f32 %f10, 0f3FC00000;\n  mov.u32 %r9, 28;\n  mov.u32 %r11, 400;\n"
  "  sust.p.1d.v2.f32.trap [%rd2, {%r9}], {%f10, %f10};\n"
  "  suld.b.1d.b32.clamp {%r10}, [%rd2, {%r11}];\n  st.global.u32 [%rd3+40], %r10;\n"
  "  suld.b.1d.b32.zero {%r12}, [%rd2, {%r11}];\n  st.global.u32 [%rd3+44], %r12;\n"
  "  ret;\n}\n";

static void test_txq_level_grad_sust_p(void **state) {
  (void)state;
  char *path = tu_temp_file(".ptx", probe_ptx);
  PtxModule *m = tu_load(path);
  SimRun run;
  tu_launch(&run, m, "q", "1", "1", 0, "tex:f32:8x2:point:layered:norm:iota", "surf:f16x2:8:zero",
            "buf:u32:16:zero", NULL);
  const uint32_t *o = tu_arg_buf(&run, 2, 4, 16);
  assert_int_equal(o[0], 8);      /* width */
  assert_int_equal(o[1], 1);      /* height of a 1D texture */
  assert_int_equal(o[2], 2);      /* layers */
  assert_int_equal(o[3], 1);      /* normalized coordinates */
  assert_int_equal(o[4], 0);      /* point filtering */
  assert_int_equal(o[5], 0x10DE); /* OpenCL's CL_FLOAT, as the PTX ISA defines txq's answer */
  assert_int_equal(o[6], 1);      /* cudaAddressModeClamp */
  float f;
  memcpy(&f, &o[8], 4);
  assert_true(f == 12.0f);        /* layer 1, u = 0.5 of 8 texels: texel 4, element 8 + 4 */
  memcpy(&f, &o[12], 4);
  assert_true(f == 1.0f);         /* the missing fourth channel */
  memcpy(&f, &o[9], 4);
  assert_true(f == 12.0f);        /* tex.grad reads level 0 as well */
  assert_int_equal(o[10], 0x3E003E00u); /* sust.p wrote 1.5 as two f16; .clamp read the last texel */
  assert_int_equal(o[11], 0);     /* .zero: out of range reads 0 */
  sim_run_free(&run);
  ptx_module_free(m);
  unlink(path);
  free(path);
}

/* What warpmem says of a kernel whose body is `body`: the module's error or
 * the kernel's refusal (malloc'd). */
static char *verdict(const char *body) {
  char text[2048];
  snprintf(text, sizeof text,
           ".version 8.0\n.target sm_90\n.address_size 64\n%s"
           ".visible .entry k(.param .u64 t) {\n  .reg .b32 %%r<9>;\n  .reg .b64 %%rd<3>;\n"
           "  .reg .f32 %%f<9>;\n  ld.param.u64 %%rd1, [t];\n%s  ret;\n}\n",
           strstr(body, ".texref") ? body : "", strstr(body, ".texref") ? "" : body);
  WmErr e = {0};
  PtxModule *m = ptx_parse("t.ptx", strdup(text), &e);
  if (!m) return strdup(e.msg);
  const PtxKernel *k = ptx_find_kernel(m, "k", &e);
  char *msg = strdup(k ? "accepted" : e.msg);
  ptx_module_free(m);
  return msg;
}

static void expect_verdict(const char *body, const char *word) {
  char *msg = verdict(body);
  if (!strstr(msg, word)) fail_msg("%s: want '%s' in: %s", body, word, msg);
  if (!strstr(msg, "t.ptx:") || !strstr(msg, "^")) fail_msg("not located: %s", msg);
  free(msg);
}

static void test_refusals(void **state) {
  (void)state;
  expect_verdict(".global .texref tex0;\n", "removed in CUDA 12");
  expect_verdict("  tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%f5, %f6}];\n", "removed in CUDA 12");
  expect_verdict("  tex.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];\n", "needs a geometry");
  expect_verdict("  tex.2dms.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r5, %r6, %r7, %r8}];\n",
                 ".2dms textures are not supported");
  expect_verdict("  tex.cube.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r5, %r6, %r7, %r8}];\n",
                 "a cubemap's coordinates are a .f32 direction");
  expect_verdict("  suld.b.cube.b32.trap {%r1}, [%rd1, {%r2, %r3, %r4, %r5}];\n", ".cube and .acube are for tex only");
  expect_verdict("  tex.acube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%r5, %f6, %f7}];\n", "takes 4 coordinates");
  expect_verdict("  tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5}];\n", "takes 2 coordinates");
  expect_verdict("  tld4.r.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5}];\n", "tld4 is .2d or .a2d");
  expect_verdict("  suld.b.2d.b32.trap {%r1}, [%rd1, {%r2}];\n", "takes 2 coordinates");
  expect_verdict("  suld.b.2d.f32.trap {%f1}, [%rd1, {%r2, %r3}];\n", "surface data is .b8");
  expect_verdict("  sust.b.1d.v2.b32.trap [%rd1, {%r2}], {%r3};\n", "has 1 elements, instruction has 2");
  char *ok = verdict("  tex.3d.v4.s32.f32 {%r1, %r2, %r3, %r4}, [%rd1, {%f5, %f6, %f7, %f7}];\n");
  assert_string_equal(ok, "accepted");
  free(ok);
  ok = verdict("  tex.acube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%r5, %f6, %f7, %f8}];\n");
  assert_string_equal(ok, "accepted");
  free(ok);
}

/* A handle that names no object, or the wrong kind, is a located fault. */
static void test_bad_handle(void **state) {
  (void)state;
  LaunchSpec *ls = calloc(1, sizeof *ls);
  WmErr e = {0};
  snprintf(ls->name, sizeof ls->name, "surf_zero");
  snprintf(ls->label, sizeof ls->label, "surf_zero");
  ls->grid[0] = ls->grid[1] = ls->grid[2] = 1;
  ls->block[0] = 32, ls->block[1] = ls->block[2] = 1;
  ls->nargs = 1;
  assert_int_equal(launch_parse_arg("tex:u32:48", &ls->args[0], &e), 0);
  SimOptions o;
  sim_options_init(&o);
  SimRun run;
  assert_int_equal(sim_run_launch(mod, ls, &o, &run, &e), -1);
  if (!strstr(e.msg, "is not a surface object (it is a texture") || !strstr(e.msg, "suld.b.1d.b32.zero"))
    fail_msg("message: %s", e.msg);
  assert_int_equal(launch_parse_arg("u64:77", &ls->args[0], &e), 0);
  assert_int_equal(sim_run_launch(mod, ls, &o, &run, &e), -1);
  if (!strstr(e.msg, "handle 0x4d is not a surface object")) fail_msg("message: %s", e.msg);
  free(ls);
}

/* ---- spec errors -------------------------------------------------------- */

static void spec_bad(const char *spec, const char *word) {
  ArgSpec a;
  WmErr e = {0};
  if (launch_parse_arg(spec, &a, &e) == 0) fail_msg("accepted %s", spec);
  if (!strstr(e.msg, word)) fail_msg("%s: want '%s' in: %s", spec, word, e.msg);
}

static void test_spec_errors(void **state) {
  (void)state;
  spec_bad("tex:f64:16", "unknown channel format");
  spec_bad("tex:f32x3:16", "unknown channel format");
  spec_bad("tex:f32:16x0", "each 1..65536");
  spec_bad("tex:f32:16x16x16x2", "expected W, WxH or WxHxD");
  spec_bad("tex:f32:16:wrap", "normalized coordinates only");
  spec_bad("tex:u8:16:linear", "linear filtering needs float texels");
  spec_bad("tex:f32:16:normfloat", "normfloat reads 8- and 16-bit");
  spec_bad("tex:f32:16:point:linear", "contradicts or repeats");
  spec_bad("tex:f32:16:bogus", "unknown option 'bogus'");
  spec_bad("tex:u8:16:300", "unknown option '300'");
  spec_bad("surf:f32:16:linear", "a surface has none");
  spec_bad("tex:f32:16:layered", "a layered object is WxL");
  spec_bad("tex:f32:16x8:cube", "a cubemap is WxW");
  spec_bad("tex:f32:16x16x2:cube", "a cubemap is WxW");
  spec_bad("surf:f32:16x16:cube", "cubemap surfaces are not supported");
  spec_bad("tex:f32:16:mem:linear", "read by tex1Dfetch");
  spec_bad("tex:f32:16:mem:clamp", "read by tex1Dfetch");
  spec_bad("tex:f32:16x16x4:mem", "'mem' textures are 1D or 2D");
  spec_bad("surf:f32:16:mem", "a surface is always a CUDA array");
  spec_bad("tex:f32", "expected tex:CHANNELS");
  spec_bad("tex:f32:64x64:mipmaps", "mipmapped textures are not supported");
  ArgSpec a;
  WmErr e = {0};
  assert_int_equal(launch_parse_arg("tex:u8x4:640x480:linear:wrap:norm:normfloat:7", &a, &e), 0);
  assert_int_equal(a.kind, ARG_TEX);
  assert_int_equal(a.tex.nchan, 4);
  assert_int_equal(a.tex.w, 640);
  assert_int_equal(a.tex.h, 480);
  assert_int_equal(a.tex.amode, GTEX_WRAP);
  assert_int_equal(a.init, INIT_CONST);
  assert_int_equal(a.bits, 7);
}

/* A located error for a //@ line with a bad texture spec. */
static void test_spec_error_located(void **state) {
  (void)state;
  const char *text = "//@ k grid=1 block=32 args=tex:f32:64x64:mirror\n";
  LaunchSpec *ls;
  int n;
  WmErr e = {0};
  assert_int_equal(launch_parse_file("x.cu", text, &ls, &n, &e), -1);
  if (!strstr(e.msg, "x.cu:1:") || !strstr(e.msg, "add :norm") || !strstr(e.msg, "^"))
    fail_msg("message: %s", e.msg);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_stencil5),
    cmocka_unit_test(test_resize),
    cmocka_unit_test(test_lut1d_wrap),
    cmocka_unit_test(test_volume3d_border),
    cmocka_unit_test(test_gather),
    cmocka_unit_test(test_surface_rmw),
    cmocka_unit_test(test_nine_bit_weights),
    cmocka_unit_test(test_mirror_normalized_rgba),
    cmocka_unit_test(test_integer_fetch_border),
    cmocka_unit_test(test_layered),
    cmocka_unit_test(test_surface_bounds),
    cmocka_unit_test(test_counters_first_principles),
    cmocka_unit_test(test_layout),
    cmocka_unit_test(test_txq_level_grad_sust_p),
    cmocka_unit_test(test_refusals),
    cmocka_unit_test(test_bad_handle),
    cmocka_unit_test(test_cube_faces),
    cmocka_unit_test(test_cube_layered),
    cmocka_unit_test(test_linear_memory),
    cmocka_unit_test(test_spec_errors),
    cmocka_unit_test(test_spec_error_located),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
