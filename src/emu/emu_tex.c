/* emu_tex.c - textures and surfaces: tex, tld4, txq, suld, sust on the
 * objects of GlobalMem.tex (texture and surface objects passed as 64-bit
 * kernel arguments), and their texels' place in memory.
 *
 * Notes:
 * - Fetching follows the CUDA C++ Programming Guide's "Texture Fetching"
 *   appendix: with normalized coordinates x = N * u; point sampling reads
 *   T[floor(x)]; linear filtering reads T[i] and T[i+1] (per dimension)
 *   with i = floor(x - 0.5) and weight alpha = frac(x - 0.5) held in 9-bit
 *   fixed point with 8 fractional bits.  The guide gives the format, not
 *   the rounding: we round to the nearest 1/256 (so 1.0 is reachable,
 *   which is why the format has a ninth bit).  The weighted sum is then
 *   computed in f32, corner by corner in the guide's order.
 * - Address modes: clamp to the edge, border (texels outside read as 0),
 *   wrap and mirror (normalized coordinates only; the spec parser refuses
 *   them otherwise, as cudaCreateTextureObject ignores them).  Point
 *   sampling transforms the coordinate as the guide says; linear filtering
 *   applies the mode to each texel index i and i+1.
 * - Integer (.s32) coordinates index texels directly (tex1Dfetch): no
 *   normalization, no filtering, the address mode on the index.
 * - Missing channels read as 0, and the fourth as 1 (1.0f for float
 *   results): the Direct3D convention, which NVIDIA's texture units follow.
 * - Objects have one mip level: tex.level and tex.grad read level 0 (what
 *   CUDA does for a texture without mipmaps); warpmem cannot make a
 *   mipmapped one.
 * - Surfaces address x in bytes (surf2Dread(&v, s, x * 4, y)); out of range
 *   .trap is a located fault, .clamp reads the edge texel, .zero reads 0 and
 *   drops stores.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "emu/emu_exec.h"
#include "util/half.h"

/* ---- where texels live ----------------------------------------------------
 *
 * CUDA arrays are stored block-linear, not row-major: the image is cut into
 * GOBs ("groups of bytes") of 64 bytes x 8 rows = 512 bytes, and inside a
 * GOB 16-byte pieces of two rows share a 32-byte sector.  We take the GOB
 * swizzle that the Tegra X1 TRM describes and open-source drivers use:
 *   offset = ((x%64)/32)*256 + ((y%8)/2)*64 + ((x%32)/16)*32 + (y%2)*16 + x%16
 * (x in bytes), with GOBs in row-major order (block height 1) and slices or
 * layers one after another.  The exact swizzle and block heights of a
 * discrete GPU's CUDA arrays are undocumented; what matters for the
 * counters is that a warp's 2D-local footprint falls in few sectors (an
 * 8x4 block of f32 texels: 4 sectors; a row of 32 f32 texels: 8, where
 * row-major would take 4).  1D objects are stored linearly. */

static uint32_t gobs_across(const GTex *t) { return (t->w * t->texel + 63) / 64; }
static uint32_t gobs_down(const GTex *t) { return (t->h + 7) / 8; }
static uint32_t slices(const GTex *t) { return t->layered ? t->layers : t->d; }

uint64_t gtex_storage_bytes(const GTex *t) {
  if (t->pitched) return t->dims == 1 ? (uint64_t)t->w * t->texel : t->pitch * t->h;
  if (t->dims == 1) return (uint64_t)t->w * t->texel * (t->layered ? t->layers : 1);
  return (uint64_t)gobs_across(t) * gobs_down(t) * slices(t) * 512;
}

uint64_t gtex_offset(const GTex *t, uint32_t x, uint32_t y, uint32_t z) {
  uint64_t xb = (uint64_t)x * t->texel;
  if (t->pitched) return (uint64_t)y * t->pitch + xb; /* 1D: y is 0 */
  if (t->dims == 1) return ((uint64_t)y * t->w) * t->texel + xb; /* y: the layer */
  uint64_t gob = ((uint64_t)z * gobs_down(t) + y / 8) * gobs_across(t) + xb / 64;
  return gob * 512 + ((xb % 64) / 32) * 256 + ((y % 8) / 2) * 64 + ((xb % 32) / 16) * 32 + (y % 2) * 16 + xb % 16;
}

/* ---- the object of a lane ---------------------------------------------- */

/* The host copy of texel 0 (a pitched object may start inside its buffer). */
static uint8_t *texels_of(Block *b, const GTex *t) {
  const GBuf *g = &b->l->gmem->buf[t->buf];
  return g->data + (t->addr - g->addr);
}

/* The texture (surface: 1) of lane l's handle, or NULL after a fault. */
static const GTex *object_of(Block *b, const EmuInstr *x, int warp, int l, uint64_t h, int surface) {
  const GTex *t = gmem_tex(b->l->gmem, h);
  if (!t || t->surface != surface) {
    const GTex *o = t;
    emu_fault(b, x, warp, l, WM_EFAULT, "handle 0x%" PRIx64 " is not a %s object%s", h,
              surface ? "surface" : "texture",
              o ? (surface ? " (it is a texture: pass a surf: argument)" : " (it is a surface: pass a tex: argument)")
                : " (pass a tex: or surf: argument)");
    return NULL;
  }
  if (t->buf < 0)
    return emu_fault(b, x, warp, l, WM_EFAULT, "%s object 0x%" PRIx64 ": its texels' buffer at 0x%" PRIx64
                     " was freed (cudaFree) before this access", surface ? "surface" : "texture", h, t->addr), NULL;
  return t;
}

/* The object all active lanes name (kernels pass one handle per
 * instruction; a warp mixing them is refused), or NULL after a fault. */
static const GTex *warp_object(Block *b, const EmuInstr *x, int warp, uint32_t mask, const uint64_t *R, int surface) {
  const uint64_t *h = R + (size_t)x->abase * 32;
  int first = __builtin_ctz(mask);
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    if (h[l] != h[first])
      return emu_fault(b, x, warp, l, WM_EUNSUP, "lanes of one warp name different texture or surface objects "
                       "(0x%" PRIx64 " and 0x%" PRIx64 ")", h[first], h[l]), NULL;
  }
  return object_of(b, x, warp, first, h[first], surface);
}

/* ---- texel values ---------------------------------------------------------- */

/* Channel c of the texel at p as the fetch returns it: a float (float
 * textures, and integers read as normalized floats) in f, else the
 * integer's bits in u. */
static void channel(const GTex *t, const uint8_t *p, unsigned c, float *f, uint32_t *u) {
  switch (t->type) {
  case PTX_T_F32: memcpy(f, p + 4 * c, 4); return;
  case PTX_T_F16: {
    uint16_t h;
    memcpy(&h, p + 2 * c, 2);
    *f = wm_f16_value(h);
    return;
  }
  case PTX_T_U8: *u = p[c]; *f = (float)*u / 255.0f; return;
  case PTX_T_S8: {
    int8_t v = (int8_t)p[c];
    *u = (uint32_t)(int32_t)v;
    *f = v == -128 ? -1.0f : (float)v / 127.0f;
    return;
  }
  case PTX_T_U16: {
    uint16_t v;
    memcpy(&v, p + 2 * c, 2);
    *u = v;
    *f = (float)v / 65535.0f;
    return;
  }
  case PTX_T_S16: {
    int16_t v;
    memcpy(&v, p + 2 * c, 2);
    *u = (uint32_t)(int32_t)v;
    *f = v == -32768 ? -1.0f : (float)v / 32767.0f;
    return;
  }
  default: memcpy(u, p + 4 * c, 4); return; /* S32, U32 */
  }
}

/* The four channels of a texel (p == NULL: a border texel, all 0). */
static void texel(const GTex *t, const uint8_t *p, float f[4], uint32_t u[4]) {
  f[0] = f[1] = f[2] = 0.0f, f[3] = 1.0f;
  u[0] = u[1] = u[2] = 0, u[3] = 1;
  if (!p) {
    f[3] = 0.0f, u[3] = 0;
    return;
  }
  for (unsigned c = 0; c < t->nchan; c++) channel(t, p, c, &f[c], &u[c]);
}

/* Whether fetches return floats: float channels, or normalized integers. */
static int returns_float(const GTex *t) {
  return t->type == PTX_T_F32 || t->type == PTX_T_F16 || t->normfloat;
}

/* ---- addressing ------------------------------------------------------------ */

/* floor(v) as an integer, NaN as 0 and far-out values held at +-2^30 (the
 * address modes then treat them as out of range). */
static int32_t ifloor(float v) {
  if (!(v == v)) return 0;
  if (v < -1073741824.0f) return -1073741824;
  if (v > 1073741824.0f) return 1073741824;
  return (int32_t)floorf(v);
}

/* Texel index i in a dimension of n texels under the address mode, or -1
 * for a border texel. */
static int32_t address_index(int amode, int32_t i, int32_t n) {
  switch (amode) {
  case GTEX_WRAP: return ((i % n) + n) % n;
  case GTEX_MIRROR: {
    int32_t m = ((i % (2 * n)) + 2 * n) % (2 * n);
    return m < n ? m : 2 * n - 1 - m;
  }
  case GTEX_BORDER: return i < 0 || i >= n ? -1 : i;
  default: return i < 0 ? 0 : i >= n ? n - 1 : i;
  }
}

/* Point sampling: the texel index of float coordinate v (normalized when
 * the texture says so) in a dimension of n texels, or -1 (border). */
static int32_t point_index(const GTex *t, float v, int32_t n) {
  if (t->norm && (t->amode == GTEX_WRAP || t->amode == GTEX_MIRROR)) {
    float fl = floorf(v), fr = v - fl;
    if (!(v == v) || fl != fl) fr = 0.0f;
    if (t->amode == GTEX_MIRROR && ((int64_t)fmodf(fl, 2.0f) & 1)) fr = 1.0f - fr;
    int32_t i = ifloor(fr * (float)n);
    return i >= n ? n - 1 : i;
  }
  return address_index(t->amode, ifloor(t->norm ? v * (float)n : v), n);
}

/* Linear filtering in one dimension: the indices of the two texels
 * (-1: border) and the weight of the second, in 1/256ths (0..256). */
static void linear_taps(const GTex *t, float v, int32_t n, int32_t i[2], float *alpha) {
  float xb = (t->norm ? v * (float)n : v) - 0.5f;
  int32_t i0 = ifloor(xb);
  float fr = xb - floorf(xb);
  if (!(fr == fr)) fr = 0.0f;
  *alpha = floorf(fr * 256.0f + 0.5f) / 256.0f; /* 9-bit fixed point, 8 fractional bits */
  i[0] = address_index(t->amode, i0, n);
  i[1] = address_index(t->amode, i0 == INT32_MAX ? i0 : i0 + 1, n);
}

/* ---- one lane's fetch ---------------------------------------------------------- */

/* The texels one lane reads: up to 8, each its storage offset (or -1 for a
 * border texel) and its weight. */
typedef struct Taps {
  int n;
  int64_t off[8];
  float w[8];
} Taps;

/* The coordinates of lane l: the layer (layered objects) and x, y, z as
 * floats or integers (type2). */
typedef struct Coord {
  uint32_t layer;
  int is_int;
  float f[3];
  int32_t i[3];
} Coord;

/* A cubemap's direction (x, y, z) picks a face by its largest component m
 * and a point (s/m+1)/2, (t/m+1)/2 on it (CUDA Programming Guide, "Cubemap
 * Fetch"); ties go to x, then y. */
static void cube_coord(const GTex *t, const EmuInstr *x, const uint64_t *R, int l, Coord *c) {
  int k = 0;
  uint32_t cubemap = 0;
  if (t->cube == 2) {
    int32_t i = (int32_t)R[(size_t)x->s[k++] * 32 + l];
    uint32_t n = t->layers / 6;
    cubemap = i < 0 ? 0 : (uint32_t)i >= n ? n - 1 : (uint32_t)i;
  }
  float v[3];
  for (int d = 0; d < 3; d++) v[d] = F32(R[(size_t)x->s[k + d] * 32 + l]);
  float ax = fabsf(v[0]), ay = fabsf(v[1]), az = fabsf(v[2]), m, s, tt;
  int face;
  if (ax >= ay && ax >= az) face = v[0] < 0, m = ax, s = v[0] < 0 ? v[2] : -v[2], tt = -v[1];
  else if (ay >= az) face = 2 + (v[1] < 0), m = ay, s = v[0], tt = v[1] < 0 ? -v[2] : v[2];
  else face = 4 + (v[2] < 0), m = az, s = v[2] < 0 ? -v[0] : v[0], tt = -v[1];
  c->layer = cubemap * 6 + (uint32_t)face;
  c->f[0] = m > 0 ? (s / m + 1.0f) * 0.5f : 0.5f;
  c->f[1] = m > 0 ? (tt / m + 1.0f) * 0.5f : 0.5f;
}

static void lane_coord(const GTex *t, const EmuInstr *x, const uint64_t *R, int l, Coord *c) {
  int k = 0;
  memset(c, 0, sizeof *c);
  if (t->cube) {
    cube_coord(t, x, R, l, c);
    return;
  }
  if (t->layered) {
    int32_t layer = (int32_t)R[(size_t)x->s[k++] * 32 + l];
    c->layer = layer < 0 ? 0 : (uint32_t)layer >= t->layers ? t->layers - 1 : (uint32_t)layer;
  }
  c->is_int = x->type2 == PTX_T_S32;
  for (int d = 0; d < t->dims && k < x->ns; d++, k++) {
    uint64_t v = R[(size_t)x->s[k] * 32 + l];
    c->f[d] = F32(v);
    c->i[d] = (int32_t)v;
  }
}

static int64_t tap_offset(const GTex *t, const Coord *c, const int32_t idx[3]) {
  for (int d = 0; d < t->dims; d++)
    if (idx[d] < 0) return -1;
  if (t->dims == 1) return (int64_t)gtex_offset(t, (uint32_t)idx[0], c->layer, 0);
  return (int64_t)gtex_offset(t, (uint32_t)idx[0], (uint32_t)idx[1], t->dims == 3 ? (uint32_t)idx[2] : c->layer);
}

/* The taps of a point or linear fetch; a linear one's corner k has bit d
 * set for the second texel of dimension d (tld4 picks its four from them). */
static void lane_taps(const GTex *t, const Coord *c, int linear, Taps *tp) {
  const int32_t size[3] = {(int32_t)t->w, (int32_t)t->h, (int32_t)t->d};
  int32_t idx[3] = {0, 0, 0};
  if (!linear) {
    for (int d = 0; d < t->dims; d++)
      idx[d] = c->is_int ? address_index(t->amode == GTEX_BORDER ? GTEX_BORDER : GTEX_CLAMP, c->i[d], size[d])
                         : point_index(t, c->f[d], size[d]);
    tp->n = 1;
    tp->off[0] = tap_offset(t, c, idx);
    tp->w[0] = 1.0f;
    return;
  }
  int32_t ix[3][2];
  float a[3] = {0, 0, 0};
  for (int d = 0; d < t->dims; d++) linear_taps(t, c->f[d], size[d], ix[d], &a[d]);
  tp->n = 1 << t->dims;
  for (int k = 0; k < tp->n; k++) { /* corner k: bit d set = the second texel of dimension d */
    float w = 1.0f;
    for (int d = 0; d < t->dims; d++) {
      int hi = (k >> d) & 1;
      idx[d] = ix[d][hi];
      w = d == 0 ? (hi ? a[0] : 1.0f - a[0]) : w * (hi ? a[d] : 1.0f - a[d]);
    }
    tp->off[k] = tap_offset(t, c, idx);
    tp->w[k] = w;
  }
}

/* ---- the instructions -------------------------------------------------------- */

/* Hands a warp's texel addresses to the memory model. */
static void model_texels(Block *b, const EmuInstr *x, uint32_t mask, const uint64_t *addr, const uint8_t *lane,
                         uint32_t n, unsigned size, int op, const GTex *t) {
  if (!b->mm) return;
  /* lanes per request where the H100 differs from the op's usual (mem/texture.c) */
  uint8_t group = t->pitched && t->dims == 1 ? 8 : t->surface && t->layered ? 4 : 0;
  if (t->pitched && t->dims == 1) { /* linear memory: lanes out of range make no request */
    mask = 0;
    for (uint32_t i = 0; i < n; i++) mask |= 1u << lane[i];
  }
  MemTexReq r = {.op = (uint8_t)op, .size = (uint8_t)size, .n = n, .addr = addr, .lane = lane, .lanes = mask,
                 .instr = (int)(x - b->p->code), .warp = b->cur_warp, .group = group};
  mem_texture(b->mm, &r);
}

static const char *const geom_name[] = {"1d", "2d", "3d", "a1d", "a2d", "cube", "acube"};

/* The instruction's geometry (.1d ... .acube) is the object's, or a fault. */
static int check_geometry(Block *b, const EmuInstr *x, int warp, uint32_t mask, const GTex *t) {
  int g = x->sub - PTX_SUB_TEX_1D;
  if (g >= 5 ? t->cube == g - 4 : !t->cube && t->dims == (g >= 3 ? g - 2 : g + 1) && t->layered == (g >= 3)) return 0;
  return emu_fault(b, x, warp, __builtin_ctz(mask), WM_EFAULT, "a .%s access to a %s%s%s", geom_name[g],
                   t->cube == 2 ? "layered " : t->layered && !t->cube ? "layered " : "",
                   t->cube ? "cubemap" : t->dims == 1 ? "1D " : t->dims == 2 ? "2D " : "3D ",
                   t->cube ? "" : t->surface ? "surface" : "texture");
}

/* An integer result in its register: .s32 sign-extended. */
static uint64_t result_int(const EmuInstr *x, uint32_t u) {
  return x->type == PTX_T_S32 ? (uint64_t)(int64_t)(int32_t)u : u;
}

/* The result type must match what the texture returns. */
static int check_result(Block *b, const EmuInstr *x, int warp, uint32_t mask, const GTex *t) {
  int want_float = returns_float(t);
  if ((x->type == PTX_T_F32) != want_float)
    return emu_fault(b, x, warp, __builtin_ctz(mask), WM_EUNSUP,
                     "a .%s result from a texture of %s channels read as %s: use %s",
                     ptx_type_name((PtxType)x->type), ptx_type_name((PtxType)t->type),
                     want_float ? "floats" : "integers",
                     want_float ? "an .f32 result" : "an .s32/.u32 result, or :normfloat on the texture");
  return 0;
}

int emu_exec_tex(EMU_EXEC_ARGS) {
  const GTex *t = warp_object(b, x, warp, mask, R, 0);
  if (!t || check_result(b, x, warp, mask, t) || check_geometry(b, x, warp, mask, t)) return -1;
  const uint8_t *data = texels_of(b, t);
  int linear = t->filter == GTEX_LINEAR && x->type2 == PTX_T_F32;
  int isf = x->type == PTX_T_F32;
  uint64_t addr[256];
  uint8_t lane[256];
  uint32_t na = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    Coord c;
    Taps tp;
    lane_coord(t, x, R, l, &c);
    lane_taps(t, &c, linear, &tp);
    float acc[4] = {0, 0, 0, 0};
    uint32_t u[4] = {0, 0, 0, 0};
    for (int k = 0; k < tp.n; k++) {
      float f[4];
      texel(t, tp.off[k] < 0 ? NULL : data + tp.off[k], f, u);
      if (tp.off[k] >= 0) lane[na] = (uint8_t)l, addr[na++] = t->addr + (uint64_t)tp.off[k];
      for (int ch = 0; ch < 4; ch++) acc[ch] = k == 0 ? tp.w[0] * f[ch] : acc[ch] + tp.w[k] * f[ch];
    }
    for (int ch = 0; ch < 4; ch++)
      if (x->d[ch] != EMU_NOSLOT) R[(size_t)x->d[ch] * 32 + l] = isf ? B32(acc[ch]) : result_int(x, u[ch]);
  }
  model_texels(b, x, mask, addr, lane, na, t->texel, MEM_TEX_FETCH, t);
  return 0;
}

/* tld4: channel aux of the 2x2 footprint, counter-clockwise from the lower
 * left (PTX ISA): (i, j+1), (i+1, j+1), (i+1, j), (i, j). */
int emu_exec_tld4(EMU_EXEC_ARGS) {
  const GTex *t = warp_object(b, x, warp, mask, R, 0);
  if (!t || check_result(b, x, warp, mask, t) || check_geometry(b, x, warp, mask, t)) return -1;
  static const int corner[4] = {2, 3, 1, 0}; /* lane_taps' corner numbers: bit 0 = x+1, bit 1 = y+1 */
  const uint8_t *data = texels_of(b, t);
  int isf = x->type == PTX_T_F32;
  uint64_t addr[128];
  uint8_t lane[128];
  uint32_t na = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    Coord c;
    Taps tp;
    lane_coord(t, x, R, l, &c);
    lane_taps(t, &c, 1, &tp);
    for (int k = 0; k < 4; k++) {
      int64_t off = tp.off[corner[k]];
      float f[4];
      uint32_t u[4];
      texel(t, off < 0 ? NULL : data + off, f, u);
      if (off >= 0 && na < 128) lane[na] = (uint8_t)l, addr[na++] = t->addr + (uint64_t)off;
      if (x->d[k] != EMU_NOSLOT)
        R[(size_t)x->d[k] * 32 + l] = isf ? B32(f[x->aux]) : result_int(x, u[x->aux]);
    }
  }
  model_texels(b, x, mask, addr, lane, na, t->texel, MEM_TEX_FETCH, t);
  return 0;
}

/* OpenCL's channel types and orders, which txq returns (PTX ISA). */
static uint32_t cl_channel_type(const GTex *t) {
  switch (t->type) {
  case PTX_T_S8: return t->normfloat ? 0x10D0 : 0x10D7;
  case PTX_T_S16: return t->normfloat ? 0x10D1 : 0x10D8;
  case PTX_T_U8: return t->normfloat ? 0x10D2 : 0x10DA;
  case PTX_T_U16: return t->normfloat ? 0x10D3 : 0x10DB;
  case PTX_T_S32: return 0x10D9;
  case PTX_T_U32: return 0x10DC;
  case PTX_T_F16: return 0x10DD;
  default: return 0x10DE;
  }
}

int emu_exec_txq(EMU_EXEC_ARGS) {
  const uint64_t *h = R + (size_t)x->abase * 32;
  uint64_t *d = DST(0);
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    const GTex *t = gmem_tex(b->l->gmem, h[l]);
    if (!t) return object_of(b, x, warp, l, h[l], 0), -1;
    /* CUDA's address modes: wrap 0, clamp 1, mirror 2, border 3 */
    static const uint32_t cuda_amode[] = {[GTEX_CLAMP] = 1, [GTEX_WRAP] = 0, [GTEX_MIRROR] = 2, [GTEX_BORDER] = 3};
    uint32_t v = 0;
    switch (x->sub) {
    case PTX_SUB_TXQ_WIDTH: v = t->w; break;
    case PTX_SUB_TXQ_HEIGHT: v = t->h; break;
    case PTX_SUB_TXQ_DEPTH: v = t->d; break;
    case PTX_SUB_TXQ_CHTYPE: v = cl_channel_type(t); break;
    case PTX_SUB_TXQ_CHORDER: v = t->nchan == 1 ? 0x10B0 : t->nchan == 2 ? 0x10B2 : 0x10B5; break;
    case PTX_SUB_TXQ_NORM: v = t->norm; break;
    case PTX_SUB_TXQ_FILTER: v = t->filter == GTEX_LINEAR; break;
    case PTX_SUB_TXQ_ADDR0:
    case PTX_SUB_TXQ_ADDR1:
    case PTX_SUB_TXQ_ADDR2: v = cuda_amode[t->amode]; break;
    case PTX_SUB_TXQ_ARRAY: v = t->layered ? t->layers : 0; break;
    case PTX_SUB_TXQ_MIPS: v = 1; break;
    default: v = 0; break; /* num_samples: not multisampled */
    }
    d[l] = v;
  }
  return 0;
}

/* ---- surfaces ------------------------------------------------------------------ */

/* Where lane l's surface access lies: its offset in the storage, or -1 for
 * an out-of-range access under .zero; -2 after a fault. */
static int64_t surface_offset(Block *b, const EmuInstr *x, int warp, int l, const GTex *t, const uint64_t *R,
                              unsigned size) {
  int32_t c[3] = {0, 0, 0};
  uint32_t layer = 0;
  int k = 0;
  if (t->layered) {
    int32_t v = (int32_t)R[(size_t)x->s[k++] * 32 + l];
    layer = v < 0 ? 0 : (uint32_t)v >= t->layers ? t->layers - 1 : (uint32_t)v;
  }
  for (int d = 0; d < t->dims && k < x->ns; d++) c[d] = (int32_t)R[(size_t)x->s[k++] * 32 + l];
  if (c[0] % (int32_t)size != 0)
    return emu_fault(b, x, warp, l, WM_EFAULT, "misaligned surface access of %u bytes at byte x = %d", size, c[0]), -2;
  int32_t xb = c[0], inner = xb % (int32_t)t->texel;
  int32_t idx[3] = {xb >= 0 ? xb / (int32_t)t->texel : -1, c[1], c[2]};
  const int32_t n[3] = {(int32_t)t->w, (int32_t)t->h, (int32_t)t->d};
  for (int d = 0; d < t->dims; d++) {
    if (idx[d] >= 0 && idx[d] < n[d]) continue;
    int mode = x->aux & 3;
    if (mode == PTX_SU_ZERO) return -1;
    if (mode == PTX_SU_TRAP)
      return emu_fault(b, x, warp, l, WM_EFAULT, "out-of-range surface %s at (x = %d bytes, y = %d, z = %d): "
                       "the surface is %u bytes x %u x %u (.trap)", x->op == PTX_OP_SUST ? "store" : "load",
                       c[0], c[1], c[2], t->w * t->texel, t->h, t->d), -2;
    idx[d] = idx[d] < 0 ? 0 : n[d] - 1; /* .clamp */
    if (d == 0) inner = xb < 0 ? 0 : inner;
  }
  if (t->dims == 1) return (int64_t)gtex_offset(t, (uint32_t)idx[0], layer, 0) + inner;
  return (int64_t)gtex_offset(t, (uint32_t)idx[0], (uint32_t)idx[1], t->dims == 3 ? (uint32_t)idx[2] : layer) + inner;
}

/* Checks an access of `size` bytes against the surface's texels. */
static const GTex *surface_for(Block *b, const EmuInstr *x, int warp, uint32_t mask, const uint64_t *R,
                               unsigned size) {
  const GTex *t = warp_object(b, x, warp, mask, R, 1);
  if (!t || check_geometry(b, x, warp, mask, t)) return NULL;
  if (size > t->texel)
    return emu_fault(b, x, warp, __builtin_ctz(mask), WM_EFAULT,
                     "a %u-byte surface access to a surface of %u-byte texels", size, t->texel), NULL;
  return t;
}

int emu_exec_suld(EMU_EXEC_ARGS) {
  unsigned elem = ptx_type_size((PtxType)x->type), size = elem * x->vec;
  const GTex *t = surface_for(b, x, warp, mask, R, size);
  if (!t) return -1;
  uint8_t *data = texels_of(b, t);
  uint64_t addr[32];
  uint8_t lane[32];
  uint32_t na = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    int64_t off = surface_offset(b, x, warp, l, t, R, size);
    if (off == -2) return -1;
    if (off >= 0) lane[na] = (uint8_t)l, addr[na++] = t->addr + (uint64_t)off;
    for (unsigned v = 0; v < x->vec; v++) {
      uint64_t val = 0;
      if (off >= 0) memcpy(&val, data + off + v * elem, elem);
      if (x->d[v] != EMU_NOSLOT) R[(size_t)x->d[v] * 32 + l] = val;
    }
  }
  model_texels(b, x, mask, addr, lane, na, size, MEM_SURF_LD, t);
  return 0;
}

/* sust.p: value v (of the instruction's type) in channel format t->type. */
static uint64_t formatted(const GTex *t, const EmuInstr *x, uint64_t v) {
  int src_float = x->type == PTX_T_F32;
  switch (t->type) {
  case PTX_T_F32: return src_float ? v : B32((float)(x->type == PTX_T_S32 ? (float)(int32_t)v : (float)(uint32_t)v));
  case PTX_T_F16: return wm_f16_from(src_float ? (double)F32(v) : (double)(int32_t)v, WM_RND_NEAREST);
  default: return v; /* integer channels keep the low bits */
  }
}

/* The values sust stores are in x->d[] (it has no destination; the
 * coordinates fill s[]): emu_prepare.c. */
int emu_exec_sust(EMU_EXEC_ARGS) {
  int packed = x->aux & PTX_SU_P;
  unsigned elem = packed ? 4 : ptx_type_size((PtxType)x->type);
  const GTex *t = warp_object(b, x, warp, mask, R, 1);
  if (!t) return -1;
  unsigned chan = ptx_type_size((PtxType)t->type);
  unsigned size = packed ? chan * x->vec : elem * x->vec;
  if (packed && x->vec > t->nchan)
    return emu_fault(b, x, warp, __builtin_ctz(mask), WM_EFAULT, "sust.p of %u values to a surface of %u channels",
                     x->vec, t->nchan);
  if (!surface_for(b, x, warp, mask, R, size)) return -1;
  uint8_t *data = texels_of(b, t);
  uint64_t addr[32];
  uint8_t lane[32];
  uint32_t na = 0;
  for (uint32_t m = mask; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    int64_t off = surface_offset(b, x, warp, l, t, R, packed ? t->texel : size);
    if (off == -2) return -1;
    if (off < 0) continue;
    lane[na] = (uint8_t)l, addr[na++] = t->addr + (uint64_t)off;
    for (unsigned v = 0; v < x->vec; v++) {
      uint64_t val = R[(size_t)x->d[v] * 32 + l];
      if (packed) {
        val = formatted(t, x, val);
        memcpy(data + off + v * chan, &val, chan);
      } else {
        memcpy(data + off + v * elem, &val, elem);
      }
    }
  }
  model_texels(b, x, mask, addr, lane, na, size, MEM_SURF_ST, t);
  return 0;
}
